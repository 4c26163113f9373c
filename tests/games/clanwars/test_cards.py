"""Ninja Clan Wars: every card of the table does what its rulebook line says."""

from __future__ import annotations

import random
import re

import pytest

from ninjatable.games.clanwars import cards as C
from ninjatable.games.clanwars.actions import FIGHT, MISSION, SPY, SPY_SEAT, SPY_UNIT, STEALTH

from .helpers import scripted_state

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

# The rulebook's Event table, as printed: name | notes.
RULEBOOK_EVENTS = """
Distraction | +3S
Fukiya Blowpipe | +1S or +2F
Spit Needles | +2S or +1F
Taijutsu Strikes | +3F
Gunpowder Bamboo | +1S or +2F
Taijutsu Grapple | +2F & Negate Force Bonus Event card
Kaiki Opening Tools | +3S Attacker only
Kunai Knives | +1S or +2F
Ghost Technique | +3S Attacker only
Sleeper Agent | Reduce cost of Ninja by up to 4
Wall Climbing | +2S or +1F
Surprise | +3S
Ambush | +5S Defender only
Concealment | +3S
Garrote | +1S or +2F
Cat Claws | +2S or +1F
Egg Grenade | +2S or +1F
Shuriken | +1S or +2F
Chain & Sickle | +3F
Ninja Sword | +3F
Endurance | Put Attacking Ninja just killed back in your hand
Disguise | +3S
Betrayal | Take control of target Ninja
Treachery | Take control of target Ninja
Double Agent | Take control of target Ninja
Poison | +1S or +2F
Plan | Draw 2 cards
Plot | Draw 2 cards
Bow & Arrows | +1S or +2F
Intrigue | Steal 1 random card from opponents hand
Disinformation | Opponent must discard 2 random cards
Infiltration | +3S
Darkness | +3S
Smoke Bombs | +3S
Covert Action | Get 1 extra Attack this turn with second Ninja
Assassination | Get 1 extra Attack this turn with second Ninja
Duel | Get 1 extra Attack this turn with second Ninja
Skirmish | Each side can add 1 extra Ninja to attack
Raid | Each side can add 1 extra Ninja to attack
Battle | Each side can add up to 2 extra Ninja to attack
Castle Assault | Each side can add up to 2 extra Ninja to attack
Caltrops | +2S or +1F
Escape | +3S Defender only
Diversion | +3S
Espionage | Look at next 5 cards in deck
Reconnaissance | LOH
Art of Invisibility | +3S
Sow Confusion | +2S and Opponent must discard 1 random card
Trick | +1S or +1F and Opponent must discard 1 random card
Secret Technique | +1S or +1F and Opponent must discard 1 random card
Hiding Forms | +3S
Intelligence Network | LOH
Psychological Warfare | Opponent must discard 2 random cards
Allies | Gain 3 Shinobi Counters
Defection | Steal 2 Shinobi Counters from target Opponent
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


def test_the_table_has_the_rulebooks_events_with_their_lines():
    rows = [line.split(" | ") for line in RULEBOOK_EVENTS.strip().splitlines()]
    assert [(C.NAMES[c], C.CARDS[c].notes) for c in C.EVENT_CARDS] == [(name, notes) for name, notes in rows]


# The number in a non-combat Event's line is its amount (cards drawn, looked at, stolen or discarded,
# markers gained or stolen, cost reduced, extra attacks or extra Ninja per side).
AMOUNT_KINDS = (C.SLEEPER, C.DRAW, C.STEAL_CARD, C.FORCE_DISCARD, C.EXTRA_ATTACK, C.MASS, C.LOOK_DECK,
                C.GAIN_MARKERS, C.STEAL_MARKERS)


@pytest.mark.parametrize("card", [c for c in C.EVENT_CARDS if C.CARDS[c].effect.kind in AMOUNT_KINDS],
                         ids=lambda c: C.NAMES[c])
def test_event_amounts_match_the_rulebook_line(card):
    c = C.CARDS[card]
    assert c.effect.amount == int(re.search(r"\d", c.notes).group())


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
def spy(hands, deck=("Duel", "Raid", "Battle", "Skirmish", "Allies", "Darkness"), ninja=None, markers=None,
        current=0, known=None):
    return scripted_state([list(h) for h in hands], deck=list(deck), ninja=ninja, markers=markers, phase=SPY,
                          current=current, known=known)


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


def test_every_seat_sees_which_spy_ninja_have_looked_this_turn():
    """Two Scouts at two players: the second look teaches nothing new, but the view still moves on."""
    state = spy([["Plan"], ["Plot", "Allies"]], ninja=[["Scout 1", "Scout 2"], []])
    act(state, "spy")  # one opponent: the look needs no target
    for seat in (0, 1):
        used = [n["spy_used"] for n in state.view(seat)["clans"][0]["ninja"]]
        assert sorted(used) == [False, True]
    after_first = state.view(0)
    act(state, "spy")
    assert [n["spy_used"] for n in state.view(0)["clans"][0]["ninja"]] == [True, True]
    assert state.view(0)["knowledge"] == after_first["knowledge"]
    assert state.view(0) != after_first


def test_spy_phase_events_are_not_played_outside_the_spy_phase():
    state = scripted_state([["Plan", "Allies", "Intrigue"], ["Plot"]], deck=["Duel"], ninja=[["Rogue Ninja"], []],
                           phase=MISSION)
    assert labels(state) == {"pass", "Rogue Ninja"}


def _positions_holding(card: str):
    """The card in the hand of the seat that decides, in each kind of decision of a turn."""
    filler = "Plan" if card != "Plan" else "Plot"
    deck = ["Duel", "Raid", "Battle"] if card not in ("Duel", "Raid", "Battle") else ["Allies", "Surprise"]

    def make(mine, theirs, phase, *moves):
        state = scripted_state([mine, theirs], deck=deck, phase=phase,
                               ninja=[["Rogue Ninja", "Geisha Ninja"], ["Beast Ninja"]])
        act(state, *moves)
        return state

    yield make([card, "Legendary Ninja"], [filler], 0)  # recruit
    yield make([card], [filler], SPY)
    yield make([card], [filler], MISSION)
    yield make([filler], [card], MISSION, "Rogue Ninja", "Player 2")  # the defender decides on a block
    yield make([card], [filler], MISSION, "Rogue Ninja", "Player 2", "pass")  # attacker, Stealth
    yield make([filler], [card], MISSION, "Rogue Ninja", "Player 2", "pass", "pass")  # defender, Stealth
    yield make([card], [filler], MISSION, "Geisha Ninja", "Player 2", "pass", "pass", "pass", "fight")
    yield make([filler], [card], MISSION, "Geisha Ninja", "Player 2", "pass", "pass", "pass", "fight", "pass")
    yield make([card], [filler], MISSION, "Rogue Ninja", "Beast Ninja", "pass", "pass", "fight", "pass", "pass")


@pytest.mark.parametrize("card", C.EVENT_CARDS, ids=lambda c: C.NAMES[c])
def test_every_event_card_can_be_played_at_some_point_of_a_turn(card):
    from ninjatable.games.clanwars.actions import ACTION_CARD, ENDURANCE, UNIT

    def uses_card(state, action):
        if state.phase == ENDURANCE:  # Endurance is played by naming the Ninja it saves
            return action >= UNIT and C.NAMES[card] == "Endurance"
        return ACTION_CARD[action] == card or (C.NAMES[card] == "Sleeper Agent" and "Sleeper" in state.action_label(action))

    playable = False
    for state in _positions_holding(C.NAMES[card]):
        seat = state.to_move()[0]
        assert card in state.hands[seat]
        playable |= any(uses_card(state, a) for a in state.legal_actions(seat) if a)
    assert playable


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


VICTIM = ("Plot", "Allies", "Espionage")  # all three are Spy Phase cards: the thief can play whichever it gets


def _stolen_from_a_known_hand(third=("Surprise",)):
    """Player 3 knows player 2's hand (from an earlier look); player 1 steals one of its cards."""
    state = spy([["Intrigue", "Plan"], list(VICTIM), list(third)], known={(2, 1): VICTIM})
    act(state, "Intrigue", "Player 2")
    return state


def test_after_a_steal_a_third_party_knows_all_but_one_of_the_victims_known_cards_remain():
    state = _stolen_from_a_known_hand()
    seen = state.view(2)["knowledge"][2]
    assert seen["hands"] == {} and seen["one_may_be_stolen"] == {"Player 2": sorted(VICTIM)}
    rng = random.Random(2)
    gone = set()
    for _ in range(40):
        world = state.sample_world(2, rng)
        left = [c for c in VICTIM if C.card_id(c) in world.hands[1]]
        assert len(left) == 2 and sorted(world.hands[1]) == sorted(C.card_id(c) for c in left)
        missing = (set(VICTIM) - set(left)).pop()
        assert C.card_id(missing) in world.hands[0]  # it can only be in the thief's hand
        gone.add(missing)
    assert gone == set(VICTIM)


def test_a_stolen_card_played_face_up_settles_what_the_third_party_knows():
    state = _stolen_from_a_known_hand()
    stolen = next(C.NAMES[c] for c in state.hands[0] if C.NAMES[c] in VICTIM)
    act(state, stolen)  # the thief plays it
    rest = sorted(c for c in VICTIM if c != stolen)
    assert sorted(C.NAMES[c] for c in state.known[2][1]) == rest
    seen = state.view(2)["knowledge"][2]
    assert seen["hands"] == {"Player 2": rest} and seen["one_may_be_stolen"] == {}


def test_a_known_card_the_victim_plays_after_a_steal_was_not_the_stolen_one():
    state = spy([["Intrigue", "Plan"], ["Plot", "Allies", "Darkness", "Ambush"], ["Surprise"]],
                known={(2, 1): ["Plot", "Allies"]})
    act(state, "Intrigue", "Player 2")
    played, other = sorted(("Plot", "Allies"), key=lambda c: C.card_id(c) not in state.hands[1])
    act(state, "pass")  # player 1's turn ends (no Ninja: no Mission Phase)
    act(state, "pass", played)  # player 2 recruits nothing and plays a card player 3 knew
    assert C.card_id(played) in state.discard
    rng = random.Random(4)
    worlds = [state.sample_world(2, rng) for _ in range(60)]
    # The other known card is gone in some worlds (stolen) and kept in others (an unknown card went).
    assert {C.card_id(other) in w.hands[1] for w in worlds} == {True, False}


def test_a_look_at_the_thiefs_hand_settles_which_card_was_stolen():
    state = _stolen_from_a_known_hand(third=("Reconnaissance",))
    stolen = next(C.NAMES[c] for c in state.hands[0] if C.NAMES[c] in VICTIM)
    act(state, "pass")  # player 1's turn ends
    act(state, "pass", "pass")  # player 2 recruits nothing, plays nothing; no Ninja: its turn ends
    act(state, "pass", "Reconnaissance", "Player 1")  # player 3 looks at the thief's hand
    assert sorted(C.NAMES[c] for c in state.known[2][1]) == sorted(c for c in VICTIM if c != stolen)
    assert state.doubt[2] == []


def test_sampled_world_keeps_the_known_deck_top():
    state = spy([["Espionage", "Plan"], ["Plot"]])
    act(state, "Espionage")
    world = state.sample_world(0, random.Random(3))
    assert world.deck[-5:] == state.deck[-5:]


def test_what_other_seats_know_in_a_sampled_world_tells_nothing_of_the_hidden_cards():
    """Player 2 looked at player 3's hand; for player 1 the two positions below look the same, so
    the worlds sampled for player 1 must not differ in what player 2 knows there."""
    known_cards, views = [], []
    for third, deck_extra in ((["Plot", "Allies"], ["Darkness", "Surprise"]),
                              (["Darkness", "Surprise"], ["Plot", "Allies"])):
        state = spy([["Plan"], ["Reconnaissance", "Intrigue"], third], deck=["Duel", "Raid", *deck_extra], current=1)
        act(state, "Reconnaissance", "Player 3")
        views.append(state.view(0))
        rng = random.Random(5)
        seen = set()
        for _ in range(40):
            world = state.sample_world(0, rng)
            seen.update(C.NAMES[c] for c in world.known[1][2])
        known_cards.append(seen)
    assert views[0] == views[1]
    assert known_cards[0] == known_cards[1]
