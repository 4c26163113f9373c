"""Dragon invariants under any sequence of legal moves (Hypothesis chooses the moves)."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ninjatable.core import get_game
from ninjatable.games.dragon.actions import PLAY
from ninjatable.games.dragon.observe import (
    OBS_PLAYED,
    OBS_RETURNED,
    OBS_SEATS,
    OBS_SIZE,
    OBS_TAIL,
    OBS_TAKEN,
    OBS_TRICK,
    OBS_VOID,
)

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


def plain_observation(state, seat: int) -> np.ndarray:
    """The seat's observation read plainly from the state, slot by slot (the layout of observe.py), keeping nothing."""
    n = state.players
    out = np.zeros(OBS_SIZE, np.float32)
    rel = [(s - seat) % n for s in range(n)]
    for c in state.hands[seat]:
        out[c] = 1.0
    for c in state.piles[seat]:
        out[48 + c] = 1.0
    for c in range(48):
        if state.played >> c & 1:
            out[OBS_PLAYED + c] = 1.0
    if seat == state.summoner:
        for c in state.returned:
            out[OBS_RETURNED + c] = 1.0
    for i, c in enumerate(state.trick):
        out[OBS_TRICK + rel[(state.leader + i) % n] * 48 + c] = 1.0
    if state.trick:
        out[OBS_TAIL + 4 + state.trick[0] // 12] = 1.0
    totals = state.scores()
    for s in range(n):
        for c in state.taken[s]:
            out[OBS_TAKEN + rel[s] * 12 + c] = 1.0
        for colour in range(4):
            out[OBS_VOID + rel[s] * 4 + colour] = state.void[s] >> colour & 1
        at = OBS_SEATS + rel[s] * 8
        out[at:at + 4] = [len(state.hands[s]) / 11, len(state.piles[s]) / 11, state.tokens[s] / 11, totals[s] / 100]
        out[at + 4:at + 8] = [s == state.leader, s in state.to_move(), s == state.jutsu, s == state.summoner]
    out[OBS_TAIL + state.trump] = 1.0
    out[OBS_TAIL + 8 + state.phase] = 1.0
    out[OBS_TAIL + 15] = state.purple_broken
    out[OBS_TAIL + 16] = state.round / n
    out[OBS_TAIL + 17] = state.tricks_played / state.setup.hand
    return out


@settings(max_examples=40, deadline=None)
@given(players=st.sampled_from([3, 4, 5]), seed=st.integers(0, 2**32), advanced=st.booleans(), data=st.data())
def test_kept_observations_equal_fresh_ones(players, seed, advanced, data):
    # The observation is kept between calls and brought up to date from the moves made since: whichever seats look
    # and however many moves apart, it must equal a plain reading of the state, and the observation of a copy, which
    # keeps nothing (its table is written anew).
    state = GAME.new_state(players, seed=seed, advanced=advanced)
    play = state.apply
    if data.draw(st.booleans()):  # a search's world, played on with `advance`: it records no history
        state = state.sample_world(0, random.Random(seed))
        play = state.advance
    for _ in range(data.draw(st.integers(0, 300))):
        if state.is_over():
            break
        for seat in data.draw(st.lists(st.integers(0, players - 1), max_size=3)):
            assert (state.observation(seat) == plain_observation(state, seat)).all()
            assert (state.observation(seat) == state.clone().observation(seat)).all()
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        play(seat, legal[data.draw(st.integers(0, len(legal) - 1))])
    for seat in range(players):
        assert (state.observation(seat) == plain_observation(state, seat)).all()
        assert (state.observation(seat) == state.clone().observation(seat)).all()
        world = state.sample_world(seat, random.Random(seed))
        assert "_table" not in world.__dict__ and "_table" not in state.clone().__dict__
        assert (world.observation(seat) == state.observation(seat)).all(), "a seat's world looks the same to it"
