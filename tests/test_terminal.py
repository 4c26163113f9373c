"""Terminal play as a person types it: one move or a multi-step choice in one line, undo, help, scripted input."""

from __future__ import annotations

import io
import random

import pytest
from rich.console import Console

from ninjatable.core import Decision, all_games, get_game, render_text
from ninjatable.games.gakko import actions as gakko_actions
from ninjatable.games.gakko.rules import GakkoState
from ninjatable.terminal.play import play_in_terminal

DRAGON_SELF_DIVIDES = 6  # with this seed, Player 1 performs the Bodily Division before the first trick


class Script:
    """Typed answers in turn (then `q`), each checked against the state when it is asked for."""

    def __init__(self, answers, state=None, limit: int = 5000):
        self.answers = list(answers)
        self.state = state
        self.limit = limit
        self.asked = 0
        self.history_when_asked: list[int] = []

    def __call__(self, _prompt: str) -> str:
        self.asked += 1
        if self.asked > self.limit:
            raise AssertionError("scripted play went on without end")
        if self.state is not None:
            self.history_when_asked.append(len(self.state.history))
        if not self.answers:
            return "q"
        return self.answers.pop(0) if self.answers[0] != "FOREVER" else self.answers[1]


def play(state, answers, repeats=3, opponents=("random",)):
    out = io.StringIO()
    script = Script(answers, state)
    play_in_terminal(state, 0, list(opponents), console=Console(file=out, width=80), ask=script, repeats=repeats)
    return out.getvalue(), script


GAMES = [g.id for g in all_games()]


@pytest.mark.parametrize("game_id", GAMES)
def test_typing_1_for_ever_ends_the_game_or_is_refused(game_id):
    state = get_game(game_id).new_state(seed=1)
    output, _ = play(state, ["FOREVER", "1"])
    assert state.is_over() or "refused 3 times in a row" in output, output[-2000:]


def test_bodily_division_takes_several_cards_in_one_line_and_plays_them_once_confirmed():
    state = get_game("dragon").new_state(4, seed=DRAGON_SELF_DIVIDES)
    hand = list(state.view(0)["seats"][0]["hand"])
    first, second, third = hand[0], hand[1], hand[4]
    output, script = play(state, [f"{first} {second}", "5", "done", "q"])
    assert "Bodily Division: set aside cards for your 2nd half" in output
    assert f"Chosen: {first} {second}\n" in output and f"Chosen: {first} {second} {third}\n" in output
    assert script.history_when_asked[0] == script.history_when_asked[2], "nothing played before done"
    assert state.view(0)["seats"][0]["pile"] == sorted([first, second, third], key=hand.index)
    assert output.count("Your hand:") == 2, "the board is drawn once per decision, not once per step"


def test_a_draft_is_undone_step_by_step_or_by_name_before_confirming():
    state = get_game("dragon").new_state(4, seed=DRAGON_SELF_DIVIDES)
    hand = list(state.view(0)["seats"][0]["hand"])
    output, _ = play(state, ["1 2 3", "undo", f"undo {hand[0]}", "undo", "undo", "1", "1", "done", "q"])
    assert f"Chosen: {hand[1]}\n" in output
    assert "Chosen: nothing yet" in output
    assert "nothing chosen yet to take back" in output
    assert f"{hand[0]} is already chosen; undo {hand[0]} takes it back" in output
    assert state.view(0)["seats"][0]["pile"] == [hand[0]]


def test_a_refused_step_refuses_the_whole_line_and_keeps_the_draft():
    state = get_game("dragon").new_state(4, seed=DRAGON_SELF_DIVIDES)
    hand = list(state.view(0)["seats"][0]["hand"])
    output, _ = play(state, ["1", f"{hand[1]} 99", "done 2", "done", "q"])
    assert "99 is not on the menu; choose 1 to 12" in output
    assert "done comes last" in output
    assert state.view(0)["seats"][0]["pile"] == [hand[0]]


def test_help_gives_examples_from_the_moves_on_offer():
    state = get_game("oboro").new_state(3, seed=1)
    while 0 not in state.to_move():
        state.apply(state.to_move()[0], state.legal_actions(state.to_move()[0])[0])
    first = state.action_label(state.legal_actions(0)[0])
    output, _ = play(state, ["?", "q"])
    assert f"for example {first} or" in output and "R7 or done" not in output


def split_is_multi(self, seat):
    """Shinobi no Gakko's split as a multi-step choice ended by `done` (how a game names such a step)."""
    if self.phase == 0:
        return Decision("Split your hand: move cards between Heaven and Earth, then done", multi=True,
                        confirm=gakko_actions.DONE)
    return Decision("Choose your move")


def test_any_multi_step_choice_is_a_draft_and_a_card_moved_back_undoes_its_move(monkeypatch):
    monkeypatch.setattr(GakkoState, "_decision", split_is_multi)
    state = get_game("gakko").new_state(4, seed=2)
    ranks = sorted({int(a.split()[0]) for a in map(state.action_label, state.legal_actions(0)) if "Earth" in a})
    low, high = ranks[0], ranks[-1]
    output, _ = play(state, [f"{low} to Earth, {high} to Earth", f"{low} to Heaven", "done", "q"])
    assert f"Chosen: {low} to Earth {high} to Earth\n" in output
    assert f"Chosen: {high} to Earth\n" in output, "moving a card back takes its step out of the draft"
    assert state.phase != 0 or state.view(0)["seats"][0]["split_done"]
    assert [c for c in state.view(0)["seats"][0]["earth"]] == [high]


def test_typing_1_for_ever_through_a_multi_step_split_is_refused_not_endless(monkeypatch):
    monkeypatch.setattr(GakkoState, "_decision", split_is_multi)
    state = get_game("gakko").new_state(4, seed=2)
    output, script = play(state, ["FOREVER", "1"])
    assert "refused 3 times in a row" in output and script.asked < 30


def test_a_card_moved_and_moved_back_in_a_draft_leaves_nothing_chosen():
    state = get_game("gakko").new_state(4, seed=2)  # the split: a multi-step choice
    first = state.action_label(state.legal_actions(0)[0])
    back = first.replace("Earth", "Heaven")
    output, _ = play(state, [first, back, "q"], repeats=None)
    assert f"Chosen: {first}\n" in output and f"{first} {back}" not in output


@pytest.mark.parametrize("game_id", GAMES)
def test_every_board_reads_at_80_columns_from_deal_to_game_over(game_id):
    game = get_game(game_id)
    state = game.new_state(seed=3)
    rng = random.Random(0)
    while True:
        for seat in range(state.players):
            text = render_text(game, state.view(seat), width=80)
            assert "…" not in text and all(len(line) <= 80 for line in text.splitlines()), text
        if state.is_over():
            break
        for _ in range(9):  # a look every few moves keeps it quick
            if state.is_over():
                break
            mover = state.to_move()[0]
            state.apply(mover, rng.choice(state.legal_actions(mover)))
    assert "Winner" not in text, "the front end names the winners, once"


def test_dragon_header_says_what_is_happening_and_hides_the_old_scale_while_picking_blind():
    game = get_game("dragon")
    state = game.new_state(4, seed=6)
    first = render_text(game, state.view(0), width=80).splitlines()
    assert first[1] == "Bodily Division Jutsu: its practitioner sets aside a 2nd-half pile"
    state.revealed_scale = [0, 1]  # as if a round had ended with this scale
    state.phase = 0  # the Summoning Jutsu's blind pick
    assert "Inverted Scale revealed" not in render_text(game, state.view(0), width=80)


def test_gakko_shows_its_own_earth_face_down_during_the_split_and_names_heavens_by_owner():
    game = get_game("gakko")
    state = game.new_state(4, seed=2)
    state.apply(0, state.legal_actions(0)[0])
    text = render_text(game, state.view(0), width=80)
    assert "Earth (public)" not in text and "1 card face down" in text
    assert "Your Earth (face down until all have split)" in text


def test_a_refused_card_lists_what_is_allowed_without_calling_it_play():
    state = get_game("dragon").new_state(4, seed=DRAGON_SELF_DIVIDES)
    hand = state.view(0)["seats"][0]["hand"]
    missing = next(label for label in ("P1", "P2", "P3", "R1", "R2") if label not in hand)
    output, _ = play(state, [missing, "q"])
    assert f"{missing} is not allowed now; allowed: " in output and "may play" not in output
