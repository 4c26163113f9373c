"""The training example and the speed benchmark run (with tiny settings) and print what they promise."""

from __future__ import annotations

import importlib.util
import io
from pathlib import Path

import numpy as np
import pytest
from rich.console import Console

from ninjatable.core import all_games
from ninjatable.research import single_agent_env

ROOT = Path(__file__).resolve().parents[2]


def load_script(relative: str):
    spec = importlib.util.spec_from_file_location(Path(relative).stem, ROOT / relative)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.skipif(not all_games(), reason="no game registered")
def test_the_training_example_trains_and_reports_before_and_after(capsys):
    example = load_script("examples/train_reinforce.py")
    game = all_games()[0].id
    example.main(["--game", game, "--episodes", "12", "--eval", "4", "--batch", "4"])
    out = capsys.readouterr().out
    assert "before training: mean score" in out
    assert "after 12 games: mean score" in out
    assert "improvement:" in out


@pytest.mark.skipif(not all_games(), reason="no game registered")
def test_the_training_example_shows_its_progress_and_running_win_rate(monkeypatch):
    example = load_script("examples/train_reinforce.py")
    screen = io.StringIO()
    monkeypatch.setattr(example, "PROGRESS", Console(file=screen, force_terminal=True, width=120))
    example.main(["--game", all_games()[0].id, "--episodes", "8", "--eval", "2", "--batch", "4"])
    shown = screen.getvalue()
    assert "training" in shown and "8/8" in shown and "win rate" in shown and "(last 8 games)" in shown
    assert "before training" in shown and "after training" in shown


@pytest.mark.skipif(not all_games(), reason="no game registered")
def test_the_example_policy_learns_from_rewards():
    example = load_script("examples/train_reinforce.py")
    env = single_agent_env(all_games()[0].id, opponents="random")
    policy = example.LinearPolicy(env.observation_space.shape[0], env.action_space.n)
    observation, _ = env.reset(seed=0)
    mask = env.action_masks()
    untrained = policy.probabilities(observation, mask)
    # All weights zero: uniform over the legal actions, nothing on the illegal ones.
    np.testing.assert_allclose(untrained[mask], 1.0 / mask.sum())
    assert not untrained[~mask].any()
    example.train(env, policy, episodes=8, batch=4, lr=0.05, seed=1)
    assert np.abs(policy.weights).sum() > 0
    trained = policy.probabilities(observation, mask)
    assert not trained[~mask].any() and trained.sum() == pytest.approx(1.0)


def test_the_speed_benchmark_prints_a_row_per_game(capsys):
    bench = load_script("benchmarks/env_speed.py")
    bench.main(["--seconds", "0.01"])
    out = capsys.readouterr().out
    assert "PettingZoo AEC" in out and "engine" in out
    for game in all_games():
        assert f"ninjatable {game.id}" in out
