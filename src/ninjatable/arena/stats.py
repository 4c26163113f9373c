"""Per-bot statistics of a match: win rate and mean score with 95% intervals, and an openskill rating."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import fmean, stdev
from typing import Any

from ..core.rating import new_skill, rate_game

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


class Ratings:
    """Openskill ratings (core/rating.py) updated game by game, in the order the games were scheduled."""

    def __init__(self, bots: Sequence[str]) -> None:
        self.ratings = {bot: new_skill() for bot in bots}

    def update(self, lineup: Sequence[str], scores: Sequence[float], winners: Sequence[int]) -> None:
        """Rate one game, each seat a team of one; a bot in several seats moves by its seats' mean change."""
        self.ratings.update(rate_game(self.ratings, lineup, scores, winners))

    def to_dict(self, bot: str) -> dict[str, Any]:
        r = self.ratings[bot]
        return {"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal}
