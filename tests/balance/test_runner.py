"""The runner: results in task order from every local backend, batches covering each task once, clear refusals."""

from __future__ import annotations

import pytest

from ninjatable.core import BadOptions
from ninjatable.runner import Backend, batches, run


@pytest.mark.parametrize(("count", "workers"), [(1, 2), (7, 2), (100, 3), (1000, 16)])
def test_batches_cover_every_task_once_in_order(count, workers):
    parts = batches(count, workers)
    assert [i for part in parts for i in part] == list(range(count))
    assert len(parts) <= workers * 4


def test_processes_give_the_results_in_task_order():
    seen = []
    assert run(abs, range(-30, 0), Backend(jobs=2), on_result=lambda i, r: seen.append(i)) == list(range(30, 0, -1))
    assert sorted(seen) == list(range(30))


@pytest.mark.parametrize(("backend", "message"), [
    (Backend("spark"), "unknown backend 'spark'; choose one of: local, ray"),
    (Backend(jobs=0), "--jobs must be a whole number of at least 1"),
    (Backend(address="10.0.0.1:6379"), "--address names a Ray cluster: use it with --backend ray"),
])
def test_bad_backends_are_refused(backend, message):
    with pytest.raises(BadOptions, match=message):
        backend.check()


def test_a_malformed_ray_address_is_refused():
    pytest.importorskip("ray")
    with pytest.raises(BadOptions, match="should be HOST:PORT"):
        Backend("ray", address="headnode").check()
