"""The kernel's stats hook: named counts kept during play, reported at game end, copied with the state."""

from __future__ import annotations

import pytest

from ninjatable.bots import make_bot, play_game
from ninjatable.core import all_games, get_game


def test_count_adds_up_and_clones_keep_their_own_tallies():
    state = get_game("oboro").new_state(seed=1)
    state.count("raids")
    state.count("raids", 2)
    copy = state.clone()
    copy.count("raids")
    assert state.stats()["raids"] == 3
    assert copy.stats()["raids"] == 4


@pytest.mark.parametrize("game_id", [g.id for g in all_games()])
def test_every_game_reports_named_numbers_and_its_rounds(game_id):
    game = get_game(game_id)
    options = {"max_rounds": 30} if any(o.name == "max_rounds" for o in game.options) else {}
    state = game.new_state(seed=5, **options)
    play_game(state, [make_bot("random", seed=s) for s in range(state.players)])
    stats = state.stats()
    assert stats and all(isinstance(k, str) and isinstance(v, (int, float)) for k, v in stats.items())
    assert stats["rounds"] >= 1
