"""Ninja Clan Wars: scripted combats for every branch of the Stealth and Fight contests."""

from __future__ import annotations

import pytest

from ninjatable.core import IllegalAction
from ninjatable.games.clanwars import cards as C
from ninjatable.games.clanwars.actions import BLOCK, ENDURANCE, FIGHT, MISSION, PRESS, STEALTH, TARGET_CHOICE
from ninjatable.games.clanwars.cards import UNIT_ID

from .helpers import scripted_state

DECK = ["Plot", "Duel", "Raid", "Allies", "Plan", "Darkness"]


def act(state, *labels: str) -> None:
    for label in labels:
        seat = state.to_move()[0]
        state.apply(seat, state.parse_action(label, seat))


def labels(state) -> set[str]:
    seat = state.to_move()[0]
    return {state.action_label(a) for a in state.legal_actions(seat)}


def in_play(state, seat) -> set[str]:
    return {C.UNITS[u].name for u in state.units_of(seat)}


def combat(attackers, defenders, hands=(("Plan",), ("Plot",)), markers=(20, 20), players=2):
    """Player 1 (seat 0) in its Mission Phase with `attackers` in play; player 2 owns `defenders`."""
    hands = [list(h) for h in hands] + [["Allies"]] * (players - len(hands))
    ninja = [list(attackers), list(defenders)] + [[] for _ in range(players - 2)]
    return scripted_state(hands, deck=DECK, ninja=ninja, markers=list(markers) + [20] * (players - 2),
                          phase=MISSION)


def totals(state):
    view = state.view(None)["combat"]
    return view["contest"], view["totals"]


# --- attacking a village --------------------------------------------------------------------------
def test_attacker_wins_stealth_gets_plus_three_fight_and_the_village_pays_the_difference():
    state = combat(["Rogue Ninja"], [])
    act(state, "Rogue Ninja", "Player 2")
    assert state.phase == STEALTH and totals(state) == ("stealth", [3, 0])
    act(state, "pass", "pass", "fight")
    assert state.phase == FIGHT and totals(state) == ("fight", [6, 0])  # 3 + 3
    act(state, "pass", "pass")
    assert state.markers[1] == 20 - 6
    assert in_play(state, 0) == {"Rogue Ninja"}


def test_attacker_that_wins_stealth_may_withdraw_instead_of_fighting():
    state = combat(["Geisha Ninja"], ["Beast Ninja"])
    act(state, "Geisha Ninja", "Beast Ninja", "pass", "pass")  # Stealth 4 against 3; Fight would be 2 + 3 = 5 to 5
    assert state.phase == PRESS and state.to_move() == (0,) and labels(state) == {"fight", "withdraw"}
    act(state, "withdraw")
    assert in_play(state, 0) == {"Geisha Ninja"} and in_play(state, 1) == {"Beast Ninja"}
    assert state.current == 1  # the attack was used: the turn goes on to Recovery


def test_village_events_raise_its_ratings_and_reduce_the_loss():
    state = combat(["Rogue Ninja"], [], hands=(["Plan"], ["Ninja Sword", "Chain & Sickle"]))
    act(state, "Rogue Ninja", "Player 2", "pass", "pass", "fight")
    act(state, "pass", "Ninja Sword")  # fight: the village gets +3F
    assert totals(state) == ("fight", [6, 3])
    act(state, "pass", "pass")
    assert state.markers[1] == 20 - 3


def test_unblocked_village_that_wins_stealth_uses_up_the_attack():
    state = combat(["Rogue Ninja"], [], hands=(["Plan"], ["Ambush"]))
    act(state, "Rogue Ninja", "Player 2", "pass", "Ambush")  # +5S Defender only
    assert totals(state) == ("stealth", [3, 5])
    act(state, "pass", "pass")
    assert state.phase != FIGHT and state.markers[1] == 20
    assert in_play(state, 0) == {"Rogue Ninja"}  # no fight, nobody dies
    assert state.current == 1  # the only attack was used up


def test_stealth_tie_goes_to_the_defender():
    state = combat(["Rogue Ninja"], [], hands=(["Plan"], ["Distraction"]))
    act(state, "Rogue Ninja", "Player 2", "pass", "Distraction", "pass", "pass")  # 3 against 3
    assert state.markers[1] == 20 and state.current == 1


def test_attacker_losing_the_fight_against_a_village_is_killed():
    state = combat(["Elder Ninja"], [], hands=(["Plan"], ["Ninja Sword", "Taijutsu Strikes", "Chain & Sickle"]))
    act(state, "Elder Ninja", "Player 2", "pass", "pass", "fight")  # Stealth 2 > 0: fight with 1 + 3 = 4
    act(state, "pass", "Ninja Sword", "pass", "Taijutsu Strikes", "pass", "pass")  # village 6
    assert state.units_of(0) == [] and state.markers[1] == 20
    assert C.card_id("Elder Ninja") in state.discard


def test_village_cannot_lose_more_markers_than_it_has():
    state = combat(["Legendary Ninja"], ["Elder Ninja"], markers=(20, 3))
    act(state, "Legendary Ninja", "Player 2", "pass", "pass", "pass", "fight", "pass", "pass")
    assert state.markers[1] == 0 and not state.defeated[1]  # still has a Ninja


# --- contests: both sides play in turn until both pass -------------------------------------------
def test_contest_continues_until_both_pass_consecutively():
    state = combat(["Rogue Ninja"], [], hands=(["Distraction", "Surprise", "Plan"], ["Concealment", "Darkness", "Plot"]))
    act(state, "Rogue Ninja", "Player 2")
    act(state, "pass", "Concealment")  # attacker passed first, the defender plays: not over
    assert state.phase == STEALTH and state.to_move() == (0,)
    act(state, "Distraction", "Darkness", "Surprise")
    assert totals(state) == ("stealth", [9, 6])
    act(state, "pass")
    assert state.phase == STEALTH  # one pass is not enough
    act(state, "pass", "fight")
    assert state.phase == FIGHT


def test_attacker_only_and_defender_only_events():
    state = combat(["Rogue Ninja"], [], hands=(["Ambush", "Kaiki Opening Tools", "Plan"],
                                               ["Ghost Technique", "Escape", "Plot"]))
    act(state, "Rogue Ninja", "Player 2")
    assert labels(state) == {"pass", "Kaiki Opening Tools"}
    act(state, "pass")
    assert labels(state) == {"pass", "Escape"}


def test_fight_only_events_cannot_be_played_in_the_stealth_contest():
    state = combat(["Rogue Ninja"], [], hands=(["Ninja Sword", "Kunai Knives", "Sow Confusion"], ["Plot"]))
    act(state, "Rogue Ninja", "Player 2")
    assert labels(state) == {"pass", "Kunai Knives +1S", "Sow Confusion"}
    act(state, "pass", "pass", "fight")
    assert labels(state) == {"pass", "Kunai Knives +2F", "Ninja Sword"}


def test_a_side_with_no_cards_passes_by_itself():
    state = combat(["Rogue Ninja"], [], hands=(["Plan"], []))
    act(state, "Rogue Ninja", "Player 2", "pass", "fight")
    assert state.phase == FIGHT and state.to_move() == (0,)


# --- attacking a Ninja: blocks and the target's choices ------------------------------------------
def test_defender_may_block_with_any_ninja_or_not():
    state = combat(["Rogue Ninja"], ["Geisha Ninja", "Beast Ninja"])
    act(state, "Rogue Ninja", "Geisha Ninja")
    assert state.phase == BLOCK and state.to_move() == (1,)
    assert labels(state) == {"pass", "Beast Ninja"}


def test_blocker_that_wins_stealth_must_fight_without_bonus():
    state = combat(["Rogue Ninja"], ["Samurai Ninja", "Geisha Ninja"])  # Geisha 4S blocks Rogue 3S
    act(state, "Rogue Ninja", "Player 2", "Geisha Ninja", "pass", "pass")
    assert state.phase == FIGHT and totals(state) == ("fight", [3, 2])  # no +3 for a blocker
    act(state, "pass", "pass")
    assert in_play(state, 1) == {"Samurai Ninja"}  # Geisha killed


def test_attacker_that_beats_a_blocker_attacks_the_original_target():
    state = combat(["Shadow Warrior"], ["Elder Ninja", "Rogue Ninja"])  # 5S against Rogue 3 + Elder's 1
    act(state, "Shadow Warrior", "Elder Ninja", "Rogue Ninja", "pass", "pass", "fight")
    assert state.phase == FIGHT
    view = state.view(None)["combat"]
    assert [d["name"] for d in view["defending"]] == ["Elder Ninja"] and view["totals"] == [6, 1]
    act(state, "pass", "pass")
    assert in_play(state, 1) == {"Rogue Ninja"}  # the blocker stood aside; the target died


def test_target_that_wins_stealth_may_negate():
    state = combat(["Rogue Ninja"], ["Shadow Warrior"])
    act(state, "Rogue Ninja", "Shadow Warrior", "pass", "pass")
    assert state.phase == TARGET_CHOICE and state.to_move() == (1,)
    act(state, "negate")
    assert in_play(state, 0) == {"Rogue Ninja"} and in_play(state, 1) == {"Shadow Warrior"}


def test_target_that_wins_stealth_may_fight_back_with_plus_three():
    state = combat(["Rogue Ninja"], ["Shadow Warrior"])
    act(state, "Rogue Ninja", "Shadow Warrior", "pass", "pass", "fight")
    assert totals(state) == ("fight", [3, 6])
    act(state, "pass", "pass")
    assert in_play(state, 0) == set()


def test_target_may_substitute_another_friendly_ninja_who_gets_plus_three():
    state = combat(["Beast Ninja"], ["Shadow Warrior", "Rogue Ninja"])
    act(state, "Beast Ninja", "Shadow Warrior", "pass", "pass", "pass")
    assert labels(state) == {"negate", "fight", "Rogue Ninja"}
    act(state, "Rogue Ninja")
    assert totals(state) == ("fight", [5, 6])  # Rogue 3 + 3 against Beast 5
    act(state, "pass", "pass")
    assert in_play(state, 0) == set() and in_play(state, 1) == {"Shadow Warrior", "Rogue Ninja"}


def test_fight_tie_goes_to_the_defender():
    state = combat(["Rogue Ninja"], [], hands=(["Plan"], ["Ninja Sword", "Chain & Sickle"]))
    act(state, "Rogue Ninja", "Player 2", "pass", "pass", "fight")  # Stealth 3 > 0: Fight 3 + 3
    act(state, "pass", "Ninja Sword", "pass", "Chain & Sickle", "pass", "pass")  # 6 against 6
    assert in_play(state, 0) == set() and state.markers[1] == 20


def test_blocker_fight_tie_kills_the_attacker():
    state = combat(["Rogue Ninja"], ["Geisha Ninja", "Ninja Bodyguard"])
    act(state, "Rogue Ninja", "Geisha Ninja", "Ninja Bodyguard", "pass", "pass")  # 3 against 1 + 4
    assert totals(state) == ("fight", [3, 3])
    act(state, "pass", "pass")
    assert in_play(state, 0) == set() and in_play(state, 1) == {"Geisha Ninja", "Ninja Bodyguard"}


# --- ability conditions ------------------------------------------------------------------------------
def test_bodyguard_gets_plus_four_stealth_only_when_blocking():
    state = combat(["Shadow Warrior"], ["Ninja Bodyguard", "Geisha Ninja"])
    act(state, "Shadow Warrior", "Ninja Bodyguard")
    act(state, "Geisha Ninja")
    assert totals(state) == ("stealth", [5, 4])  # blocking Geisha, not the Bodyguard
    state = combat(["Shadow Warrior"], ["Ninja Bodyguard", "Geisha Ninja"])
    act(state, "Shadow Warrior", "Geisha Ninja", "Ninja Bodyguard")
    assert totals(state) == ("stealth", [5, 5])


def test_assassin_and_nokizaru_bonuses_when_attacking_only():
    state = combat(["Ninja Assassin"], ["Nokizaru Commandos"])
    act(state, "Ninja Assassin", "Nokizaru Commandos")
    assert totals(state) == ("stealth", [5, 2])  # 3+2 attacking; Nokizaru defending gets nothing
    act(state, "pass", "pass", "fight")
    assert totals(state) == ("fight", [8, 2])  # 3+2+3
    state = combat(["Nokizaru Commandos"], ["Geisha Ninja"])
    act(state, "Nokizaru Commandos", "Player 2", "pass")
    assert totals(state) == ("stealth", [3, 0])


def test_kunoichi_gets_plus_two_fight_only_if_unblocked():
    state = combat(["Kunoichi Seductress"], ["Rogue Ninja"])
    act(state, "Kunoichi Seductress", "Player 2", "pass", "pass", "pass", "fight")
    assert totals(state) == ("fight", [7, 0])  # 2 + 2 + 3
    state = combat(["Kunoichi Seductress"], ["Elder Ninja"])
    act(state, "Kunoichi Seductress", "Player 2", "Elder Ninja", "pass", "pass", "fight")  # 3 against 2: past it
    assert totals(state) == ("fight", [5, 0])  # blocked: no +2


def test_samurai_gets_plus_two_fight_when_defending():
    state = combat(["Shadow Warrior"], ["Samurai Ninja"])
    act(state, "Shadow Warrior", "Samurai Ninja", "pass", "pass", "fight")
    assert totals(state) == ("fight", [6, 4])
    state = combat(["Samurai Ninja"], [])
    act(state, "Samurai Ninja", "Player 2", "pass", "pass", "fight")
    assert totals(state) == ("fight", [5, 0])  # attacking: 2 + 3


def test_chunin_draws_a_card_when_attacking():
    state = combat(["Chunin"], [])
    act(state, "Chunin", "Player 2")
    assert C.card_id("Darkness") in state.hands[0] and len(state.deck) == len(DECK) - 1


def test_clan_leader_gives_all_other_ninja_fight_plus_one():
    state = combat(["Rogue Ninja", "Clan Leader"], [])
    assert state.rating(UNIT_ID["Rogue Ninja"], 1) == 4 and state.rating(UNIT_ID["Clan Leader"], 1) == 3
    act(state, "Rogue Ninja", "Player 2", "pass", "pass", "fight")
    assert totals(state) == ("fight", [7, 0])


def test_elder_gives_all_other_ninja_stealth_plus_one_including_tokens():
    state = combat(["Genin 1", "Elder Ninja"], ["Geisha Ninja"])
    assert state.rating(UNIT_ID["Genin 1"], 0) == 3 and state.rating(UNIT_ID["Elder Ninja"], 0) == 2
    act(state, "Genin 1", "Geisha Ninja", "pass", "pass")
    assert state.phase == TARGET_CHOICE  # 3 against 4


def test_ecp_ninjitsu_master_adds_stealth_per_event_card():
    state = combat(["Ninjitsu Master"], [], hands=(["Distraction", "Spit Needles", "Plan"], ["Plot"]))
    act(state, "Ninjitsu Master", "Player 2", "Distraction", "pass", "Spit Needles +2S")
    assert totals(state) == ("stealth", [4 + 3 + 1 + 2 + 1, 0])
    act(state, "pass", "pass", "fight")
    assert totals(state) == ("fight", [7, 0])  # no Fight ECP


def test_ecp_battlefield_ninja_adds_fight_per_event_card():
    state = combat(["Battlefield Ninja"], [], hands=(["Ninja Sword", "Surprise"], ["Plot"]))
    act(state, "Battlefield Ninja", "Player 2", "Surprise", "pass", "pass", "fight")
    assert totals(state) == ("fight", [7, 0])  # no Stealth ECP carried into the fight
    act(state, "Ninja Sword")
    assert totals(state) == ("fight", [4 + 3 + 3 + 1, 0])


def test_grapple_negates_the_opposing_fight_bonus_event():
    state = combat(["Rogue Ninja"], [], hands=(["Ninja Sword", "Fukiya Blowpipe", "Plan"], ["Taijutsu Grapple", "Plot"]))
    act(state, "Rogue Ninja", "Player 2", "pass", "pass", "fight")
    act(state, "Fukiya Blowpipe +2F", "pass", "Ninja Sword")
    assert totals(state) == ("fight", [11, 0])
    act(state, "Taijutsu Grapple")  # +2F, and the Sword (+3, the largest) is negated
    assert totals(state) == ("fight", [8, 2])
    plays = state.view(None)["combat"]["plays"]
    assert [p["negated"] for p in plays] == [False, True, False]


def test_grapple_without_an_opposing_fight_event_just_adds_two():
    state = combat(["Rogue Ninja"], [], hands=(["Taijutsu Grapple"], ["Plot"]))
    act(state, "Rogue Ninja", "Player 2", "pass", "pass", "fight", "Taijutsu Grapple")
    assert totals(state) == ("fight", [8, 0])


@pytest.mark.parametrize("card", ["Sow Confusion", "Trick", "Secret Technique"])
def test_boosts_that_make_the_opponent_discard_a_random_card(card):
    state = combat(["Rogue Ninja"], [], hands=([card], ["Plot", "Allies"]))
    act(state, "Rogue Ninja", "Player 2")
    label = card if card == "Sow Confusion" else f"{card} +1S"
    act(state, label)
    assert len(state.hands[1]) == 1 and len(state.discard) == 1
    assert state.discard[0] in (C.card_id("Plot"), C.card_id("Allies"))
    assert totals(state)[1][0] == 3 + C.CARDS[C.card_id(card)].effect.choices[0][0]


# --- extra attacks, extra Ninja, Endurance ----------------------------------------------------------
@pytest.mark.parametrize("card", ["Covert Action", "Assassination", "Duel"])
def test_extra_attack_with_a_second_ninja(card):
    state = combat(["Rogue Ninja", "Geisha Ninja"], [], hands=([card, "Plan"], ["Plot"]))
    act(state, card, "Rogue Ninja", "Player 2", "pass", "pass", "fight", "pass", "pass")
    assert state.markers[1] == 14 and state.phase == MISSION
    assert "Rogue Ninja" not in labels(state)  # a Ninja attacks once per turn
    act(state, "Geisha Ninja", "Player 2", "pass", "pass", "fight", "pass", "pass")
    assert state.markers[1] == 14 - 5
    assert state.current == 1


def test_extra_attack_needs_a_second_ninja():
    state = combat(["Rogue Ninja"], [], hands=(["Duel", "Plan"], ["Plot"]))
    assert "Duel" not in labels(state)


def test_one_attack_per_turn_without_an_extra_attack_card():
    state = combat(["Rogue Ninja", "Geisha Ninja"], [])
    act(state, "Rogue Ninja", "Player 2", "pass", "pass", "fight", "pass", "pass")
    assert state.phase == MISSION and labels(state) == {"pass"}
    act(state, "pass")
    assert state.current == 1


@pytest.mark.parametrize(("card", "extra"), [("Skirmish", 1), ("Raid", 1), ("Battle", 2), ("Castle Assault", 2)])
def test_mass_combat_each_side_adds_extra_ninja_and_ratings_are_summed(card, extra):
    mine = ["Rogue Ninja", "Geisha Ninja", "Elder Ninja"]
    theirs = ["Beast Ninja", "Samurai Ninja", "Genin 1", "Genin 2"]
    state = combat(mine, theirs, hands=([card, "Plan"], ["Plot"]))
    act(state, card, "Rogue Ninja", "Beast Ninja")
    act(state, *["Geisha Ninja", "Elder Ninja"][:extra])
    assert state.phase == BLOCK
    act(state, "pass")  # no blocker: the target heads the defence
    act(state, *["Samurai Ninja", "Genin 1"][:extra])
    assert state.phase == STEALTH
    att_s = [3 + 1, 4 + 1, 2][: 1 + extra]  # Elder gives the others +1S
    def_s = [3, 2, 2][: 1 + extra]
    assert totals(state) == ("stealth", [sum(att_s), sum(def_s)])
    act(state, "pass", "pass", "fight")
    att_f = sum([3, 2, 1][: 1 + extra]) + 3
    def_f = sum([5, 2 + 2, 1][: 1 + extra])  # Samurai +2F when defending
    assert totals(state) == ("fight", [att_f, def_f])
    act(state, "pass", "pass")
    if att_f > def_f:
        assert in_play(state, 1) == set(theirs) - {"Beast Ninja", "Samurai Ninja", "Genin 1"}
    else:
        assert in_play(state, 0) == set(mine[1 + extra:])


def test_mass_combat_limits_the_extra_ninja():
    state = combat(["Rogue Ninja", "Geisha Ninja", "Elder Ninja"], ["Beast Ninja"], hands=(["Raid", "Plan"], ["Plot"]))
    act(state, "Raid", "Rogue Ninja", "Player 2", "Geisha Ninja")
    assert state.phase == BLOCK  # one extra only


def test_endurance_puts_the_killed_attacking_ninja_back_in_hand():
    state = combat(["Rogue Ninja"], ["Beast Ninja"], hands=(["Endurance"], ["Plot"]))
    act(state, "Rogue Ninja", "Beast Ninja", "pass", "pass", "fight", "pass", "pass")
    assert state.phase == ENDURANCE and labels(state) == {"pass", "Rogue Ninja"}
    act(state, "Rogue Ninja")
    assert C.card_id("Rogue Ninja") in state.hands[0] and C.card_id("Endurance") in state.discard
    assert C.card_id("Rogue Ninja") in state.known[1][0]  # everybody saw it go back
    assert C.card_id("Rogue Ninja") not in state.discard


def test_endurance_cannot_save_a_token_or_a_defender():
    state = combat(["Genin 1"], ["Beast Ninja"], hands=(["Endurance"], ["Plot"]))
    act(state, "Genin 1", "Beast Ninja", "pass", "pass", "fight", "pass", "pass")
    assert state.phase != ENDURANCE and state.units_of(0) == []
    state = scripted_state([["Plan"], ["Endurance"]], deck=DECK, ninja=[["Legendary Ninja"], ["Rogue Ninja"]],
                           phase=MISSION)
    act(state, "Legendary Ninja", "Rogue Ninja", "pass", "pass", "fight", "pass", "pass")
    assert state.phase != ENDURANCE and state.units_of(1) == []


def test_cannot_attack_own_ninja_or_village():
    state = combat(["Rogue Ninja", "Geisha Ninja"], ["Beast Ninja"])
    act(state, "Rogue Ninja")
    assert labels(state) == {"Player 2", "Beast Ninja"}
    with pytest.raises(IllegalAction):
        act(state, "Geisha Ninja")


def test_the_defender_may_play_a_mass_combat_card_when_blocking():
    state = combat(["Rogue Ninja", "Geisha Ninja"], ["Beast Ninja", "Samurai Ninja"],
                   hands=(["Plan"], ["Skirmish", "Plot"]))
    act(state, "Rogue Ninja", "Player 2")
    assert "Skirmish" in labels(state)
    act(state, "Skirmish")  # the attacker may now add one Ninja, then the defender blocks and adds one
    assert state.to_move() == (0,) and labels(state) == {"pass", "Geisha Ninja"}
    act(state, "Geisha Ninja")
    assert state.phase == BLOCK and "Skirmish" not in labels(state)
    act(state, "Beast Ninja", "Samurai Ninja")
    assert state.phase == STEALTH
    assert totals(state) == ("stealth", [3 + 4, 3 + 2])


def test_the_endurance_decision_does_not_reveal_whether_the_attacker_holds_endurance():
    """A lost attack looks the same to the defender whether or not the attacker holds Endurance."""
    views = []
    for card in ("Endurance", "Allies"):
        state = combat(["Rogue Ninja"], ["Beast Ninja"], hands=([card], ["Plot"]))
        act(state, "Rogue Ninja", "Beast Ninja", "pass", "pass", "fight", "pass", "pass")
        views.append(state.view(1))
        if card == "Allies":
            assert labels(state) == {"pass"}  # offered, but there is nothing to play
    assert views[0] == views[1]


def test_a_world_sampled_by_the_defender_during_the_endurance_decision_can_be_played():
    import random

    state = combat(["Rogue Ninja"], ["Beast Ninja"], hands=(["Endurance", "Allies"], ["Plot"]))
    act(state, "Rogue Ninja", "Beast Ninja", "pass", "pass", "fight", "pass", "pass")
    assert state.phase == ENDURANCE
    rng = random.Random(7)
    for _ in range(30):
        world = state.sample_world(1, rng)
        for action in world.legal_actions(0):
            world.clone().apply(0, action)


def test_an_extra_attack_card_may_be_played_after_the_first_attack():
    state = combat(["Rogue Ninja", "Geisha Ninja"], [], hands=(["Covert Action", "Plan"], ["Plot"]))
    act(state, "Rogue Ninja", "Player 2", "pass", "pass", "fight", "pass", "pass")
    assert state.phase == MISSION and labels(state) == {"pass", "Covert Action"}
    act(state, "Covert Action", "Geisha Ninja", "Player 2", "pass", "pass", "fight", "pass", "pass")
    assert state.markers[1] == 20 - 6 - 5


def test_after_the_stealth_contest_the_view_shows_its_result_not_a_recount_against_the_target():
    state = combat(["Shadow Warrior"], ["Elder Ninja", "Rogue Ninja"])  # Elder (2S) blocks for Rogue (3S + 1)
    act(state, "Shadow Warrior", "Rogue Ninja", "Elder Ninja", "pass", "pass")
    assert state.phase == PRESS
    assert totals(state) == ("stealth", [5, 2])  # the contest that was held: against the blocker
    act(state, "fight")
    assert totals(state) == ("fight", [3 + 3, 3])  # now against the original target


def test_during_the_endurance_decision_the_view_shows_the_fight_that_was_lost():
    state = combat(["Rogue Ninja"], ["Beast Ninja"], hands=(["Endurance", "Ninja Sword"], ["Plot"]))
    act(state, "Rogue Ninja", "Beast Ninja", "pass", "pass", "fight", "Ninja Sword", "pass", "pass")
    assert state.phase == ENDURANCE
    assert totals(state) == ("fight", [3 + 3, 5 + 3])
