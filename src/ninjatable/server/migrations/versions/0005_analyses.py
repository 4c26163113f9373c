"""Post-game analyses: one stored per finished table, with the settings it was made with.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-28
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "analyses",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("worlds", sa.Integer, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("result", sa.Text, nullable=False),  # JSON: ninjatable.analysis.Analysis.to_dict()
        sa.Column("made_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("analyses")
