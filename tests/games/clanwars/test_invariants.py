"""Ninja Clan Wars: invariants that hold after every move of random games."""

from __future__ import annotations

import random

import pytest

from ninjatable.core import get_game
from ninjatable.games.clanwars import cards as C

GAME = get_game("clanwars")


def check(state) -> None:
    assert state.in_play == [u for u in range(C.NUM_UNITS) if state.owner[u] >= 0]
    in_play = [u for u in state.in_play if C.UNITS[u].card >= 0]
    every = state.deck + [c for h in state.hands for c in h] + state.discard + in_play + state.c_cards
    assert sorted(every) == list(range(C.DECK_SIZE)), "each card is in exactly one place"
    for tip, tokens in C.TOKENS_OF.items():
        if any(state.owner[u] >= 0 for u in tokens):
            assert tip in state.discard, "tokens are in play only once their TIP card was paid"
    for a in range(state.players):
        for b in range(state.players):
            hand = list(state.hands[b])
            for c in state.known[a][b]:
                assert c in hand, "a seat only knows cards that are really in that hand"
                hand.remove(c)
        assert state.known_top[a] <= len(state.deck)
        if state.doubt[a]:
            victim, thief = state.hands[state.stolen_from], state.hands[state.stolen_by]
            assert all(c in victim or c in thief for c in state.doubt[a])
            assert sum(c in thief for c in state.doubt[a]) <= 1, "all doubtful cards but one stay with the victim"
        assert state.markers[a] >= 0
        if state.defeated[a]:
            assert a not in state.owner and state.hands[a] == []


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_invariants_hold_through_random_games(players):
    for seed in range(6):
        state = GAME.new_state(players, seed=seed)
        rng = random.Random(seed)
        while not state.is_over():
            seat = state.to_move()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            check(state)
        assert state.winners()


@pytest.mark.parametrize("players", [2, 4])
def test_invariants_hold_in_sampled_worlds(players):
    rng = random.Random(players)
    state = GAME.new_state(players, seed=players)
    while not state.is_over():
        seat = state.to_move()[0]
        for viewer in range(players):
            check(state.sample_world(viewer, rng))
        state.apply(seat, rng.choice(state.legal_actions(seat)))
