"""Ninja Clan Wars: what each seat sees, and the terminal rendering built from it."""

from __future__ import annotations

from ninjatable.core import get_game, render_text
from ninjatable.games.clanwars.rules import MISSION, scripted_state

GAME = get_game("clanwars")


def act(state, *labels: str) -> None:
    for label in labels:
        seat = state.to_move()[0]
        state.apply(seat, state.parse_action(label, seat))


def position():
    state = scripted_state([["Distraction", "Ninja Sword", "Plan"], ["Ambush", "Allies"]],
                           deck=["Duel", "Raid", "Battle"], ninja=[["Rogue Ninja", "Clan Leader"], ["Geisha Ninja"]],
                           markers=[12, 17], phase=MISSION)
    act(state, "Rogue Ninja", "Player 2", "pass", "pass", "Ambush")  # no block; attacker passes
    return state


def test_hands_are_hidden_but_their_sizes_are_public():
    state = position()
    mine, theirs = state.view(0)["clans"]
    assert mine["hand"] == ["Distraction", "Ninja Sword", "Plan"] and theirs["hand"] is None
    assert theirs["hand_count"] == 1
    assert state.view(None)["clans"][0]["hand"] is None


def test_view_shows_current_ratings_markers_deck_and_the_running_contest():
    view = position().view(1)
    assert [c["markers"] for c in view["clans"]] == [12, 17]
    assert view["deck"] == 3
    rogue = next(n for n in view["clans"][0]["ninja"] if n["name"] == "Rogue Ninja")
    assert (rogue["name"], rogue["stealth"], rogue["fight"]) == ("Rogue Ninja", 3, 4)  # Clan Leader's F+1
    combat = view["combat"]
    assert combat["contest"] == "stealth" and combat["totals"] == [3, 5]
    assert combat["plays"] == [{"side": "defender", "card": "Ambush", "bonus": 5, "negated": False}]


def test_rendering_shows_hand_clans_villages_deck_and_combat():
    text = render_text(GAME, position().view(1), width=120)
    for expected in ("Your hand: Allies", "Rogue Ninja 3S/4F", "Geisha Ninja 4S/2F", "12 markers",
                     "17 markers", "deck 3", "Stealth: attacker 3 against defender 5",
                     "defender plays Ambush +5S"):
        assert expected in text, expected
    assert "Ninja Sword" not in text and "Distraction" not in text  # player 1's hand is hidden


def test_final_ranking_is_rendered():
    state = scripted_state([["Plan"], ["Plot"]], deck=[], ninja=[["Ninja Lord"], ["Rogue Ninja"]], first_turn=True,
                           phase=MISSION)
    state.phase = 1  # the Spy Phase
    act(state, "pass")
    text = render_text(GAME, state.view(0), width=120)
    assert "Final ranking" in text and "Winner: Player 1" in text
