"""Matches between named bots: balanced seat assignments, duplicate deals, parallel games, exact replay."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..bots import make_bot, parse_bot_list, play_game
from ..core import BadOptions, get_game
from ..core.bot import Bot
from ..runner import Backend, run
from .schedule import lineups
from .stats import Interval, Ratings, mean_interval, wilson


@dataclass(frozen=True)
class GameTask:
    """Everything one game needs, picklable for a worker process."""

    index: int
    game: str
    players: int
    options: dict[str, Any]
    deal_seed: int
    lineup: tuple[str, ...]
    bot_seeds: tuple[int, ...]


@dataclass
class GameResult:
    index: int
    lineup: tuple[str, ...]
    deal_seed: int
    scores: list[float]
    winners: list[int]
    moves: int
    think: dict[str, list[float]] = field(default_factory=dict)  # per bot: [seconds, decisions]

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "lineup": list(self.lineup),
            "deal_seed": self.deal_seed,
            "scores": self.scores,
            "winners": self.winners,
            "moves": self.moves,
        }


@dataclass
class BotSummary:
    bot: str
    games: int  # seat-games: a bot sitting in two seats of one game plays two
    win_rate: Interval
    mean_score: Interval
    rating: dict[str, float]
    ms_per_decision: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "bot": self.bot,
            "games": self.games,
            "win_rate": self.win_rate.to_dict(),
            "mean_score": self.mean_score.to_dict(),
            "rating": self.rating,
        }


@dataclass
class ArenaResult:
    game: str
    players: int
    options: dict[str, Any]
    seed: int
    bots: list[str]
    games: list[GameResult]
    summaries: list[BotSummary]

    @property
    def even_share(self) -> float:
        """The win rate of a seat when all bots are equally strong."""
        return 1.0 / self.players

    def summary(self, bot: str) -> BotSummary:
        return next(s for s in self.summaries if s.bot == bot)

    def to_dict(self) -> dict[str, Any]:
        """Everything that replays exactly from the seed (timings are left out)."""
        return {
            "game": self.game,
            "players": self.players,
            "options": self.options,
            "seed": self.seed,
            "games_played": len(self.games),
            "even_share": self.even_share,
            "bots": [s.to_dict() for s in self.summaries],
            "games": [g.to_dict() for g in self.games],
        }


def plan(
    game_id: str, players: int, bots: Sequence[str], games: int, seed: int, options: dict[str, Any] | None = None
) -> list[GameTask]:
    """The games of a match: `games` rounded up to whole blocks of balanced lineups, one deal per block."""
    block = lineups(list(bots), players)
    blocks = max(1, -(-games // len(block)))
    tasks = []
    for b in range(blocks):
        deal_seed = random.Random(f"arena:{seed}:deal:{b}").getrandbits(63)
        for lineup in block:
            index = len(tasks)
            bot_rng = random.Random(f"arena:{seed}:bots:{index}")
            seeds = tuple(bot_rng.getrandbits(32) for _ in range(players))
            tasks.append(GameTask(index, game_id, players, dict(options or {}), deal_seed, lineup, seeds))
    return tasks


def play_task(task: GameTask) -> GameResult:
    """Play one game of the match (in this process or a worker)."""
    game = get_game(task.game)
    state = game.new_state(task.players, seed=task.deal_seed, **task.options)
    bots = [_Timed(make_bot(spec, seed=s)) for spec, s in zip(task.lineup, task.bot_seeds)]
    play_game(state, bots)
    think: dict[str, list[float]] = {}
    for spec, bot in zip(task.lineup, bots):
        total = think.setdefault(spec, [0.0, 0])
        total[0] += bot.seconds
        total[1] += bot.decisions
    return GameResult(task.index, task.lineup, task.deal_seed, state.scores(), state.winners(),
                      len(state.history), think)


def run_arena(
    game_id: str,
    players: int | None,
    bots: Sequence[str] | str,
    games: int = 100,
    seed: int = 0,
    jobs: int = 1,
    options: dict[str, Any] | None = None,
    on_game: Callable[[GameResult, int], None] | None = None,
    backend: Backend | None = None,
) -> ArenaResult:
    """Play a seat-rotated match and summarise it per bot; the same arguments give the same result.

    `on_game(result, total)` is called as each game finishes (in completion order when `jobs` > 1). `backend`
    (runner.Backend) plays the games elsewhere, in processes or on Ray; `jobs` alone means local processes.
    """
    game = get_game(game_id)
    players = game.check_players(players)
    specs = parse_bot_list(bots) if isinstance(bots, str) else list(bots)
    for spec in specs:
        bot = make_bot(spec)  # an unknown bot or parameter fails before any game is played
        check = getattr(bot, "check_game", None)
        if check is not None:
            check(game)  # so does a bot that cannot play this game
    if not specs:
        raise BadOptions("name at least one bot")
    if games < 1 or jobs < 1:
        raise BadOptions("games and jobs must be at least 1")
    game.new_state(players, seed=0, **(options or {}))  # checks the options up front
    tasks = plan(game.id, players, specs, games, seed, options)
    backend = backend or Backend(jobs=jobs)
    report = None if on_game is None else (lambda _i, done: on_game(done, len(tasks)))
    results = run(play_task, tasks, backend, on_result=report)
    return summarise(game.id, players, dict(options or {}), seed, specs, results)


def summarise(
    game_id: str, players: int, options: dict[str, Any], seed: int, specs: Sequence[str], results: list[GameResult]
) -> ArenaResult:
    """Per-bot win rate, mean score, rating and thinking time, from the games in scheduled order."""
    bots = list(dict.fromkeys(specs))
    shares: dict[str, list[float]] = {b: [] for b in bots}
    scores: dict[str, list[float]] = {b: [] for b in bots}
    think = {b: [0.0, 0] for b in bots}
    ratings = Ratings(bots)
    for result in results:  # in index order, so the ratings replay
        for seat, bot in enumerate(result.lineup):
            won = seat in result.winners
            shares[bot].append(1.0 / len(result.winners) if won else 0.0)
            scores[bot].append(result.scores[seat])
        for bot, (seconds, decisions) in result.think.items():
            think[bot][0] += seconds
            think[bot][1] += decisions
        ratings.update(result.lineup, result.scores, result.winners)
    summaries = [
        BotSummary(
            bot=b,
            games=len(shares[b]),
            win_rate=wilson(sum(shares[b]), len(shares[b])),
            mean_score=mean_interval(scores[b]),
            rating=ratings.to_dict(b),
            ms_per_decision=1000.0 * think[b][0] / think[b][1] if think[b][1] else 0.0,
        )
        for b in bots
    ]
    return ArenaResult(game_id, players, options, seed, bots, results, summaries)


class _Timed(Bot):
    """Wraps a bot to measure its thinking time; decides exactly as the wrapped bot."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.seconds = 0.0
        self.decisions = 0

    def act(self, info) -> int:
        start = time.perf_counter()
        action = self.bot.act(info)
        self.seconds += time.perf_counter() - start
        self.decisions += 1
        return action
