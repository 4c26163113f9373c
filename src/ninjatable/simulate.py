"""Batch simulation: many games between bots, summarised per seat."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from statistics import fmean, pstdev
from typing import Any

from .bots import make_bot, play_game
from .core import BadOptions, Game, Record
from .runner import Backend, run


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
            "mean_moves": round(fmean(self.lengths), 2) if self.lengths else 0.0,
            # Seats numbered from 1, as `--seat` and the tables ("Player 1") number them.
            "seats": [
                {
                    "seat": s + 1,
                    "bot": self.bots[s],
                    "mean_score": round(fmean(self.scores[s]), 3) if self.scores[s] else 0.0,
                    "score_sd": round(pstdev(self.scores[s]), 3) if self.scores[s] else 0.0,
                    "win_rate": round(self.win_shares[s] / self.games, 4) if self.games else 0.0,
                }
                for s in range(self.players)
            ],
        }


    def add(self, scores: list[float], winners: list[int], length: int) -> None:
        for s, score in enumerate(scores):
            self.scores[s].append(score)
        for w in winners:
            self.win_shares[w] += 1 / len(winners)
        self.lengths.append(length)
        self.games += 1


def play_one(
    game: Game, players: int, seed: int, options: dict[str, Any], seat_bots: Sequence[str], records: Path | None
) -> tuple[list[float], list[int], int]:
    """One game with seed `seed` (its bots seeded from it); returns scores, winners and length in moves."""
    state = game.new_state(players, seed=seed, **options)
    play_game(state, [make_bot(spec, seed=seed * 101 + s) for s, spec in enumerate(seat_bots)])
    if records is not None:
        Record.from_state(state).save(records / f"{game.id}-{seed}.json")
    return state.scores(), state.winners(), len(state.history)


def simulate(
    game: Game,
    players: int,
    games: int,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    bots: Sequence[str] = ("random",),
    records: Path | None = None,
    on_game: Callable[[int], None] | None = None,
    jobs: int = 1,
    backend: Backend | None = None,
) -> SimulationSummary:
    """Play `games` games; game i uses seed `seed + i`, so every game replays on its own.

    With `jobs` > 1 the games run in that many processes, with `backend` (runner.Backend) wherever it says;
    the summary is the same as with one process.
    """
    backend = backend or Backend(jobs=jobs)
    if records is not None and backend.remote:
        raise BadOptions("--records writes files where the games run: not with a Ray cluster (--address)")
    options = dict(game.new_state(players, seed=seed, **(options or {})).options)  # every option, defaults too
    seat_bots = [bots[s % len(bots)] for s in range(players)]
    summary = SimulationSummary(game.id, players, options, seat_bots)
    summary.scores = [[] for _ in range(players)]
    summary.win_shares = [0.0] * players
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
    play = partial(play_one, game, players, options=options, seat_bots=seat_bots, records=records)
    report = None if on_game is None else (lambda i, _result: on_game(i))
    for result in run(play, [seed + i for i in range(games)], backend, on_result=report):
        summary.add(*result)  # in seed order, so the summary does not depend on where games ran
    return summary
