"""The OpenSpiel bridge, checked with OpenSpiel's own random simulation test and its Python ISMCTS bot."""

from __future__ import annotations

import random

import numpy as np
import pytest
from blindbids import GAME as BLIND_BIDS
from research_configs import config_id, configurations

pyspiel = pytest.importorskip("pyspiel")

from ninjatable.core import BadOptions
from ninjatable.research import final_rewards
from ninjatable.research.openspiel import load_game, register_games, short_name

CONFIGS = configurations()
IDS = [config_id(c) for c in CONFIGS]


SIM_CASES = [(*c, "win") for c in CONFIGS] + [
    (game, game.default_players, {}, "score") for game in dict.fromkeys(c[0] for c in CONFIGS)
]


def usual_or_soak(config: tuple, id: str) -> object:
    """A game at its usual player count and options runs in `make test`; any other count or option value is a
    soak run (`make soak`, run by CI after `make test`)."""
    game, players, options = config[:3]
    usual = players == game.default_players and not options
    return pytest.param(*config, id=id, marks=() if usual else pytest.mark.soak)


# OpenSpiel's random simulation and the resampled worlds' check: each game's usual setting in `make test`, the rest
# in soak runs.
SIM_PARAMS = [usual_or_soak(c, f"{config_id(c[:3])}-{c[3]}") for c in SIM_CASES]


@pytest.mark.parametrize(("game", "players", "options", "reward"), SIM_PARAMS)
def test_openspiel_random_sim_test(game, players, options, reward):
    spiel_game = load_game(game, players=players, reward=reward, rng_seed=7, **options)
    # Serialization is off: OpenSpiel serializes a sampled-stochastic game with its C++ RNG state, which a
    # Python game cannot provide (see docs/research.md).
    pyspiel.random_sim_test(spiel_game, num_sims=1, serialize=False, verbose=False)


def test_every_registered_game_is_loadable_by_its_openspiel_name():
    names = register_games()
    for game, players, _ in configurations(with_options=False):
        if game is BLIND_BIDS:
            continue
        assert short_name(game) in names
        loaded = pyspiel.load_game(f"{short_name(game)}(players={players})")
        assert loaded.num_players() == players
        assert loaded.num_distinct_actions() == game.num_actions(players)
        assert loaded.observation_tensor_shape() == list(game.observation_shape(players))


def test_the_game_type_says_how_the_kernel_was_mapped():
    kind = load_game(BLIND_BIDS).get_type()
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert load_game(BLIND_BIDS, reward="score").get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM


def test_simultaneous_bids_are_taken_one_player_at_a_time_and_returns_come_at_the_end():
    spiel_game = load_game(BLIND_BIDS, players=3, reward="score", rng_seed=1)
    state = spiel_game.new_initial_state()
    single = BLIND_BIDS.labels(3)["single"]
    state.apply_action(single)
    order = []
    for _ in range(3):
        order.append(state.current_player())
        assert state.legal_actions(state.current_player())
        for other in range(3):
            if other != state.current_player():
                assert state.legal_actions(other) == []
        state.apply_action(state.legal_actions()[0])
    assert order == [0, 1, 2]
    while not state.is_terminal():
        assert state.returns() == [0.0, 0.0, 0.0]
        state.apply_action(state.legal_actions()[0])
    assert state.returns() == final_rewards(state._kernel(), "score")


def test_a_seed_gives_the_same_sequence_of_deals():
    first = load_game(BLIND_BIDS, rng_seed=5)
    second = load_game(BLIND_BIDS, rng_seed=5)
    deals = [[str(g.new_initial_state()) for _ in range(3)] for g in (first, second)]
    assert deals[0] == deals[1]
    assert len(set(deals[0])) > 1


def test_a_clone_keeps_its_own_copy_and_draws_no_new_deal():
    spiel_game = load_game(BLIND_BIDS, rng_seed=3)
    state = spiel_game.new_initial_state()
    clone = state.clone()
    assert str(clone) == str(state)
    assert "moves: " in str(state) and str(state).endswith("moves: ")
    clone.apply_action(clone.legal_actions()[0])
    assert str(clone) != str(state)
    assert state.history() == []
    # Cloning drew nothing from the game's seed stream: the next deal is the stream's second one.
    reference = load_game(BLIND_BIDS, rng_seed=3)
    assert str(reference.new_initial_state()) == str(state.clone().clone())
    assert str(spiel_game.new_initial_state()) == str(reference.new_initial_state())


@pytest.mark.parametrize(("game", "players", "options"),
                         [usual_or_soak(c, config_id(c)) for c in configurations(with_options=False)])
def test_resampled_worlds_look_the_same_to_the_player(game, players, options):
    spiel_game = load_game(game, players=players, rng_seed=11)
    state = spiel_game.new_initial_state()
    rng = random.Random(11)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    while not state.is_terminal():
        player = state.current_player()
        world = state.resample_from_infostate(player, sampler)
        assert world.current_player() == player
        assert world.legal_actions() == state.legal_actions()
        assert world.observation_string(player) == state.observation_string(player)
        np.testing.assert_array_equal(world.observation_tensor(player), state.observation_tensor(player))
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("game", [c[0] for c in configurations(with_options=False)][:1] + [BLIND_BIDS],
                         ids=lambda g: g.id)
def test_openspiel_python_ismcts_bot_plays_a_legal_move(game):
    from open_spiel.python.algorithms import ismcts, mcts

    spiel_game = load_game(game, rng_seed=0)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(spiel_game, evaluator, uct_c=2.0, max_simulations=20, use_observation_string=True,
                           random_state=np.random.RandomState(0))
    state = spiel_game.new_initial_state()
    for _ in range(3):
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)


@pytest.mark.parametrize("game", [c[0] for c in configurations(with_options=False)][:1] + [BLIND_BIDS],
                         ids=lambda g: g.id)
def test_openspiel_rl_environment_runs_an_episode_on_the_observation_tensor(game):
    from open_spiel.python import rl_environment

    spiel_game = load_game(game, reward="score", rng_seed=2)
    environment = rl_environment.Environment(spiel_game)
    step = environment.reset()
    rng = random.Random(2)
    while not step.last():
        player = step.observations["current_player"]
        assert len(step.observations["info_state"][player]) == spiel_game.observation_tensor_size()
        step = environment.step([rng.choice(step.observations["legal_actions"][player])])
    assert step.rewards == environment.get_state.returns()


def test_bad_parameters_are_refused_with_what_is_allowed():
    with pytest.raises(BadOptions, match="2, 3 players"):
        load_game(BLIND_BIDS, players=9)
    with pytest.raises(BadOptions, match="score, win"):
        load_game(BLIND_BIDS, reward="rank")
    with pytest.raises(pyspiel.SpielError, match="Available parameters are"):
        load_game(BLIND_BIDS, colour="blue")
