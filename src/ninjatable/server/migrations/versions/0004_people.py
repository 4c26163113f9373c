"""People: accounts and their sessions, seats held by accounts (or kept for one after a rematch), rated tables,
ratings per game with their history, and the link between a finished table and its rematch.

Tables stored before keep working: their seats are guests' (no account), they are unrated, and a finished one
gets `finished_at` from the time it was last changed.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-28
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

# The tables as this migration sees them (not the package's current schema, which later migrations change).
tables = sa.table("tables", sa.column("status", sa.String), sa.column("updated_at", sa.Float),
                  sa.column("finished_at", sa.Float))
PLAYER = 220  # person:<account id> or bot:<spec> (a bot's spec is at most 200 characters)


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("name_key", sa.String(160), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_index("sessions_by_account", "sessions", ["account_id"])
    op.create_table(
        "ratings",
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("player", sa.String(PLAYER), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
    )
    op.create_table(
        "rating_history",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("player", sa.String(PLAYER), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("rating_history_by_player", "rating_history", ["player", "game", "at"])
    # Columns added in place: rebuilding "tables" (SQLite's way of changing a table) would delete every seat and
    # move through ON DELETE CASCADE. SQLite takes a REFERENCES clause on a new column whose default is NULL.
    for column in (sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()),
                   sa.Column("finished_at", sa.Float, nullable=True),
                   sa.Column("rated_at", sa.Float, nullable=True),
                   sa.Column("rematch_id", sa.String(32), nullable=True),
                   sa.Column("rematch_of", sa.String(32), nullable=True)):
        op.add_column("tables", column)
    for name in ("account_id", "offered_to"):
        add_account_column("seats", name)
    op.create_index("tables_to_rate", "tables", ["rated", "rated_at", "finished_at"])
    op.create_index("seats_by_account", "seats", ["account_id"])
    op.create_index("seats_by_offer", "seats", ["offered_to"])
    op.execute(tables.update().where(tables.c.status == "finished").values(finished_at=tables.c.updated_at))


def add_account_column(table: str, name: str) -> None:
    """A nullable column referring to an account, added in place (Alembic adds the reference apart from the column,
    which SQLite cannot do; it takes it within the column)."""
    if op.get_bind().dialect.name == "sqlite":
        op.execute(f"ALTER TABLE {table} ADD COLUMN {name} INTEGER REFERENCES accounts (id)")
    else:
        op.add_column(table, sa.Column(name, sa.Integer, sa.ForeignKey("accounts.id"), nullable=True))


def downgrade() -> None:
    for index, table in (("seats_by_offer", "seats"), ("seats_by_account", "seats"), ("tables_to_rate", "tables")):
        op.drop_index(index, table_name=table)
    for column in ("offered_to", "account_id"):
        op.drop_column("seats", column)
    for column in ("rematch_of", "rematch_id", "rated_at", "finished_at", "rated"):
        op.drop_column("tables", column)
    op.drop_index("rating_history_by_player", table_name="rating_history")
    for table in ("rating_history", "ratings", "sessions", "accounts"):
        op.drop_table(table)
