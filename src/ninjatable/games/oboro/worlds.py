"""Oboro's sampled worlds: the WorldSampler mixin (`_sample_hidden`) and the tables the unseen hands are dealt by."""

from __future__ import annotations

import random

from ...core import State
from ...core.deal import DealPlan, deal_planned, plan_deal
from . import cards as C
from .cards import COLOUR, DECK_SIZE, PLAYERS

# Sampled worlds: OTHERS[seat], the other two seats in seat order (the places cards are dealt to);
# PLACES[void_a, void_b][card]: the places (0, 1) the card may lie in, given those seats' void bitmasks.
OTHERS = tuple(tuple(s for s in range(PLAYERS) if s != seat) for seat in range(PLAYERS))
PLACES = {
    (void_a, void_b): tuple([i for i, void in enumerate((void_a, void_b)) if not void >> COLOUR[c] & 1]
                            for c in range(DECK_SIZE))
    for void_a in range(1 << C.COLOURS) for void_b in range(1 << C.COLOURS)
}


class WorldSampler:
    """The worlds a seat of an OboroState cannot tell from the real one."""

    def _sample_hidden(self, world: State, seat: int, rng: random.Random) -> None:
        """Deal the other seats' unplayed cards anew, respecting hand sizes, shown voids and a known Red 8.

        Every card played to a trick was seen by all, so Card Areas (buried cards included) and the current
        trick are kept; only the hands the seat cannot see are hidden.
        """
        dealt = deal_planned(self._worlds_prepared(seat, self._deal_plan), rng)  # every move logs an event
        for place, s in enumerate(OTHERS[seat]):
            world.hands[s] = sorted(dealt[place])

    def _deal_plan(self, seat: int) -> DealPlan:
        """The plan of the seat's sampled deals: the other two hands' cards, and where each may lie."""
        others = OTHERS[seat]
        hands = self.hands
        unseen = hands[others[0]] + hands[others[1]]
        sizes = [len(hands[s]) for s in others]
        # A card may lie in any hand not shown void in its colour (a table by the two voids); a known Red 8 only
        # with its holder.
        places = PLACES[self.void[others[0]], self.void[others[1]]]
        if self.red8_holder in others and C.RED_8 in unseen:
            places = list(places)
            places[C.RED_8] = [others.index(self.red8_holder)]
        return plan_deal(unseen, sizes, places.__getitem__)
