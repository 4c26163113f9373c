"""Slaughter the Dragon, Ha: cards and the rulebook's tables, as data.

A card is an int: colour * 12 + (number - 1), colours purple, red, blue, green, numbers 1 to 12.
"""

from __future__ import annotations

from typing import NamedTuple

PURPLE, RED, BLUE, GREEN = range(4)
COLOUR_LETTERS = "PRBG"
COLOUR_NAMES = ("purple", "red", "blue", "green")
NUMBERS = 12
DECK_SIZE = 48


class Setup(NamedTuple):
    """One row of the rulebook's player-count tables."""

    colours: int  # purple, red, blue (3) or also green (4)
    hand: int  # cards dealt to each player
    scale: int  # Inverted Scale cards
    body_tokens: int  # Dragon Body tokens (the Dragon Head is the extra, last-trick token)


SETUPS = {
    3: Setup(colours=3, hand=11, scale=3, body_tokens=10),
    4: Setup(colours=4, hand=11, scale=4, body_tokens=10),
    5: Setup(colours=4, hand=9, scale=3, body_tokens=8),
}
MAX_SEATS = max(SETUPS)

# Two Trump Indicator cards per colour; the colours not in play are returned to the box.
INDICATORS_PER_COLOUR = 2

TOKEN_POINTS = 5
MOON_POINTS = 60  # the Shoot the Moon achiever
MOON_OTHERS = -20  # every other player in that round
END_SCORE = -100  # the game ends at the end of a round where someone has reached this


def colour(card: int) -> int:
    return card // NUMBERS


def number(card: int) -> int:
    return card % NUMBERS + 1


def card(colour_index: int, number_: int) -> int:
    return colour_index * NUMBERS + number_ - 1


def label(card_: int) -> str:
    """`P7` is purple 7, `R12` red 12, `B1` blue 1, `G5` green 5."""
    return f"{COLOUR_LETTERS[colour(card_)]}{number(card_)}"


COLOUR_OF = tuple(colour(c) for c in range(DECK_SIZE))
LABELS = tuple(label(c) for c in range(DECK_SIZE))
LABEL_TO_CARD = {label_: card_ for card_, label_ in enumerate(LABELS)}

# Places in a seat's "known elsewhere" list (cards it knows the place of): a seat number is that seat's hand.
SCALE = -1  # the Inverted Scale
SOME_HAND = -2  # a card given to the Soul-Sucking practitioner, who may have passed it on: in some hand
NOBODY = -1  # no card given or received yet, no seat has played the card
