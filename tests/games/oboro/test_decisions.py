"""Oboro names each decision in the rulebook's words and says why a held card may not be played."""

from __future__ import annotations

from ninjatable.core import get_game

GAME = get_game("oboro")


def scripted(hands, leader=0):
    state = GAME.new_state(3, seed=1)
    state.set_position(hands=hands, leader=leader)
    return state


def play(state, label: str) -> None:
    state.apply(state.to_move()[0], state.parse_action(label))


def test_the_lead_player_may_lead_any_card_and_nothing_is_refused():
    state = scripted([["R5", "G1", "B2"], ["R7", "G3", "B1"], ["B8", "G4", "G5"]])
    assert state.decision(0).prompt == "Lead the trick: play any card from your hand"
    assert not state.decision(0).multi
    assert state.refusals(0) == {}
    assert state.decision(1) is None and state.refusals(1) == {}


def test_a_player_holding_the_led_colour_must_follow_it_and_is_told_why_other_cards_are_refused():
    state = scripted([["R5", "G1", "B2"], ["R7", "G3", "B1"], ["B8", "G4", "G5"]])
    play(state, "G1")
    assert state.decision(1).prompt == "Follow the lead: play a green card to the trick"
    refusals = {state.action_label(a): reason for a, reason in state.refusals(1).items()}
    reason = "you must follow green, the led colour, while you hold a green card"
    assert refusals == {"R7": reason, "B1": reason}
    assert [state.action_label(a) for a in state.legal_actions(1)] == ["G3"]


def test_a_player_without_the_led_colour_may_play_any_card():
    state = scripted([["R5", "G1", "B2"], ["R7", "G3", "B1"], ["B8", "R4", "R3"]])
    play(state, "G1")
    play(state, "G3")
    assert state.decision(2).prompt == "Play any card to the trick: you hold no green, the led colour"
    assert state.refusals(2) == {}
    assert sorted(state.action_label(a) for a in state.legal_actions(2)) == ["B8", "R3", "R4"]


def test_a_finished_game_asks_nobody_anything():
    state = GAME.new_state(3, seed=2, max_rounds=1)
    while not state.is_over():
        seat = state.to_move()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    assert all(state.decision(s) is None and state.refusals(s) == {} for s in range(3))
