"""Ninjaaa'Tack as data: the eight ninja families, the gestures of the table talk, and the fixed numbers.

A card is its family index: the four cards of a family are identical, so a hand is kept as a count per
family and a pass names a family, not a copy.
"""

from __future__ import annotations

# The eight families of the box (4 identical cards each); a game with n players uses the first n.
FAMILIES: tuple[str, ...] = ("Fox", "Crane", "Tiger", "Dragon", "Snake", "Monkey", "Owl", "Bear")

# Display colours for the terminal, one per family.
FAMILY_COLOURS: tuple[str, ...] = ("dark_orange", "white", "yellow", "red", "green", "magenta", "cyan", "blue")

CARDS_PER_FAMILY = 4
HAND_SIZE = 4

# A pair needs all 4 cards of a family between its two hands; a lone wolf needs 3 in its own hand.
CLAN_SIZE_PAIR = 4
CLAN_SIZE_LONE_WOLF = 3


def clan_size(team: tuple[int, ...] | list[int]) -> int:
    """Cards of one family that make a clan for this team: 4 between a pair, 3 for a lone wolf."""
    return CLAN_SIZE_LONE_WOLF if len(team) == 1 else CLAN_SIZE_PAIR


# The table talk: the fixed vocabulary of gestures a player may make after each pass (or stay silent).
SIGNALS: tuple[str, ...] = (
    "nod",
    "wink",
    "thumbs-up",
    "thumbs-down",
    "tap-nose",
    "scratch-head",
    "raise-eyebrows",
    "point-up",
    "fist",
    "open-palm",
    "touch-ear",
    "shrug",
)

POINTS_TO_WIN = 3
