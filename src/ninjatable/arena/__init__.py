"""The arena: seat-rotated matches between named bots, with win rates, scores, ratings and plots."""

from .match import ArenaResult, BotSummary, GameResult, plan, play_task, run_arena
from .schedule import lineups
from .stats import Interval, mean_interval, wilson

__all__ = [
    "ArenaResult",
    "BotSummary",
    "GameResult",
    "Interval",
    "lineups",
    "mean_interval",
    "plan",
    "play_task",
    "run_arena",
    "wilson",
]
