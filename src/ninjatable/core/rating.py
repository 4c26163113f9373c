"""Skill ratings from finished games: one rule, used by the arena and by the table server's rated tables.

Openskill's Plackett-Luce model, each seat a team of one, ranked by its finishing place (every winner first, then
the others by score; equal results share a place). A player in several seats of one game (a bot playing itself) moves by
its seats' mean change. Ratings start at openskill's defaults (mu 25, sigma 25/3); the number shown is the
ordinal mu - 3 sigma, which starts at 0 and rises as the rating grows surer.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from statistics import fmean
from typing import Any

from .errors import BadOptions


@dataclass(frozen=True)
class Skill:
    """One player's rating in one game."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The rating shown and ranked by: mu - 3 sigma (a cautious estimate)."""
        return self.mu - 3 * self.sigma


@cache
def _model() -> Any:
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        raise BadOptions("ratings need openskill: pip install 'ninjatable[arena]'") from None
    return PlackettLuce()


def new_skill() -> Skill:
    """The rating of a player who has not played yet."""
    model = _model()
    return Skill(model.mu, model.sigma)


def finishing_ranks(scores: Sequence[float], winners: Sequence[int]) -> list[int]:
    """1 for every winner (co-winners share first place whatever their scores), then the others by score; equal
    results share a rank (lower is better)."""
    keys = [(True, 0.0) if s in winners else (False, scores[s]) for s in range(len(scores))]
    return [1 + sum(other > mine for other in keys) for mine in keys]


def rate_game(before: Mapping[Hashable, Skill], lineup: Sequence[Hashable], scores: Sequence[float],
              winners: Sequence[int]) -> dict[Hashable, Skill]:
    """The new rating of each player of `lineup` (one per seat) after a game with these final scores and winners;
    a player missing from `before` starts from `new_skill()`."""
    model = _model()
    start = {player: before.get(player) or new_skill() for player in lineup}
    teams = [[model.rating(mu=start[p].mu, sigma=start[p].sigma)] for p in lineup]
    rated = model.rate(teams, ranks=finishing_ranks(scores, winners))
    moves: dict[Hashable, list[tuple[float, float]]] = {}
    for player, team in zip(lineup, rated):
        moves.setdefault(player, []).append((team[0].mu, team[0].sigma))
    return {player: Skill(fmean(m for m, _ in new), fmean(s for _, s in new)) for player, new in moves.items()}
