"""The statistics of a balance report: seat win rates and the test of equal seats, means, paired differences."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from ..arena.stats import Interval, mean_interval, wilson

__all__ = ["Interval", "chi2_sf", "equal_seats_test", "mean_interval", "paired_difference", "relative_change",
           "wilson"]

BOOTSTRAP_SAMPLES = 2000


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square variable with `df` degrees of freedom (scipy's, or the exact closed form)."""
    try:
        from scipy.stats import chi2
    except ImportError:
        return _chi2_sf_exact(x, df)
    return float(chi2.sf(x, df))


def _chi2_sf_exact(x: float, df: int) -> float:
    """The regularised upper gamma Q(df/2, x/2) in closed form for a whole number of degrees of freedom."""
    if x <= 0:
        return 1.0
    half = x / 2
    if df % 2 == 0:
        term, total = 1.0, 1.0
        for i in range(1, df // 2):
            term *= half / i
            total += term
        return math.exp(-half) * total
    total = math.erfc(math.sqrt(half))
    term = math.sqrt(half) * 2 / math.sqrt(math.pi)  # the k = 1/2 term of the series
    for i in range(1, (df + 1) // 2):
        total += math.exp(-half) * term
        term *= half / (i + 0.5)
    return min(1.0, total)


def equal_seats_test(wins: Sequence[float], games: int) -> tuple[float, float]:
    """Pearson's chi-square statistic and p-value of "every seat wins equally often" (shared wins as fractions)."""
    seats = len(wins)
    expected = games / seats
    if games == 0 or seats < 2:
        return 0.0, 1.0
    statistic = sum((w - expected) ** 2 / expected for w in wins)
    return statistic, chi2_sf(statistic, seats - 1)


def paired_difference(variant: Sequence[float], base: Sequence[float]) -> Interval:
    """The mean of variant - base over games played from the same seeds, with its 95% interval."""
    return mean_interval([v - b for v, b in zip(variant, base)])


def relative_change(variant: Sequence[float], base: Sequence[float], seed: int = 0) -> Interval | None:
    """mean(variant) / mean(base) - 1 over paired games, with a 95% bootstrap (percentile) interval."""
    v, b = np.asarray(variant, dtype=float), np.asarray(base, dtype=float)
    if len(v) == 0 or b.mean() == 0:
        return None
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, len(v), size=(BOOTSTRAP_SAMPLES, len(v)))
    means_b = b[picks].mean(axis=1)
    ratios = v[picks].mean(axis=1) / np.where(means_b == 0, np.nan, means_b) - 1
    low, high = np.nanpercentile(ratios, [2.5, 97.5])
    return Interval(float(v.mean() / b.mean() - 1), float(low), float(high))
