"""Online tables: an HTTP and WebSocket service hosting tables of every game, with storage and bots.

Needs the `web` extra (`pip install 'ninjatable[web]'`). `create_app(db_url)` builds the application;
`ninjatable serve` runs it. docs/server.md describes the protocol.
"""

from .app import UVICORN_SETTINGS, create_app
from .config import default_database_url

__all__ = ["UVICORN_SETTINGS", "create_app", "default_database_url"]
