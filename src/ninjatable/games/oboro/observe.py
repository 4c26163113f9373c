"""Oboro's observation and view: the observation layout (O_* offsets, OBS_SIZE), the float runs it copies, and
the Observer mixin (`_view`, `_observe`)."""

from __future__ import annotations

import struct
from typing import Any

import numpy as np

from ...core import Private
from ...core.observe import SEATS_FROM, float32s, one_hot
from . import cards as C
from .cards import COLOUR, DECK_SIZE, LABELS, PLAYERS, VALUE

# Observation layout (all seats relative to the observer: 0 = self, 1 = next clockwise, 2 = the one after).
O_HAND = 0
O_TRICK = O_HAND + DECK_SIZE  # per relative seat: the card it played to the current trick
O_TOPS = O_TRICK + PLAYERS * DECK_SIZE  # per relative seat: the visible top cards of its Card Area
O_HEIGHTS = O_TOPS + PLAYERS * DECK_SIZE  # per relative seat and colour: stack height / 8
O_VOIDS = O_HEIGHTS + PLAYERS * C.COLOURS  # per relative seat and colour: shown void this round
O_HAND_SIZES = O_VOIDS + PLAYERS * C.COLOURS
O_PIECES = O_HAND_SIZES + PLAYERS
O_STOCK = O_PIECES + PLAYERS
O_SCORES = O_STOCK + 1
O_POWER = O_SCORES + PLAYERS
O_SCORINGS = O_POWER + PLAYERS
O_MISSION = O_SCORINGS + 1
O_LEADER = O_MISSION + 1
O_LED = O_LEADER + PLAYERS
O_TRICKS = O_LED + C.COLOURS
O_ARROW = O_TRICKS + 1
O_RED8_ARROW = O_ARROW + PLAYERS
OBS_SIZE = O_RED8_ARROW + 1

# Tables for the observation builder. SEAT_ORDER[observer]: the seats in relative order (self, next, the one after).
SEAT_ORDER = SEATS_FROM[PLAYERS]
# TRICK_AT[first + i]: where the trick's i-th card is marked, when its leader sits at relative seat `first`.
TRICK_AT = tuple(O_TRICK + (r % PLAYERS) * DECK_SIZE for r in range(2 * PLAYERS))

# A stack height or hand size k as its observed fraction k / 8.
HEIGHT_FLOAT = tuple(k / C.HAND_SIZE for k in range(DECK_SIZE + 1))
# Runs of floats by table look-up: a top card within its colour's 8 (TOP_RUN[card]; NO_TOP: an empty stack), a
# void bitmask as (red, blue, green), a relative seat or colour among three (ONE_OF_THREE[-1]: none).
TOP_RUN = tuple(one_hot(C.VALUES, c % C.VALUES) for c in range(DECK_SIZE))
NO_TOP = one_hot(C.VALUES, -1)
VOID_RUN = tuple(float32s([float(mask >> k & 1) for k in range(C.COLOURS)]) for mask in range(1 << C.COLOURS))
ONE_OF_THREE = tuple(one_hot(3, at) for at in (0, 1, 2, -1))
THREE_FLOATS = struct.Struct("=3f")
# Oboro is for exactly three players, and so the observer's three relative seats are three arguments below.
assert PLAYERS == C.COLOURS == 3
# Everything from O_TOPS on, in one struct: each group of `s` runs or floats is one section of the layout.
TAIL_RUNS = struct.Struct(
    "=" + f"{4 * DECK_SIZE}s" * 3 + f"{4 * C.COLOURS}s" * 3  # tops, heights
    + f"{4 * C.COLOURS}s" * 3 + "3f"  # voids, hand sizes
    + "3f" + "f" + "3f" + "3f" + "f" + "f"  # pieces, stock, scores, power, scorings, mission
    + "12s" + "12s" + "f" + "12s" + "f"  # leader, led colour, tricks played, Arrow, Red 8 Arrow
)
assert TAIL_RUNS.size == 4 * (OBS_SIZE - O_TOPS)


class Observer:
    """What a seat sees of an OboroState: its view and its observation."""

    def _view(self) -> dict[str, Any]:
        seats = []
        for s in range(self.players):
            base = s * C.COLOURS
            area = {}
            for k in range(C.COLOURS):
                stack = self.stacks[base + k]
                # Only the top card of a stack is visible; its height shows physically, not what lies beneath.
                area[C.COLOUR_NAMES[k]] = {"top": LABELS[stack[-1]] if stack else None, "height": len(stack)}
            seats.append({
                "hand": Private([LABELS[c] for c in self.hands[s]], s, None),
                "hand_size": len(self.hands[s]),
                "card_area": area,
                "colours": self.colours_received(s),
                "ninja_power": self.ninja_power(s),
                "shuriken": self.pieces[s],
                "void": [C.COLOUR_NAMES[k] for k in range(C.COLOURS) if self.void[s] >> k & 1],
            })
        return {
            "mission_value": self.mission_value,
            "arrows": sorted(LABELS[c] for c in self.arrows),
            "round": self.round,
            "trick_number": min(self.tricks_played + 1, C.TRICKS_PER_ROUND),
            "tricks_per_round": C.TRICKS_PER_ROUND,
            "leader": self.leader,
            "led": C.COLOUR_NAMES[COLOUR[self.trick[0]]] if self.trick else None,
            "trick": [[(self.leader + i) % self.players, LABELS[c]] for i, c in enumerate(self.trick)],
            "arrow": None if self.arrow_seat < 0 else self.arrow_seat,
            "shuriken_stock": self.stock,
            "shuriken_scorings": self.shuriken_scorings,
            "final_round": self.shuriken_scorings >= C.SHURIKEN_SCORINGS_TO_END,
            "seats": seats,
        }

    def _observe(self, seat: int, out: np.ndarray) -> None:
        hands = self.hands
        trick = self.trick
        first = (self.leader - seat) % PLAYERS  # the leader's relative seat
        view = memoryview(out)  # Speed: a memoryview item store skips numpy's indexing (core/observe.py)
        for c in hands[seat]:
            view[O_HAND + c] = 1.0
        for i, c in enumerate(trick):
            view[TRICK_AT[first + i] + c] = 1.0
        # The rest in one store, from runs kept for the trick (`_build_trick_runs`) and tables.
        areas, pieces, scores, stock, scorings, tricks = self._trick_runs or self._build_trick_runs()
        a, b, c = SEAT_ORDER[seat]
        tops_a, heights_a, power_a = areas[a]
        tops_b, heights_b, power_b = areas[b]
        tops_c, heights_c, power_c = areas[c]
        void = self.void
        arrow = self.arrow_seat
        TAIL_RUNS.pack_into(
            out, 4 * O_TOPS,
            tops_a, tops_b, tops_c, heights_a, heights_b, heights_c,
            VOID_RUN[void[a]], VOID_RUN[void[b]], VOID_RUN[void[c]],
            HEIGHT_FLOAT[len(hands[a])], HEIGHT_FLOAT[len(hands[b])], HEIGHT_FLOAT[len(hands[c])],
            pieces[a], pieces[b], pieces[c], stock, scores[a], scores[b], scores[c], power_a, power_b, power_c,
            scorings, 1.0 if self.mission_value == C.MISSION_VALUES[1] else 0.0,
            ONE_OF_THREE[first], ONE_OF_THREE[COLOUR[trick[0]] if trick else -1], tricks,
            ONE_OF_THREE[(arrow - seat) % PLAYERS if arrow >= 0 else -1], 1.0 if C.RED_8 in self.arrows else 0.0,
        )

    def _build_trick_runs(self) -> tuple:
        """What the observation shows that changes only when a trick ends, per seat (Card Areas, Shuriken pieces,
        scores) and for all (stock, Shuriken scorings, tricks played): built at the first observation after a trick
        and kept until the next one ends."""
        areas = self._area_runs
        for s in range(PLAYERS):
            if areas[s] is None:
                areas[s] = self._area_run(s)
        self._trick_runs = (
            tuple(areas), [p / C.SHURIKEN_PIECES for p in self.pieces], [t / 20.0 for t in self.totals],
            self.stock / C.SHURIKEN_PIECES, self.shuriken_scorings / C.SHURIKEN_SCORINGS_TO_END,
            self.tricks_played / C.TRICKS_PER_ROUND,
        )
        return self._trick_runs

    def _area_run(self, seat: int) -> tuple[bytes, bytes, float]:
        """A seat's Card Area as observed: its top cards and stack heights as float runs, and its Ninja Power
        (kept in `_area_runs` until the seat takes a trick)."""
        tops, heights, power = [], [], 0
        for stack in self.stacks[seat * C.COLOURS:(seat + 1) * C.COLOURS]:
            if stack:
                top = stack[-1]
                tops.append(TOP_RUN[top])
                heights.append(HEIGHT_FLOAT[len(stack)])
                power += VALUE[top]
            else:
                tops.append(NO_TOP)
                heights.append(0.0)
        return b"".join(tops), THREE_FLOATS.pack(*heights), power / DECK_SIZE
