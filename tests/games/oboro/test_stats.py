"""Oboro's designer figures: when the two Shuriken scorings happen, and how often seats bust the Mission Value."""

from __future__ import annotations

import pytest

from ninjatable.bots import make_bot, play_game
from ninjatable.core import get_game


def played(seed: int, **options):
    state = get_game("oboro").new_state(seed=seed, **options)
    play_game(state, [make_bot("random", seed=seed * 10 + s) for s in range(state.players)])
    return state


@pytest.mark.parametrize("seed", range(4))
def test_a_bust_is_a_seat_that_scores_nothing_for_the_round(seed):
    state = played(seed)
    # Three seats within the Mission Value share 3/2/1 (ties share a rank): only a bust scores 0.
    zeros = sum(p == 0 for line in state.sheet if line.label.startswith("Round") for p in line.points)
    stats = state.stats()
    assert stats["mission_busts"] == zeros
    assert stats["rounds_with_a_bust"] <= min(stats["rounds"], stats["mission_busts"])


@pytest.mark.parametrize("seed", range(4))
def test_the_game_ends_in_the_round_of_the_second_shuriken_scoring(seed):
    stats = played(seed, max_rounds=0).stats()
    assert 1 <= stats["shuriken_scoring_1_round"] <= stats["shuriken_scoring_2_round"] == stats["rounds"]
