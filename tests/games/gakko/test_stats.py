"""Gakko's designer figures: points per round and the points each size of group cost."""

from __future__ import annotations

import pytest

from ninjatable.bots import make_bot, play_game
from ninjatable.core import get_game


@pytest.mark.parametrize("players", [3, 4, 5])
def test_points_per_round_and_per_group_size_add_up_to_the_sheet(players):
    state = get_game("gakko").new_state(players, seed=4)
    play_game(state, [make_bot("heuristic", seed=s) for s in range(players)])
    stats = state.stats()
    assert stats["rounds"] == 3
    for k, line in enumerate(state.sheet, start=1):
        assert stats[f"round_{k}_points"] == sum(line.points)
    lost = -sum(p for line in state.sheet for p in line.points if p < 0)
    assert sum(v for key, v in stats.items() if key.startswith("points_lost_to_groups_of_")) == lost
    # a group of n cards costs n(n+1)/2 points
    for key, v in stats.items():
        if key.startswith("points_lost_to_groups_of_"):
            n = int(key.rsplit("_", 1)[1])
            assert v % (n * (n + 1) // 2) == 0
