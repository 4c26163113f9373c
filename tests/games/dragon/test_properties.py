"""Dragon invariants under any sequence of legal moves (Hypothesis chooses the moves)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from ninjatable.core import get_game
from ninjatable.games.dragon.rules import PLAY

GAME = get_game("dragon")


def cards_accounted(state) -> list[int]:
    """Every card of the round: hands, 2nd-half piles, scale, current trick and played cards."""
    played = [c for c in range(48) if state.played >> c & 1 and c not in state.trick]
    return sorted(sum(state.hands, []) + sum(state.piles, []) + state.scale + state.trick + played)


@settings(max_examples=60, deadline=None)
@given(players=st.sampled_from([3, 4, 5]), seed=st.integers(0, 2**32), advanced=st.booleans(), data=st.data())
def test_no_card_is_lost_or_duplicated_and_hands_stay_level(players, seed, advanced, data):
    state = GAME.new_state(players, seed=seed, advanced=advanced)
    in_use = list(range(state.setup.colours * 12))
    for _ in range(data.draw(st.integers(0, 400))):
        if state.is_over():
            break
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[data.draw(st.integers(0, len(legal) - 1))])
        if state.round > 0 and not state.is_over():
            assert cards_accounted(state) == in_use
        if state.phase == PLAY and not state.trick:
            sizes = {len(h) + len(p) for h, p in zip(state.hands, state.piles)}
            assert len(sizes) == 1, "between tricks every player holds as many cards"
            assert all(state.hands[s] for s in range(players)), "a used-up 1st half is replaced by the pile"


@settings(max_examples=40, deadline=None)
@given(players=st.sampled_from([3, 4, 5]), seed=st.integers(0, 2**32), advanced=st.booleans(), data=st.data())
def test_kept_observations_equal_fresh_ones(players, seed, advanced, data):
    # The observation is kept between calls and brought up to date from the moves made since: whichever seats look
    # and however many moves apart, it must equal the observation of a copy, which keeps nothing.
    state = GAME.new_state(players, seed=seed, advanced=advanced)
    play = state.apply
    if data.draw(st.booleans()):  # a search's world, played on with `_apply`: it records no history
        state = state.sample_world(0, random.Random(seed))
        play = state._apply
    for _ in range(data.draw(st.integers(0, 300))):
        if state.is_over():
            break
        for seat in data.draw(st.lists(st.integers(0, players - 1), max_size=3)):
            assert (state.observation(seat) == state.clone().observation(seat)).all()
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        play(seat, legal[data.draw(st.integers(0, len(legal) - 1))])
    for seat in range(players):
        assert (state.observation(seat) == state.clone().observation(seat)).all()
        world = state.sample_world(seat, random.Random(seed))
        assert "_table" not in world.__dict__ and "_table" not in state.clone().__dict__
        assert (world.observation(seat) == state.observation(seat)).all(), "a seat's world looks the same to it"
