"""Bots think off the event loop, in worker processes (or threads), so a searching bot never stalls a table.

Any free worker takes the next decision of any table. The bot travels with the state and comes back with its
answer: a bot may remember what it decided before (the search bot remembers the positions it left, so that it
never walks a cycle), and its table keeps it between decisions. A search bot's memory is a few tens of KB.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import zlib
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor

from ..core import State
from ..core.bot import Bot


def _decide(bot: Bot, state: State, seat: int) -> tuple[int, Bot]:
    return bot.choose(state, seat), bot


def _warm() -> None:
    """Import the games and bots in a fresh worker before the first decision is asked of it."""
    from ..core import all_games

    all_games()


class BotPool:
    """`workers` processes (or threads) deciding for the bots of every table."""

    def __init__(self, workers: int = 2, kind: str = "process") -> None:
        if kind not in ("process", "thread"):
            raise ValueError(f"bot workers are processes or threads, not {kind!r}")
        self.kind = kind
        self.size = max(1, workers)
        self.executor: Executor
        if kind == "process":
            # forkserver: the workers do not inherit the server's event loop, sockets or threads.
            context = multiprocessing.get_context("forkserver")
            self.executor = ProcessPoolExecutor(self.size, mp_context=context, initializer=_warm)
        else:
            self.executor = ThreadPoolExecutor(self.size)

    async def decide(self, bot: Bot, state: State, seat: int) -> tuple[int, Bot]:
        """The bot's action for `seat` in `state` (a copy the caller will not change meanwhile), and the bot as it
        is after deciding (a copy, from a worker process)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor, _decide, bot, state, seat)

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)

    def __repr__(self) -> str:
        return f"<BotPool {self.size} {self.kind} workers>"


def bot_seed(table_seed: int, seat: int, spec: str) -> int:
    """The seed of a table's bot: fixed by the table, so a rebuilt table's bots start alike."""
    return zlib.crc32(f"{table_seed}:{seat}:{spec}".encode())
