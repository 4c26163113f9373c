"""The PettingZoo environment: PettingZoo's own checkers, then the behaviour docs/research.md promises."""

from __future__ import annotations

import random

import numpy as np
import pytest
from blindbids import GAME as BLIND_BIDS
from pettingzoo.test import api_test, render_test, seed_test
from research_configs import config_id, configurations

from ninjatable.core import BadOptions, IllegalAction, get_game, render_text
from ninjatable.research import env

CONFIGS = configurations()
IDS = [config_id(c) for c in CONFIGS]
PLAIN = configurations(with_options=False)
PLAIN_IDS = [config_id(c) for c in PLAIN]


def random_action(observation: dict, rng: random.Random) -> int:
    return rng.choice(np.flatnonzero(observation["action_mask"]).tolist())


def play_to_end(aec, rng: random.Random, on_step=None) -> None:
    """Random legal moves for every agent until all agents have left."""
    for agent in aec.agent_iter():
        observation, _, terminated, truncated, _ = aec.last()
        action = None if terminated or truncated else random_action(observation, rng)
        if on_step is not None:
            on_step(agent, observation, action)
        aec.step(action)


# --- PettingZoo's own test suite, as it is -------------------------------------------------------------
@pytest.mark.parametrize(("game", "players", "options"), CONFIGS, ids=IDS)
def test_pettingzoo_api_test(game, players, options):
    api_test(env(game, players=players, **options), num_cycles=1000)


@pytest.mark.parametrize(("game", "players", "options"), CONFIGS, ids=IDS)
def test_pettingzoo_seed_test(game, players, options):
    seed_test(lambda: env(game, players=players, **options), num_cycles=500)


@pytest.mark.parametrize(("game", "players", "options"), PLAIN, ids=PLAIN_IDS)
def test_pettingzoo_api_test_with_win_reward_and_ansi_render(game, players, options):
    api_test(env(game, players=players, reward="win", render_mode="ansi"), num_cycles=1000)


# --- agents and spaces -----------------------------------------------------------------------------------
@pytest.mark.parametrize(("game", "players", "options"), PLAIN, ids=PLAIN_IDS)
def test_agents_and_spaces_follow_the_game(game, players, options):
    aec = env(game, players=players)
    assert aec.possible_agents == [f"player_{s}" for s in range(players)]
    for agent in aec.possible_agents:
        space = aec.observation_space(agent)
        assert space["observation"].shape == tuple(game.observation_shape(players))
        assert space["observation"].dtype == np.float32
        assert space["action_mask"].shape == (game.num_actions(players),)
        assert space["action_mask"].dtype == np.int8
        assert aec.action_space(agent).n == game.num_actions(players)


@pytest.mark.parametrize(("game", "players", "options"), PLAIN, ids=PLAIN_IDS)
def test_the_agent_to_act_is_the_first_seat_to_move_and_its_mask_is_its_legal_actions(game, players, options):
    aec = env(game, players=players)
    aec.reset(seed=5)
    rng = random.Random(5)
    for agent in aec.agent_iter():
        observation, _, terminated, _, _ = aec.last()
        if terminated:
            aec.step(None)
            continue
        state = aec.game_state
        seat = state.to_move()[0]
        assert agent == f"player_{seat}"
        assert np.flatnonzero(observation["action_mask"]).tolist() == state.legal_actions(seat)
        np.testing.assert_array_equal(observation["observation"], state.observation(seat))
        aec.step(random_action(observation, rng))


# --- seeds ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("game", "players", "options"), CONFIGS, ids=IDS)
def test_a_seeded_reset_deals_like_the_kernel_with_that_seed(game, players, options):
    aec = env(game, players=players, **options)
    aec.reset(seed=1234)
    state = game.new_state(players, seed=1234, **options)
    seat = state.to_move()[0]
    observation, *_ = aec.last()
    assert aec.agent_selection == f"player_{seat}"
    np.testing.assert_array_equal(observation["observation"], state.observation(seat))


def trajectory(aec, seed: int | None, rng_seed: int) -> list:
    if seed is not None:
        aec.reset(seed=seed)
    else:
        aec.reset()
    steps = []
    play_to_end(aec, random.Random(rng_seed), lambda agent, obs, action: steps.append(
        (agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(), action, aec.rewards.get(agent))))
    return steps


@pytest.mark.parametrize(("game", "players", "options"), PLAIN, ids=PLAIN_IDS)
def test_reset_with_the_same_seed_replays_and_unseeded_resets_follow_the_seed(game, players, options):
    first = env(game, players=players)
    second = env(game, players=players)
    assert trajectory(first, 7, 1) == trajectory(second, 7, 1)
    # Later unseeded resets draw their games from the seed, so whole runs replay.
    assert trajectory(first, None, 2) == trajectory(second, None, 2)
    assert trajectory(first, 8, 1) != trajectory(second, 7, 1)


# --- illegal actions -----------------------------------------------------------------------------------------
@pytest.mark.parametrize(("game", "players", "options"), PLAIN, ids=PLAIN_IDS)
def test_an_illegal_action_raises_and_changes_nothing(game, players, options):
    aec = env(game, players=players)
    aec.reset(seed=3)
    rng = random.Random(3)
    refused = 0
    for _ in range(60):
        agent = aec.agent_selection
        observation, *_ = aec.last()
        if aec.terminations[agent]:
            break
        mask = observation["action_mask"]
        before = (agent, observation["observation"].tobytes(), mask.tobytes(), len(aec.game_state.history))
        for bad in [int(a) for a in np.flatnonzero(mask == 0)[:3]] + [len(mask), -1, None]:
            with pytest.raises(IllegalAction):
                aec.step(bad)
            again, *_ = aec.last()
            after = (aec.agent_selection, again["observation"].tobytes(), again["action_mask"].tobytes(),
                     len(aec.game_state.history))
            assert after == before
            refused += 1
        aec.step(random_action(observation, rng))
    assert refused > 0


def test_the_illegal_action_message_names_the_move_and_the_legal_ones():
    aec = env(BLIND_BIDS, players=2)
    aec.reset(seed=0)
    with pytest.raises(IllegalAction, match="may choose: single, double"):
        aec.step(0)  # a card, while the leader must choose the stake


# --- rewards -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("reward", ["score", "win"])
@pytest.mark.parametrize(("game", "players", "options"), PLAIN, ids=PLAIN_IDS)
def test_rewards_come_at_the_end_as_scores_or_shares_of_the_win(game, players, options, reward):
    aec = env(game, players=players, reward=reward)
    aec.reset(seed=11)
    rng = random.Random(11)
    totals = dict.fromkeys(aec.possible_agents, 0.0)
    for agent in aec.agent_iter():
        observation, cumulative, terminated, _, _ = aec.last()
        totals[agent] += cumulative
        if not terminated:
            assert cumulative == 0.0, "no reward before the game is over"
        aec.step(None if terminated else random_action(observation, rng))
    state = aec.game_state
    assert state.is_over()
    if reward == "score":
        assert [totals[a] for a in aec.possible_agents] == [float(s) for s in state.scores()]
    else:
        winners = state.winners()
        assert [totals[a] for a in aec.possible_agents] == [
            1.0 / len(winners) if s in winners else 0.0 for s in range(players)
        ]
        assert sum(totals.values()) == pytest.approx(1.0)


def test_a_three_way_tie_shares_the_win_in_thirds():
    aec = env(BLIND_BIDS, players=3, reward="win")
    aec.reset(seed=0)
    aec.game_state.hands = [[0, 4, 8], [1, 3, 7], [2, 5, 6]]  # scripted deal (card c has value c + 1)
    single = BLIND_BIDS.labels(3)["single"]
    # Round 1: 9 beats 8 and 7 (player_0 +1); round 2: 4 beats 1 and 3 (player_1 +1, leads);
    # round 3: 6 beats 5 and 2 (player_2 +1). Totals 1, 1, 1.
    for action in [single, 8, 7, 6, single, 0, 3, 2, single, 4, 1, 5]:
        aec.step(action)
    assert aec.game_state.scores() == [1, 1, 1]
    assert aec.last()[1] == pytest.approx(1 / 3)
    assert aec.rewards == {f"player_{s}": pytest.approx(1 / 3) for s in range(3)}


# --- observations handed out stay as they were -----------------------------------------------------------------
@pytest.mark.parametrize(("game", "players", "options"), PLAIN, ids=PLAIN_IDS)
def test_observations_handed_out_are_never_changed_afterwards(game, players, options):
    aec = env(game, players=players)
    aec.reset(seed=21)
    kept = []
    play_to_end(aec, random.Random(21), lambda agent, obs, action: kept.append(
        (obs, obs["observation"].copy(), obs["action_mask"].copy())))
    for obs, observation, mask in kept:
        np.testing.assert_array_equal(obs["observation"], observation)
        np.testing.assert_array_equal(obs["action_mask"], mask)


# --- simultaneous decisions --------------------------------------------------------------------------------------
def quiet_actions(state, seat: int) -> list[int]:
    """The largest set of legal actions of `seat` that the game announces alike (the same new public events).

    A choice the rules announce at once (a variant may let the first call to the gong end the decision) is
    public by the rules, not a pending choice, so only choices that look alike from outside are compared.
    """
    public = len(state.events_for(None))
    groups: dict[tuple, list[int]] = {}
    for action in state.legal_actions(seat):
        trial = state.clone()
        trial.apply(seat, action)
        announced = tuple(e.text for e in trial.events_for(None)[public:])
        groups.setdefault(announced, []).append(action)
    return max(groups.values(), key=len) if groups else []


def find_simultaneous_decision(game, players, options, tries: int = 40):
    """(seed, moves before it) of a simultaneous decision whose first mover has two quiet choices, or None."""
    for seed in range(tries):
        state = game.new_state(players, seed=seed, **options)
        rng = random.Random(seed)
        moves = []
        while not state.is_over():
            movers = state.to_move()
            if len(movers) > 1 and len(quiet_actions(state, movers[0])) > 1:
                return seed, moves
            action = rng.choice(state.legal_actions(movers[0]))
            state.apply(movers[0], action)
            moves.append(action)
    return None


def first_look(aec, mover: str, other: str, variant: int) -> dict | None:
    """Play until `other` is to act, and return what it then observes (None if the decision closed first).

    `mover` opens with its first quiet action (variant 0) or its last (variant 1), then plays at random from a
    stream that depends on the variant (a choice may take several steps); everyone else plays from one shared
    stream, so they choose alike whenever they are shown the same. The decision has closed when a seat that had
    finished its part is asked again, a seat from outside it is asked, or the game ends (a variant may let one
    seat's public call end the decision at once).
    """
    state = aec.game_state
    seats = set(state.to_move())
    finished: set[int] = set()
    mover_seat = int(mover.split("_")[1])
    mover_rng, others_rng = random.Random(variant), random.Random(99)
    opened = False
    for _ in range(10_000):
        agent = aec.agent_selection
        if agent == other:
            return aec.observe(other)
        legal = np.flatnonzero(aec.last()[0]["action_mask"]).tolist()
        if agent == mover and not opened:
            action, opened = quiet_actions(state, mover_seat)[-variant], True
        elif agent == mover:
            action = mover_rng.choice(legal)
        else:
            action = others_rng.choice(legal)
        aec.step(action)
        movers = set(state.to_move())
        if state.is_over() or movers & finished or movers - seats:
            return None
        finished |= seats - movers
    raise AssertionError(f"{other} was never asked to act")


@pytest.mark.parametrize(("game", "players", "options"), CONFIGS, ids=IDS)
def test_a_pending_simultaneous_choice_is_never_exposed(game, players, options):
    found = find_simultaneous_decision(game, players, options)
    if found is None:
        assert game is not BLIND_BIDS
        pytest.skip(f"no simultaneous decision met in random {game.id} games")
    seed, moves = found
    start = game.new_state(players, seed=seed, **options)
    for action in moves:
        start.apply(start.to_move()[0], action)
    mover, *others = [f"player_{s}" for s in start.to_move()]
    compared = 0
    for other in others:
        # The first mover chooses differently in the two games; when another seat of the same decision comes to
        # act, it sees the same thing either way.
        looks, views = [], []
        for variant in (0, 1):
            aec = env(game, players=players, **options)
            aec.reset(seed=seed)
            for action in moves:
                aec.step(action)
            looks.append(first_look(aec, mover, other, variant))
            views.append(aec.game_state.view(int(other.split("_")[1])))
            assert aec.rewards[other] == 0.0 and aec.infos[other] == {}
        if looks[0] is None or looks[1] is None:
            continue
        np.testing.assert_array_equal(looks[0]["observation"], looks[1]["observation"])
        np.testing.assert_array_equal(looks[0]["action_mask"], looks[1]["action_mask"])
        assert views[0] == views[1]
        compared += 1
    assert compared or game is not BLIND_BIDS
    if not compared:
        pytest.skip("every decision met was closed by a public move before a second seat acted")


def test_blind_bids_takes_its_simultaneous_bids_one_agent_at_a_time():
    aec = env(BLIND_BIDS, players=3)
    aec.reset(seed=2)
    aec.step(BLIND_BIDS.labels(3)["single"])  # the leader, player_0, sets the stake
    order = []
    for _ in range(3):
        order.append(aec.agent_selection)
        aec.step(int(np.flatnonzero(aec.last()[0]["action_mask"])[0]))
    assert order == ["player_0", "player_1", "player_2"]
    assert len(aec.game_state.sheet) == 1, "the round is scored once every bid is in"


# --- rendering and arguments ------------------------------------------------------------------------------------
@pytest.mark.parametrize(("game", "players", "options"), PLAIN, ids=PLAIN_IDS)
def test_ansi_render_is_the_games_text_view_for_the_agent_to_act(game, players, options):
    aec = env(game, players=players, render_mode="ansi")
    aec.reset(seed=4)
    seat = int(aec.agent_selection.split("_")[1])
    text = aec.render()
    assert isinstance(text, str) and text.strip()
    assert text == render_text(game, aec.game_state.view(seat))
    play_to_end(aec, random.Random(4))
    assert aec.render() == render_text(game, aec.game_state.view(None))


@pytest.mark.parametrize(("game", "players", "options"), PLAIN, ids=PLAIN_IDS)
def test_pettingzoo_render_test_in_every_render_mode(game, players, options, capsys):
    made = []

    def make(render_mode=None):
        made.append(env(game, players=players, render_mode=render_mode))
        return made[-1]

    render_test(make)
    printed = capsys.readouterr().out
    last = made[-1]
    assert last.render_mode == "human"
    state = last.game_state
    seat = None if state.is_over() else int(last.agent_selection.split("_")[1])
    assert printed.endswith(render_text(game, state.view(seat)) + "\n"), "human mode prints what ansi returns"


def test_render_without_a_render_mode_returns_none():
    aec = env(BLIND_BIDS)
    aec.reset(seed=0)
    with pytest.warns(UserWarning, match="render_mode"):
        assert aec.render() is None


def test_bad_arguments_are_refused_with_what_is_allowed():
    with pytest.raises(BadOptions, match="score, win"):
        env(BLIND_BIDS, reward="points")
    with pytest.raises(BadOptions, match="'ansi'.*'human'"):
        env(BLIND_BIDS, render_mode="rgb_array")
    with pytest.raises(BadOptions, match="2, 3 players"):
        env(BLIND_BIDS, players=7)
    with pytest.raises(BadOptions):
        env(BLIND_BIDS, colour="blue")


def test_games_are_found_by_id():
    for game in configurations(with_options=False):
        if game[0] is not BLIND_BIDS:
            assert env(game[0].id).game is get_game(game[0].id)
