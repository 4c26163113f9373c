"""Bots think off the event loop, in worker processes (or threads), so a searching bot never stalls a table.

The workers are shared fairly between tables. Each table's decisions wait in a queue of their own, the pool hands
the workers no more decisions than they can work on at once (two each), and the tables take turns: a worker that
frees takes the next decision of a table that had nothing waiting (first come, first served) or else of the next
table in turn. A
table whose bots search for seconds thus delays another table's decision by at most two of its own decisions per
worker, however many it has waiting.

The bot travels with the state and comes back with its answer: a bot may remember what it decided before (the
search bot remembers the positions it left, so that it never walks a cycle), and its table keeps it between
decisions. A search bot's memory is a few tens of KB.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import multiprocessing.connection
import os
import signal
import threading
import zlib
from collections import Counter, OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from functools import partial
from multiprocessing.connection import Connection
from typing import Any, TypeVar

from ..core import State
from ..core.bot import Bot

T = TypeVar("T")
log = logging.getLogger("ninjatable.server")


def _decide(bot: Bot, state: State, seat: int) -> tuple[int, Bot]:
    return bot.choose(state, seat), bot


def _warm(stop: Connection) -> None:
    """Set a fresh worker to end with the server or the pool, then import the games and bots before the first
    decision is asked of it."""
    # A stop signal sent to the whole process group (Ctrl+C in a terminal, a service manager stopping the
    # service) would kill a worker in mid-decision while the server is still storing moves; the workers end
    # with the pool or the server instead (below).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    parent = multiprocessing.parent_process()
    handles: list[object] = [stop] if parent is None else [parent.sentinel, stop]
    _exit_when_readable(handles)
    from ..core import all_games

    all_games()


def _exit_when_readable(handles: list[object]) -> None:
    """End this process, from a daemon thread, as soon as one of `handles` is readable."""

    def watch() -> None:
        multiprocessing.connection.wait(handles)
        os._exit(0)

    # A worker waits for its next decision forever, even once the server is gone (killed, with no shutdown); and
    # it holds the forkserver's and the resource tracker's pipes open, so they would never end either. The parent's
    # sentinel turns readable when the server is gone, the stop pipe when the pool closes.
    threading.Thread(target=watch, name="ninjatable-worker-watch", daemon=True).start()


@dataclass(eq=False)
class _Job:
    """One piece of work asked of the pool (a bot's decision, or background work): waiting for a worker, or with
    one."""

    work: Callable[[], Any]  # picklable: it travels to a worker process
    owner: str
    answer: asyncio.Future[Any]
    background: bool = False
    executor: Executor | None = None  # the one it was handed to


PREFETCH = 2  # decisions handed to each worker at once (see BotPool.in_flight)


class BotPool:
    """`workers` processes (or threads) deciding for the bots of every table, shared fairly between tables.

    The pool serves one event loop: decide() and close() are called in it."""

    def __init__(self, workers: int = 2, kind: str = "process") -> None:
        if kind not in ("process", "thread"):
            raise ValueError(f"bot workers are processes or threads, not {kind!r}")
        self.kind = kind
        self.size = max(1, workers)
        # Decisions handed to the executor at once: one running and one ready behind it per worker, so that a
        # worker never idles while its next decision travels from the event loop; a table waits for at most that
        # many decisions of other tables.
        self.in_flight = PREFETCH * self.size
        # Each owner's waiting decisions, in one of two lines: `fresh`, the owners with nothing waiting or running
        # until now (first come, first served), go before `served`, the others, in turn.
        self.fresh: OrderedDict[str, deque[_Job]] = OrderedDict()
        self.served: OrderedDict[str, deque[_Job]] = OrderedDict()
        self.running_by_owner: Counter[str] = Counter()
        self.running = 0  # decisions and background work handed to the executor and not yet answered
        # Background work (post-game analyses) waits here; it goes to a worker only while no decision waits and a
        # worker is idle, and on at most `spare` workers at once: all but one (a table's bot then always finds a
        # worker free), or the only one, which a decision then waits for at most one piece of work.
        self.later: deque[_Job] = deque()
        self.spare = max(1, self.size - 1)
        self.background_running = 0
        self.closed = False
        self._stop: tuple[Connection, Connection] | None = None
        if kind == "process":
            # Every worker watches the reading end (see _warm); this pool holds the only writing end, and closes it.
            stop_reader, stop_writer = multiprocessing.Pipe(duplex=False)
            self._stop = (stop_reader, stop_writer)
        self.executor = self._new_executor()

    def _new_executor(self) -> Executor:
        if self._stop is None:
            return ThreadPoolExecutor(self.size)
        # forkserver: the workers do not inherit the server's event loop, sockets or threads.
        context = multiprocessing.get_context("forkserver")
        return ProcessPoolExecutor(self.size, mp_context=context, initializer=_warm, initargs=(self._stop[0],))

    def _replace_broken(self, broken: Executor) -> None:
        """A worker process died (killed, out of memory): the executor refuses all work from then on, so the
        pool starts a new one; the decisions the dead one held fail, the others go on."""
        if self.executor is broken and not self.closed:
            log.error("a bot worker process died; starting new workers")
            broken.shutdown(wait=False, cancel_futures=True)
            self.executor = self._new_executor()

    async def decide(self, bot: Bot, state: State, seat: int, owner: str = "") -> tuple[int, Bot]:
        """The bot's action for `seat` in `state` (a copy the caller will not change meanwhile), and the bot as it
        is after deciding (a copy, from a worker process); `owner` (a table id) is whose turn it waits for."""
        if self.closed:
            raise RuntimeError("the bot pool is closed")
        job = _Job(partial(_decide, bot, state, seat), owner, asyncio.get_running_loop().create_future())
        queue = self.fresh.get(owner) or self.served.get(owner)
        if queue is None:
            line = self.served if self.running_by_owner[owner] else self.fresh
            queue = line[owner] = deque()
        queue.append(job)
        self._start_waiting()
        try:
            return await job.answer
        except asyncio.CancelledError:
            self._withdraw(job)
            raise

    async def background(self, work: Callable[[], T]) -> T:
        """`work()` (a picklable callable) run in a worker that no bot needs (see `later`); in a worker process it
        ends with the pool."""
        if self.closed:
            raise RuntimeError("the bot pool is closed")
        job = _Job(work, "", asyncio.get_running_loop().create_future(), background=True)
        self.later.append(job)
        self._start_waiting()
        try:
            return await job.answer
        except asyncio.CancelledError:
            if job in self.later:
                self.later.remove(job)
            raise

    def _start_waiting(self) -> None:
        """Hand waiting decisions to the executor while a worker is free, one owner's turn at a time; then
        background work, if a worker is idle and no decision waits."""
        while not self.closed and self.running < self.in_flight and (job := self._next_job()) is not None:
            self._submit(job)
        # (No decision waits when a worker is idle: decisions go to the executor up to two a worker.)
        while not self.closed and self.later and self.running < self.size and self.background_running < self.spare:
            self._submit(self.later.popleft())

    def _submit(self, job: _Job) -> None:
        if job.answer.done():  # its caller was cancelled, and has not yet had the chance to withdraw it
            return
        try:
            try:
                work = self.executor.submit(job.work)
            except BrokenProcessPool:
                self._replace_broken(self.executor)
                work = self.executor.submit(job.work)
        except Exception as error:  # the executor is shut down, or broke again at once
            job.answer.set_exception(error)
            return
        job.executor = self.executor
        self.running += 1
        if job.background:
            self.background_running += 1
        else:
            self.running_by_owner[job.owner] += 1
        work.add_done_callback(partial(self._report, job))

    def _next_job(self) -> _Job | None:
        """The first waiting decision of the owner whose turn it is (who then waits for its next turn)."""
        line = self.fresh or self.served
        if not line:
            return None
        owner, queue = line.popitem(last=False)
        job = queue.popleft()
        if queue:
            self.served[owner] = queue
        return job

    def _report(self, job: _Job, work: Future[Any]) -> None:
        """Pass a finished decision from the executor's thread to the event loop."""
        try:
            job.answer.get_loop().call_soon_threadsafe(self._finished, job, work)
        except RuntimeError:
            pass  # the loop is closed: nobody waits for the answer any more

    def _finished(self, job: _Job, work: Future[Any]) -> None:
        """A worker is done with `job`: answer its caller, and give the worker the next waiting decision."""
        self.running -= 1
        if job.background:
            self.background_running -= 1
        else:
            self.running_by_owner[job.owner] -= 1
            if not self.running_by_owner[job.owner]:
                del self.running_by_owner[job.owner]
        if not work.cancelled() and isinstance(work.exception(), BrokenProcessPool):
            self._replace_broken(job.executor)
        if not job.answer.done():  # done: its caller was cancelled meanwhile, and the answer is dropped
            if work.cancelled():
                job.answer.cancel()
            elif (error := work.exception()) is not None:
                job.answer.set_exception(error)
            else:
                job.answer.set_result(work.result())
        self._start_waiting()

    def _withdraw(self, job: _Job) -> None:
        """Drop a decision whose caller was cancelled from its owner's queue, if no worker has taken it yet."""
        for line in (self.fresh, self.served):
            queue = line.get(job.owner)
            if queue is not None and job in queue:
                queue.remove(job)
                if not queue:
                    del line[job.owner]

    def close(self) -> None:
        """Stop deciding: waiting decisions are cancelled, and worker processes end now, even in mid-search (a
        worker thread ends once its decision is made)."""
        self.closed = True
        for line in (self.fresh, self.served):
            for queue in line.values():
                for job in queue:
                    job.answer.cancel()
            line.clear()
        for job in self.later:
            job.answer.cancel()
        self.later.clear()
        self.executor.shutdown(wait=False, cancel_futures=True)
        if self._stop is not None:
            # Without this, a worker in mid-search would go on until its search ends, or until this process does.
            for end in self._stop:
                end.close()

    def __repr__(self) -> str:
        return f"<BotPool {self.size} {self.kind} workers>"


def bot_seed(table_seed: int, seat: int, spec: str) -> int:
    """The seed of a table's bot: fixed by the table, so a rebuilt table's bots start alike."""
    return zlib.crc32(f"{table_seed}:{seat}:{spec}".encode())
