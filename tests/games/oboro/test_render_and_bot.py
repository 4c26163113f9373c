"""Oboro's terminal rendering shows what the issue asks, and its heuristic bot beats random play."""

from __future__ import annotations

from ninjatable.bots import play_game
from ninjatable.core import RandomBot, get_game, render_text

GAME = get_game("oboro")


def scripted_table():
    state = GAME.new_state(3, seed=1, mission_value=11)
    state.set_position(hands=[["R5", "G1", "G2"], ["R7", "G3", "B1"], ["B8", "G4", "G5"]], leader=0,
                       areas={2: {"red": ["R4"], "blue": ["B7"]}},  # Player 3's red and blue stacks
                       stock=1, pieces=[4, 0, 0])
    for label in ("R5", "R7", "B8"):
        seat = state.to_move()[0]
        state.apply(seat, state.parse_action(label))
    return state


def test_the_terminal_shows_tops_mission_value_stock_and_pieces_but_not_buried_cards():
    state = scripted_table()
    text = render_text(GAME, state.view(0), width=100)
    assert "Mission Value 11" in text
    assert "Shuriken stock *.... 1" in text
    player3 = next(line for line in text.splitlines() if line.startswith("Player 3"))
    assert "R5 (3)" in player3 and "B8 (2)" in player3 and "13" in player3
    player1 = next(line for line in text.splitlines() if line.startswith("You"))
    assert player1.split()[-1] == "4"  # the last column shown: your 4 Shuriken pieces (no void)
    for buried in ("R4", "R7", "B7"):
        assert buried not in text
    assert "Your hand: G1 G2" in text


def test_the_heuristic_beats_random_players():
    wins = 0
    games = 24
    for i in range(games):
        seat = i % 3
        bots = [GAME.heuristic_bot(seed=i, worlds=6) if s == seat else RandomBot(seed=10 * i + s) for s in range(3)]
        state = play_game(GAME.new_state(3, seed=500 + i), bots)
        wins += seat in state.winners()
    assert wins / games > 0.6  # a random seat wins about a third
