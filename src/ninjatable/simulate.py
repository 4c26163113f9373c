"""Batch simulation: many games between bots, summarised per seat."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from statistics import fmean
from typing import Any

from .bots import make_bot, play_game
from .core import Game, Record


@dataclass
class SimulationSummary:
    game: str
    players: int
    options: dict[str, Any]
    bots: list[str]
    games: int = 0
    scores: list[list[float]] = field(default_factory=list)  # per seat, one entry per game
    win_shares: list[float] = field(default_factory=list)  # per seat; a shared win counts 1/k
    lengths: list[int] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "options": self.options,
            "games": self.games,
            "mean_moves": fmean(self.lengths) if self.lengths else 0.0,
            "seats": [
                {
                    "seat": s,
                    "bot": self.bots[s],
                    "mean_score": fmean(self.scores[s]) if self.scores[s] else 0.0,
                    "win_rate": self.win_shares[s] / self.games if self.games else 0.0,
                }
                for s in range(self.players)
            ],
        }


def simulate(
    game: Game,
    players: int,
    games: int,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    bots: Sequence[str] = ("random",),
    records: Path | None = None,
    on_game: Callable[[int], None] | None = None,
) -> SimulationSummary:
    """Play `games` games; game i uses seed `seed + i`, its bots seeded from it too, so every game replays."""
    options = dict(options or {})
    seat_bots = [bots[s % len(bots)] for s in range(players)]
    summary = SimulationSummary(game.id, players, options, seat_bots)
    summary.scores = [[] for _ in range(players)]
    summary.win_shares = [0.0] * players
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
    for i in range(games):
        state = game.new_state(players, seed=seed + i, **options)
        playing = [make_bot(spec, seed=(seed + i) * 101 + s) for s, spec in enumerate(seat_bots)]
        play_game(state, playing)
        winners = state.winners()
        for s, score in enumerate(state.scores()):
            summary.scores[s].append(score)
        for w in winners:
            summary.win_shares[w] += 1 / len(winners)
        summary.lengths.append(len(state.history))
        summary.games += 1
        if records is not None:
            Record.from_state(state).save(records / f"{game.id}-{seed + i}.json")
        if on_game is not None:
            on_game(i)
    return summary
