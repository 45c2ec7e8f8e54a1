"""rooms.code and rooms.code_open: join a room by a short code

Each room gets a six-character code people can read aloud and type on a phone
(server/rooms/codes.py); ``code_open`` says whether the host lets it admit people (on by
default). Rooms that exist already get a code here, so every room has one.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-07 09:00:00
"""

import secrets
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# as in server/rooms/codes.py (a migration keeps its own copy: it must not change later)
ALPHABET = "ACDEFGHJKMNPQRTUVWXY34679"
LENGTH = 6


def upgrade() -> None:
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.add_column(sa.Column("code", sa.String(length=8), nullable=True))
        batch_op.add_column(sa.Column("code_open", sa.Boolean(), nullable=False, server_default=sa.true()))
    conn = op.get_bind()
    taken: set[str] = set()
    for (room_id,) in conn.execute(sa.text("SELECT id FROM rooms")).all():
        code = ""
        while not code or code in taken:
            code = "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))
        taken.add(code)
        conn.execute(sa.text("UPDATE rooms SET code = :code WHERE id = :id"), {"code": code, "id": room_id})
    op.create_index("ix_rooms_code", "rooms", ["code"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_rooms_code", table_name="rooms")
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.drop_column("code_open")
        batch_op.drop_column("code")
