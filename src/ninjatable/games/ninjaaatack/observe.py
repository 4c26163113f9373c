"""What a seat sees of Ninjaaa'Tack: `Observer`, the state's view and observation, and the tables of float32 runs an
observation is written from."""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import Any

import numpy as np

from ...core import Private, float32s, one_hot, seat_name
from . import cards as C
from .actions import (
    NO_CHOICE,
    NUM_SIGNALS,
    PASS_STEP,
    PLAYER_COUNTS,
    SIGNAL_STEP,
    STEP_NAMES,
    code_table,
    round_setup,
    team_name,
)


def observation_size(n: int) -> int:
    """The length of an observation at n players (see `Observer._observe`)."""
    # hand (n families), step (2), per relative seat: teammate, lone wolf, score, penalised, decided (5n),
    # latest signals per relative seat (n x 13), my last pass and receipt (2n), passes used (1), the
    # teammate's latest gesture read by the partnership's codebook (n).
    return n + 2 + 5 * n + n * (NUM_SIGNALS + 1) + 2 * n + 1 + n


_OBSERVATION_SHAPES = {n: (observation_size(n),) for n in PLAYER_COUNTS}
WIDTH = NUM_SIGNALS + 1  # a relative seat's latest gestures: one slot per gesture, then silence
# An observation is written by one struct store of float32 runs (bytes) and one float, part by part in the order of
# `observation_size`: hand, step, teammate and lone wolf, score, penalised, decided, latest gestures, my last pass
# and receipt, passes used, the teammate's family. Each run comes from a table below, made once per value it shows.
_OBSERVATION_STRUCTS = {
    n: struct.Struct(f"={4 * n}s8s{8 * n}s{4 * n}s{4 * n}s{4 * n}s{4 * n * WIDTH}s{8 * n}sf{4 * n}s")
    for n in PLAYER_COUNTS
}
_STEP_RUNS = (one_hot(2, PASS_STEP), one_hot(2, SIGNAL_STEP))
_ZERO_RUNS = {n: bytes(4 * n) for n in {*PLAYER_COUNTS, *(n * WIDTH for n in PLAYER_COUNTS)}}
_NO_PASS = (NO_CHOICE,) * len(C.FAMILIES)  # the last pass before the round's first: none
# _ONE_HOT[n][i]: n floats, 1.0 at i (none at -1, the last entry).
_ONE_HOT = {n: tuple(one_hot(n, i) for i in (*range(n), -1)) for n in PLAYER_COUNTS}
# _PASS_RUNS[n][mine][received]: my last pass and my receipt (2n floats); -1, unknown in a sampled world, shows none.
_PASS_RUNS = {n: tuple(tuple(a + b for b in _ONE_HOT[n]) for a in _ONE_HOT[n]) for n in PLAYER_COUNTS}


class RunsPerSeat(dict):
    """For one player count: a value the observation shows to each observing seat's run of it (made by
    `make(value, seat, n)` the first time the value is seen; forgotten past a bound, as a long game meets many)."""

    BOUND = 4096

    def __init__(self, n: int, make: Callable[[Any, int, int], bytes]) -> None:
        super().__init__()
        self.n = n
        self.make = make

    def __missing__(self, value: Any) -> tuple[bytes, ...]:
        if len(self) >= self.BOUND:
            self.clear()
        runs = self[value] = tuple(self.make(value, seat, self.n) for seat in range(self.n))
        return runs


def team_run(lone_wolf: int, seat: int, n: int) -> bytes:
    """The teammate and lone-wolf parts (2n floats) in a round with this lone wolf (-1: none, at even counts)."""
    run = [0.0] * (2 * n)
    for s in round_setup(n, lone_wolf)[1][seat]:
        if s != seat:
            run[(s - seat) % n] = 1.0
    if lone_wolf >= 0:
        run[n + (lone_wolf - seat) % n] = 1.0
    return float32s(run)


def score_run(key: tuple[int, ...], seat: int, n: int) -> bytes:
    """The score part for (points to win, each seat's points): each relative seat's points over the points to win."""
    target, *points = key
    return float32s([points[(seat + i) % n] / target for i in range(n)])


def seats_run(seats: frozenset[int] | tuple[int, ...], seat: int, n: int) -> bytes:
    """1.0 for each relative seat among `seats` (the penalised part)."""
    return float32s([float((seat + i) % n in seats) for i in range(n)])


def decided_run(movers: tuple[int, ...], seat: int, n: int) -> bytes:
    """1.0 for each relative seat that has decided this step: every seat not among `movers`, those still to."""
    return float32s([float((seat + i) % n not in movers) for i in range(n)])


def gestures_run(masks: tuple[int, ...], seat: int, n: int) -> bytes:
    """The latest gestures' part from each seat's gestures as a bitmask (bit g: gesture g; none: silence)."""
    run = []
    for i in range(n):
        mask = masks[(seat + i) % n]
        run += [float(mask >> g & 1) for g in range(NUM_SIGNALS)] + [float(not mask)]
    return float32s(run)


class HandRuns(dict):
    """A hand (its family counts) to its part of an observation, each count over 4 (made the first time it is seen)."""

    def __missing__(self, counts: tuple[int, ...]) -> bytes:
        run = self[counts] = float32s([c / C.CARDS_PER_FAMILY for c in counts])
        return run


_HAND_RUNS = HandRuns()
_TEAM_RUNS = {n: RunsPerSeat(n, team_run) for n in PLAYER_COUNTS}
_SCORE_RUNS = {n: RunsPerSeat(n, score_run) for n in PLAYER_COUNTS}
_PENALISED_RUNS = {n: RunsPerSeat(n, seats_run) for n in PLAYER_COUNTS}
_DECIDED_RUNS = {n: RunsPerSeat(n, decided_run) for n in PLAYER_COUNTS}
_GESTURE_RUNS = {n: RunsPerSeat(n, gestures_run) for n in PLAYER_COUNTS}


def _family_name(f: int) -> str | None:
    return C.FAMILIES[f] if f >= 0 else None


class Observer:
    """The view and the observation of a `NinjaaaTackState` (a mixin of it)."""

    # --- views ---------------------------------------------------------------------------------------------------
    def code_of(self, seat: int) -> tuple[int, ...] | None:
        """The codebook `seat` shares with its partner this round (None for a lone wolf)."""
        team = self.team_of[seat]
        return self.pair_code(team) if len(team) == 2 else None

    def _view(self) -> dict[str, Any]:
        n = self.players
        hands = [
            Private({C.FAMILIES[f]: c for f, c in enumerate(self.hand_counts(s)) if c}, s, shown=C.HAND_SIZE)
            for s in range(n)
        ]
        pending = [
            Private(None if a == NO_CHOICE else self.action_label(a), s, shown=None) for s, a in enumerate(self.pending)
        ]
        # Each seat knows what it passed and what it received at each pass of the round.
        own = [
            Private(
                [{"passed": _family_name(p[s]), "received": _family_name(p[s - 1])} for p in self.passed],
                s,
                shown=None,
            )
            for s in range(n)
        ]
        teams = [
            {
                "name": team_name(t),
                "seats": list(t),
                "lone_wolf": len(t) == 1,
                "score": self.points[t[0]] if n % 2 == 0 else None,
                "penalised": bool(self.penalised.intersection(t)),
            }
            for t in self.teams
        ]
        return {
            "families": list(C.FAMILIES[:n]),
            "round": self.round,
            "step": STEP_NAMES[self.step],
            "passes": self.passes,
            "max_passes": self.max_passes,
            "points_to_win": self.target,
            "gong_order": "arrival" if self.arrival else "random",
            "talk": "at_once" if self.talk_at_once else "together",
            "attack": "team" if self.per_team else "all",
            "individual_scores": n % 2 == 1,
            "teams": teams,
            "lone_wolf": self.lone_wolf if self.lone_wolf >= 0 else None,
            "penalised": sorted(self.penalised),
            "penalised_next_round": sorted(self.penalised_next),
            "signals": [
                {"pass": k, "seat": s, "player": seat_name(s), "signal": C.SIGNALS[g]} for k, s, g in self.signals
            ],
            "last_call": self._last_call_view(),
            "codebooks_private": self.private_codes,
            # Each codebook is known to the two seats that agreed it (to everybody when the code is public).
            "codebooks": [
                Private(
                    {"seats": list(pair), "code": code_table(code, n)},
                    pair,
                    shown=None if self.private_codes else {"seats": list(pair), "code": code_table(code, n)},
                )
                for pair, code in zip(self.codebooks, map(self.pair_code, self.codebooks))
            ],
            "hands": hands,
            "pending": pending,
            "pass_log": own,
        }

    def _extend_view(self, view: dict[str, Any], seat: int | None) -> None:
        """The looking seat's own hand, pending choice and passes under short keys."""
        mine = seat is not None
        view["hand"] = view["hands"][seat] if mine else None
        view["my_choice"] = view["pending"][seat] if mine else None
        view["my_passes"] = view["pass_log"][seat] if mine else None
        code = self.code_of(seat) if mine else None
        # The code of this round's partnership: what the seat's and its partner's gestures mean.
        view["codebook"] = code_table(code, self.players) if code is not None else None

    def _last_call_view(self) -> dict[str, Any] | None:
        if self.last_call is None:
            return None
        caller, action, judged, revealed, points, correct = self.last_call
        return {
            "caller": caller,
            "call": self.action_label(action),
            "target": judged,
            "revealed": {seat_name(s): self.counts_text(c) for s, c in revealed},
            "points": points,
            "correct": correct,
        }

    def _observe(self, seat: int, out: np.ndarray) -> None:
        # Speed: one struct store of runs from tables (see _OBSERVATION_STRUCTS), a few Python steps in all.
        n = self.players
        row = seat * n
        points = self.points
        passed = self.passed
        last = passed[-1] if passed else _NO_PASS
        family = self.partner_family(seat) if self.signals else None
        _OBSERVATION_STRUCTS[n].pack_into(
            out,
            0,
            _HAND_RUNS[tuple(self.hands[row : row + n])],
            _STEP_RUNS[self.step],
            _TEAM_RUNS[n][self.lone_wolf][seat],
            _SCORE_RUNS[n][self.target, *points][seat] if any(points) else _ZERO_RUNS[n],
            _PENALISED_RUNS[n][self.penalised][seat],
            # The seats that decided this step are those no longer to move (`pending` holds their choices).
            _DECIDED_RUNS[n][self.movers][seat],
            self._gestures_run(seat),
            # In a sampled world another seat's passes are unknown (NO_CHOICE, the last entry): shown blank.
            _PASS_RUNS[n][last[seat]][last[seat - 1]],
            self.passes / self.max_passes,
            _ONE_HOT[n][NO_CHOICE if family is None else family],
        )

    def _gestures_run(self, seat: int) -> bytes:
        """The gestures of the latest signal step of this round, per relative seat (silence when it made none);
        all blank before the round's first signal step."""
        n = self.players
        latest = self.passes if self.step == PASS_STEP else self.passes - 1
        if latest < 1:
            return _ZERO_RUNS[n * WIDTH]
        masks = [0] * n
        # Scanned from the end of the round's gestures (in pass order).
        for k, s, g in reversed(self.signals):
            if k == latest:
                masks[s] |= 1 << g
            elif k < latest:
                break
        return _GESTURE_RUNS[n][tuple(masks)][seat]

    def partner_family(self, seat: int) -> int | None:
        """The family the seat's partner last gestured this round, read by their codebook (None if none)."""
        team = self.team_of[seat]
        if len(team) == 1:
            return None
        mate = team[1] if team[0] == seat else team[0]
        for _, s, g in reversed(self.signals):
            if s == mate:
                f = self.pair_code(team).index(g)
                return f if f < self.players else None
        return None
