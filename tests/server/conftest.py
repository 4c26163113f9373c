"""Fixtures for the server tests: a live server on SQLite always, and on PostgreSQL when NINJATABLE_TEST_PG is set.

The suite runs in importlib mode, which puts no test folder on sys.path, so this folder is added here.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from live import PG_ENV, LiveServer, drop_postgres, postgres_url

DATABASES = ["sqlite", "postgresql"]


def database_url(kind: str, tmp_path: Path) -> str:
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / 'tables.db'}"
    if not os.environ.get(PG_ENV):
        pytest.skip(f"PostgreSQL tests need {PG_ENV}=postgresql://user@host/db (a server that lets us create "
                    "databases); .ci/run sets it")
    return postgres_url()


@pytest.fixture(params=DATABASES)
def db_url(request, tmp_path):
    """A fresh database of each kind (PostgreSQL skipped without NINJATABLE_TEST_PG)."""
    url = database_url(request.param, tmp_path)
    yield url
    if request.param == "postgresql":
        drop_postgres(url)


@pytest.fixture
def sqlite_url(tmp_path):
    return database_url("sqlite", tmp_path)


@pytest.fixture
def server(sqlite_url):
    """A live server on a fresh SQLite file; bots think in a thread."""
    live = LiveServer(sqlite_url).start()
    yield live
    live.stop()


@pytest.fixture
def any_server(db_url):
    """A live server on each kind of database."""
    live = LiveServer(db_url).start()
    yield live
    live.stop()


@pytest.fixture
def server_with(sqlite_url):
    """Start a live server on a fresh SQLite file with the limits given (`server_with(spectators_per_table=2)`);
    it is stopped after the test."""
    started: list[LiveServer] = []

    def start(**limits) -> LiveServer:
        started.append(LiveServer(sqlite_url, **limits).start())
        return started[-1]

    yield start
    for live in started:
        live.stop()
