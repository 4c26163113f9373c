"""Bots think off the event loop, in worker processes (or threads), so a searching bot never stalls a table.

Each table is served by one worker (chosen by its id), which keeps the table's bot objects between decisions:
a bot may remember what it decided before (the search bot remembers the positions it left, so that it never
walks a cycle), and only the state crosses the process boundary.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import zlib
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from ..bots import make_bot
from ..core import State
from ..core.bot import Bot

# The bots of the tables a worker serves, by (table, seat, spec); one dict per process (or, with threads,
# per pool), touched only by the worker that serves those tables.
_BOTS: dict[tuple[str, int, str], Bot] = {}


def _decide(table_id: str, seat: int, spec: str, seed: int, state: State) -> int:
    key = (table_id, seat, spec)
    bot = _BOTS.get(key)
    if bot is None:
        bot = _BOTS[key] = make_bot(spec, seed=seed)
    return bot.choose(state, seat)


def _forget(table_id: str) -> None:
    for key in [k for k in list(_BOTS) if k[0] == table_id]:
        _BOTS.pop(key, None)


def _warm() -> None:
    """Import the games and bots in a fresh worker before the first decision is asked of it."""
    from ..core import all_games

    all_games()


class BotPool:
    """`workers` single-worker executors; a table's decisions always go to the same one."""

    def __init__(self, workers: int = 2, kind: str = "process") -> None:
        if kind not in ("process", "thread"):
            raise ValueError(f"bot workers are processes or threads, not {kind!r}")
        self.kind = kind
        self.workers: list[Executor] = []
        for _ in range(max(1, workers)):
            if kind == "process":
                # forkserver: the workers do not inherit the server's event loop, sockets or threads.
                context = multiprocessing.get_context("forkserver")
                self.workers.append(ProcessPoolExecutor(max_workers=1, mp_context=context, initializer=_warm))
            else:
                self.workers.append(ThreadPoolExecutor(max_workers=1))

    def _worker(self, table_id: str) -> Executor:
        return self.workers[zlib.crc32(table_id.encode()) % len(self.workers)]

    async def decide(self, table_id: str, seat: int, spec: str, seed: int, state: State) -> int:
        """The bot's action for `seat` in `state` (a copy the caller will not change meanwhile)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._worker(table_id), _decide, table_id, seat, spec, seed, state)

    def forget(self, table_id: str) -> None:
        """Drop a finished table's bots."""
        self._worker(table_id).submit(_forget, table_id)

    async def warm_up(self) -> None:
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(loop.run_in_executor(w, _warm) for w in self.workers))

    def close(self) -> None:
        for worker in self.workers:
            worker.shutdown(wait=False, cancel_futures=True)

    def __repr__(self) -> str:
        return f"<BotPool {len(self.workers)} {self.kind} workers>"


def bot_seed(table_seed: int, seat: int, spec: str) -> Any:
    """The seed of a table's bot: fixed by the table, so a rebuilt table's bots start alike."""
    return zlib.crc32(f"{table_seed}:{seat}:{spec}".encode())
