"""games.deadline_at and rooms (status, updated_at) indexes: what the sweep and retention read

The driver's sweep (every 3 s on every process with Redis) reads running games whose clock
ran out, ``deadline_at < now - grace``: without an index that was a scan of every running
game of all time. The hourly retention reads rooms by status and age (finished and closed
rooms to purge, lobbies and games nobody touched to close). Neither column changes on an
ordinary move (a deadline only when a phase's clock restarts), so the indexes add little to
a move's write (docs/deploy.md, "Abandoned rooms").

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-07 08:30:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_games_deadline_at", "games", ["deadline_at"])
    op.create_index("ix_rooms_status_updated_at", "rooms", ["status", "updated_at"])


def downgrade() -> None:
    op.drop_index("ix_rooms_status_updated_at", table_name="rooms")
    op.drop_index("ix_games_deadline_at", table_name="games")
