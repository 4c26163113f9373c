"""The kernel's contract, checked on every registered game, player count and option value.

A game passes this suite by being registered; its own rulebook tests live in tests/games/<id>/.
"""

from __future__ import annotations

import json
import pickle
import random

import numpy as np
import pytest

from ninjatable.core import BadOptions, BadRecord, IllegalAction, Record, all_games, get_game

MAX_STEPS = 20_000


def configurations() -> list[tuple[str, int, dict]]:
    """Every game x player count with default options, plus each non-default option value once."""
    configs = []
    for game in all_games():
        for players in game.player_counts:
            configs.append((game.id, players, {}))
        for option in game.options:
            for value in option.allowed:
                if value != option.default:
                    configs.append((game.id, game.default_players, {option.name: value}))
    return configs


CONFIGS = configurations()
IDS = [f"{g}-{p}p" + "".join(f"-{k}={v}" for k, v in o.items()) for g, p, o in CONFIGS]
USUAL_FIRST = [pytest.param(g, p, o, marks=() if p == get_game(g).default_players and not o else pytest.mark.soak)
               for g, p, o in CONFIGS]


def snapshot(state) -> bytes:
    return pickle.dumps(state)


def random_playout(state, rng: random.Random, stop_at: int | None = None) -> list[tuple[int, int]]:
    """Play random legal moves until the end (or `stop_at` moves); return the moves played."""
    moves = []
    while not state.is_over() and (stop_at is None or len(moves) < stop_at):
        movers = state.to_move()
        seat = movers[rng.randrange(len(movers))]
        action = rng.choice(state.legal_actions(seat))
        state.apply(seat, action)
        moves.append((seat, action))
        assert len(moves) < MAX_STEPS, "the game did not end"
    return moves


def positions(game_id, players, options, seed, count):
    """`count` states taken at random points of one random game."""
    game = get_game(game_id)
    rng = random.Random(seed)
    probe = game.new_state(players, seed=seed, **options)
    length = len(random_playout(probe.clone(), random.Random(seed)))
    marks = sorted(rng.sample(range(length), min(count, length)))
    state = game.new_state(players, seed=seed, **options)
    replay_rng = random.Random(seed)
    played = 0
    for mark in marks:
        random_playout_steps(state, replay_rng, mark - played)
        played = mark
        yield state


def random_playout_steps(state, rng, steps):
    for _ in range(steps):
        if state.is_over():
            return
        movers = state.to_move()
        seat = movers[rng.randrange(len(movers))]
        state.apply(seat, rng.choice(state.legal_actions(seat)))


def played_both_ways(game_id, players, options, seed, count, moves):
    """Positions of random games, each played on for up to `moves` random moves twice: with `apply`, and in a
    sampled world with `advance`, as a search plays on (recording no history). Yields the state before each move and
    once after the last; the caller may look at it in between."""
    rng = random.Random(seed)
    for state in positions(game_id, players, options, seed=seed, count=count):
        if state.is_over():
            continue
        world = state.sample_world(state.to_move()[0], rng)
        for moved, play in ((state, state.apply), (world, world.advance)):
            for _ in range(moves):
                yield moved
                if moved.is_over():
                    break
                mover = rng.choice(moved.to_move())
                play(mover, rng.choice(moved.legal_actions(mover)))
            else:
                yield moved


@pytest.mark.parametrize(("game_id", "players", "options"), CONFIGS, ids=IDS)
class TestContract:
    def test_random_games_reach_the_end(self, game_id, players, options):
        game = get_game(game_id)
        size = game.num_actions(players)
        shape = game.observation_shape(players)
        for seed in range(3):
            state = game.new_state(players, seed=seed, **options)
            rng = random.Random(seed)
            steps = 0
            while not state.is_over():
                movers = state.to_move()
                assert movers, "a game that is not over has seats to move"
                assert state.next_choice() == (movers[0], state.legal_actions(movers[0]))
                assert len(set(movers)) == len(movers)
                for seat in range(players):
                    legal = state.legal_actions(seat)
                    if seat in movers:
                        assert legal, f"{seat} must move but has no legal action"
                        assert legal == sorted(set(legal)), "legal actions are sorted and unique"
                        assert 0 <= legal[0] and legal[-1] < size, "legal actions lie in the action space"
                    else:
                        assert legal == [], "a seat that need not move has no legal action"
                if steps % 7 == 0:
                    seat = movers[0]
                    obs = state.observation(seat)
                    assert obs.shape == shape and obs.dtype == np.float32
                    assert np.isfinite(obs).all()
                    json.dumps(state.view(seat))
                    json.dumps(state.view(None))
                seat = movers[rng.randrange(len(movers))]
                state.apply(seat, rng.choice(state.legal_actions(seat)))
                steps += 1
                assert steps < MAX_STEPS, "the game did not end"
            assert state.to_move() == ()
            assert state.next_choice() is None
            assert len(state.scores()) == players
            winners = state.winners()
            assert winners and all(0 <= w < players for w in winners)
            json.dumps(state.view(None))
            json.dumps(state.result())

    def test_illegal_actions_change_nothing(self, game_id, players, options):
        game = get_game(game_id)
        size = game.num_actions(players)
        for state in positions(game_id, players, options, seed=11, count=12):
            if state.is_over():
                continue
            before = snapshot(state)
            movers = state.to_move()
            seat = movers[0]
            legal = set(state.legal_actions(seat))
            attempts = [(seat, a) for a in (-1, size, "x", None, 1.5) if True]
            illegal = [a for a in range(size) if a not in legal]
            if illegal:
                attempts.append((seat, illegal[len(illegal) // 2]))
            idle = [s for s in range(players) if s not in movers]
            # The contract: a seat not to move has no legal action.
            assert all(state.legal_actions(s) == [] for s in idle)
            if idle:
                attempts.append((idle[0], state.legal_actions(seat)[0]))
            attempts.append((players, state.legal_actions(seat)[0]))
            for who, action in attempts:
                with pytest.raises(IllegalAction) as info:
                    state.apply(who, action)
                assert str(info.value), "the error says what was wrong"
                assert snapshot(state) == before, f"a refused move ({who}, {action!r}) changed the state"

    def test_apply_checks_the_legal_actions_it_handed_out_not_the_callers_list(self, game_id, players, options):
        # `apply` keeps the legal actions it last handed out, to spare asking the game again: what a caller does to
        # its list must change nothing, and a move ends their use.
        size = get_game(game_id).num_actions(players)
        for state in positions(game_id, players, options, seed=43, count=6):
            if state.is_over():
                continue
            seat = state.to_move()[0]
            handed = state.legal_actions(seat)
            first = handed[0]
            illegal = [a for a in range(size) if a not in handed]
            before = snapshot(state)
            handed[:] = illegal[:1]
            if illegal:
                with pytest.raises(IllegalAction):
                    state.apply(seat, illegal[0])
                assert snapshot(state) == before
            state.apply(seat, first)
            assert state.history[-1] == (seat, first)
            if not state.is_over() and first not in state._legal_actions(seat):
                # Handed out before the move and no longer legal after it: refused.
                with pytest.raises(IllegalAction):
                    state.apply(seat, first)

    def test_clone_is_independent(self, game_id, players, options):
        for state in positions(game_id, players, options, seed=12, count=4):
            if state.is_over():
                continue
            before = snapshot(state)
            copy = state.clone()
            moves = random_playout(copy, random.Random(5))
            assert snapshot(state) == before, "playing on a clone changed the original"
            for seat, action in moves:
                state.apply(seat, action)
            assert state.result() == copy.result()
            assert state.view(None) == copy.view(None)

    def test_record_replays_exactly(self, game_id, players, options, tmp_path):
        game = get_game(game_id)
        state = game.new_state(players, seed=21, **options)
        random_playout(state, random.Random(21))
        record = Record.from_state(state)
        path = tmp_path / "game.json"
        record.save(path)
        loaded = Record.load(path)
        replayed = loaded.replay()
        assert replayed.result() == state.result()
        for seat in [None, *range(players)]:
            assert replayed.view(seat) == state.view(seat)
        if record.moves:
            tampered = Record.from_dict(json.loads(path.read_text()))
            tampered.result = dict(tampered.result, scores=[s + 1 for s in tampered.result["scores"]])
            with pytest.raises(BadRecord):
                tampered.replay()

    def test_sampled_worlds_look_the_same_to_the_seat(self, game_id, players, options):
        rng = random.Random(3)
        for state in positions(game_id, players, options, seed=13, count=8):
            for seat in range(players):
                view = state.view(seat)
                obs = state.observation(seat)
                before = snapshot(state)
                for _ in range(2):
                    world = state.sample_world(seat, rng)
                    assert world.view(seat) == view, "the sampled world shows the seat something different"
                    assert np.array_equal(world.observation(seat), obs)
                    assert world.to_move() == state.to_move()
                    assert world.legal_actions(seat) == state.legal_actions(seat)
                    random_playout(world, rng)
                assert snapshot(state) == before, "sampling a world changed the state"

    def test_worlds_sampled_inside_a_sampled_world_are_sound(self, game_id, players, options):
        # Search bots whose rollout players sample worlds of their own do exactly this.
        rng = random.Random(5)
        for state in positions(game_id, players, options, seed=17, count=6):
            for seat in range(players):
                world = state.sample_world(seat, rng)
                for other in range(players):
                    inner = world.sample_world(other, rng)
                    assert inner.view(other) == world.view(other)
                    assert inner.legal_actions(other) == world.legal_actions(other)
                random_playout_steps(world, rng, 30)
                for other in range(players):
                    inner = world.sample_world(other, rng)
                    assert inner.view(other) == world.view(other)

    def test_a_state_samples_as_a_fresh_copy_does_after_any_move(self, game_id, players, options):
        # A state may keep what its worlds are dealt from while a search samples at one position; a move, even one
        # a search makes in its world without recording it, must leave no trace of the position before.
        for moved in played_both_ways(game_id, players, options, seed=19, count=4, moves=6):
            for seat in range(players):
                fresh = moved.clone()  # copies leave what was kept for the worlds behind
                assert snapshot(moved.sample_world(seat, random.Random(2))) == snapshot(
                    fresh.sample_world(seat, random.Random(2)))
                moved.sample_world(seat, random.Random(1))  # and keeps what it dealt from, before the next move

    def test_an_observation_written_into_any_float32_array_is_the_same(self, game_id, players, options):
        game = get_game(game_id)
        size = game.observation_shape(players)[0]
        for state in positions(game_id, players, options, seed=31, count=3):
            for seat in range(players):
                strided = np.full(2 * size, 7.0, dtype=np.float32)[::2]  # every other float of a used buffer
                assert state.observation(seat, out=strided) is strided
                assert np.array_equal(strided, state.observation(seat))

    def test_labels_name_actions_uniquely(self, game_id, players, options):
        game = get_game(game_id)
        state = game.new_state(players, seed=1, **options)
        labels = [state.action_label(a) for a in range(game.num_actions(players))]
        assert len({x.lower() for x in labels}) == len(labels), "action labels are unique"
        for action, label in enumerate(labels):
            assert state.parse_action(label) == action
        with pytest.raises(IllegalAction):
            state.parse_action("no such move")


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.id)
def test_bad_options_are_refused_clearly(game):
    with pytest.raises(BadOptions, match="no option"):
        game.new_state(game.default_players, seed=1, no_such_option=1)
    with pytest.raises(BadOptions, match="played by"):
        game.new_state(max(game.player_counts) + 1, seed=1)
    for option in game.options:
        with pytest.raises(BadOptions, match=option.name):
            game.new_state(game.default_players, seed=1, **{option.name: "not-a-value-of-this-option"})


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.id)
def test_same_seed_same_game(game):
    a = game.new_state(game.default_players, seed=99)
    b = game.new_state(game.default_players, seed=99)
    random_playout(a, random.Random(1))
    random_playout(b, random.Random(1))
    assert a.result() == b.result()
    assert a.history == b.history


# The two longest checks of the contract run in `make test` at each game's usual player count with its usual
# options; at the other counts and option values they are soak runs (`make soak`, run by CI after `make test`), as
# in tests/bots/test_bots.py.


@pytest.mark.parametrize(("game_id", "players", "options"), USUAL_FIRST, ids=IDS)
def test_kept_observations_and_legal_actions_equal_a_fresh_copys(game_id, players, options):
    # A game may keep parts of its observation or its legal actions between calls, for speed. Whoever looks and
    # however the moves are made, they must equal those of a pickled copy, which keeps none of it.
    rng = random.Random(23)
    for moved in played_both_ways(game_id, players, options, seed=29, count=3, moves=40):
        for seat in rng.sample(range(players), players):
            fresh = pickle.loads(snapshot(moved))
            assert moved.legal_actions(seat) == fresh.legal_actions(seat)
            assert np.array_equal(moved.observation(seat), fresh.observation(seat))


@pytest.mark.parametrize(("game_id", "players", "options"), USUAL_FIRST, ids=IDS)
def test_a_quiet_world_plays_as_one_that_logs(game_id, players, options):
    # A search's random rollouts play in quiet worlds (no log kept): everything but the log must go as it would.
    rng = random.Random(37)
    for state in positions(game_id, players, options, seed=41, count=3):
        if state.is_over():
            continue
        world = state.sample_world(state.to_move()[0], rng)
        quiet = world.clone()
        quiet.make_quiet()
        steps = 0
        while not world.is_over():
            if steps % 5 == 0:
                for seat in range(players):
                    assert quiet.legal_actions(seat) == world.legal_actions(seat)
                    assert np.array_equal(quiet.observation(seat), world.observation(seat))
                    assert quiet.view(seat) == world.view(seat)
            mover = rng.choice(world.to_move())
            action = rng.choice(world.legal_actions(mover))
            viewer = (mover + 1) % players
            quiet.sample_world(viewer, random.Random(1))  # a game may keep what the worlds were dealt from
            world.advance(mover, action)
            quiet.advance(mover, action)
            # A quiet move may log nothing: nothing kept from before it may deal the next worlds.
            assert snapshot(quiet.sample_world(viewer, random.Random(2))) == snapshot(
                quiet.clone().sample_world(viewer, random.Random(2)))
            steps += 1
        assert quiet.is_over() and quiet.to_move() == ()
        assert quiet.result() == world.result()
        assert quiet.sheet == world.sheet and quiet.tallies == world.tallies
        assert quiet.clone().quiet, "a quiet world's copies stay quiet"
