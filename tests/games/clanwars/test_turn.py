"""Ninja Clan Wars: set-up, the phases of a turn, defeat and the end-game ranking, from scripted positions."""

from __future__ import annotations

import pytest

from ninjatable.core import IllegalAction, get_game
from ninjatable.games.clanwars import cards as C
from ninjatable.games.clanwars.actions import DISCARD_DOWN, MISSION, RECRUIT, SPY
from ninjatable.games.clanwars.cards import UNIT_ID

from .helpers import scripted_state

GAME = get_game("clanwars")


def act(state, *labels: str) -> None:
    """Play moves by label, each for the seat that must move."""
    for label in labels:
        seat = state.to_move()[0]
        state.apply(seat, state.parse_action(label, seat))


def labels(state, seat=None) -> set[str]:
    seat = state.to_move()[0] if seat is None else seat
    return {state.action_label(a) for a in state.legal_actions(seat)}


def ninja_of(state, seat) -> set[str]:
    return {C.UNITS[u].name for u in state.units_of(seat)}


# --- set-up -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_setup_twenty_markers_seven_cards_shared_deck_of_77(players):
    state = GAME.new_state(players, seed=players)
    assert state.markers == [20] * players
    first = state.current
    # The first player has already drawn 2 in the Fate Phase.
    assert [len(h) for h in state.hands] == [9 if s == first else 7 for s in range(players)]
    every = sorted(state.deck + [c for h in state.hands for c in h])
    assert every == list(range(77))
    assert len(C.NINJA_CARDS) == 22 and len(C.EVENT_CARDS) == 55


def test_first_player_is_random():
    firsts = {GAME.new_state(4, seed=s).current for s in range(40)}
    assert firsts == {0, 1, 2, 3}


def test_no_attack_on_a_players_first_turn():
    state = scripted_state([["Distraction"], ["Ambush"]], deck=["Plot", "Plan", "Allies", "Duel"],
                           ninja=[["Rogue Ninja"], []], first_turn=True, phase=SPY)
    act(state, "pass")  # Spy Phase over: the Mission Phase is skipped on the first turn
    assert state.current == 1 and state.phase == RECRUIT
    assert state.markers[0] == 21  # Recovery still gives its marker


# --- Fate ---------------------------------------------------------------------------------------------
def test_fate_draws_two_cards_from_the_top():
    state = scripted_state([["Distraction"], ["Ambush"]], deck=["Allies", "Plan", "Plot"], phase=SPY,
                           first_turn=True)
    act(state, "pass")  # player 1's turn ends; player 2 draws Plot then Plan
    assert state.current == 1
    assert sorted(C.NAMES[c] for c in state.hands[1]) == ["Ambush", "Plan", "Plot"]
    assert [C.NAMES[c] for c in state.deck] == ["Allies"]


@pytest.mark.parametrize("deck", [[], ["Allies"]])
def test_game_ends_when_a_draw_is_needed_and_the_deck_is_empty(deck):
    state = scripted_state([["Distraction"], ["Ambush"]], deck=deck, phase=SPY, first_turn=True,
                           ninja=[["Rogue Ninja"], ["Legendary Ninja"]])
    act(state, "pass")
    assert state.is_over()
    assert state.winners() == [1]  # Legendary Ninja (Cost 5) outranks Rogue Ninja (Cost 3)


# --- Recruit ------------------------------------------------------------------------------------------
def test_recruit_pays_the_cost_in_markers():
    state = scripted_state([["Legendary Ninja", "Rogue Ninja"], ["Ambush"]])
    act(state, "recruit Legendary Ninja", "recruit Rogue Ninja")
    assert state.markers[0] == 20 - 5 - 3
    assert ninja_of(state, 0) == {"Legendary Ninja", "Rogue Ninja"}


def test_recruit_needs_enough_markers():
    state = scripted_state([["Legendary Ninja", "Rogue Ninja"], ["Ambush"]], markers=[4, 20])
    assert labels(state) == {"pass", "recruit Rogue Ninja"}
    with pytest.raises(IllegalAction):
        act(state, "recruit Legendary Ninja")


def test_ninja_lord_makes_ninja_cost_one_less():
    state = scripted_state([["Legendary Ninja", "Ninja Foot Soldiers"], ["Ambush"]], ninja=[["Ninja Lord"], []])
    act(state, "recruit Legendary Ninja", "recruit Ninja Foot Soldiers")
    assert state.markers[0] == 20 - 4 - 2


def test_sleeper_agent_reduces_the_cost_by_up_to_four():
    state = scripted_state([["Legendary Ninja", "Rogue Ninja", "Sleeper Agent"], ["Ambush"]], markers=[1, 20])
    assert "recruit Legendary Ninja with Sleeper Agent" in labels(state)
    act(state, "recruit Legendary Ninja with Sleeper Agent")  # 5 - 4 = 1
    assert state.markers[0] == 0
    assert C.card_id("Sleeper Agent") in state.discard
    state2 = scripted_state([["Rogue Ninja", "Sleeper Agent"], ["Ambush"]], markers=[0, 20])
    act(state2, "recruit Rogue Ninja with Sleeper Agent")  # 3 - 4: free, never below 0
    assert state2.markers[0] == 0 and ninja_of(state2, 0) == {"Rogue Ninja"}


@pytest.mark.parametrize("card", [c for c in C.NINJA_CARDS if C.IS_TIP[c]], ids=lambda c: C.NAMES[c])
def test_tip_cards_put_their_tokens_into_play(card):
    tip = C.CARDS[card].ability
    state = scripted_state([[C.NAMES[card]], ["Ambush"]])
    act(state, f"recruit {C.NAMES[card]}")
    units = state.units_of(0)
    assert len(units) == tip.count
    for u in units:
        assert (state.rating(u, 0), state.rating(u, 1)) == (tip.s, tip.f)
        assert C.UNITS[u].ability.spy == tip.spy and C.UNITS[u].card == -1
    assert card in state.discard and state.markers[0] == 20 - C.CARDS[card].cost


def test_rulebook_token_ratings():
    expected = {"Foot Soldier": (4, 1, 1), "Warrior": (3, 1, 2), "Twin": (2, 2, 2), "Scout": (2, 1, 1),
                "Genin": (3, 2, 1)}
    for name, (count, s, f) in expected.items():
        units = [u for u in C.UNITS if u.card == -1 and u.name.startswith(name + " ")]
        assert len(units) == count and all((u.s, u.f) == (s, f) for u in units)


# --- Recovery -----------------------------------------------------------------------------------------
def test_recovery_gains_a_marker_and_the_player_chooses_discards_down_to_seven():
    hand = ["Distraction", "Surprise", "Concealment", "Darkness", "Smoke Bombs", "Disguise", "Diversion",
            "Allies", "Plan"]
    state = scripted_state([hand, ["Ambush"]], deck=["Plot", "Duel"], phase=SPY, first_turn=True)
    act(state, "pass")
    assert state.phase == DISCARD_DOWN and state.markers[0] == 21
    assert labels(state) == {f"discard {c}" for c in hand}
    act(state, "discard Allies")
    assert state.phase == DISCARD_DOWN
    act(state, "discard Plan")
    assert len(state.hands[0]) == 7 and state.current == 1
    assert {C.NAMES[c] for c in state.discard} == {"Allies", "Plan"}


# --- defeat and the end of the game ----------------------------------------------------------------
def _village_attack(attacker: str, village_markers: int, players: int = 2):
    hands = [["Ninja Sword"]] + [["Plan"]] * (players - 1)
    ninja = [[attacker]] + [[] for _ in range(players - 1)]
    markers = [20] + [village_markers] * (players - 1)
    state = scripted_state(hands, deck=["Plot", "Duel", "Raid", "Allies"], ninja=ninja, markers=markers,
                           phase=MISSION)
    act(state, attacker, "Player 2")
    return state


def test_a_player_with_no_ninja_and_no_markers_is_defeated_and_the_last_one_wins():
    state = _village_attack("Legendary Ninja", 4)
    act(state, "pass", "pass", "fight")  # Stealth 5 against 0: the attacker wins, +3 Fight
    act(state, "pass", "pass")  # Fight 8 against 0: the village would lose 8, has 4
    assert state.markers[1] == 0 and state.defeated[1]
    assert state.is_over() and state.winners() == [0]
    assert state.scores() == [1, 0]


def test_defeated_player_is_skipped_and_cannot_be_targeted():
    state = _village_attack("Legendary Ninja", 4, players=3)
    act(state, "pass", "pass", "fight", "pass", "pass")
    assert state.defeated[1] and not state.is_over()
    assert state.hands[1] == []  # a defeated clan's hand goes to the discard pile
    assert state.current == 2  # no Ninja left to attack with: the turn ends
    act(state, "pass", "pass")  # recruit, spy
    assert state.current == 0  # seat 1 is skipped
    act(state, "pass", "pass", "Legendary Ninja")
    assert "Player 2" not in labels(state) and "Player 3" in labels(state)


def _ending(ninja, markers, ranking="cost"):
    """The game ends with these Ninja and markers (player 1 gets its Recovery marker just before)."""
    markers = [markers[0] - 1, *markers[1:]]
    state = scripted_state([["Distraction"], ["Ambush"], ["Plan"]], deck=[], ninja=ninja, markers=markers,
                           phase=SPY, first_turn=True, ranking=ranking)
    act(state, "pass")  # player 2's Fate Phase finds the deck empty
    assert state.is_over()
    return state


def test_ranking_by_highest_cost_ninja():
    state = _ending([["Rogue Ninja", "Geisha Ninja", "Elder Ninja"], ["Ninja Lord"], ["Beast Ninja"]], [30, 1, 9])
    assert state.winners() == [1]
    assert state.final["rows"][0] == {"seat": 1, "best_rank": 5, "ninja": 1, "markers": 1}


def test_ranking_ties_go_to_more_ninja_then_more_markers():
    state = _ending([["Rogue Ninja", "Genin 1"], ["Geisha Ninja"], ["Chunin", "Twin 1"]], [5, 30, 6])
    assert state.winners() == [2]  # Cost 3 each; two Ninja beats one; 6 markers beat 5
    state = _ending([["Rogue Ninja", "Genin 1"], ["Geisha Ninja"], ["Chunin", "Twin 1"]], [6, 30, 6])
    assert state.winners() == [0, 2]  # fully tied: a shared victory
    assert state.scores() == [1, 0, 1]


def test_tokens_rank_below_any_ninja_card():
    state = _ending([["Foot Soldier 1", "Foot Soldier 2", "Twin 1"], ["Elder Ninja"], []], [20, 0, 20])
    assert state.winners() == [1]


def test_ranking_option_stats_uses_base_stealth_plus_fight():
    ninja = [["Ninja Lord"], ["Legendary Ninja"], ["Shadow Warrior"]]  # 4+5=9, 5+5=10, 5+3=8
    assert _ending(ninja, [20, 20, 20], ranking="stats").winners() == [1]
    ninja = [["Ninja Assassin"], ["Beast Ninja"], []]  # Cost 4 each; S+F 6 against 8
    assert _ending(ninja, [20, 20, 20], ranking="cost").winners() == [0, 1]
    assert _ending(ninja, [20, 20, 20], ranking="stats").winners() == [1]


def test_bad_ranking_option_is_refused():
    from ninjatable.core import BadOptions

    with pytest.raises(BadOptions, match="ranking"):
        GAME.new_state(2, seed=1, ranking="height")


def test_game_always_ends_since_every_turn_draws():
    """Passive play (everyone passes) still runs the deck out: no turn limit is needed."""
    state = GAME.new_state(4, seed=5)
    steps = 0
    while not state.is_over():
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        state.apply(seat, 0 if 0 in legal else legal[0])
        steps += 1
    assert steps < 400 and state.deck == []


def test_unit_ids_match_card_ids():
    for name, u in UNIT_ID.items():
        if C.UNITS[u].card >= 0:
            assert C.NAMES[u] == name


@pytest.mark.parametrize("card", [c for c in C.NINJA_CARDS if not C.IS_TIP[c]], ids=lambda c: C.NAMES[c])
def test_every_ninja_card_enters_play_for_its_cost_with_its_printed_ratings(card):
    c = C.CARDS[card]
    state = scripted_state([[c.name], ["Ambush"]])
    act(state, f"recruit {c.name}")
    assert state.markers[0] == 20 - c.cost and state.units_of(0) == [card]
    # Alone in play: printed ratings (an AYN source does not buff itself; no combat role applies).
    assert (state.rating(card, 0), state.rating(card, 1)) == (c.stealth, c.fight)


def test_sleeper_agent_is_offered_only_with_the_card_in_hand_and_a_cost_to_reduce():
    state = scripted_state([["Rogue Ninja", "Plan"], ["Ambush"]])
    assert "recruit Rogue Ninja with Sleeper Agent" not in labels(state)


def test_sleeper_agent_adds_to_the_ninja_lord_discount():
    state = scripted_state([["Legendary Ninja", "Sleeper Agent"], ["Ambush"]], ninja=[["Ninja Lord"], []],
                           markers=[0, 20])
    act(state, "recruit Legendary Ninja with Sleeper Agent")  # 5 - 1 - 4 = 0
    assert state.markers[0] == 0 and ninja_of(state, 0) == {"Ninja Lord", "Legendary Ninja"}


def test_a_spy_phase_draw_from_an_empty_deck_ends_the_game():
    state = scripted_state([["Plan", "Allies"], ["Ambush"]], deck=[], phase=SPY,
                           ninja=[["Rogue Ninja"], ["Legendary Ninja"]])
    act(state, "Plan")
    assert state.is_over() and state.winners() == [1]


def test_a_draw_of_two_with_one_card_left_takes_it_then_ends_the_game():
    state = scripted_state([["Plan", "Allies"], ["Ambush"]], deck=["Plot"], phase=SPY,
                           ninja=[["Ninja Lord"], ["Rogue Ninja"]])
    act(state, "Plan")
    assert state.is_over() and state.deck == [] and C.card_id("Plot") in state.hands[0]
    assert state.winners() == [0]


def test_chunin_attacking_with_an_empty_deck_ends_the_game():
    state = scripted_state([["Allies"], ["Ambush"]], deck=[], phase=MISSION,
                           ninja=[["Chunin"], ["Ninja Lord"]])
    act(state, "Chunin")
    assert state.is_over() and state.winners() == [1]


def test_the_ninja_lord_discount_goes_with_control_of_the_lord():
    state = scripted_state([["Betrayal", "Rogue Ninja"], ["Ambush"]], ninja=[[], ["Ninja Lord"]], phase=SPY)
    act(state, "Betrayal")
    assert ninja_of(state, 0) == {"Ninja Lord"}
    assert state.recruit_cost(0, C.card_id("Rogue Ninja")) == 2 and state.recruit_cost(1, C.card_id("Rogue Ninja")) == 3
