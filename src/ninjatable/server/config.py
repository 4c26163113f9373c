"""Where the server keeps its tables by default: an SQLite file in the user's data directory."""

from __future__ import annotations

from pathlib import Path

from platformdirs import user_data_dir


def default_database_url() -> str:
    """`sqlite:///<user data dir>/ninjatable/tables.db` (the folder is made on first start)."""
    path = Path(user_data_dir("ninjatable", appauthor=False)) / "tables.db"
    return f"sqlite:///{path}"
