"""moves lose the (game_id, seat, ref) index: no query reads by it

A reconnecting client's repeated move is known by its ref from the game's cache, which
replays the log into memory (refs included); nothing looks a move up by its ref in the
database. The index would cost every move a third B-tree to update and its pages to write at
the commit: about a third of SQLite's CPU per move (docs/performance.md, D7).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-06 15:30:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("moves", schema=None) as batch_op:
        batch_op.drop_index("ix_moves_game_seat_ref")


def downgrade() -> None:
    with op.batch_alter_table("moves", schema=None) as batch_op:
        batch_op.create_index("ix_moves_game_seat_ref", ["game_id", "seat", "ref"], unique=False)
