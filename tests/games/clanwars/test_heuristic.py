"""Ninja Clan Wars: the heuristic bot plays whole games legally and decides from its seat's information."""

from __future__ import annotations

from ninjatable.bots import play_game
from ninjatable.core import RandomBot, SeatInfo, get_game
from ninjatable.games.clanwars import ClanWarsHeuristic
from ninjatable.games.clanwars.actions import FIGHT_BACK, MISSION, NEGATE

from .helpers import scripted_state

GAME = get_game("clanwars")


def test_heuristic_plays_games_to_the_end():
    for players in (2, 3, 5):
        bots = [ClanWarsHeuristic(seed=s) if s % 2 == 0 else RandomBot(seed=s) for s in range(players)]
        state = play_game(GAME.new_state(players, seed=players), bots)
        assert state.is_over() and state.winners()


def test_heuristic_fights_back_when_the_bonus_wins_and_negates_when_it_does_not():
    state = scripted_state([["Plan"], ["Plot"]], deck=["Duel", "Raid"], ninja=[["Rogue Ninja"], ["Shadow Warrior"]],
                           phase=MISSION)
    for label in ("Rogue Ninja", "Shadow Warrior", "pass", "pass"):
        state.apply(state.to_move()[0], state.parse_action(label))
    assert ClanWarsHeuristic(seed=1).act(SeatInfo(state, 1)) == FIGHT_BACK  # 3 + 3 against 3
    state = scripted_state([["Plan"], ["Plot"]], deck=["Duel", "Raid"], ninja=[["Beast Ninja"], ["Geisha Ninja"]],
                           phase=MISSION)
    for label in ("Beast Ninja", "Geisha Ninja", "pass", "pass"):
        state.apply(state.to_move()[0], state.parse_action(label))
    assert ClanWarsHeuristic(seed=1).act(SeatInfo(state, 1)) == NEGATE  # 2 + 3 against 5


def test_heuristic_plays_the_smallest_card_that_wins_the_contest():
    state = scripted_state([["Distraction", "Kunai Knives", "Plan"], ["Plot"]], deck=["Duel"],
                           ninja=[["Rogue Ninja"], ["Shadow Warrior"]], phase=MISSION)
    for label in ("Rogue Ninja", "Shadow Warrior"):
        state.apply(state.to_move()[0], state.parse_action(label))
    choice = ClanWarsHeuristic(seed=1).act(SeatInfo(state, 0))  # 3 against 5: +3 is needed, +1 is not enough
    assert state.action_label(choice) == "Distraction"


def test_heuristic_withdraws_from_a_fight_it_would_lose_and_presses_one_it_wins():
    for attacker, expected in (("Geisha Ninja", "withdraw"), ("Shadow Warrior", "fight")):
        state = scripted_state([["Plan"], ["Plot"]], deck=["Duel"], ninja=[[attacker], ["Beast Ninja"]], phase=MISSION)
        for label in (attacker, "Beast Ninja", "pass", "pass"):
            state.apply(state.to_move()[0], state.parse_action(label))
        assert state.action_label(ClanWarsHeuristic(seed=1).act(SeatInfo(state, 0))) == expected
