"""Ninja Clan Wars: what each seat sees, and the terminal rendering built from it."""

from __future__ import annotations

from ninjatable.core import get_game, render_text
from ninjatable.games.clanwars import cards as C
from ninjatable.games.clanwars.actions import MISSION, SPY

from .helpers import scripted_state

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
                           phase=SPY)
    act(state, "pass")
    text = render_text(GAME, state.view(0), width=120)
    assert "Final ranking" in text and "Winner" not in text, "the winner is told once, by the front end"
    assert state.events[-1].text == "The game is over: Player 1 wins"


def test_events_name_hidden_cards_only_to_the_seat_that_sees_them():
    from ninjatable.games.clanwars.actions import SPY

    # Player 1 looks at player 2's hand, steals from it and looks at the deck; player 3 watches.
    state = scripted_state([["Reconnaissance", "Intrigue", "Espionage"], ["Ninja Sword", "Ambush"], ["Plan"]],
                           deck=["Duel", "Raid", "Battle", "Chain & Sickle", "Shuriken"], phase=SPY)
    act(state, "Reconnaissance", "Player 2", "Intrigue", "Player 2", "Espionage")
    hidden = ("Ninja Sword", "Ambush", "Duel", "Raid", "Battle", "Chain & Sickle", "Shuriken")
    watcher = " ".join(e.text for e in state.events_for(2))
    assert not any(name in watcher for name in hidden)
    victim = " ".join(e.text for e in state.events_for(1))
    stolen = next(c for c in ("Ninja Sword", "Ambush") if c not in [e for e in state.view(1)["clans"][1]["hand"]])
    assert stolen in victim  # the victim learns which card went
    assert not any(name in victim for name in ("Duel", "Raid", "Battle", "Chain & Sickle", "Shuriken"))
    looker = " ".join(e.text for e in state.events_for(0))
    assert all(name in looker for name in hidden)
    assert state.view(2)["knowledge"][0] is None and state.view(1)["knowledge"][0] is None


def test_rendering_says_who_decides_when_it_is_not_the_player_whose_turn_it_is():
    state = position()  # player 1 attacks; player 2 has played Ambush, player 1 must answer
    text = render_text(GAME, state.view(0), width=120)
    assert "Player 1's turn: stealth contest" in text and "Player 1 (you) decides" in text
    act(state, "pass")  # now player 2 decides, in player 1's turn
    assert "Player 2 (you) decides" in render_text(GAME, state.view(1), width=120)
    assert "Player 2 decides" in render_text(GAME, state.view(0), width=120)


def test_rendering_says_what_each_card_in_hand_does():
    text = render_text(GAME, position().view(0), width=200)
    assert "Distraction (+3S)" in text and "Plan (Draw 2 cards)" in text and "Ninja Sword (+3F)" in text
    state = scripted_state([["Ninja Bodyguard", "Genin", "Rogue Ninja"], ["Plot"]])
    text = render_text(GAME, state.view(0), width=200)
    assert "Ninja Bodyguard (cost 3, 1S/3F, +4S if Blocking)" in text
    assert "Genin (cost 3, Put three 2S/1F TIP" in text and "Rogue Ninja (cost 3, 3S/3F)" in text


def test_rendering_explains_the_decision_of_the_combat_phases():
    state = scripted_state([["Plan"], ["Plot"]], deck=["Duel", "Raid"], ninja=[["Rogue Ninja"], ["Shadow Warrior"]],
                           phase=MISSION)
    act(state, "Rogue Ninja")
    assert "a player's village (Player N) or one of their Ninja" in render_text(GAME, state.view(0), width=200)
    act(state, "Shadow Warrior", "pass", "pass")  # Shadow Warrior out-sneaks Rogue Ninja: its owner chooses
    text = render_text(GAME, state.view(1), width=200)
    assert "negate" in text and "fight back with Fight +3" in text


def test_rendering_spells_out_the_rulebooks_abbreviations_in_hand():
    state = scripted_state([["Reconnaissance", "Clan Leader", "Genin"], ["Plot"]])
    text = render_text(GAME, state.view(0), width=300)
    assert "Reconnaissance (LOH: look at an opponent's hand)" in text
    assert "AYN: all your other Ninja" in text and "TIP: tokens into play" in text


def test_the_board_warns_that_a_draw_from_the_empty_deck_ends_the_game():
    spy = scripted_state([["Plan", "Allies"], ["Ambush"]], deck=[], phase=SPY,
                         ninja=[["Rogue Ninja"], ["Legendary Ninja"]])
    assert "playing Plan or Plot ends the game at once" in render_text(GAME, spy.view(0), width=80)
    mission = scripted_state([["Allies"], ["Ambush"]], deck=[], phase=MISSION, ninja=[["Chunin"], ["Ninja Lord"]])
    assert "attacking with a Chunin" in render_text(GAME, mission.view(0), width=80)
    mission.deck = [C.card_id("Plot")]
    assert "deck is empty" not in render_text(GAME, mission.view(0), width=80)
