"""The terminal table shows the seat's hand by family, the signals, the scores, the penalties and the teams."""

from __future__ import annotations

from ninjatable.core import get_game, render_text

GAME = get_game("ninjaaatack")

DEAL = [
    ["Fox", "Fox", "Crane", "Tiger"],
    ["Crane", "Tiger", "Dragon", "Fox"],
    ["Fox", "Crane", "Dragon", "Dragon"],
    ["Crane", "Tiger", "Tiger", "Dragon"],
]


def test_the_table_shows_hand_signals_scores_penalties_and_teams():
    state = GAME.new_state(4, seed=1)
    state.set_position(hands=DEAL)
    state.apply(1, state.parse_action("ninjaaa"))  # wrong at 0 points: team 2 penalised next round
    for seat, card in ((0, "Fox"), (2, "Fox"), (3, "Crane")):
        state.apply(seat, state.parse_action(f"pass {card}"))
    state.set_position(hands=DEAL)
    for seat, card in ((0, "Tiger"), (1, "Fox"), (2, "Dragon"), (3, "Crane")):
        state.apply(seat, state.parse_action(f"pass {card}"))
    for seat, signal in ((0, "signal wink"), (1, "silence"), (2, "signal tap-nose"), (3, "silence")):
        state.apply(seat, state.parse_action(signal))
    text = render_text(GAME, state.view(0), width=120)
    assert "Fox x2" in text and "Crane x2" in text  # the hand, grouped by family
    assert "after pass 1: Player 1 wink, Player 3 tap-nose" in text
    assert "team Player 1+Player 3 (you)" in text and "team Player 2+Player 4" in text
    assert "Penalty this round" in text
    assert "Wrong" in text or "wrong" in text  # the last gong and the hands it revealed
    assert "Player 2 showed" in text
    assert "1. gave Tiger, got Crane" in text


def test_a_spectator_sees_no_hand():
    state = GAME.new_state(5, seed=2)
    text = render_text(GAME, state.view(None), width=120)
    assert "Your hand" not in text
    assert "lone wolf Player 1" in text and "points are individual" in text


def test_a_player_is_told_how_the_bots_signal():
    state = GAME.new_state(4, seed=1)
    text = render_text(GAME, state.view(0), width=200)
    # The heuristic bots signal by the partnership's codebook, which the player shares with its teammate.
    code = ", ".join(f"{gesture} = {family}" for gesture, family in state.view(0)["codebook"].items())
    assert f"your partnership's code: {code}" in text
    assert "Snake" not in text  # a 4-player game has 4 families
    # With public codes, the k-th gesture names the k-th family.
    public = GAME.new_state(4, seed=1, codebooks=False)
    text = render_text(GAME, public.view(0), width=200)
    assert "the public code: nod = Fox, wink = Crane, thumbs-up = Tiger, thumbs-down = Dragon" in text


def test_the_lone_wolf_is_told_it_needs_three_in_its_own_hand():
    state = GAME.new_state(5, seed=2)
    assert "you need 3 of one family in your hand" in render_text(GAME, state.view(0), width=200)
    assert "your team needs 4 of one family" in render_text(GAME, state.view(1), width=200)
