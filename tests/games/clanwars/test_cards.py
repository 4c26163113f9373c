"""Ninja Clan Wars: every card of the table does what its rulebook line says."""

from __future__ import annotations

import random
import re

import pytest

from ninjatable.games.clanwars import cards as C
from ninjatable.games.clanwars.rules import FIGHT, MISSION, SPY, SPY_SEAT, SPY_UNIT, STEALTH, scripted_state

# The rulebook's Ninja table, as printed: name, Cost, S, F ("-" for TIP cards).
RULEBOOK_NINJA = """
Ninja Foot Soldiers 3 - -
Ninja Warriors 3 - -
Legendary Ninja 5 5 5
Ninja Bodyguard 3 1 3
Ninja Twins 4 - -
Ninja Assassin 4 3 3
Clan Leader 4 3 3
Elder Ninja 3 2 1
Ninjitsu Master 4 4 4
Geisha Ninja 3 4 2
Shadow Warrior 4 5 3
Kunoichi Seductress 3 3 2
Rogue Ninja 3 3 3
Beast Ninja 4 3 5
Ninja Spy 3 4 1
Nokizaru Commandos 3 2 2
Battlefield Ninja 3 2 4
Samurai Ninja 3 2 2
Ninja Lord 5 4 5
Ninja Scouts 3 - -
Genin 3 - -
Chunin 3 3 2
"""

BOOSTS = [c for c in C.EVENT_CARDS if C.CARDS[c].effect.kind in (C.BOOST, C.GRAPPLE)]


def act(state, *labels: str) -> None:
    for label in labels:
        seat = state.to_move()[0]
        state.apply(seat, state.parse_action(label, seat))


def labels(state) -> set[str]:
    seat = state.to_move()[0]
    return {state.action_label(a) for a in state.legal_actions(seat)}


def names(cards) -> list[str]:
    return sorted(C.NAMES[c] for c in cards)


def test_the_table_has_the_rulebooks_ninja_with_their_ratings():
    rows = [line.rsplit(" ", 3) for line in RULEBOOK_NINJA.strip().splitlines()]
    assert [r[0] for r in rows] == [C.NAMES[c] for c in C.NINJA_CARDS]
    for name, cost, s, f in rows:
        card = C.CARDS[C.card_id(name)]
        assert card.cost == int(cost)
        assert card.stealth == (None if s == "-" else int(s)) and card.fight == (None if f == "-" else int(f))


def _bonuses_in_notes(notes: str) -> list[tuple[int, int]]:
    """The (S, F) choices a rulebook line offers: "+1S or +2F" -> [(1, 0), (0, 2)]; "+2S+2F" is one."""
    choices = []
    for part in notes.split(" or "):
        s = sum(int(x) for x in re.findall(r"\+(\d)S", part))
        f = sum(int(x) for x in re.findall(r"\+(\d)F", part))
        if s or f:
            choices.append((s, f))
    return choices


@pytest.mark.parametrize("card", BOOSTS, ids=lambda c: C.NAMES[c])
def test_boost_choices_match_the_rulebook_line(card):
    c = C.CARDS[card]
    assert list(c.effect.choices) == _bonuses_in_notes(c.notes)
    assert c.effect.side == (C.ATTACKER_ONLY if "Attacker only" in c.notes
                             else C.DEFENDER_ONLY if "Defender only" in c.notes else C.ANY_SIDE)
    assert c.effect.discard == (1 if "discard 1" in c.notes else 0)


def _choice_label(card: int, k: int) -> str:
    c = C.CARDS[card]
    if len(c.effect.choices) == 1:
        return c.name
    s, f = c.effect.choices[k]
    return f"{c.name} +{s}S" if s else f"{c.name} +{f}F"


@pytest.mark.parametrize(("card", "k"), [(c, k) for c in BOOSTS for k in range(len(C.CARDS[c].effect.choices))],
                         ids=lambda x: C.NAMES[x] if isinstance(x, int) and x > 1 else str(x))
@pytest.mark.parametrize("side", [0, 1], ids=["attacker", "defender"])
def test_every_boost_adds_its_bonus_in_its_contest_for_the_sides_allowed(card, k, side):
    c = C.CARDS[card]
    s, f = c.effect.choices[k]
    stat = 0 if s else 1
    hands = [["Plan", "Plot"], ["Allies", "Intrigue"]]
    hands[side].append(c.name)
    # A Ninja attacks a village: Rogue Ninja 3S/3F, a village 0/0; the attacker wins the Stealth contest.
    state = scripted_state(hands, deck=["Duel", "Raid"], ninja=[["Rogue Ninja"], []], phase=MISSION)
    act(state, "Rogue Ninja", "Player 2")
    if stat == 1:
        act(state, "pass", "pass", "fight")
    assert state.phase == (STEALTH, FIGHT)[stat]
    if side == 1:
        act(state, "pass")
    label = _choice_label(card, k)
    allowed = c.effect.side != (C.DEFENDER_ONLY, C.ATTACKER_ONLY)[side]
    assert (label in labels(state)) == allowed
    if not allowed:
        return
    before = state.view(None)["combat"]["totals"]
    act(state, label)
    after = state.view(None)["combat"]["totals"]
    gain = s if stat == 0 else f
    assert after[side] == before[side] + gain and after[1 - side] == before[1 - side]
    victim = 1 - side
    assert len(state.hands[victim]) == 2 - c.effect.discard


@pytest.mark.parametrize("card", [c for c in BOOSTS if all(x[1] == 0 for x in C.CARDS[c].effect.choices)],
                         ids=lambda c: C.NAMES[c])
def test_stealth_only_cards_cannot_be_played_in_a_fight(card):
    state = scripted_state([["Plan", C.NAMES[card]], ["Allies"]], deck=["Duel"], ninja=[["Rogue Ninja"], []],
                           phase=MISSION)
    act(state, "Rogue Ninja", "Player 2", "pass", "pass", "fight")
    assert labels(state) == {"pass"}


# --- Spy Phase events ---------------------------------------------------------------------------------
def spy(hands, deck=("Duel", "Raid", "Battle", "Skirmish", "Allies", "Darkness"), ninja=None, markers=None):
    return scripted_state([list(h) for h in hands], deck=list(deck), ninja=ninja, markers=markers, phase=SPY)


@pytest.mark.parametrize("card", ["Plan", "Plot"])
def test_plan_and_plot_draw_two(card):
    state = spy([[card], ["Allies"]])
    act(state, card)
    assert names(state.hands[0]) == ["Allies", "Darkness"]
    assert C.card_id(card) in state.discard


def test_allies_gain_three_markers():
    state = spy([["Allies", "Plan"], ["Plot"]])
    act(state, "Allies")
    assert state.markers == [23, 20]


def test_defection_steals_two_markers_from_the_target_opponent():
    state = spy([["Defection", "Plan"], ["Plot"], ["Allies"]], markers=[20, 20, 1])
    act(state, "Defection")
    assert state.phase == SPY_SEAT and labels(state) == {"Player 2", "Player 3"}
    act(state, "Player 3")
    assert state.markers == [21, 20, 0]


def test_defection_can_defeat_a_clan_without_ninja():
    state = spy([["Defection", "Plan"], ["Plot"]], markers=[20, 2])
    act(state, "Defection")  # a single opponent: chosen at once
    assert state.is_over() and state.winners() == [0]


@pytest.mark.parametrize("card", ["Disinformation", "Psychological Warfare"])
def test_opponent_discards_two_random_cards(card):
    state = spy([[card, "Plan"], ["Plot", "Allies", "Darkness"]])
    act(state, card)
    assert len(state.hands[1]) == 1
    assert len(state.discard) == 3 and all(c in C.CARD_ID.values() for c in state.discard)
    lost = [c for c in state.discard if c != C.card_id(card)]
    assert sorted(lost + state.hands[1]) == sorted(C.card_id(x) for x in ["Plot", "Allies", "Darkness"])


def test_intrigue_steals_one_random_card():
    state = spy([["Intrigue", "Plan"], ["Plot", "Allies"]])
    act(state, "Intrigue")
    assert len(state.hands[0]) == 2 and len(state.hands[1]) == 1
    stolen = next(c for c in state.hands[0] if c != C.card_id("Plan"))
    assert C.NAMES[stolen] in ("Plot", "Allies")
    assert state.known[1][0] == [stolen]  # the victim knows where its card went


@pytest.mark.parametrize("card", ["Betrayal", "Treachery", "Double Agent"])
def test_take_control_of_target_ninja(card):
    state = spy([[card, "Plan"], ["Plot"]], ninja=[["Rogue Ninja"], ["Legendary Ninja", "Genin 2"]])
    act(state, card)
    assert state.phase == SPY_UNIT and labels(state) == {"Legendary Ninja", "Genin 2"}
    act(state, "Legendary Ninja")
    assert {C.UNITS[u].name for u in state.units_of(0)} == {"Rogue Ninja", "Legendary Ninja"}
    assert {C.UNITS[u].name for u in state.units_of(1)} == {"Genin 2"}


def test_taking_the_last_ninja_of_a_clan_without_markers_defeats_it():
    state = spy([["Betrayal", "Plan"], ["Plot"]], ninja=[[], ["Twin 1"]], markers=[20, 0])
    act(state, "Betrayal")
    assert state.is_over() and state.winners() == [0]


def test_espionage_looks_at_the_next_five_cards():
    state = spy([["Espionage", "Plan"], ["Plot"]])
    act(state, "Espionage")
    mine = state.view(0)["knowledge"][0]
    assert mine["deck_top"] == ["Darkness", "Allies", "Skirmish", "Battle", "Raid"]
    assert state.view(1)["knowledge"][0] is None
    act(state, "Plan")  # the two cards drawn were known: still three known on top
    assert state.view(0)["knowledge"][0]["deck_top"] == ["Skirmish", "Battle", "Raid"]


def test_espionage_knowledge_follows_the_cards_an_opponent_draws():
    state = spy([["Espionage", "Plan"], ["Plot"]], deck=["Duel", "Raid", "Battle", "Allies", "Darkness"])
    act(state, "Espionage", "pass")  # the Mission Phase is skipped (no Ninja); player 2 draws 2 known cards
    assert state.current == 1
    assert names(state.known[0][1]) == ["Allies", "Darkness"]


@pytest.mark.parametrize("card", ["Reconnaissance", "Intelligence Network"])
def test_loh_looks_at_an_opponents_hand(card):
    state = spy([[card, "Plan"], ["Plot", "Allies"], ["Darkness"]])
    act(state, card, "Player 2")
    assert names(state.known[0][1]) == ["Allies", "Plot"]
    assert state.view(0)["knowledge"][0]["hands"] == {"Player 2": ["Allies", "Plot"]}
    assert state.view(2)["knowledge"][0] is None


@pytest.mark.parametrize("spies", [["Ninja Spy"], ["Scout 1", "Scout 2"]])
def test_spy_ninja_look_at_a_hand_once_each_per_spy_phase(spies):
    state = spy([["Plan"], ["Plot", "Allies"], ["Darkness"]], ninja=[spies, [], []])
    for _ in spies:
        act(state, "spy", "Player 3")
    assert names(state.known[0][2]) == ["Darkness"]
    assert "spy" not in labels(state)


def test_spy_phase_events_are_not_played_outside_the_spy_phase():
    state = scripted_state([["Plan", "Allies", "Intrigue"], ["Plot"]], deck=["Duel"], ninja=[["Rogue Ninja"], []],
                           phase=MISSION)
    assert labels(state) == {"pass", "Rogue Ninja"}


def test_every_card_has_a_use():
    """Each Event kind is offered somewhere: a Spy Phase, a Mission Phase, a contest, recruiting, Endurance."""
    kinds = {C.CARDS[c].effect.kind for c in C.EVENT_CARDS}
    assert kinds == set(range(len(C.KIND_NAMES)))


# --- knowledge and sampled worlds ---------------------------------------------------------------------
def test_a_looked_at_hand_stays_known_in_sampled_worlds_until_it_changes():
    state = spy([["Reconnaissance", "Plan"], ["Plot", "Allies"], ["Darkness", "Surprise"]])
    act(state, "Reconnaissance", "Player 2")
    rng = random.Random(1)
    for _ in range(20):
        world = state.sample_world(0, rng)
        assert sorted(world.hands[1]) == sorted(state.hands[1])
        assert world.hands[0] == state.hands[0]
    seen_other = {tuple(sorted(state.sample_world(0, rng).hands[2])) for _ in range(40)}
    assert len(seen_other) > 1  # player 3's hand is not known


def test_a_card_played_from_a_known_hand_is_no_longer_known():
    state = spy([["Reconnaissance", "Plan"], ["Plot", "Allies"]])
    act(state, "Reconnaissance", "pass")
    # Player 2 draws two cards and plays Allies: player 1 still knows Plot is there.
    act(state, "pass", "Allies")
    assert names(state.known[0][1]) == ["Plot"]


def test_a_steal_makes_third_parties_forget_the_victims_hand():
    state = spy([["Intrigue", "Plan"], ["Plot", "Allies"], ["Reconnaissance", "Darkness"]])
    state.known[2][1] = [C.card_id("Plot"), C.card_id("Allies")]
    act(state, "Intrigue", "Player 2")
    assert state.known[2][1] == []


def test_sampled_world_keeps_the_known_deck_top():
    state = spy([["Espionage", "Plan"], ["Plot"]])
    act(state, "Espionage")
    world = state.sample_world(0, random.Random(3))
    assert world.deck[-5:] == state.deck[-5:]
