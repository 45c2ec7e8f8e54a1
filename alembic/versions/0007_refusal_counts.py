"""refused actions are counted per sender, and only a sample of them is kept

Every refused move used to be stored whole for a week: one player refused 6,120 moves of
16 KiB in 10 seconds (98.8 MiB). Now ``refusal_counts`` counts them per game and sender, and
``refused_actions`` keeps the first few of each sender and game, with the sender's member id
(docs/admin.md, "Refused actions").

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-07 08:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("refused_actions", schema=None) as batch_op:
        batch_op.add_column(sa.Column("member_id", sa.Integer(), nullable=True))
    op.create_table(
        "refusal_counts",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("sender", sa.Integer(), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("first_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "sender", name="uq_refusal_counts_game_sender"),
    )


def downgrade() -> None:
    op.drop_table("refusal_counts")
    with op.batch_alter_table("refused_actions", schema=None) as batch_op:
        batch_op.drop_column("member_id")
