"""Terminal play: at a step where bots and the person decide at once, the bots decide first."""

from __future__ import annotations

import io

from rich.console import Console

from ninjatable.core import get_game
from ninjatable.terminal.play import play_in_terminal


def test_a_bot_that_taps_the_gong_at_the_same_step_is_there_before_the_person_is_asked():
    state = get_game("ninjaaatack").new_state(4, seed=1, gong_order="arrival")
    # Player 2 (a bot) holds all four Foxes: it calls Ninjaaa! at the first step.
    state.set_position(
        hands=[
            ["Crane", "Crane", "Tiger", "Dragon"],
            ["Fox", "Fox", "Fox", "Fox"],
            ["Crane", "Tiger", "Tiger", "Dragon"],
            ["Crane", "Tiger", "Dragon", "Dragon"],
        ]
    )
    seen: list[list[str]] = []

    def ask(prompt: str) -> str:
        seen.append([line.label for line in state.score_sheet()])
        return "q"

    play_in_terminal(state, 0, ["heuristic"], console=Console(file=io.StringIO()), ask=ask)
    # When the person (Player 1) is first asked, the bot's call has already been resolved.
    assert seen and seen[0] == ["Ninjaaa! by Player 2"]
