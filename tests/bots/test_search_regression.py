"""The search decides for the same seed as it did before it was made faster (the Dragon and Oboro, whose search
settings did not change): decisions recorded from the code before the speed work, at positions of seeded games."""

from __future__ import annotations

import random

import pytest

from ninjatable.bots import make_bot
from ninjatable.core import get_game

# (game, players) -> the search's choices at the positions `positions` gives, with `ismcts:iterations=40`, seed 3.
RECORDED = {
    ("dragon", 3): [24, 25, 26, 7, 23, 5, 23, 23],
    ("dragon", 4): [6, 20, 34, 2, 14, 18, 48, 48],
    ("dragon", 5): [46, 13, 31, 23, 14, 38, 26, 32],
    ("oboro", 3): [13, 20, 11, 4, 22, 5, 10, 12],
}


def positions(game_id: str, players: int, count: int = 8) -> list:
    """States after 5, 12, 19, ... random moves of seeded games (a new game once one ends)."""
    game = get_game(game_id)
    rng = random.Random(11)
    found = []
    seed = 0
    while len(found) < count:
        state = game.new_state(players, seed=seed)
        seed += 1
        moves = 5 + 7 * len(found)
        for _ in range(moves):
            if state.is_over():
                break
            seat = state.to_move()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        if not state.is_over():
            found.append(state)
    return found


@pytest.mark.parametrize(("game_id", "players"), list(RECORDED), ids=[f"{g}-{p}p" for g, p in RECORDED])
def test_the_search_decides_as_it_did_for_the_same_seed(game_id, players):
    bot = make_bot("ismcts:iterations=40", seed=3)
    chosen = [bot.choose(state, state.to_move()[0]) for state in positions(game_id, players)]
    assert chosen == RECORDED[game_id, players]
