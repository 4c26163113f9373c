"""The vector environment: each row plays exactly as its own single-agent environment would."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.vector import VectorEnv

from ninjatable.core import BadOptions
from ninjatable.research import single_agent_env, vector_env


def legal_choice(mask: np.ndarray, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


@pytest.mark.parametrize("game_id, players", [("dragon", 4), ("oboro", 3)])
def test_rows_match_single_environments_through_game_ends(game_id, players):
    envs = vector_env(game_id, players=players, num_envs=3, opponents="random")
    singles = [single_agent_env(game_id, players=players, opponents="random") for _ in range(3)]
    assert isinstance(envs, VectorEnv)
    obs, infos = envs.reset(seed=11)
    expected = [env.reset(seed=11 + i) for i, env in enumerate(singles)]
    for i, (o, info) in enumerate(expected):
        assert np.array_equal(obs[i], o) and np.array_equal(infos["action_mask"][i], info["action_mask"].astype(bool))
    rng = np.random.default_rng(3)
    finished = 0
    for _ in range(400):
        actions = [legal_choice(m, rng) for m in infos["action_mask"]]
        obs, rewards, terminated, truncated, infos = envs.step(actions)
        assert not truncated.any()
        for i, env in enumerate(singles):
            o, r, term, _, info = env.step(actions[i])
            assert rewards[i] == r and terminated[i] == term
            if term:
                finished += 1
                assert infos["_final_obs"][i] and np.array_equal(infos["final_obs"][i], o)
                o, info = env.reset()  # the vector restarts a finished game in the same step
            assert np.array_equal(obs[i], o)
            assert np.array_equal(infos["action_mask"][i], info["action_mask"].astype(bool))
    assert finished >= 3


def test_an_illegal_action_is_penalised_and_changes_nothing():
    envs = vector_env("dragon", players=4, num_envs=2, opponents="random", illegal_penalty=-2.0)
    obs, infos = envs.reset(seed=1)
    before = obs.copy()
    illegal = int(np.flatnonzero(~infos["action_mask"][0])[0])
    legal = int(np.flatnonzero(infos["action_mask"][1])[0])
    obs, rewards, terminated, _, infos = envs.step([illegal, legal])
    assert rewards[0] == -2.0 and "not allowed" in infos["illegal_action"][0]
    assert np.array_equal(obs[0], before[0]) and not terminated.any()


def test_bad_batches_are_refused():
    with pytest.raises(BadOptions, match="num_envs"):
        vector_env("dragon", num_envs=0)
    envs = vector_env("dragon", num_envs=2, opponents="random")
    with pytest.raises(RuntimeError, match="reset"):
        envs.step([0, 0])
    envs.reset(seed=0)
    with pytest.raises(BadOptions, match="one action per environment"):
        envs.step([0, 0, 0])
