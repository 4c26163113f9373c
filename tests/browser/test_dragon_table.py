"""Slaughter the Dragon, Ha in the browser: three people and a bot play a whole game by clicking."""

from __future__ import annotations

from pages import Setup, three_people_play_a_whole_game


def test_three_people_and_a_bot_play_a_whole_game(live, person, screenshots):
    three_people_play_a_whole_game(live, person, screenshots, Setup("dragon", 4))
