"""The observation, written from tables of float runs, equals a plain reading of the state written entry by entry.

The tables are made once per value they show (a hand, a table layout, the scores, the seats still deciding, the
gestures); the plain reading here takes everything from the state's fields, so a run shown for the wrong value (the
seats that decided after a move, a sampled world whose other choices are reopened, two gestures of one seat) shows.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from ninjatable.core import get_game
from ninjatable.games.ninjaaatack.actions import NO_CHOICE, NUM_SIGNALS, PASS_STEP

GAME = get_game("ninjaaatack")
WIDTH = NUM_SIGNALS + 1


def plain_observation(state, seat: int) -> np.ndarray:
    """The observation entry by entry, in the order `observation_size` gives."""
    n = state.players
    out = np.zeros(GAME.observation_shape(n), dtype=np.float32)
    out[:n] = [c / 4 for c in state.hand_counts(seat)]
    out[n + state.step] = 1
    base = n + 2
    for i in range(n):
        s = (seat + i) % n
        out[base + i] = s != seat and s in state.team_of[seat]
        out[base + n + i] = s == state.lone_wolf
        out[base + 2 * n + i] = state.points[s] / state.target
        out[base + 3 * n + i] = s in state.penalised
        out[base + 4 * n + i] = state.pending[s] != NO_CHOICE
    base += 5 * n
    latest = state.passes if state.step == PASS_STEP else state.passes - 1
    if latest >= 1:
        for i in range(n):
            made = [g for k, s, g in state.signals if k == latest and s == (seat + i) % n]
            for g in made:
                out[base + i * WIDTH + g] = 1
            out[base + i * WIDTH + NUM_SIGNALS] = not made
    base += n * WIDTH
    if state.passed:
        mine, received = state.passed[-1][seat], state.passed[-1][(seat - 1) % n]
        if mine != NO_CHOICE:
            out[base + mine] = 1
        if received != NO_CHOICE:
            out[base + n + received] = 1
    out[base + 2 * n] = state.passes / state.max_passes
    family = state.partner_family(seat)
    if family is not None:
        out[base + 2 * n + 1 + family] = 1
    return out


def assert_plain(state) -> None:
    for seat in range(state.players):
        assert state.observation(seat).tolist() == plain_observation(state, seat).tolist(), f"seat {seat}"


@pytest.mark.parametrize(
    ("players", "options"),
    [(4, {}), (5, {"talk": "at_once"}), (6, {"attack": "team"}), (7, {"codebooks": False}), (8, {}),
     (4, {"gong_order": "arrival", "talk": "at_once"})],
)
def test_the_observation_equals_a_plain_reading_through_moves_clones_and_sampled_worlds(players, options):
    rng = random.Random(players)
    for game_seed in range(3):
        state = GAME.new_state(players, seed=game_seed, **options)
        for move in range(150):
            if state.is_over():
                break
            assert_plain(state)
            if move % 7 == 0:
                seat = state.to_move()[0]
                world = state.sample_world(seat, random.Random(move))
                assert_plain(world)
                # Reopened choices: the others have not decided, and may gesture again at a step shown as made.
                world.reopen_choices(seat)
                assert_plain(world)
                for _ in range(players):
                    if world.is_over():
                        break
                    mover = world.to_move()[-1]
                    world.apply(mover, rng.choice(world.legal_actions(mover)))
                    assert_plain(world)
                assert_plain(state.clone())
            seat = rng.choice(state.to_move())
            legal = state.legal_actions(seat)
            # Mostly no call, so that rounds run to several passes and gestures.
            quiet = [a for a in legal if a <= players + NUM_SIGNALS]
            state.apply(seat, rng.choice(quiet if quiet and rng.random() < 0.9 else legal))
        assert_plain(state)
