"""Reading the table: which hands the other players probably hold, if they play the table-talk convention.

A seat sees its own passes, the card its right-hand neighbour gave it at each pass, and every gesture. If the
others play the heuristic's convention (pass the least useful card, gesture the family you collect once you
hold two of it, tap the gong at once with a clan in hand), most deals are incompatible with what was seen.
`read_hands` replays the round from many possible deals (a particle filter): at each pass the unseen passes are
drawn from the convention, and each deal is weighed by how well the convention explains what the seat saw (the
card it received, the gestures, no gong). Departures from the convention are unlikely, never impossible, so
players who do not follow it (people, random bots) only blur the reading instead of breaking it. The gestures
of seats the reader does not trust (see trust.py) are not read at all: their makers are taken as silent, and
their silence says nothing.
"""

from __future__ import annotations

import random
from typing import Any

from ...core.deal import shuffle
from .cards import CARDS_PER_FAMILY, FAMILIES, HAND_SIZE, SIGNALS, clan_size
from .convention import SILENT, UNKNOWN, choose_pass_among, convention_signal, known_codes, own_hand, read_gesture

# How likely a player is to depart from the convention at a decision (one pass, one gesture, one missed gong).
DEPARTURE = 0.1
# Passes replayed: older ones are left out, since replaying a long round leaves a handful of deals standing
# (each pass resamples them) and the reading then believes one of them far too firmly.
WINDOW = 3


class Reading:
    """What the seat saw of the round, arranged for the replay: the teams, the gestures by pass, its own hands."""

    def __init__(self, view: dict[str, Any], seat: int, players: int, ignored: frozenset[int] = frozenset()) -> None:
        self.view = view
        self.seat = seat
        self.n = players
        self.ignored = ignored  # seats whose gestures are not read
        self.teams = {s: tuple(t["seats"]) for t in view["teams"] for s in t["seats"]}
        # Gestures by pass, as the family each names in its maker's code (see `read_gesture`: OFF_CONVENTION for a
        # gesture that names none, UNKNOWN where the code is another partnership's secret); silence has no entry.
        codes = known_codes(view, players)
        self.gestures: dict[int, dict[int, int]] = {}
        for entry in view["signals"]:
            if entry["seat"] in ignored:
                continue
            meaning = read_gesture(codes, entry["seat"], SIGNALS.index(entry["signal"]))
            self.gestures.setdefault(entry["pass"], {})[entry["seat"]] = meaning

    def hand_after(self, passes: int) -> list[int]:
        """The seat's hand after the first `passes` passes of the round: its hand now with the later ones undone."""
        hand = own_hand(self.view, self.n)
        for entry in reversed(self.view["my_passes"][passes:]):
            hand[FAMILIES.index(entry["passed"])] += 1
            hand[FAMILIES.index(entry["received"])] -= 1
        return hand

    @staticmethod
    def after_gestures(latest: dict[int, int], made: dict[int, int]) -> dict[int, int]:
        """Each seat's latest convention gesture once `made` is published (silence keeps the previous one)."""
        kept = {s: f for s, f in latest.items() if s not in made}
        return {**kept, **{s: f for s, f in made.items() if f >= 0}}

    def latest_before(self, passes: int) -> dict[int, int]:
        """The latest convention gestures as they stood before the gestures that followed pass `passes`."""
        latest: dict[int, int] = {}
        for k in sorted(self.gestures):
            if k < passes:
                latest = self.after_gestures(latest, self.gestures[k])
        return latest

    def deal(self, rng: random.Random, mine: list[int]) -> list[list[int]]:
        """A random deal, among the other seats, of the cards the seat did not hold (`mine`) when the replay starts."""
        n = self.n
        deck = [f for f in range(n) for _ in range(CARDS_PER_FAMILY - mine[f])]
        shuffle(rng, deck)  # `rng.shuffle`'s permutation, in fewer Python calls (a reading deals thousands)
        hands = []
        others = iter(range(0, len(deck), HAND_SIZE))
        for s in range(n):
            if s == self.seat:
                hands.append(mine[:])
                continue
            start = next(others)
            hand = [0] * n
            for f in deck[start : start + HAND_SIZE]:
                hand[f] += 1
            hands.append(hand)
        return hands

    def gong_fit(self, hands: list[list[int]]) -> float:
        """A player with a clan in hand taps the gong at once: a deal where one did not is unlikely."""
        weight = 1.0
        for s in range(self.n):
            if s != self.seat and max(hands[s]) >= clan_size(self.teams[s]):
                weight *= DEPARTURE
        return weight


def read_hands(
    view: dict[str, Any],
    seat: int,
    players: int,
    rng: random.Random,
    particles: int = 128,
    window: int = WINDOW,
    ignored: frozenset[int] = frozenset(),
) -> list[list[list[int]]]:
    """`particles` likely hand sets (each a list of per-seat family counts), equally weighted (see `read_deals`)."""
    return [hands for hands, _ in read_deals(view, seat, players, rng, particles, window, ignored)]


def read_deals(
    view: dict[str, Any],
    seat: int,
    players: int,
    rng: random.Random,
    particles: int = 128,
    window: int = WINDOW,
    ignored: frozenset[int] = frozenset(),
) -> list[tuple[list[list[int]], list[list[int]]]]:
    """`particles` likely deals, equally weighted: each the hands (per-seat family counts) and the passes replayed.

    The seat's own hand is exact in each. The replay starts `window` passes back, from a random deal of the
    cards the seat did not hold then, weighed by the gestures made just before; older passes are not replayed.
    The passes come one list per replayed pass (the family each seat passed), oldest first: with them a world
    holds what every seat saw of the window, so the other seats can read the table in it too. Pending choices of
    the current step are not read (they are hidden), nor the gestures of the `ignored` seats.
    """
    reading = Reading(view, seat, players, ignored)
    passes = view["my_passes"]
    signal_done = len(passes) if view["step"] == "pass" else len(passes) - 1
    start = max(0, len(passes) - window)
    pool = [reading.deal(rng, reading.hand_after(start)) for _ in range(particles)]
    trails: list[list[list[int]]] = [[] for _ in range(particles)]
    # A step the seat saw end without a call shows nobody held a clan then; the step in progress shows nothing.
    weights = [reading.gong_fit(h) if passes else 1.0 for h in pool]
    latest = reading.latest_before(start)
    if start:
        latest = _weigh_gestures(reading, pool, weights, start, latest)
        pool, trails, weights = _resample(pool, trails, weights, rng)
    for k in range(start + 1, len(passes) + 1):
        seen = k <= signal_done
        _replay_pass(reading, pool, trails, weights, passes[k - 1], latest, seen, rng)
        if seen:
            latest = _weigh_gestures(reading, pool, weights, k, latest)
        pool, trails, weights = _resample(pool, trails, weights, rng)
    return list(zip(pool, trails))


def _replay_pass(
    reading: Reading,
    pool: list[list[list[int]]],
    trails: list[list[list[int]]],
    weights: list[float],
    entry: dict[str, Any],
    latest: dict[int, int],
    seen: bool,
    rng: random.Random,
) -> None:
    """Play one pass in every deal: the seat's own and its right neighbour's as seen, the others drawn."""
    n, seat = reading.n, reading.seat
    right = (seat - 1) % n
    given = FAMILIES.index(entry["passed"])
    received = FAMILIES.index(entry["received"])
    for i, hands in enumerate(pool):
        chosen = []
        weight = weights[i]
        for s in range(n):
            if s == seat:
                chosen.append(given)
                continue
            options = pass_options(hands[s], s, reading, latest)
            if s == right:
                weight *= pass_likelihood(hands[s], options, received)
                chosen.append(received)
            else:
                chosen.append(draw_pass(hands[s], options, rng))
        for s, f in enumerate(chosen):
            hands[s][f] -= 1
            hands[(s + 1) % n][f] += 1
        trails[i].append(chosen)
        weights[i] = weight * reading.gong_fit(hands) if seen else weight


def _weigh_gestures(
    reading: Reading, pool: list[list[list[int]]], weights: list[float], k: int, latest: dict[int, int]
) -> dict[int, int]:
    """Weigh every deal by the gestures made after pass k; return the latest gestures once they are made."""
    made = reading.gestures.get(k, {})
    for i, hands in enumerate(pool):
        weight = weights[i]
        for s in range(reading.n):
            if s == reading.seat or s in reading.ignored:
                continue
            expected, seen = convention_signal(hands[s], s, reading.teams[s], latest), made.get(s, SILENT)
            # A gesture of unknown meaning fits any gesture the convention makes here, and not silence.
            departs = expected == SILENT if seen == UNKNOWN else expected != seen
            if departs:
                weight *= DEPARTURE
        weights[i] = weight
    return reading.after_gestures(latest, made)


def pass_options(hand: list[int], s: int, reading: Reading, latest: dict[int, int]) -> list[int]:
    """The families a convention player would pass from this hand (ties are broken at random)."""
    left = (s + 1) % reading.n
    return choose_pass_among(hand, s, reading.teams[s], left, latest)


def pass_likelihood(hand: list[int], options: list[int], family: int) -> float:
    """How likely a convention player is to pass `family` from this hand (0 when it does not hold it)."""
    if not hand[family]:
        return 0.0
    held = sum(1 for c in hand if c)
    by_convention = 1.0 / len(options) if family in options else 0.0
    return (1.0 - DEPARTURE) * by_convention + DEPARTURE / held


def draw_pass(hand: list[int], options: list[int], rng: random.Random) -> int:
    """A pass drawn as a convention player makes it, departing from it now and then."""
    if rng.random() < DEPARTURE:
        return rng.choice([f for f, c in enumerate(hand) if c])
    return rng.choice(options)


def _resample(
    pool: list[list[list[int]]], trails: list[list[list[int]]], weights: list[float], rng: random.Random
) -> tuple[list[list[list[int]]], list[list[list[int]]], list[float]]:
    """Draw the particles again in proportion to their weights, so unlikely deals give way to likely ones."""
    if sum(weights) <= 0.0:
        return pool, trails, [1.0] * len(pool)
    picked = rng.choices(range(len(pool)), weights, k=len(pool))
    copies = [[row[:] for row in pool[i]] for i in picked]
    return copies, [trails[i][:] for i in picked], [1.0] * len(pool)
