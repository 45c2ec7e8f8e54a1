"""The host's moderation: rooms.locked, members.muted and members.gone, and room_events

A locked room admits no newcomers (its members come back); a muted member's chat is refused;
``gone`` tells a member who left on their own ("left") from one the host removed
("removed") — members who went before this revision keep None, shown as "gone". Each of the
host's moderation steps, and each departure, writes a line to ``room_events``, the room's
audit log the admin reads (docs/admin.md, "Audit"); it is deleted with its room.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-07 09:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.add_column(sa.Column("locked", sa.Boolean(), nullable=False, server_default=sa.false()))
    with op.batch_alter_table("members", schema=None) as batch_op:
        batch_op.add_column(sa.Column("gone", sa.String(length=8), nullable=True))
        batch_op.add_column(sa.Column("muted", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_table(
        "room_events",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("room_id", sa.String(length=32), nullable=False),
        sa.Column("kind", sa.String(length=24), nullable=False),
        sa.Column("actor_id", sa.Integer(), nullable=True),
        sa.Column("actor", sa.String(length=32), nullable=True),
        sa.Column("target_id", sa.Integer(), nullable=True),
        sa.Column("target", sa.String(length=32), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_room_events_room_id", "room_events", ["room_id"])


def downgrade() -> None:
    op.drop_index("ix_room_events_room_id", table_name="room_events")
    op.drop_table("room_events")
    with op.batch_alter_table("members", schema=None) as batch_op:
        batch_op.drop_column("muted")
        batch_op.drop_column("gone")
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.drop_column("locked")
