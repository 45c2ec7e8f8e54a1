"""a bot may stand in for a member who is away, until they take their seat back

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-04 03:40:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("members", schema=None) as batch_op:
        batch_op.add_column(sa.Column("away_by", sa.String(length=8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("members", schema=None) as batch_op:
        batch_op.drop_column("away_by")
