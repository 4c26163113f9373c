"""The state's speed caches change nothing: observation floats kept move by move equal floats worked out afresh,
and the legal actions kept between `legal_actions` and `apply` are never shared with a caller."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest

from ninjatable.core import IllegalAction, get_game

GAME = get_game("gakko")


@pytest.mark.parametrize("players", GAME.player_counts)
def test_kept_observation_floats_equal_floats_worked_out_afresh(players):
    state = GAME.new_state(players, seed=players)
    rng = random.Random(players)
    moves = 0
    while not state.is_over():
        seat = rng.choice(state.to_move())
        if moves % 3 == 0:
            fresh = state.clone()
            fresh.obs_floats = None  # worked out afresh when observed
            for observer in range(players):
                assert np.array_equal(state.observation(observer), fresh.observation(observer))
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        moves += 1
    assert pickle.loads(pickle.dumps(state)).obs_floats is None, "a pickle leaves the floats out"


def test_a_caller_changing_its_legal_actions_changes_nothing():
    state = GAME.new_state(4, seed=3)
    seat = state.to_move()[0]
    legal = state.legal_actions(seat)
    kept = list(legal)
    legal.append(max(kept) + 1)  # an action that is not legal
    legal.remove(kept[0])
    assert state.legal_actions(seat) == kept
    with pytest.raises(IllegalAction):
        state.apply(seat, max(kept) + 1)
    state.apply(seat, kept[0])
