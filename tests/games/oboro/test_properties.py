"""Invariants of Oboro Ninja Star Trick under any sequence of legal moves (Hypothesis)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ninjatable.core import get_game
from ninjatable.games.oboro import cards as C

GAME = get_game("oboro")


def check_invariants(state) -> None:
    played = len(state.trick) + sum(len(s) for s in state.stacks)
    held = sum(len(h) for h in state.hands)
    assert played + held == C.DECK_SIZE  # every card is in a hand, the trick or a Card Area
    assert played == state.tricks_played * 3 + len(state.trick)
    for seat in range(3):
        already = 1 if (seat - state.leader) % 3 < len(state.trick) else 0
        assert len(state.hands[seat]) == C.HAND_SIZE - state.tricks_played - already
    assert state.stock + sum(state.pieces) == C.SHURIKEN_PIECES  # pieces only move between stock and players
    for k in range(9):
        stack = state.stacks[k]
        assert all(C.COLOUR[c] == k % 3 for c in stack)  # each stack holds one colour


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), choices=st.lists(st.integers(0, 7), min_size=1, max_size=300))
def test_cards_and_pieces_are_conserved(seed, choices):
    state = GAME.new_state(3, seed=seed)
    for pick in choices:
        if state.is_over():
            break
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[pick % len(legal)])
        check_invariants(state)
    assert state.scores() == [sum(line.points[s] for line in state.sheet) for s in range(3)]
    assert state.shuriken_scorings <= 2
