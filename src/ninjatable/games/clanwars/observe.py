"""Ninja Clan Wars' views and observations: the `Observer` mixin of the state and the observation's layout."""

from __future__ import annotations

from array import array
from typing import Any

import numpy as np

from ...core import RELATIVE_SEAT, SEATS_FROM, Private
from .actions import LOOK, MAX_SEATS, PHASE_NAMES, SEAT_NAMES
from .cards import CARDS, DECK_SIZE, HAND_LIMIT, NAMES, NUM_UNITS, START_MARKERS, UNITS

# The observation's layout: where each part starts (a seat sees the other seats in turn order after itself).
OBS_HAND = 0  # own hand
OBS_DISCARD = OBS_HAND + DECK_SIZE  # discard pile
OBS_KNOWN = OBS_DISCARD + DECK_SIZE  # cards known to be in each opponent's hand (relative seats 1 to 5)
OBS_TOP = OBS_KNOWN + (MAX_SEATS - 1) * DECK_SIZE  # deck top cards known
OBS_DECK = OBS_TOP + DECK_SIZE  # deck size
OBS_UNITS = OBS_DECK + 1  # Ninja in play by relative seat
OBS_SEATS = OBS_UNITS + MAX_SEATS * NUM_UNITS  # per relative seat: markers, hand size, defeated, first turn, current
OBS_PHASE = OBS_SEATS + MAX_SEATS * 5
OBS_ATTACKING = OBS_PHASE + len(PHASE_NAMES)  # combat: attacking units
OBS_DEFENDING = OBS_ATTACKING + NUM_UNITS  # combat: defending units
OBS_VILLAGE = OBS_DEFENDING + NUM_UNITS  # combat: the village attacked, by relative seat
OBS_COMBAT = OBS_VILLAGE + MAX_SEATS  # combat: attacker is me, defender is me, totals, bonuses
OBS_PLAYS = OBS_COMBAT + 6  # events played in this contest by each side
OBS_TAIL = OBS_PLAYS + DECK_SIZE * 2  # attacks left, mass combat size, pending target choice
OBS_SIZE = OBS_TAIL + 3
# For each player count and seat: by absolute seat, where that seat's Ninja-in-play block starts.
UNIT_BLOCKS = {n: tuple(tuple(OBS_UNITS + rel * NUM_UNITS for rel in RELATIVE_SEAT[n][seat]) for seat in range(n))
               for n in range(1, MAX_SEATS + 1)}


class Observer:
    """What `ClanWarsState` shows: the view (secrets wrapped in `Private`) and the observation."""

    # The discard pile as observation floats (`_discard_floats`), kept for speed: copies and pickles leave it out.
    _discard_kept: list[Any] | None = None

    def _unit_view(self, u: int, role: int = -1) -> dict[str, Any]:
        unit = UNITS[u]
        return {
            "unit": u,
            "name": unit.name,
            "stealth": self.rating(u, 0, role),
            "fight": self.rating(u, 1, role),
            "cost": unit.cost,
            "notes": CARDS[unit.source].notes if unit.card >= 0 else ("SPY" if unit.ability.spy else ""),
            "spy_used": bool(self.spy_used >> u & 1),  # its SPY look this turn (everybody saw it)
        }

    def _view(self) -> dict[str, Any]:
        n = self.players
        clans = []
        for s in range(n):
            clans.append({
                "seat": s,
                "markers": self.markers[s],
                "hand_count": len(self.hands[s]),
                "hand": Private(sorted(NAMES[c] for c in self.hands[s]), s),
                "ninja": [self._unit_view(u) for u in self.units_of(s)],
                "defeated": self.defeated[s],
                "first_turn": self.turns_taken[s] == 0,
                "knows_deck_top": self.known_top[s],
            })
        knowledge = []
        for a in range(n):
            seen = {SEAT_NAMES[b]: sorted(NAMES[c] for c in self.known[a][b]) for b in range(n) if self.known[a][b]}
            top = [NAMES[c] for c in reversed(self.deck[len(self.deck) - self.known_top[a]:])]
            doubt = {SEAT_NAMES[self.stolen_from]: sorted(NAMES[c] for c in self.doubt[a])} if self.doubt[a] else {}
            knowledge.append(Private({"hands": seen, "one_may_be_stolen": doubt, "deck_top": top}, a))
        view = {
            "title": self.game.title,
            "phase": PHASE_NAMES[self.phase],
            "current": self.current,
            "deck": len(self.deck),
            "discard": [NAMES[c] for c in self.discard],
            "clans": clans,
            "knowledge": knowledge,
            "attacks_left": self.attacks_left,
            "mass": self.mass,
            "pending": None if self.pending == -1 else ("SPY" if self.pending == LOOK else NAMES[self.pending]),
            "combat": self._combat_view(),
            "ranking_by": self.options["ranking"],
            "final": self.final,
        }
        return view

    def _combat_view(self) -> dict[str, Any] | None:
        if not self.c_att:
            return None
        stat = self.c_stage
        return {
            "attacker": self.current,
            "defender": self.c_defender,
            "target": "village" if self.c_target < 0 else UNITS[self.c_target].name,
            "blocker": None if self.c_blocker < 0 else UNITS[self.c_blocker].name,
            "attacking": [self._unit_view(u, 0) for u in self.c_att],
            "defending": [self._unit_view(u, 1) for u in self.side_units(1)],
            "village": self.c_head < 0,
            "contest": ("stealth", "fight")[stat],
            "totals": list(self.contest_totals()),
            "bonus": list(self.c_bonus),
            "plays": [{"side": ("attacker", "defender")[p[0]], "card": NAMES[p[1]],
                       "bonus": p[2 + stat], "negated": bool(p[4])} for p in self.c_plays],
            "log": list(self.c_log),
        }

    def _observe(self, seat: int, out: np.ndarray) -> None:
        out = memoryview(out)  # Speed: a memoryview item store skips numpy's indexing (core/observe.py)
        n = self.players
        order = SEATS_FROM[n][seat]
        hands = self.hands
        for c in hands[seat]:
            out[c] = 1.0  # OBS_HAND is 0
        out[OBS_DISCARD:OBS_DISCARD + DECK_SIZE] = self._discard_floats()
        known = self.known[seat]
        o = OBS_KNOWN
        for b in order[1:]:
            for c in known[b]:
                out[o + c] = 1.0
            if b == self.stolen_from:
                for c in self.doubt[seat]:
                    out[o + c] = 0.5  # all of these but at most one
            o += DECK_SIZE
        deck = self.deck
        top = self.known_top[seat]
        if top:
            for c in deck[len(deck) - top:]:
                out[OBS_TOP + c] = 1.0
        out[OBS_DECK] = len(deck) / DECK_SIZE
        blocks = UNIT_BLOCKS[n][seat]
        owner = self.owner
        for u in self.in_play:
            out[blocks[owner[u]] + u] = 1.0
        markers, hands, defeated, turns_taken, current = (self.markers, self.hands, self.defeated, self.turns_taken,
                                                          self.current)
        o = OBS_SEATS
        for s in order:  # markers, hand size, defeated, first turn, seat is current
            out[o] = markers[s] / START_MARKERS
            out[o + 1] = len(hands[s]) / HAND_LIMIT
            if defeated[s]:
                out[o + 2] = 1.0
            if not turns_taken[s]:
                out[o + 3] = 1.0
            if s == current:
                out[o + 4] = 1.0
            o += 5
        out[OBS_PHASE + self.phase] = 1.0
        c_att = self.c_att
        if c_att:  # a combat under way (outside one, no unit defends either)
            for u in c_att:
                out[OBS_ATTACKING + u] = 1.0
            if self.c_head >= 0:
                out[OBS_DEFENDING + self.c_head] = 1.0
            for u in self.c_def:
                out[OBS_DEFENDING + u] = 1.0
            if self.c_head < 0:
                out[OBS_VILLAGE + (self.c_defender - seat) % n] = 1.0
            out[OBS_COMBAT] = self.current == seat
            out[OBS_COMBAT + 1] = self.c_defender == seat
            att, dfn = self.contest_totals()
            out[OBS_COMBAT + 2] = att / 10
            out[OBS_COMBAT + 3] = dfn / 10
            out[OBS_COMBAT + 4] = self.c_bonus[0] / 3
            out[OBS_COMBAT + 5] = self.c_bonus[1] / 3
            for p in self.c_plays:
                if not p[4]:
                    out[OBS_PLAYS + p[0] * DECK_SIZE + p[1]] = 1.0
        out[OBS_TAIL] = self.attacks_left
        if self.mass:
            out[OBS_TAIL + 1] = self.mass
        if self.pending != -1:
            out[OBS_TAIL + 2] = 1.0  # an Event or SPY look waiting for its target

    def _discard_floats(self) -> array:
        """The discard pile as DECK_SIZE floats 1.0 (in it) or 0.0, for the observation.

        Speed: kept from one observation to the next and brought up to date with the cards added since, since the
        pile only grows (Endurance, which takes a card back, drops it); a copy starts its own."""
        pile = self.discard
        kept = self._discard_kept
        if kept is None or kept[0] is not pile:
            kept = self._discard_kept = [pile, 0, array("f", bytes(4 * DECK_SIZE))]
        floats = kept[2]
        if kept[1] < len(pile):
            for c in pile[kept[1]:]:
                floats[c] = 1.0
            kept[1] = len(pile)
        return floats
