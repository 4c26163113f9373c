"""Device cookies: the browsers that logged in as an account, so that their login attempts count against their own
device rather than the account's name.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-28
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "devices",
        sa.Column("id_hash", sa.String(64), primary_key=True),  # SHA-256 of the device cookie's random id
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_index("devices_by_account", "devices", ["account_id"])


def downgrade() -> None:
    op.drop_index("devices_by_account", table_name="devices")
    op.drop_table("devices")
