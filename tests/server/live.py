"""A live table server for tests (uvicorn in a thread, on a free loopback port) and a scripted socket client."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any, Self

import httpx
import uvicorn
import websockets

from ninjatable.server import UVICORN_SETTINGS, create_app
from ninjatable.server.config import Limits

PG_ENV = "NINJATABLE_TEST_PG"


class LiveServer:
    """`create_app` served by uvicorn in a background thread; `url` and `ws_url` address it."""

    def __init__(self, db_url: str, bot_kind: str = "thread", bot_workers: int = 1, **limits: Any) -> None:
        self.db_url = db_url
        self.app = create_app(db_url, bot_workers=bot_workers, bot_kind=bot_kind, limits=Limits(**limits))
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        config = uvicorn.Config(self.app, lifespan="on", **UVICORN_SETTINGS)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def start(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.sock.close()

    @property
    def hub(self):
        return self.app.state.hub

    def http(self) -> httpx.Client:
        # Plain HTTP to this test server: no certificate bundle to load (loading it takes 70 ms a client).
        return httpx.Client(base_url=self.url, timeout=10, verify=False)

    def create(self, **body: Any) -> dict[str, Any]:
        with self.http() as http:
            answer = http.post("/api/tables", json=body)
        assert answer.status_code == 201, answer.text
        return answer.json()


class SocketClient:
    """One WebSocket client of a table: says hello, keeps every message it receives, acts by action id."""

    def __init__(self, server: LiveServer, table_id: str, token: str | None = None) -> None:
        self.url = f"{server.ws_url}/ws/tables/{table_id}"
        self.token = token
        self.messages: list[dict[str, Any]] = []
        self.ws = None
        self.closed = asyncio.Event()
        self._new = asyncio.Event()
        self._reader: asyncio.Task | None = None

    async def __aenter__(self) -> Self:
        await self.connect()
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.close()

    async def connect(self, hello: dict[str, Any] | None = None) -> None:
        self.ws = await websockets.connect(self.url, max_size=None)
        self._reader = asyncio.create_task(self._read())
        try:
            await self.send(hello if hello is not None else {"type": "hello", "token": self.token})
        except websockets.ConnectionClosed:
            pass  # refused before the hello arrived; the reader has the server's error

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            await asyncio.wait([self._reader], timeout=5)

    async def send(self, message: dict[str, Any] | str) -> None:
        await self.ws.send(message if isinstance(message, str) else json.dumps(message))

    async def act(self, action: int) -> None:
        await self.send({"type": "act", "action": action})

    async def _read(self) -> None:
        try:
            async for text in self.ws:
                self.messages.append(json.loads(text))
                self._new.set()
        except websockets.ConnectionClosed:
            pass
        finally:
            self.closed.set()
            self._new.set()

    async def wait_for(self, found: Callable[[dict[str, Any]], bool], timeout: float = 20.0,
                       since: int = 0) -> dict[str, Any]:
        """The first message from index `since` on for which `found` is true (waiting for it if need be)."""
        deadline = asyncio.get_running_loop().time() + timeout
        checked = since
        while True:
            for message in self.messages[checked:]:
                if found(message):
                    return message
            checked = max(checked, len(self.messages))
            if self.closed.is_set():
                raise AssertionError(f"the socket closed before the message came; last: {self.messages[-3:]}")
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                raise AssertionError(f"no such message within {timeout} s; last: {self.messages[-3:]}")
            self._new.clear()
            try:
                await asyncio.wait_for(self._new.wait(), left)
            except TimeoutError:
                pass

    def updates(self) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["type"] == "update"]

    def last_update(self) -> dict[str, Any]:
        return next(m for m in reversed(self.messages) if m["type"] == "update")

    def errors(self) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["type"] == "error"]


RETRIED = ("slow_down", "storage")  # errors that say "nothing changed, send a move again" (docs/server.md)
MAX_RETRIES = 40  # more than that is a server that never takes the move: the test fails, saying why


async def play_randomly(client: SocketClient, seed: int, stop: Callable[[], bool] | None = None) -> int:
    """Answer every decision of the client's seat with a random legal action until the game is over; a move the
    server ignored (too many messages) or could not store is chosen again."""
    import random

    rng = random.Random(seed)
    acted_at: tuple | None = None  # the version and draft the last move was chosen at
    seen = 0
    start = len(client.messages)  # errors from before this call (a client playing on) were answered then
    retries = 0

    def failure(what: str) -> AssertionError:
        updates = client.updates()
        seat = updates[-1]["seat"] if updates else "?"
        return AssertionError(f"seat {seat} (acted at version {acted_at}; errors it received: "
                              f"{client.errors()[-3:]}): {what}")

    while True:
        try:
            message = await client.wait_for(lambda m: m["type"] in ("update", "error", "welcome"), since=seen,
                                            timeout=60)
        except AssertionError as e:
            raise failure(str(e)) from None
        at = client.messages.index(message, seen)
        seen = at + 1
        if message["type"] == "welcome":  # attached again (its table moved): a move sent meanwhile may be lost
            acted_at = None
            continue
        if message["type"] == "error" and message["code"] in RETRIED and at >= start:
            # The move was ignored (too many refused moves: those sent on updates the table had moved past, where
            # seats act together, count against the rate limit) or not stored: choose again in a while.
            retries += 1
            if retries > MAX_RETRIES:
                raise failure(f"the server refused {retries} moves ({message['code']}) with no update between")
            await asyncio.sleep(0.25)
            acted_at = None
        if not client.updates():
            continue
        latest = client.last_update()
        if latest["status"] == "finished":
            return latest["version"]
        if stop is not None and stop():
            return latest["version"]
        # A step of a multi-step choice sent alone is a draft: the version stays, the draft grows.
        position = (latest["version"], tuple(latest.get("draft") or ()))
        if latest["legal"] and position != acted_at:
            if message["type"] == "update":
                retries = 0
            acted_at = position
            await client.act(rng.choice(latest["legal"])["id"])


def run_async(coroutine, timeout: float = 120.0):
    """Run a test's coroutine to the end in a thread of its own (the thread may hold another event loop:
    Playwright's, when browser tests share the process), failing after `timeout` seconds."""
    from concurrent.futures import ThreadPoolExecutor

    async def bounded():
        return await asyncio.wait_for(coroutine, timeout)

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, bounded()).result()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(db_url: str, port: int, log: Path, *options: str) -> subprocess.Popen:
    """`ninjatable serve` in a process of its own (with more `options`), once it answers; its stderr goes to
    `log`."""
    with log.open("a") as stderr:  # the child keeps its own copy of the file
        process = subprocess.Popen(
            [sys.executable, "-m", "ninjatable.cli", "serve", "--port", str(port), "--db", db_url,
             "--bot-workers", "1", *options],
            stdout=subprocess.DEVNULL, stderr=stderr,
        )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server stopped: {log.read_text()}")
        try:
            httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1, verify=False)  # plain HTTP
            return process
        except httpx.TransportError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("the server did not start within 60 s")


def stored_row(db_url: str, table_id: str):
    """The table as its server stored it (read on a store of its own: its server may be stopped)."""
    from ninjatable.server.store import Store

    async def load():
        store = Store(db_url)
        await store.open()
        try:
            return await store.load(table_id)
        finally:
            await store.close()

    return run_async(load())


def postgres_url() -> str | None:
    """A fresh PostgreSQL database for this test process, made on the server `NINJATABLE_TEST_PG` names."""
    base = os.environ.get(PG_ENV)
    if not base:
        return None
    import psycopg
    from sqlalchemy.engine import make_url

    url = make_url(base)
    name = f"ninjatable_test_{uuid.uuid4().hex[:12]}"
    admin = url.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return url.set(database=name).render_as_string(hide_password=False)


def drop_postgres(db_url: str) -> None:
    import psycopg
    from sqlalchemy.engine import make_url

    url = make_url(db_url)
    admin = url.set(drivername="postgresql", database=make_url(os.environ[PG_ENV]).database)
    with psycopg.connect(admin.render_as_string(hide_password=False), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{url.database}" WITH (FORCE)')
