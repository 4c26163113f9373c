"""Ninjaaa'Tack as people play it live: gestures shown as they are made, the first call to the gong wins, and the
steps a live table holds (passes, made together on a count) or plays at once (gestures, the gong)."""

from __future__ import annotations

import random

from ninjatable.core import Decision, Record, get_game

GAME = get_game("ninjaaatack")
LIVE = GAME.live_options


def new(players: int = 4, seed: int = 1, **options):
    return GAME.new_state(players, seed=seed, **options)


def act(state, seat: int, label: str) -> None:
    state.apply(seat, state.parse_action(label))


def pass_first_cards(state) -> None:
    for seat in list(state.to_move()):
        act(state, seat, f"pass {next(iter(state.view(seat)['hand']))}")


def test_a_live_table_races_to_the_gong_and_shows_gestures_as_made():
    assert LIVE == {"gong_order": "arrival", "talk": "at_once"}
    assert GAME.describe()["live"] == LIVE  # the lobby plays a live table with these options
    assert get_game("dragon").describe()["live"] is None


def test_a_gesture_shown_at_once_is_seen_by_everybody_before_the_others_decide():
    state = new(**LIVE)
    pass_first_cards(state)
    act(state, 1, "signal wink")
    assert state.to_move() == (0, 2, 3)  # the others still decide
    for viewer in (None, 0, 2, 3):
        assert [(g["seat"], g["signal"]) for g in state.view(viewer)["signals"]] == [(1, "wink")]
    assert [e.text for e in state.events if e.kind == "signal"] == ["Player 2 signals: wink"]


def test_gestures_made_together_stay_hidden_until_every_seat_has_decided():
    state = new()
    pass_first_cards(state)
    act(state, 1, "signal wink")
    assert state.view(0)["signals"] == []
    for seat in (0, 2, 3):
        act(state, seat, "silence")
    assert [(g["seat"], g["signal"]) for g in state.view(0)["signals"]] == [(1, "wink")]


def test_live_steps_hold_passes_and_play_gestures_and_calls_at_once():
    state = new(**LIVE)
    n = state.players
    calls = {state.parse_action("ninjaaa"), *(a for a in range(GAME.num_actions(n))
                                              if state.action_label(a).startswith("attack"))}
    step = state.live_step()
    assert step.held and step.instant == frozenset(calls) and step.default is None
    pass_first_cards(state)
    step = state.live_step()
    assert not step.held and step.instant == frozenset(calls) and step.default == state.parse_action("silence")
    assert new().live_step() is None  # a table that does not play live


def test_the_first_call_to_arrive_is_resolved_at_once_at_a_live_table():
    state = new(**LIVE)
    act(state, 2, "pass " + next(iter(state.view(2)["hand"])))
    act(state, 1, "ninjaaa")
    # The call ended the round at once: Player 3's pass was void and a new round is dealt.
    assert state.view(None)["round"] == 2
    assert state.view(None)["last_call"]["caller"] == 1


def test_each_step_is_named_in_words():
    state = new(**LIVE)
    assert state.decision(0) == Decision("Choose a card to pass to the left, or tap the gong")
    pass_first_cards(state)
    assert state.decision(0).prompt == "Make a gesture to your teammate or stay silent, or tap the gong"
    odd = new(5, **LIVE)
    pass_first_cards(odd)
    assert odd.decision(0).prompt.startswith("You are the lone wolf")  # Player 1 is round 1's lone wolf


def test_a_live_game_replays_exactly_from_its_record():
    rng = random.Random(4)
    state = new(5, seed=9, max_rounds=8, **LIVE)
    while not state.is_over():
        seat = rng.choice(state.to_move())
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    record = Record.from_state(state)
    again = Record.from_json(record.to_json()).replay()
    assert again.result() == state.result() and again.history == state.history


def test_sampled_worlds_keep_gestures_already_shown():
    state = new(**LIVE)
    pass_first_cards(state)
    act(state, 1, "signal wink")
    world = state.sample_world(0, random.Random(1))
    assert world.pending[1] == state.parse_action("signal wink")
