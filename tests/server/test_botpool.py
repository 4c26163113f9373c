"""The bot pool: workers shared fairly between tables, cancelled decisions dropped, and no worker outliving its
server (closed, or killed)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures.process import BrokenProcessPool
from functools import partial

import pytest
from live import run_async

from ninjatable.bots import make_bot
from ninjatable.core import get_game
from ninjatable.server.botpool import BotPool


class FakeBot:
    """A Bot-like object that notes its name in `started` as it begins choosing, then waits for `release` or
    sleeps `seconds`, and chooses its seat (or raises `error`)."""

    def __init__(self, name: str, started: list[str], seconds: float = 0.0, release: threading.Event | None = None,
                 error: Exception | None = None) -> None:
        self.name = name
        self.started = started
        self.seconds = seconds
        self.release = release
        self.error = error

    def choose(self, state: object, seat: int) -> int:
        self.started.append(self.name)
        if self.release is not None:
            assert self.release.wait(20), "the test never released the bot"
        time.sleep(self.seconds)
        if self.error is not None:
            raise self.error
        return seat


def test_one_table_waiting_for_a_decision_goes_before_another_tables_many():
    async def scenario() -> list[str]:
        pool = BotPool(2, "thread")
        started: list[str] = []
        try:
            slow = [asyncio.create_task(pool.decide(FakeBot(f"A{i}", started, seconds=0.05), None, i, owner="A"))
                    for i in range(10)]
            await asyncio.sleep(0)  # every one of A's decisions is asked for: four go to the workers, six wait
            fast = asyncio.create_task(pool.decide(FakeBot("B", started), None, 9, owner="B"))
            answers = await asyncio.gather(*slow, fast)
        finally:
            pool.close()
        assert [action for action, _bot in answers] == [*range(10), 9]
        return started

    started = run_async(scenario(), timeout=30)
    # B waits only for the decisions already handed to the two workers (two each), not for A's six waiting ones.
    assert started.index("B") == 4, started
    assert sorted(started) == sorted([f"A{i}" for i in range(10)] + ["B"])


def test_background_work_leaves_a_worker_to_the_bots_and_waits_for_their_decisions():
    async def scenario() -> tuple[list[str], int, list[str]]:
        pool = BotPool(2, "thread")
        release = threading.Event()
        started: list[str] = []

        def work(name: str) -> str:
            started.append(name)
            assert release.wait(20), "the test never released the work"
            return name

        try:
            background = [asyncio.create_task(pool.background(partial(work, f"W{i}"))) for i in range(3)]
            await asyncio.sleep(0.2)
            at_once = len(started)  # one of the two workers: the other stays free for a bot
            # a decision asked now is made at once, while the background work still holds its worker
            action, _bot = await asyncio.wait_for(pool.decide(FakeBot("B", started), None, 3, owner="T"), 5)
            assert action == 3
            # decisions waiting go before background work that waits: W1 starts only after both are made
            gate = threading.Event()
            first = asyncio.create_task(pool.decide(FakeBot("C", started, release=gate), None, 1, owner="T"))
            second = asyncio.create_task(pool.decide(FakeBot("D", started), None, 2, owner="U"))
            release.set()
            await asyncio.sleep(0.1)
            gate.set()
            await asyncio.gather(first, second)
            done = await asyncio.gather(*background)
        finally:
            pool.close()
        return started, at_once, done

    started, at_once, done = run_async(scenario(), timeout=30)
    assert at_once == 1
    assert done == ["W0", "W1", "W2"]
    assert started.index("B") < started.index("W1")
    assert started.index("D") < started.index("W1") and started.index("C") < started.index("W1"), started


def test_a_waiting_decision_whose_caller_is_cancelled_is_never_made():
    async def scenario() -> list[str]:
        pool = BotPool(1, "thread")
        pool.in_flight = 1  # one decision with the worker at a time: the next waits in the pool
        started: list[str] = []
        release = threading.Event()
        try:
            first = asyncio.create_task(pool.decide(FakeBot("first", started, release=release), None, 0, owner="A"))
            dropped = asyncio.create_task(pool.decide(FakeBot("dropped", started), None, 1, owner="A"))
            await asyncio.sleep(0)  # both are asked for: the first is with the worker, the other waits
            dropped.cancel()
            with pytest.raises(asyncio.CancelledError):
                await dropped
            release.set()
            await first
            await pool.decide(FakeBot("last", started), None, 2, owner="A")
        finally:
            release.set()
            pool.close()
        return started

    assert run_async(scenario(), timeout=30) == ["first", "last"]


def test_a_decision_in_progress_whose_caller_is_cancelled_still_holds_its_worker():
    async def scenario() -> list[str]:
        pool = BotPool(1, "thread")
        pool.in_flight = 1  # one decision with the worker at a time: the next waits in the pool
        started: list[str] = []
        release = threading.Event()
        try:
            running = asyncio.create_task(pool.decide(FakeBot("running", started, release=release), None, 0, "A"))
            await asyncio.sleep(0)
            running.cancel()
            with pytest.raises(asyncio.CancelledError):
                await running
            # The worker is still busy, so the next decision waits in the pool, where cancelling it drops it.
            waiting = asyncio.create_task(pool.decide(FakeBot("waiting", started), None, 1, owner="B"))
            await asyncio.sleep(0)
            waiting.cancel()
            with pytest.raises(asyncio.CancelledError):
                await waiting
            release.set()
            assert (await pool.decide(FakeBot("last", started), None, 2, owner="B"))[0] == 2
        finally:
            release.set()
            pool.close()
        return started

    assert run_async(scenario(), timeout=30) == ["running", "last"]


def test_a_bots_exception_reaches_its_caller_and_the_pool_goes_on():
    async def scenario() -> None:
        pool = BotPool(1, "thread")
        started: list[str] = []
        try:
            with pytest.raises(ValueError, match="no move"):
                await pool.decide(FakeBot("failing", started, error=ValueError("no move")), None, 0, owner="A")
            assert (await pool.decide(FakeBot("next", started), None, 3, owner="A"))[0] == 3
        finally:
            pool.close()

    run_async(scenario(), timeout=30)


def test_closing_the_pool_cancels_the_waiting_decisions():
    async def scenario() -> None:
        pool = BotPool(1, "thread")
        started: list[str] = []
        release = threading.Event()
        try:
            first = asyncio.create_task(pool.decide(FakeBot("first", started, release=release), None, 0, owner="A"))
            waiting = asyncio.create_task(pool.decide(FakeBot("waiting", started), None, 1, owner="B"))
            await asyncio.sleep(0)
            pool.close()
            with pytest.raises(asyncio.CancelledError):
                await waiting
            release.set()
            await first
            with pytest.raises(RuntimeError, match="closed"):
                await pool.decide(FakeBot("late", started), None, 2, owner="A")
        finally:
            release.set()
            pool.close()
        assert started == ["first"]

    run_async(scenario(), timeout=30)


# --- worker processes --------------------------------------------------------------------------------------------

def running(pid: int) -> bool:
    """Whether `pid` is a live process; a zombie (ended, not yet reaped by the process that adopted it) is not."""
    if not os.path.isdir("/proc"):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def wait_until_ended(pids: list[int], seconds: float = 10.0) -> list[int]:
    """The processes of `pids` still running after up to `seconds`."""
    deadline = time.monotonic() + seconds
    while (alive := [pid for pid in pids if running(pid)]) and time.monotonic() < deadline:
        time.sleep(0.05)
    return alive


def kill_all(pids: list[int]) -> None:
    """Kill the processes of `pids` that a failed test left running."""
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


# A server that decides once for a bot in a worker process, says which processes serve its pool (read from the
# internals of multiprocessing), and is killed before it can shut anything down.
KILLED_SERVER = """
import asyncio, multiprocessing.forkserver, multiprocessing.resource_tracker, os, signal
from ninjatable.bots import make_bot
from ninjatable.core import get_game
from ninjatable.server.botpool import BotPool

async def decide_and_die():
    pool = BotPool(1, "process")
    state = get_game("dragon").new_state(4, seed=1)
    await pool.decide(make_bot("random"), state, state.to_move()[0], owner="t")
    helpers = [multiprocessing.forkserver._forkserver._forkserver_pid,
               multiprocessing.resource_tracker._resource_tracker._pid]
    print(*pool.executor._processes, flush=True)
    print(*helpers, flush=True)
    os.kill(os.getpid(), signal.SIGKILL)  # the pool is still open

if __name__ == "__main__":
    asyncio.run(decide_and_die())
"""


@pytest.mark.skipif(sys.platform == "win32", reason="forkserver workers and SIGKILL are POSIX")
def test_worker_processes_end_when_their_server_is_killed(tmp_path):
    # Files, not pipes: a process left behind would hold a pipe open, and reading it to the end would never end.
    out, err = tmp_path / "out", tmp_path / "err"
    with out.open("w") as stdout, err.open("w") as stderr:
        server = subprocess.run([sys.executable, "-c", KILLED_SERVER], stdout=stdout, stderr=stderr, timeout=60,
                                check=False)
    assert server.returncode == -signal.SIGKILL, err.read_text()
    workers, helpers = ([int(pid) for pid in line.split()] for line in out.read_text().splitlines())
    assert len(workers) == 1 and len(helpers) == 2, out.read_text()
    left_workers = wait_until_ended(workers)
    left_helpers = wait_until_ended(helpers)  # they end once no worker holds their pipes open
    kill_all(left_workers + left_helpers)
    assert left_workers == [] and left_helpers == []


@pytest.mark.skipif(sys.platform == "win32", reason="forkserver workers are POSIX")
def test_closing_the_pool_ends_a_worker_in_mid_search():
    async def scenario() -> list[int]:
        pool = BotPool(1, "process")
        state = get_game("dragon").new_state(4, seed=1)
        search = asyncio.create_task(pool.decide(make_bot("ismcts:ms=60000"), state, state.to_move()[0], "t"))
        await asyncio.sleep(0)
        workers = list(pool.executor._processes)  # spawned as the decision was handed over
        search.cancel()  # as the server does when it stops: its tables first, then the pool
        pool.close()
        with pytest.raises(asyncio.CancelledError):
            await search
        return workers

    workers = run_async(scenario(), timeout=30)
    assert len(workers) == 1
    left = wait_until_ended(workers)
    kill_all(left)
    assert left == []


@pytest.mark.skipif(sys.platform == "win32", reason="forkserver workers are POSIX")
def test_a_worker_process_that_dies_is_replaced_and_the_pool_goes_on():
    state = get_game("dragon").new_state(4, seed=1)
    seat = state.to_move()[0]

    async def scenario() -> int:
        pool = BotPool(1, "process")
        try:
            with pytest.raises(BrokenProcessPool):
                await pool.background(partial(os._exit, 3))  # as a worker killed for its memory would
            action, _bot = await pool.decide(make_bot("random"), state, seat, owner="t")
        finally:
            pool.close()
        return action

    assert run_async(scenario(), timeout=60) in state.legal_actions(seat)


@pytest.mark.skipif(sys.platform == "win32", reason="forkserver workers and signals are POSIX")
def test_a_stop_signal_to_the_whole_process_group_leaves_the_workers_to_end_with_the_server():
    # Ctrl+C, or a service manager stopping the service, signals every process of the group: a worker killed in
    # mid-decision would leave its table without a move while the server is still storing them.
    async def scenario() -> list[object]:
        pool = BotPool(1, "process")
        try:
            return [await pool.background(partial(signal.getsignal, s)) for s in (signal.SIGINT, signal.SIGTERM)]
        finally:
            pool.close()

    assert run_async(scenario(), timeout=60) == [signal.SIG_IGN, signal.SIG_IGN]
