"""Ray as a backend: simulate, arena and balance give the same figures on a local Ray of two CPUs as with --jobs 2."""

from __future__ import annotations

import pytest

ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'ninjatable[ray]'); it has no wheel for "
                                        "every platform")

from ninjatable.arena import run_arena
from ninjatable.balance import run_balance
from ninjatable.core import get_game
from ninjatable.runner import Backend, run
from ninjatable.simulate import simulate

RAY = Backend("ray")
JOBS = Backend(jobs=2)


@pytest.fixture(scope="module", autouse=True)
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield
    ray.shutdown()


def test_results_come_back_in_task_order_with_each_reported_once():
    seen = []
    assert run(abs, list(range(-20, 0)), RAY, on_result=lambda i, r: seen.append(i)) == list(range(20, 0, -1))
    assert sorted(seen) == list(range(20))


def test_simulate_on_ray_matches_two_processes():
    game = get_game("oboro")
    on_ray = simulate(game, 3, 8, seed=4, bots=["random"], backend=RAY).to_dict()
    assert on_ray == simulate(game, 3, 8, seed=4, bots=["random"], backend=JOBS).to_dict()


def test_arena_on_ray_matches_two_processes():
    on_ray = run_arena("gakko", 3, ["heuristic", "random"], games=6, seed=2, backend=RAY).to_dict()
    assert on_ray == run_arena("gakko", 3, ["heuristic", "random"], games=6, seed=2, backend=JOBS).to_dict()


def test_balance_on_ray_matches_two_processes():
    args = dict(bots=["random"], games=6, vary=["red8_arrow=false"], seed=9)
    assert run_balance("oboro", backend=RAY, **args).to_dict() == run_balance("oboro", backend=JOBS, **args).to_dict()


def test_the_commands_take_backend_ray():
    from typer.testing import CliRunner

    from ninjatable.cli import app

    runner = CliRunner()
    for command in (["simulate", "oboro", "-n", "4", "--bots", "random"],
                    ["arena", "gakko", "--players", "3", "--bots", "random,heuristic", "-n", "6"]):
        on_ray = runner.invoke(app, [*command, "--json", "--backend", "ray"])
        local = runner.invoke(app, [*command, "--json", "--jobs", "2"])
        assert on_ray.exit_code == 0, on_ray.output
        assert on_ray.stdout == local.stdout
