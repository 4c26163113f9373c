"""A live table's time limits by the game's own names for its kinds of steps, in one `timings` setting.

Tables stored before this kept two fixed settings, `pass_seconds` and `talk_seconds`, whatever their game; at a
live table they become `timings: {"pass": ..., "talk": ...}`, elsewhere they go (nothing read them), and back on
downgrade.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-27
"""

import json
from collections.abc import Callable

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

# The tables as this migration sees them (not the package's current schema, which later migrations change).
tables = sa.table("tables", sa.column("id", sa.String), sa.column("settings", sa.Text))
# The settings of revision 0002 and the names of the kinds of steps they timed.
FIXED = {"pass_seconds": "pass", "talk_seconds": "talk"}


def upgrade() -> None:
    rewrite_settings(to_timings)


def downgrade() -> None:
    rewrite_settings(from_timings)


def to_timings(settings: dict) -> dict:
    timings = {kind: settings.pop(name) for name, kind in FIXED.items() if name in settings}
    if not settings.get("live"):
        return settings
    return {**settings, "timings": {**timings, **settings.get("timings", {})}}


def from_timings(settings: dict) -> dict:
    timings = settings.pop("timings", {})
    return {**settings, **{name: timings[kind] for name, kind in FIXED.items() if kind in timings}}


def rewrite_settings(change: Callable[[dict], dict]) -> None:
    """Every table's stored settings (JSON) through `change`, read and written in Python (see 0002)."""
    conn = op.get_bind()
    rows = conn.execute(sa.select(tables.c.id, tables.c.settings)).all()
    changed = [{"table_id": row.id, "new": json.dumps(change(json.loads(row.settings)))} for row in rows]
    if changed:
        update = tables.update().where(tables.c.id == sa.bindparam("table_id")).values(settings=sa.bindparam("new"))
        conn.execute(update, changed)
