"""Shinobi no Gakko's decisions in words and the reasons a set, a take or a pass is refused
(docs/rules/gakko.md: the split, a turn, locking, cleaning the table)."""

from __future__ import annotations

from ninjatable.core import get_game
from ninjatable.games.gakko import actions as A

GAME = get_game("gakko")


def position(hands, table, current=0):
    state = GAME.new_state(len(hands), seed=1)
    state.set_position(hands=hands, table=table, current=current)
    return state


def refused(state, seat=0):
    return {state.action_label(a): reason for a, reason in state.refusals(seat).items()}


def test_the_split_is_one_multi_step_choice_confirmed_by_done():
    state = GAME.new_state(4, seed=3)
    decision = state.decision(2)
    assert decision.multi and decision.confirm == A.DONE
    assert "Heaven" in decision.prompt and "Earth" in decision.prompt
    rank = state.view(2)["seats"][2]["heaven"][0]
    state.apply(2, state.parse_action(f"{rank} to Earth"))
    assert state.decision(2).multi  # still splitting until done
    state.apply(2, A.DONE)
    assert state.decision(2) is None  # the others are still splitting
    assert state.refusals(0) == {}


def test_a_turn_asks_for_each_hand_once_then_for_the_one_left():
    state = position([([5], [9]), ([2], [3]), ([4], [6])], [(3, 1), (7, 1)])
    assert "each hand" in state.decision(0).prompt and not state.decision(0).multi
    state.apply(0, state.parse_action("Heaven pass"))
    assert "now act with Earth" in state.decision(0).prompt
    assert refused(state)["Heaven 1x5"] == "your Heaven has already acted this turn"
    assert refused(state)["Heaven pass"] == "your Heaven has already acted this turn"
    assert "Earth 1x9" not in refused(state)


def test_a_set_must_go_beyond_an_end_not_between_or_on_it():
    state = position([([5, 7], [1]), ([2], [3]), ([4], [6])], [(3, 1), (7, 1)])
    reasons = refused(state)
    assert reasons["Heaven 1x5"] == "a set must go below 3 or above 7, not between or on the ends"
    assert reasons["Heaven 1x7"] == reasons["Heaven 1x5"]
    assert "Earth 1x1" not in reasons  # 1 goes below the 3


def test_a_set_needs_as_many_cards_as_the_end_tier_it_goes_beyond():
    state = position([([9, 9, 9], []), ([2], [3]), ([4], [6])], [(3, 2), (7, 2)])
    reasons = refused(state)
    assert reasons["Heaven 1x9"] == "a set above the 7s needs at least 2 cards, as many as that tier"
    assert "Heaven 2x9" not in reasons and "Heaven 3x9" not in reasons


def test_the_locked_end_refuses_plays_and_takes_with_the_reason():
    state = position([([1, 12], [8]), ([2], [3]), ([4], [6])], [(3, 2), (7, 1)])
    reasons = refused(state)
    locked = "the low end is locked: it holds more cards than the high end"
    assert reasons["Heaven 1x1"] == locked
    assert reasons["Earth take low"] == locked
    assert "Heaven 1x12" not in reasons and "Earth take high" not in reasons


def test_takes_refused_from_a_big_tier_or_a_single_tier():
    state = position([([1], [8]), ([2], [3]), ([4], [6])], [(3, 3), (7, 3)])
    assert refused(state)["Heaven take high"] == "a tier of 3 cards is too big to take (3 or more)"
    single = position([([1], [8]), ([2], [3]), ([4], [6])], [(5, 1)])
    assert refused(single)["Heaven take low"] == "taking needs at least two tiers on the table"


def test_the_cleaner_is_told_to_lead_and_may_not_pass_with_both_hands():
    state = position([([5], [9, 11]), ([2], [3]), ([4], [6])], [(3, 1), (7, 1)])
    state.apply(0, state.parse_action("Heaven pass"))
    state.apply(0, state.parse_action("Earth 1x9"))  # Player 1 holds the shuriken
    for seat in (1, 2):
        state.apply(seat, state.parse_action("Heaven pass"))
        state.apply(seat, state.parse_action("Earth pass"))
    assert state.view(0)["table"] == [] and state.to_move() == (0,)
    assert state.decision(0).prompt.startswith("You cleaned the table")
    state.apply(0, state.parse_action("Heaven pass"))
    assert refused(state)["Earth pass"].startswith("you cleaned the table")


def test_refusals_speak_only_of_the_seats_own_cards():
    state = position([([5], [9]), ([2, 2], [3]), ([4], [6])], [(3, 1), (7, 1)])
    assert all(A.ACTIONS[a].rank in (0, 5, 9) for a in state.refusals(0))
    assert state.refusals(1) == {}  # not to move
