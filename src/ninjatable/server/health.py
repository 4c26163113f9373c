"""Whether this process can serve: the readiness probe's checks (`GET /readyz`).

Each check names a service the process needs and asks it something trivial. Today that is the database; a
process that shares its tables with others through Redis adds a check named "redis" here, beside it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import sqlalchemy as sa

from .store import Store

log = logging.getLogger("ninjatable.server")

CHECK_SECONDS = 2.0  # a service slower than this to answer a trivial question is not ready

Check = Callable[[], Awaitable[None]]  # raises if its service does not answer


class Readiness:
    """The checks of the readiness probe, by the name of the service each asks."""

    def __init__(self, checks: dict[str, Check]) -> None:
        self.checks = checks
        self._running: dict[str, asyncio.Future[None]] = {}
        self._failing: set[str] = set()

    async def failure(self) -> str | None:
        """What keeps the process from serving, as `service: what went wrong`, or None when every service
        answers."""
        for name in self.checks:
            error = await self._ask(name)
            self._note(name, error)
            if error is not None:
                return f"{name}: {said(error)}"
        return None

    async def _ask(self, name: str) -> BaseException | None:
        # Probes that come while a check is still waiting share its answer: a service that hangs holds one worker
        # thread, not one per probe.
        running = self._running.get(name)
        if running is None or running.done():
            running = self._running[name] = asyncio.ensure_future(self.checks[name]())
        try:
            await asyncio.wait_for(asyncio.shield(running), CHECK_SECONDS)
        except Exception as e:
            return e
        return None

    def _note(self, name: str, error: BaseException | None) -> None:
        """Log a service's readiness when it changes, with the whole error (probes come every few seconds: not a
        line each)."""
        if error is not None and name not in self._failing:
            self._failing.add(name)
            log.warning("not ready: %s did not answer: %s", name, error, extra={"check": name})
        elif error is None and name in self._failing:
            self._failing.discard(name)
            log.warning("ready again: %s answers", name, extra={"check": name})


def said(error: BaseException) -> str:
    """A check's failure as the probe tells it: its kind, never its details (a database's address, say), which go
    to the server's log."""
    if isinstance(error, TimeoutError):
        return f"no answer within {CHECK_SECONDS:g} s"
    return f"did not answer ({type(error).__name__}; the server's log has the details)"


def database_check(store: Store) -> Check:
    """A check that the store's database answers `SELECT 1`."""

    def select_one() -> None:
        if store.engine is None:
            raise RuntimeError("the store is not open")
        with store.engine.connect() as conn:
            conn.execute(sa.text("SELECT 1"))

    async def check() -> None:
        await asyncio.to_thread(select_one)

    return check
