"""Where many independent games run: in this process, in local worker processes (`--jobs`), or as Ray tasks.

simulate, arena and balance describe their games as a list of picklable tasks, each carrying its own seeds, and
hand them with a module-level function to `run`. Every backend returns the results in task order, so the same
tasks give the same figures wherever they were played. Tasks travel in batches: one worker call, or one Ray
task, plays several games, which keeps the overhead per game small.
"""

from __future__ import annotations

import math
import socket
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from multiprocessing import get_all_start_methods, get_context
from typing import Any, TypeVar

from .core import BadOptions

T = TypeVar("T")
R = TypeVar("R")

BACKENDS = ("local", "ray")
# Batches per worker: enough that a slow batch does not leave the others idle at the end, few enough that
# scheduling costs stay small against the games.
BATCHES_PER_WORKER = 4
RAY_INSTALL = "--backend ray needs Ray: pip install 'ninjatable[ray]'"
CONNECT_TIMEOUT = 5.0


@dataclass(frozen=True)
class Backend:
    """How to run the games: `local` with `jobs` processes, or `ray` (a local Ray with `jobs` CPUs when no
    `address` is given and `jobs` > 1, all of this machine's CPUs otherwise, or the cluster at `address`)."""

    kind: str = "local"
    jobs: int = 1
    address: str | None = None

    def check(self) -> Backend:
        """Raise BadOptions for a backend that cannot run: unknown kind, bad jobs, Ray missing or unreachable."""
        if self.kind not in BACKENDS:
            raise BadOptions(f"unknown backend {self.kind!r}; choose one of: {', '.join(BACKENDS)}")
        if isinstance(self.jobs, bool) or not isinstance(self.jobs, int) or self.jobs < 1:
            raise BadOptions(f"--jobs must be a whole number of at least 1, not {self.jobs!r}")
        if self.kind == "local" and self.address is not None:
            raise BadOptions("--address names a Ray cluster: use it with --backend ray")
        if self.kind == "ray":
            try:
                import ray  # noqa: F401
            except ImportError:
                raise BadOptions(RAY_INSTALL) from None
            if self.address is not None:
                check_reachable(self.address)
        return self

    @property
    def remote(self) -> bool:
        """Whether games may run on other machines (so files they write would land there)."""
        return self.kind == "ray" and self.address is not None


def check_reachable(address: str) -> None:
    """Fail fast on a Ray address nobody answers at (Ray itself would retry for a long while)."""
    if address == "auto":
        return
    hostport = address.removeprefix("ray://")
    host, sep, port = hostport.rpartition(":")
    if not sep or not host or not port.isdigit():
        raise BadOptions(f"--address {address!r} should be HOST:PORT, ray://HOST:PORT or auto")
    try:
        with socket.create_connection((host, int(port)), timeout=CONNECT_TIMEOUT):
            pass
    except OSError as e:
        raise BadOptions(f"cannot reach a Ray cluster at {address}: {e.strerror or e}") from None


def batches(count: int, workers: int) -> list[range]:
    """Split task indices 0..count-1 into consecutive batches, about BATCHES_PER_WORKER per worker."""
    if count == 0:
        return []
    size = max(1, math.ceil(count / (workers * BATCHES_PER_WORKER)))
    return [range(start, min(count, start + size)) for start in range(0, count, size)]


def play_batch(fn: Callable[[T], R], tasks: Sequence[T]) -> list[R]:
    """Run one batch of tasks in order (in a worker process or a Ray task)."""
    return [fn(task) for task in tasks]


def run(
    fn: Callable[[T], R],
    tasks: Sequence[T],
    backend: Backend | None = None,
    on_result: Callable[[int, R], None] | None = None,
) -> list[R]:
    """`[fn(t) for t in tasks]`, computed on `backend`; `on_result(index, result)` as each one is known.

    `fn` must be a module-level function (or a partial of one) and the tasks picklable, so that they can travel.
    """
    backend = (backend or Backend()).check()
    tasks = list(tasks)
    results: list[Any] = [None] * len(tasks)

    def done(index: int, result: R) -> None:
        results[index] = result
        if on_result is not None:
            on_result(index, result)

    if backend.kind == "ray":
        _run_ray(fn, tasks, backend, done)
    elif backend.jobs == 1 or len(tasks) <= 1:
        for i, task in enumerate(tasks):
            done(i, fn(task))
    else:
        _run_processes(fn, tasks, backend.jobs, done)
    return results


def _run_processes(fn, tasks, jobs: int, done) -> None:
    with ProcessPoolExecutor(max_workers=jobs, mp_context=_context()) as pool:
        futures = {pool.submit(play_batch, fn, [tasks[i] for i in batch]): batch for batch in batches(len(tasks), jobs)}
        for future in as_completed(futures):
            for i, result in zip(futures[future], future.result()):
                done(i, result)


def _context():
    """Fork where the system has it: workers start at once and need no `if __name__ == "__main__"` guard.

    Elsewhere spawned workers import the registered games afresh (a task names its game by id).
    """
    methods = get_all_start_methods()
    return get_context("fork" if "fork" in methods else "spawn")


def _run_ray(fn, tasks, backend: Backend, done) -> None:
    import ray

    started = False
    if not ray.is_initialized():
        cpus = backend.jobs if backend.address is None and backend.jobs > 1 else None
        try:
            ray.init(address=backend.address, num_cpus=cpus, include_dashboard=False, log_to_driver=False,
                     configure_logging=False)
        except (ConnectionError, RuntimeError, ValueError) as e:
            raise BadOptions(f"cannot start Ray{f' at {backend.address}' if backend.address else ''}: {e}") \
                from None
        started = True
    try:
        workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
        remote = ray.remote(play_batch)
        pending = {}
        for batch in batches(len(tasks), workers):
            pending[remote.remote(fn, [tasks[i] for i in batch])] = batch
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                for i, result in zip(pending.pop(ref), ray.get(ref)):
                    done(i, result)
    finally:
        if started:
            ray.shutdown()

