"""a seat belongs to one member: unique lobby and game seats, the sender of each move

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-03 10:50:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

members = sa.table(
    "members",
    sa.column("id", sa.Integer),
    sa.column("room_id", sa.String),
    sa.column("seat", sa.Integer),
    sa.column("kicked", sa.Boolean),
)
games = sa.table("games", sa.column("id", sa.Integer), sa.column("seats", sa.JSON))
game_seats = sa.table(
    "game_seats", sa.column("game_id", sa.Integer), sa.column("seat", sa.Integer), sa.column("member_id", sa.Integer)
)


def upgrade() -> None:
    conn = op.get_bind()
    # lobby seats as the unique index wants them: kicked members hold none, and each room's
    # seats are 0..n-1 in their old order
    conn.execute(sa.update(members).where(members.c.kicked.is_(True)).values(seat=None))
    rows = conn.execute(
        sa.select(members.c.id, members.c.room_id)
        .where(members.c.seat.is_not(None))
        .order_by(members.c.room_id, members.c.seat, members.c.id)
    ).all()
    conn.execute(sa.update(members).values(seat=None))
    numbers: dict[str, int] = {}
    for member_id, room_id in rows:
        seat = numbers.get(room_id, 0)
        numbers[room_id] = seat + 1
        conn.execute(sa.update(members).where(members.c.id == member_id).values(seat=seat))
    with op.batch_alter_table("members", schema=None) as batch_op:
        batch_op.create_unique_constraint("uq_members_room_seat", ["room_id", "seat"])

    op.create_table(
        "game_seats",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["member_id"], ["members.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "seat", name="uq_game_seats_game_seat"),
        sa.UniqueConstraint("game_id", "member_id", name="uq_game_seats_game_member"),
    )
    kicked = {m for (m,) in conn.execute(sa.select(members.c.id).where(members.c.kicked.is_(True)))}
    for game_id, seats in conn.execute(sa.select(games.c.id, games.c.seats)).all():
        held: set[int] = set()
        for seat, entry in enumerate(seats or []):
            member_id = entry.get("member_id") if isinstance(entry, dict) else None
            if member_id in kicked or member_id in held:
                member_id = None
            if member_id is not None:
                held.add(member_id)
            conn.execute(sa.insert(game_seats).values(game_id=game_id, seat=seat, member_id=member_id))

    with op.batch_alter_table("moves", schema=None) as batch_op:
        batch_op.add_column(sa.Column("member_id", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("moves", schema=None) as batch_op:
        batch_op.drop_column("member_id")
    op.drop_table("game_seats")
    with op.batch_alter_table("members", schema=None) as batch_op:
        batch_op.drop_constraint("uq_members_room_seat", type_="unique")
