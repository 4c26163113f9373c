"""The Gymnasium single-agent environment: Gymnasium's own checker, then the documented behaviour."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from blindbids import GAME as BLIND_BIDS
from gymnasium.utils.env_checker import check_env
from research_configs import config_id, configurations

from ninjatable.bots import available_bots, make_bot
from ninjatable.core import BadOptions, IllegalAction, all_games, render_text
from ninjatable.research import single_agent_env

CONFIGS = configurations()
IDS = [config_id(c) for c in CONFIGS]
PLAIN = configurations(with_options=False)
PLAIN_IDS = [config_id(c) for c in PLAIN]


def first_and_last_seat(configs):
    return [(g, p, o, seat) for g, p, o in configs for seat in sorted({0, p - 1})]


# --- Gymnasium's own checker, as it is ---------------------------------------------------------------------
@pytest.mark.parametrize(("game", "players", "options", "seat"), first_and_last_seat(CONFIGS),
                         ids=[f"{config_id(c[:3])}-seat{c[3]}" for c in first_and_last_seat(CONFIGS)])
def test_gymnasium_check_env(game, players, options, seat):
    check_env(single_agent_env(game, seat=seat, opponents="random", players=players, render_mode="ansi", **options))


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.id)
def test_gymnasium_check_env_through_the_registry(game):
    made = gymnasium.make(f"ninjatable/{game.id}-v0", opponents="random", render_mode="ansi")
    check_env(made.unwrapped)  # with a spec, the checker also builds the env in every render mode
    made.close()


# --- the learner's seat ------------------------------------------------------------------------------------
def masked_random(env, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(env.action_masks())))


@pytest.mark.parametrize(("game", "players", "options"), PLAIN, ids=PLAIN_IDS)
def test_the_learner_only_sees_its_own_decisions_and_bots_play_the_rest(game, players, options):
    seat = players - 1
    env = single_agent_env(game, seat=seat, opponents="random", players=players)
    observation, info = env.reset(seed=9)
    rng = np.random.default_rng(9)
    terminated = False
    while not terminated:
        state = env.game_state
        assert seat in state.to_move()
        legal = state.legal_actions(seat)
        assert np.flatnonzero(env.action_masks()).tolist() == legal
        assert np.flatnonzero(info["action_mask"]).tolist() == legal
        np.testing.assert_array_equal(observation, state.observation(seat))
        observation, reward, terminated, truncated, info = env.step(masked_random(env, rng))
        assert truncated is False
        if not terminated:
            assert reward == 0.0
    assert env.game_state.is_over()
    assert reward == float(env.game_state.scores()[seat])
    assert not env.action_masks().any()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


@pytest.mark.parametrize(("game", "players", "options"), PLAIN, ids=PLAIN_IDS)
def test_the_win_reward_is_the_seats_share_of_the_win(game, players, options):
    env = single_agent_env(game, opponents="random", players=players, reward="win")
    rng = np.random.default_rng(4)
    env.reset(seed=4)
    terminated = False
    while not terminated:
        _, reward, terminated, _, _ = env.step(masked_random(env, rng))
    winners = env.game_state.winners()
    assert reward == (1.0 / len(winners) if 0 in winners else 0.0)


@pytest.mark.parametrize(("game", "players", "options"), PLAIN, ids=PLAIN_IDS)
def test_a_seeded_reset_replays_the_episode_bots_included(game, players, options):
    def episode(env, seed):
        env.reset(seed=seed) if seed is not None else env.reset()
        rng = np.random.default_rng(0)
        terminated = False
        while not terminated:
            _, reward, terminated, _, _ = env.step(masked_random(env, rng))
        return list(env.game_state.history), reward

    first = single_agent_env(game, opponents="random", players=players)
    second = single_agent_env(game, opponents="random", players=players)
    assert episode(first, 31) == episode(second, 31)
    assert episode(first, None) == episode(second, None)  # unseeded resets follow the seed


# --- illegal actions -------------------------------------------------------------------------------------------
def test_an_illegal_action_is_refused_with_a_penalty_and_the_game_goes_on():
    env = single_agent_env(BLIND_BIDS, opponents="random", illegal_penalty=-2.5)
    observation, _ = env.reset(seed=1)
    history = list(env.game_state.history)
    again, reward, terminated, truncated, info = env.step(0)  # a card, while the stake must be chosen
    assert (reward, terminated, truncated) == (-2.5, False, False)
    assert "may choose: single, double" in info["illegal_action"]
    np.testing.assert_array_equal(again, observation)
    assert env.game_state.history == history
    env.step(BLIND_BIDS.labels(2)["double"])
    assert env.game_state.stake == 2


def test_an_illegal_action_raises_when_asked_to():
    env = single_agent_env(BLIND_BIDS, opponents="random", illegal="raise")
    env.reset(seed=1)
    with pytest.raises(IllegalAction, match="may choose: single, double"):
        env.step(0)


# --- opponents and arguments -------------------------------------------------------------------------------------
def test_opponents_can_be_listed_per_seat_as_specs_or_bots():
    env = single_agent_env(BLIND_BIDS, seat=1, players=3, opponents=["random", make_bot("random", seed=3)])
    assert sorted(env.bots) == [0, 2]
    env.reset(seed=0)
    assert 1 in env.game_state.to_move()


def test_bad_arguments_are_refused_with_what_is_allowed():
    with pytest.raises(BadOptions, match="2 seats need one"):
        single_agent_env(BLIND_BIDS, players=3, opponents=["random"])
    with pytest.raises(BadOptions, match="the bots are"):
        single_agent_env(BLIND_BIDS, opponents="nobody")
    with pytest.raises(BadOptions, match="seats are 0 to 1"):
        single_agent_env(BLIND_BIDS, seat=2, opponents="random")
    with pytest.raises(BadOptions, match="penalty, raise"):
        single_agent_env(BLIND_BIDS, opponents="random", illegal="ignore")
    with pytest.raises(BadOptions, match="score, win"):
        single_agent_env(BLIND_BIDS, opponents="random", reward="rank")
    bot = make_bot("random")
    with pytest.raises(BadOptions, match="its own Bot"):
        single_agent_env(BLIND_BIDS, players=3, opponents=[bot, bot])


def test_ansi_render_is_the_learners_view():
    env = single_agent_env(BLIND_BIDS, seat=1, opponents="random", render_mode="ansi")
    env.reset(seed=0)
    assert env.render() == render_text(BLIND_BIDS, env.game_state.view(1))


@pytest.mark.skipif("heuristic" not in available_bots(), reason="the heuristic bots are not here yet")
@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.id)
def test_gymnasium_check_env_against_the_default_heuristic_opponents(game):
    if game.heuristic_bot is None:
        pytest.skip(f"{game.id} has no heuristic bot yet")
    # Bots are rebuilt from their specs at each reset, so a seeded reset replays even bots that keep state.
    check_env(single_agent_env(game.id))
