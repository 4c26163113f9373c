"""Oboro's action space (an action is the card played), the event of each play and the words of a decision."""

from __future__ import annotations

from ...core import Event, seat_name
from .cards import DECK_SIZE, LABELS, PLAYERS

# The action space is the deck: action c plays card c, labelled by the card (`R5`, `B8`, ...).
ACTION_LABELS = LABELS

# The event of every (seat, card) play, built once: logging a play is then a table look-up (events are immutable).
PLAY_EVENT = tuple(tuple(Event("play", f"{seat_name(s)} plays {LABELS[c]}") for c in range(DECK_SIZE))
                   for s in range(PLAYERS))

# What the seat to move is deciding, and why a card it holds may not be played (the rulebook's ② Trick).
PROMPT_LEAD = "Lead the trick: play any card from your hand"
PROMPT_FOLLOW = "Follow the lead: play a {led} card to the trick"
PROMPT_ANY = "Play any card to the trick: you hold no {led}, the led colour"
REFUSE_NOT_FOLLOWING = "you must follow {led}, the led colour, while you hold a {led} card"
