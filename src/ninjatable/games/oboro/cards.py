"""Oboro Ninja Star Trick: the 24 Ninja cards and the rulebook's tables, as data.

A card is a small int: `colour * 8 + (value - 1)`, so colour is `card >> 3` and value is `(card & 7) + 1`.
"""

from __future__ import annotations

RED, BLUE, GREEN = range(3)
COLOURS = 3
VALUES = 8
DECK_SIZE = COLOURS * VALUES
COLOUR_LETTERS = "RBG"
COLOUR_NAMES = ("red", "blue", "green")

PLAYERS = 3  # exactly three
HAND_SIZE = 8
TRICKS_PER_ROUND = 7  # the last card of each hand stays unplayed
SHURIKEN_PIECES = 5
SHURIKEN_SCORINGS_TO_END = 2
MISSION_VALUES = (9, 11)


def card(colour: int, value: int) -> int:
    """The card id of a colour (0-2) and value (1-8)."""
    return colour * VALUES + value - 1


def colour_of(c: int) -> int:
    return c >> 3


def value_of(c: int) -> int:
    return (c & 7) + 1


LABELS = tuple(f"{COLOUR_LETTERS[c >> 3]}{(c & 7) + 1}" for c in range(DECK_SIZE))
VALUE = tuple(value_of(c) for c in range(DECK_SIZE))
COLOUR = tuple(colour_of(c) for c in range(DECK_SIZE))
# The card ids of each card's colour, as a range (start, stop): a sorted hand holds them as one run.
COLOUR_RUN = tuple((card(colour_of(c), 1), card(colour_of(c), VALUES) + 1) for c in range(DECK_SIZE))

RED_8 = card(RED, 8)
# The Arrow icon: Blue 4 and Green 4 always; Red 8 (the Burning Arrow) behind the `red8_arrow` option.
ARROWS = frozenset({card(BLUE, 4), card(GREEN, 4)})
ARROWS_WITH_RED_8 = ARROWS | {RED_8}
# The Shuriken icon: the 6 of each colour.
SHURIKEN_CARDS = frozenset(card(c, 6) for c in range(COLOURS))

# Ranking payouts (round scoring and Shuriken scoring): a rank held alone pays RANK_POINTS, a rank shared
# by two or more players pays SHARED_RANK_POINTS to each; ranks are competition ranks (1, 1, 3).
RANK_POINTS = (3, 2, 1)
SHARED_RANK_POINTS = (2, 1, 1)
