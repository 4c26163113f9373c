"""Ninja Clan Wars: each decision in the rulebook's words, and why a card held may not be played now."""

from __future__ import annotations

from ninjatable.games.clanwars.actions import MISSION, PASS, RECRUIT, SPY

from .helpers import scripted_state


def act(state, *labels: str) -> None:
    for label in labels:
        seat = state.to_move()[0]
        state.apply(seat, state.parse_action(label, seat))


def refusals(state, seat: int) -> dict[str, str]:
    return {state.action_label(a): reason for a, reason in state.refusals(seat).items()}


def test_recruiting_is_one_choice_of_several_ninja_confirmed_by_pass():
    state = scripted_state([["Rogue Ninja", "Geisha Ninja", "Plan"], ["Plot"]], markers=[7, 20])
    decision = state.decision(0)
    assert decision.multi and decision.confirm == PASS
    assert "Recruit Phase" in decision.prompt and "Cost in Shinobi Markers (you have 7)" in decision.prompt
    act(state, "recruit Rogue Ninja")
    assert state.phase == RECRUIT and state.decision(0).multi  # still recruiting, with 4 markers left
    assert "(you have 4)" in state.decision(0).prompt
    assert state.decision(1) is None and state.refusals(1) == {}


def test_a_ninja_too_dear_says_its_cost_and_the_markers_held():
    state = scripted_state([["Legendary Ninja", "Sleeper Agent", "Rogue Ninja"], ["Plot"]], markers=[0, 20])
    reasons = refusals(state, 0)
    assert reasons["recruit Legendary Ninja"] == "it costs 5 Shinobi Markers; you have 0"
    assert reasons["recruit Legendary Ninja with Sleeper Agent"] == ("it costs 1 Shinobi Marker with Sleeper Agent; "
                                                                    "you have 0")
    assert "recruit Rogue Ninja with Sleeper Agent" not in reasons  # its cost 3 less 4 is 0: affordable
    assert reasons["Sleeper Agent"] == "played with a Ninja you recruit, lowering its Cost"


def test_event_cards_wait_for_their_phase():
    state = scripted_state([["Plan", "Distraction", "Duel", "Raid", "Endurance"], ["Plot"]], phase=RECRUIT)
    reasons = refusals(state, 0)
    assert reasons["Plan"] == "played in your Spy Phase"
    assert reasons["Distraction"] == "played in a Stealth or Fight contest"
    assert reasons["Duel"] == "played in your Mission Phase"
    assert reasons["Endurance"] == "played when one of your attacking Ninja is killed"


def test_spy_phase_cards_with_nothing_to_act_on_say_so():
    state = scripted_state([["Defection", "Betrayal", "Plan"], []], markers=[20, 0], ninja=[[], ["Genin 1"]],
                           phase=SPY)
    reasons = refusals(state, 0)
    assert reasons["Defection"] == "no opponent has Shinobi Markers"
    assert "Betrayal" not in reasons and "Plan" not in reasons  # both may be played
    assert state.decision(0).prompt.startswith("Spy Phase: play a card or use a SPY Ninja")


def test_the_attack_is_told_to_the_defender_and_the_contests_name_their_totals():
    state = scripted_state([["Ambush", "Shuriken"], ["Ninja Sword", "Ambush", "Kaiki Opening Tools"]],
                           ninja=[["Rogue Ninja"], ["Geisha Ninja"]], phase=MISSION)
    assert state.decision(0).prompt == ("Mission Phase: choose a Ninja to attack with (1 attack left), "
                                        "or pass on to the Recovery Phase")
    act(state, "Rogue Ninja")
    assert state.decision(0).prompt == "Rogue Ninja attacks: choose an opponent's village or one of their Ninja"
    act(state, "Player 2")
    assert state.decision(1).prompt == ("Player 1 attacks your village with Rogue Ninja: block with one of your "
                                        "Ninja, or pass (no block)")
    act(state, "pass")
    assert state.decision(0).prompt == ("Stealth contest, attacker 3 against defender 0: play a card that adds "
                                        "Stealth, or pass (the defender wins ties)")
    assert refusals(state, 0) == {"Ambush": "defender only", "Shuriken +2F": "+2F adds no Stealth"}
    act(state, "Shuriken +1S")
    reasons = refusals(state, 1)
    assert reasons["Ninja Sword"] == "+3F adds no Stealth"
    assert reasons["Kaiki Opening Tools"] == "attacker only"
    assert "Ambush" not in reasons


def test_the_fight_contest_and_the_attackers_choice_say_what_is_at_stake():
    state = scripted_state([["Plan"], ["Plot"]], ninja=[["Shadow Warrior"], ["Geisha Ninja"]], phase=MISSION)
    act(state, "Shadow Warrior", "Geisha Ninja", "pass", "pass")  # no one else to block: Stealth 5 to 4
    assert state.decision(0).prompt == "You won the Stealth contest: fight Geisha Ninja with Fight +3, or withdraw"
    act(state, "fight")
    assert state.decision(0).prompt == ("Fight contest, attacker 6 against defender 2: play a card that adds Fight, "
                                        "or pass (the defender wins ties; the loser is killed)")
    assert refusals(state, 0) == {"Plan": "played in your Spy Phase"}
