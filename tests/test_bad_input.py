"""Bad input, the way RL code, a script or a careless caller sends it, is refused with the documented error and
changes nothing; play then goes on and the game replays exactly. Every game, every player count."""

from __future__ import annotations

import json
import pickle
import random

import numpy as np
import pytest

from ninjatable.core import BadArgument, IllegalAction, Record, State, all_games
from ninjatable.core.game import Game

CASES = [(g.id, n) for g in all_games() for n in g.player_counts]
# Things that are not seats or actions however they are spelled.
NOT_INTEGERS = [None, True, False, 1.0, 0.0, "0", "1", b"1", [0], (0,), np.float64(1.0), np.bool_(True), 1 + 0j]


def snapshot(state: State) -> tuple[bytes, str]:
    """What a refusal must leave as it was: the pickled state and the record's JSON."""
    return pickle.dumps(state), Record.from_state(state).to_json()


def views(state: State) -> list[str]:
    """Every seat's view and the spectator's."""
    return [json.dumps(state.view(s), sort_keys=True) for s in [None, *range(state.players)]]


def bad_calls(state: State, rng: random.Random) -> list[tuple[str, object, type]]:
    """A random mix of calls that must be refused here: (description, call, expected error)."""
    n, size = state.players, state.game.num_actions(state.players)
    movers = state.to_move()
    mover = rng.choice(movers)
    legal = state.legal_actions(mover)
    bad_seats = [-1, -n, n, n + 1, 10**30, *NOT_INTEGERS, np.int64(n), np.int8(-1)]
    bad_actions = [-1, size, size + 7, 10**30, *NOT_INTEGERS, np.int64(size), np.int32(-1)]
    bad_actions += [a for a in range(size) if a not in legal][:3]
    bad_actions += [np.int64(a) for a in range(size) if a not in legal][:2]
    idle = [s for s in range(n) if s not in movers]
    calls: list[tuple[str, object, type]] = []
    for seat in rng.sample(bad_seats, 6):
        calls += [
            (f"apply({seat!r}, legal)", lambda s=seat: state.apply(s, legal[0]), IllegalAction),
            (f"legal_actions({seat!r})", lambda s=seat: state.legal_actions(s), IllegalAction),
            (f"observation({seat!r})", lambda s=seat: state.observation(s), IllegalAction),
            (f"decision({seat!r})", lambda s=seat: state.decision(s), IllegalAction),
            (f"refusals({seat!r})", lambda s=seat: state.refusals(s), IllegalAction),
            (f"sample_world({seat!r})", lambda s=seat: state.sample_world(s, random.Random(0)), IllegalAction),
        ]
        if seat is not None:  # None is a spectator, welcome where a viewer is asked for
            calls += [
                (f"view({seat!r})", lambda s=seat: state.view(s), IllegalAction),
                (f"events_for({seat!r})", lambda s=seat: state.events_for(s), IllegalAction),
                (f"parse_action('1', {seat!r})", lambda s=seat: state.parse_action("1", s), IllegalAction),
            ]
    for action in rng.sample(bad_actions, 8):
        calls.append((f"apply(mover, {action!r})", lambda a=action: state.apply(mover, a), IllegalAction))
        calls.append((f"apply(np mover, {action!r})", lambda a=action: state.apply(np.int64(mover), a), IllegalAction))
        if action not in range(size) or isinstance(action, (bool, np.bool_, float, np.floating, complex, str)):
            calls.append((f"action_label({action!r})", lambda a=action: state.action_label(a), IllegalAction))
    for seat in idle[:2]:
        for action in rng.sample(range(size), 2):
            calls.append((f"apply(idle {seat}, {action})", lambda s=seat, a=action: state.apply(s, a), IllegalAction))
            calls.append((f"apply(np idle {seat})", lambda s=seat, a=action: state.apply(np.uint8(s), a),
                          IllegalAction))
    shape = state.game.observation_shape(n)
    calls += [
        ("observation into a list", lambda: state.observation(mover, out=[0.0] * int(np.prod(shape))), BadArgument),
        ("observation into float64", lambda: state.observation(mover, out=np.zeros(shape)), BadArgument),
        ("observation, wrong shape", lambda: state.observation(mover, out=np.zeros(7, np.float32)), BadArgument),
        ("sample_world without a generator", lambda: state.sample_world(mover, 3), BadArgument),
        ("parse_action of a number", lambda: state.parse_action(3, mover), IllegalAction),
        ("parse_action of a superscript", lambda: state.parse_action("²", mover), IllegalAction),
        ("parse_action of 5000 digits", lambda: state.parse_action("9" * 5000, mover), IllegalAction),
        ("parse_action of an unknown name", lambda: state.parse_action("Z99", mover), IllegalAction),
    ]
    return calls


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_bad_calls_are_refused_and_change_nothing(game_id, players):
    game = next(g for g in all_games() if g.id == game_id)
    rng = random.Random(f"{game_id}:{players}")
    state = game.new_state(players, seed=rng.getrandbits(32))
    # A fixed number of probed positions spread over the whole game keeps the run to a few seconds.
    probe_every = 1 + _game_length(game, players, state.seed) // 8
    refused = 0
    step = 0
    while not state.is_over():
        if step % probe_every == 0:
            before, seen = snapshot(state), views(state)
            calls = bad_calls(state, rng)
            for what, call, error in rng.sample(calls, min(len(calls), 30)):
                with pytest.raises(error) as caught:
                    call()
                assert str(caught.value), f"{what}: the refusal says what was wrong"
                assert snapshot(state) == before, f"{what} changed the game"
                refused += 1
            assert views(state) == seen
        seat = rng.choice(state.to_move())
        action = rng.choice(state.legal_actions(seat))
        if rng.random() < 0.5:  # what RL code passes: NumPy integers, taken as plain ints
            seat, action = rng.choice([np.int64, np.int32, np.uint16])(seat), np.int64(action)
        state.apply(seat, action)
        step += 1
    assert refused > 100
    assert all(type(s) is int and type(a) is int for s, a in state.history)
    with pytest.raises(IllegalAction, match="over"):
        state.apply(0, 0)
    record = Record.from_json(Record.from_state(state).to_json())
    replayed = record.verify()
    assert replayed.history == state.history and replayed.result() == state.result()
    assert [replayed.view(s) for s in range(players)] == [state.view(s) for s in range(players)]


def _game_length(game: Game, players: int, seed: int) -> int:
    state = game.new_state(players, seed=seed)
    rng = random.Random(seed)
    while not state.is_over():
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return len(state.history)


def test_a_game_state_may_not_override_what_the_kernel_checks():
    with pytest.raises(TypeError, match="overrides apply, legal_actions"):
        class Sloppy(State):
            def legal_actions(self, seat):
                return []

            def apply(self, seat, action):
                pass


def test_numpy_seats_players_and_seeds_become_plain_ints():
    game = all_games()[0]
    state = game.new_state(np.int64(game.player_counts[0]), seed=np.uint32(5))
    assert type(state.players) is int and type(state.seed) is int
    seat = state.to_move()[0]
    assert state.legal_actions(np.int16(seat)) == state.legal_actions(seat)
    assert state.view(np.int64(seat)) == state.view(seat)
    assert state.view(np.int64(seat))["seat"] == seat and type(state.view(np.int64(seat))["seat"]) is int
