"""A table's visibility as a column, so the lobby lists public tables without reading the private ones.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-27
"""

import json

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

# The tables as this migration sees them (not the package's current schema, which later migrations change).
tables = sa.table("tables", sa.column("id", sa.String), sa.column("settings", sa.Text),
                  sa.column("public", sa.Boolean))


def upgrade() -> None:
    op.add_column("tables", sa.Column("public", sa.Boolean, nullable=False, server_default=sa.true()))
    mark_private_tables()
    op.create_index("tables_public_by_age", "tables", ["public", "created_at"])


def mark_private_tables() -> None:
    """Copy settings["public"] into the new column; every table is public unless its settings say otherwise."""
    # Read and written in Python rather than with JSON functions in SQL, which SQLite and PostgreSQL spell apart.
    conn = op.get_bind()
    private = [row.id for row in conn.execute(sa.select(tables.c.id, tables.c.settings)) if not is_public(row.settings)]
    if private:
        update = tables.update().where(tables.c.id == sa.bindparam("private_id")).values(public=False)
        conn.execute(update, [{"private_id": table_id} for table_id in private])


def is_public(settings: str) -> bool:
    """Whether a table's stored settings (JSON) make it public: yes unless they say "public": false."""
    return bool(json.loads(settings).get("public", True))


def downgrade() -> None:
    op.drop_index("tables_public_by_age", table_name="tables")
    # Dropped in place (SQLite 3.35+): rebuilding "tables" would delete its seats and moves by ON DELETE CASCADE.
    op.drop_column("tables", "public")
