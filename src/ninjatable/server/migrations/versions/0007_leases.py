"""Leases: which server process drives each table in play, until when (several processes on one database).

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-28
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "leases",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("owner", sa.String(32), nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_index("leases_by_owner", "leases", ["owner"])


def downgrade() -> None:
    op.drop_index("leases_by_owner", "leases")
    op.drop_table("leases")
