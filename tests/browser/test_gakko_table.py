"""Shinobi no Gakko in the browser: three people split their hands (a draft they may undo before `done`) and play
a whole game by clicking."""

from __future__ import annotations

from pages import Setup, three_people_play_a_whole_game


def test_three_people_play_a_whole_game(live, person, screenshots):
    # Random clicking passes a lot, so a round could run for hundreds of turns: the documented safeguard
    # `max_turns` ends each round after 10 turns (everyone scoring their hands), keeping the game to seconds.
    # The README's picture waits for the table to be open on Ann's turn, past the split.
    setup = Setup("gakko", 3, {"max_turns": 10}, picture_when=".board:has(.prompt.mine):has(.tiers)")
    three_people_play_a_whole_game(live, person, screenshots, setup)
