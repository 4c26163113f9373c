"""Scripted deals for the Slaughter the Dragon, Ha tests: cards named by label instead of a shuffle."""

from __future__ import annotations

from collections.abc import Sequence

from ninjatable.core import get_game
from ninjatable.games.dragon import cards as C
from ninjatable.games.dragon.rules import DragonState

GAME = get_game("dragon")

# Four hands of 11 (purple, red, blue, green 1-12; the scale holds the rest).
FOUR = [
    "P1 P2 P3 R1 R2 R3 B1 B2 B3 G1 G2",
    "P4 P5 P6 R4 R5 R6 B4 B5 B6 G3 G4",
    "P7 P8 P9 R7 R8 R9 B7 B8 B9 G5 G6",
    "P10 P11 R10 R11 R12 B10 B11 B12 G7 G8 G9",
]
FOUR_SCALE = "P12 G10 G11 G12"


def card(label: str) -> int:
    """The card with this label, e.g. "R12"."""
    return C.LABELS.index(label)


def cards(text: str) -> list[int]:
    """The cards named in a space-separated list of labels, sorted."""
    return sorted(card(word) for word in text.split())


def labels(cards_: list[int]) -> set[str]:
    """The labels of these cards."""
    return {C.LABELS[c] for c in cards_}


def scripted(hands: Sequence[str], scale: str, trump: str, leader: int = 0, *, advanced: bool = False,
             **position) -> DragonState:
    """Round 1 with the given deal (see `DragonState._set_position`): `jutsu=False` goes straight to the tricks,
    `tricks` shortens the round; with a `summoner` the round opens with the summoning instead (as in round 2 and
    later)."""
    state = GAME.new_state(len(hands), seed=0, advanced=advanced)
    state.set_position(hands=hands, scale=scale, trump=trump, leader=leader, **position)
    return state


def play(state: DragonState, *labels_: str) -> None:
    """Play the labelled cards, each by the seat to move."""
    for lab in labels_:
        (seat,) = state.to_move()
        state.apply(seat, state.parse_action(lab))
