"""Shinobi no Gakko's views and observations: the `Observer` mixin of the state, the observation's layout, and
the observation floats the moves keep up to date."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core import Private
from . import cards as C
from .cards import COPIES, EARTH, HAND_NAMES, HEAVEN, NO_LOCK, NOBODY, OVER, PHASE_NAMES, RANKS, SPLIT, STRIDE, ranks_of

# Observation layout: own hands, then one block per seat (relative to the observer), then the table.
SEAT_SCALARS = 7  # Heaven count, cards held, split done, to move, shuriken, starter, score
SEAT_BLOCK = 2 * RANKS + SEAT_SCALARS  # Earth counts, cards known to be in Heaven, scalars
HEAVEN_COUNT, HELD, SPLIT_DONE, TO_MOVE, SHURIKEN, STARTER, SCORE = range(2 * RANKS, SEAT_BLOCK)  # in a seat block
TABLE_BLOCK = 3 * RANKS + 2 + 1  # counts on the table, low end rank, high end rank, lock, tiers
TAIL_BLOCK = RANKS + 1 + 3 + C.ROUNDS + 2 + 1 + 1  # cleared, undealt, phase, round, hands used, lead, turns
OWN_BLOCK = 2 * RANKS  # the observer's Heaven and Earth counts
SIZE_SCALE = 15  # hand sizes and the undealt count are divided by this, counts by COPIES
SCORE_SCALE = 20
MAX_PLAYERS = max(C.DEAL_SIZE)

# Speed: the observed values that change only with the cards, the table, the scores, the phase or the round are
# kept by the state as float32 runs (`obs_floats`), updated with each move, so an observation copies a few runs
# instead of dividing count by count. Their layout: the table block and the start of the tail block (cleared counts,
# undealt, phase, round), which follow each other in an observation too, each seat's own block (its Heaven and
# Earth counts, as it observes them; room for the most players), then every seat's block in seat order.
TAIL_KEPT = RANKS + 1 + 3 + C.ROUNDS
FLOATS_TAIL = TABLE_BLOCK
FLOATS_OWN = FLOATS_TAIL + TAIL_KEPT
FLOATS_SEATS = FLOATS_OWN + MAX_PLAYERS * OWN_BLOCK
LOW_END, HIGH_END, LOCKED, TIERS = RANKS, 2 * RANKS, 3 * RANKS, 3 * RANKS + 2  # in the table block
TABLE_FLOATS = slice(0, TABLE_BLOCK)
ENDS_FLOATS = slice(LOW_END, TABLE_BLOCK)  # the end ranks, the lock and the tiers
NO_TABLE = memoryview(bytes(4 * TABLE_BLOCK)).cast("f")  # zeros, for an empty table
NO_ENDS = NO_TABLE[ENDS_FLOATS]


def observation_size(players: int) -> int:
    return OWN_BLOCK + players * SEAT_BLOCK + TABLE_BLOCK + TAIL_BLOCK


def _float_copies(players: int, seat: int, split: bool) -> tuple[tuple[slice, slice], ...]:
    """The runs an observation by `seat` copies from `obs_floats`: (slice of the observation, slice of the floats).

    Seat blocks follow the observer, so the seats from `seat` on come first, then those before it. During the split
    the others' Earth, known cards and Heaven count are hidden: only their scalars from cards held on are copied.
    """
    seats_at = FLOATS_SEATS
    own = FLOATS_SEATS + seat * SEAT_BLOCK
    runs = [(slice(0, OWN_BLOCK), slice(FLOATS_OWN + seat * OWN_BLOCK, FLOATS_OWN + (seat + 1) * OWN_BLOCK))]
    if split:
        for rel in range(players):
            other = (seat + rel) % players
            first = 0 if other == seat else HELD
            at = OWN_BLOCK + rel * SEAT_BLOCK
            start = seats_at + other * SEAT_BLOCK
            runs.append((slice(at + first, at + SEAT_BLOCK), slice(start + first, start + SEAT_BLOCK)))
    else:
        after = (players - seat) * SEAT_BLOCK  # the blocks of seat .. players - 1
        runs.append((slice(OWN_BLOCK, OWN_BLOCK + after), slice(own, seats_at + players * SEAT_BLOCK)))
        if seat:
            runs.append((slice(OWN_BLOCK + after, OWN_BLOCK + players * SEAT_BLOCK), slice(seats_at, own)))
    table = observation_size(players) - TAIL_BLOCK - TABLE_BLOCK
    runs.append((slice(table, table + FLOATS_OWN), slice(0, FLOATS_OWN)))
    return tuple(runs)


OBSERVATION_SHAPES = {n: (observation_size(n),) for n in range(1, MAX_PLAYERS + 1)}
# TURN_AT[players]: where the tail's values not kept as floats start (hands used, lead, turns).
TURN_AT = {n: observation_size(n) - TAIL_BLOCK + TAIL_KEPT for n in range(1, MAX_PLAYERS + 1)}

# FLOAT_COPIES[split][players][seat]: the runs of `_float_copies`, worked out once.
FLOAT_COPIES = tuple(
    {n: tuple(_float_copies(n, seat, split) for seat in range(n)) for n in range(1, MAX_PLAYERS + 1)}
    for split in (False, True))


def move_flag(floats: memoryview, flag: int, before: int, after: int) -> None:
    """Move a flag of the seat blocks in observation floats (to move, shuriken) from seat `before` (or NOBODY) to
    seat `after`."""
    if before != NOBODY:
        floats[FLOATS_SEATS + before * SEAT_BLOCK + flag] = 0
    floats[FLOATS_SEATS + after * SEAT_BLOCK + flag] = 1


class Observer:
    """The state's views and observations (a mixin of `GakkoState`, reading its fields)."""

    def _view(self) -> dict[str, Any]:
        split = self.phase == SPLIT
        revealed = self.phase == OVER
        seats = []
        for seat in range(self.players):
            base = seat * STRIDE
            heaven = ranks_of(self.heaven, base)
            earth = ranks_of(self.earth, base)
            seats.append({
                "heaven": heaven if revealed else Private(heaven, seat),
                "heaven_count": Private(self.heaven_n[seat], seat) if split else self.heaven_n[seat],
                "earth": Private(earth, seat) if split else earth,
                "cards": self.heaven_n[seat] + self.earth_n[seat],
                "known_heaven": ranks_of(self.known, base),
                "split_done": self.split_done[seat],
            })
        lock = self.lock()
        return {
            "round": self.round,
            "rounds": C.ROUNDS,
            "phase": PHASE_NAMES[self.phase],
            "starter": None if self.starter == NOBODY else self.starter,
            "current": None if self.current == NOBODY else self.current,
            "hands_used": [HAND_NAMES[h] for h in (HEAVEN, EARTH) if self.used >> h & 1],
            "must_lead": self.must_lead,
            "table": [[r, c] for r, c in zip(self.tier_rank, self.tier_count)],
            "lock": None if lock == NO_LOCK else C.END_NAMES[lock],
            "shuriken": None if self.shuriken == NOBODY else self.shuriken,
            "cleared": ranks_of(self.cleared, 0),
            "undealt": self.undealt_n,
            "turn": self.turns + 1,
            "max_turns": self.max_turns,
            "seats": seats,
        }

    def _observe(self, seat: int, out: np.ndarray) -> None:
        out = memoryview(out)  # Speed: a memoryview item store skips numpy's indexing (core/observe.py)
        floats = self.obs_floats
        if floats is None:
            floats = self.obs_floats = self._floats_now()
        # Speed: the runs to copy are cut from the floats once per observer (cutting a memoryview costs more than
        # copying it), and kept for these floats in this phase (views see the floats' later changes).
        split = self.phase == SPLIT
        cuts = self.obs_cuts
        if cuts is None or cuts[0] is not floats or cuts[1] != split:
            cuts = self.obs_cuts = (floats, split, [None] * self.players)
        runs = cuts[2][seat]
        if runs is None:
            runs = cuts[2][seat] = tuple((dst, floats[src]) for dst, src in FLOAT_COPIES[split][self.players][seat])
        for dst, run in runs:
            out[dst] = run
        at = TURN_AT[self.players]  # past the table, cleared counts, undealt, phase and round, copied above
        used = self.used
        if used:
            out[at] = used & 1
            out[at + 1] = used >> 1 & 1
        if self.must_lead:
            out[at + 2] = 1
        out[at + 3] = self.turns / self.max_turns

    def _floats_now(self) -> memoryview:
        """The observation floats (see FLOATS_SEATS) worked out from the table, the counts and the scores, as a
        float32 view."""
        floats = memoryview(bytearray(4 * (FLOATS_SEATS + self.players * SEAT_BLOCK))).cast("f")
        for r, c in zip(self.tier_rank, self.tier_count):
            floats[r - 1] = c / COPIES
        self._show_ends(floats)
        cleared = self.cleared
        for r in range(1, RANKS + 1):
            floats[FLOATS_TAIL + r - 1] = cleared[r] / COPIES
        at = FLOATS_TAIL + RANKS
        floats[at] = self.undealt_n / SIZE_SCALE
        floats[at + 1 + self.phase] = 1
        floats[at + 4 + min(self.round, C.ROUNDS) - 1] = 1
        heaven, earth, known = self.heaven, self.earth, self.known
        to_move = self.to_move()
        for seat, score in enumerate(self.scores()):
            base = seat * STRIDE
            mine = FLOATS_OWN + seat * OWN_BLOCK - 1
            at = FLOATS_SEATS + seat * SEAT_BLOCK - 1
            for r in range(1, RANKS + 1):
                floats[mine + r] = heaven[base + r] / COPIES
                floats[mine + RANKS + r] = floats[at + r] = earth[base + r] / COPIES
                floats[at + RANKS + r] = known[base + r] / COPIES
            at += 1
            floats[at + HEAVEN_COUNT] = self.heaven_n[seat] / SIZE_SCALE
            floats[at + HELD] = (self.heaven_n[seat] + self.earth_n[seat]) / SIZE_SCALE
            floats[at + SPLIT_DONE] = self.split_done[seat]
            floats[at + TO_MOVE] = seat in to_move
            floats[at + SHURIKEN] = seat == self.shuriken
            floats[at + STARTER] = seat == self.starter
            floats[at + SCORE] = score / SCORE_SCALE
        return floats

    def _show_ends(self, floats: memoryview) -> None:
        """Write the table's end ranks, lock and number of tiers into observation floats (the counts on the table by
        rank are written where a tier comes or goes)."""
        floats[ENDS_FLOATS] = NO_ENDS
        ranks = self.tier_rank
        if ranks:
            floats[LOW_END - 1 + ranks[0]] = 1  # ranks count from 1
            floats[HIGH_END - 1 + ranks[-1]] = 1
            lock = self.lock()
            if lock != NO_LOCK:
                floats[LOCKED + lock] = 1
            floats[TIERS] = len(ranks) / RANKS

    def _show_rank(self, seat: int, rank: int) -> None:
        """Bring the observation floats of a seat's cards of one rank, and of its hand sizes, up to date."""
        floats = self.obs_floats
        if floats is None:  # worked out when next observed
            return
        i = seat * STRIDE + rank
        mine = FLOATS_OWN + seat * OWN_BLOCK + rank - 1
        floats[mine] = self.heaven[i] / COPIES
        at = FLOATS_SEATS + seat * SEAT_BLOCK
        floats[mine + RANKS] = floats[at + rank - 1] = self.earth[i] / COPIES
        floats[at + RANKS + rank - 1] = self.known[i] / COPIES
        heaven_n = self.heaven_n[seat]
        floats[at + HEAVEN_COUNT] = heaven_n / SIZE_SCALE
        floats[at + HELD] = (heaven_n + self.earth_n[seat]) / SIZE_SCALE
