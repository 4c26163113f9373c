"""Per-bot statistics of a match: win rate and mean score with 95% intervals, and an openskill rating."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import fmean, stdev
from typing import Any

from ..core import BadOptions

Z95 = 1.959963984540054


@dataclass
class Interval:
    value: float
    low: float
    high: float

    def to_dict(self) -> dict[str, float]:
        return {"value": self.value, "low": self.low, "high": self.high}


def wilson(successes: float, trials: int) -> Interval:
    """The Wilson score interval (95%) of a proportion; shared wins count as fractions."""
    if trials == 0:
        return Interval(0.0, 0.0, 1.0)
    p = successes / trials
    denom = 1 + Z95**2 / trials
    centre = (p + Z95**2 / (2 * trials)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / trials + Z95**2 / (4 * trials**2)) / denom
    return Interval(p, max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: Sequence[float]) -> Interval:
    """The mean with a normal-approximation 95% interval."""
    if not values:
        return Interval(0.0, 0.0, 0.0)
    m = fmean(values)
    if len(values) < 2:
        return Interval(m, m, m)
    half = Z95 * stdev(values) / math.sqrt(len(values))
    return Interval(m, m - half, m + half)


def finishing_ranks(scores: Sequence[float], winners: Sequence[int]) -> list[int]:
    """1 for the winners, then by score; equal results share a rank (lower is better)."""
    keys = [(s in winners, scores[s]) for s in range(len(scores))]
    return [1 + sum(other > mine for other in keys) for mine in keys]


class Ratings:
    """Openskill (Plackett-Luce) ratings updated game by game, in the order the games were scheduled."""

    def __init__(self, bots: Sequence[str]) -> None:
        try:
            from openskill.models import PlackettLuce
        except ImportError:
            raise BadOptions("ratings need openskill: pip install 'ninjatable[arena]'") from None

        self.model = PlackettLuce()
        self.ratings = {bot: self.model.rating(name=bot) for bot in bots}

    def update(self, lineup: Sequence[str], scores: Sequence[float], winners: Sequence[int]) -> None:
        """Rate one game, each seat a team of one; a bot in several seats moves by its seats' mean change."""
        teams = [[self.model.rating(mu=self.ratings[b].mu, sigma=self.ratings[b].sigma)] for b in lineup]
        rated = self.model.rate(teams, ranks=finishing_ranks(scores, winners))
        moves: dict[str, list[tuple[float, float]]] = {}
        for bot, team in zip(lineup, rated):
            moves.setdefault(bot, []).append((team[0].mu, team[0].sigma))
        for bot, new in moves.items():
            self.ratings[bot].mu = fmean(m for m, _ in new)
            self.ratings[bot].sigma = fmean(s for _, s in new)

    def to_dict(self, bot: str) -> dict[str, Any]:
        r = self.ratings[bot]
        return {"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()}
