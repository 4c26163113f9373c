"""Slaughter the Dragon, Ha: the action space, and the phases of a round that tell what a card action does."""

from __future__ import annotations

from .cards import DECK_SIZE, LABELS

# Actions: 0-47 a card (play it, return it to the scale, set it aside, give it), 48-51 pick an Inverted
# Scale card blind (by position), 52 finish the Bodily Division split.
PICK_SCALE = DECK_SIZE
DONE = PICK_SCALE + 4
ACTION_LABELS = LABELS + tuple(f"scale{i + 1}" for i in range(DONE - PICK_SCALE)) + ("done",)

# Phases of a round.
SUMMON_PICK, SUMMON_RETURN, SPLIT, SOUL_GIVE, SOUL_RETURN, PLAY, OVER = range(7)
PHASE_NAMES = ("summoning: pick", "summoning: return", "bodily division", "soul-sucking: give",
               "soul-sucking: return", "tricks", "over")
