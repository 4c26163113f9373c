"""Gakko's terminal rendering shows what the issue asks, and its heuristic bot beats random play."""

from __future__ import annotations

from ninjatable.bots import play_game
from ninjatable.core import RandomBot, get_game, render_text

GAME = get_game("gakko")


def line_of(text: str, start: str) -> str:
    return next(line for line in text.splitlines() if line.startswith(start))


def test_the_terminal_shows_tiers_with_the_lock_earth_cards_heaven_counts_and_your_heaven():
    state = GAME.new_state(4, seed=1)
    hands = [([2, 2, 6], [1, 10]), ([3, 3], [12, 12]), ([4], [11, 13]), ([5, 5, 5], [9])]
    state.set_position(hands=hands, table=[(7, 1), (8, 2)], current=0)
    text = render_text(GAME, state.view(0), width=100)
    assert "LOCKED" in line_of(text, " 8") and "[8] [8]" in line_of(text, " 8")
    assert "low end" in line_of(text, " 7")
    assert "1  10" in line_of(text, "You") and "3 cards" in line_of(text, "You")
    assert "12 12" in line_of(text, "Player 2") and "2 cards" in line_of(text, "Player 2")
    assert "11  13" in line_of(text, "Player 3") and "1 card " in line_of(text, "Player 3") + " "
    assert "Your Heaven: 2 2  6" in text
    assert "5 5 5" not in text and "3 3" not in text  # nobody else's Heaven


def test_the_terminal_hides_other_splits_until_everyone_is_done():
    state = GAME.new_state(3, seed=2)
    rank = state.view(1)["seats"][1]["heaven"][0]
    state.apply(1, state.parse_action(f"{rank} to Earth"))
    text = render_text(GAME, state.view(0), width=100)
    assert "face down" in line_of(text, "Player 2") and "card" not in line_of(text, "Player 2").split("face")[0]
    assert "15 cards in hand" in line_of(text, "Player 2")
    assert f"Your Earth (face down until all have split): {rank}" in render_text(GAME, state.view(1), width=100)


def test_the_heuristic_beats_random_players():
    wins = 0.0
    games = 16
    for i in range(games):
        seat = i % 4
        bots = [GAME.heuristic_bot(seed=i) if s == seat else RandomBot(seed=10 * i + s) for s in range(4)]
        state = play_game(GAME.new_state(4, seed=300 + i), bots)
        winners = state.winners()
        wins += (seat in winners) / len(winners)
    assert wins / games > 0.6  # a random seat wins about a quarter
