"""The state's speed caches change nothing: observation floats and held ranks kept move by move equal those worked
out afresh, and the legal actions kept between `legal_actions` and `apply` are never shared with a caller."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest

from ninjatable.core import IllegalAction, get_game
from ninjatable.games.gakko.cards import SPLIT

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


def _play_checking_held(state, rng, moves):
    """Play up to `moves` random moves, checking after each that the kept held ranks equal fresh ones."""
    for _ in range(moves):
        if state.is_over():
            return
        seat = rng.choice(state.to_move())
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        if state.held is not None:
            assert state.held == state._held_now()


@pytest.mark.parametrize("players", GAME.player_counts)
def test_kept_held_ranks_equal_ranks_worked_out_afresh(players):
    state = GAME.new_state(players, seed=10 + players)
    rng = random.Random(players)
    while not state.is_over():
        if len(state.history) % 5 == 0:
            seat = rng.choice(state.to_move())
            world = state.sample_world(seat, rng)  # the other hands are dealt again
            clone = state.clone()
            kept = None if state.held is None else list(state.held)
            _play_checking_held(world, rng, 8)
            _play_checking_held(clone, rng, 8)
            assert state.held == kept, "a copy's moves leave the original's bits alone"
        _play_checking_held(state, rng, 1)
    assert pickle.loads(pickle.dumps(state)).held is None, "a pickle leaves the bits out"


def test_scripted_positions_list_plays_from_the_scripted_hands():
    state = GAME.new_state(4, seed=1)
    state.legal_actions(state.to_move()[0])  # works out the held ranks of the deal
    hands = [([2, 2, 9], [5]), ([3], [4]), ([6], [7]), ([8], [10])]
    state.set_position(hands=hands, table=[(4, 1), (6, 1)], current=0)
    labels = {state.action_label(a) for a in state.legal_actions(0)}
    assert {"Heaven 1x2", "Heaven 2x2", "Heaven 1x9"} <= labels and "Earth 1x5" not in labels
    assert state.held == state._held_now()


def test_a_clone_observes_its_own_cards_after_the_original_moves_on():
    state = GAME.new_state(4, seed=7)
    rng = random.Random(7)
    while state.phase == SPLIT:
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    seen = [state.observation(seat) for seat in range(4)]  # the runs each observer copies are cut from the floats
    clone = state.clone()
    for _ in range(12):
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        state.observation(seat)
    for seat in range(4):
        assert np.array_equal(clone.observation(seat), seen[seat])


def test_a_scripted_position_refuses_moves_handed_out_before_it():
    # `apply` checks moves against the legal actions it last handed out until the history grows: a position set
    # up by hand must not let a move of the position before through.
    state = GAME.new_state(3, seed=1)
    before = state.legal_actions(0)
    state.set_position(hands=[([1, 2, 3], [4, 5])] * 3, table=[(4, 1), (6, 1)], current=1)
    assert state.to_move() == (1,)
    with pytest.raises(IllegalAction):
        state.apply(0, before[0])
    assert state.history == []
