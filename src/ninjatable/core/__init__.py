"""The game-agnostic kernel: the Game/State contract, the registry, records, errors and secrecy."""

from .bot import Bot, RandomBot, SeatInfo, win_chances
from .deal import constrained_deal
from .errors import BadOptions, BadRecord, IllegalAction, NinjatableError, UnknownGame
from .game import Decision, Event, Game, ScoreLine, State, seat_name, winners_text
from .options import Option
from .record import Record
from .registry import all_games, get_game, register
from .secrecy import Private, redact
from .text import render_text

__all__ = [
    "BadOptions",
    "BadRecord",
    "Bot",
    "Decision",
    "Event",
    "Game",
    "IllegalAction",
    "NinjatableError",
    "Option",
    "Private",
    "RandomBot",
    "Record",
    "ScoreLine",
    "SeatInfo",
    "State",
    "UnknownGame",
    "all_games",
    "constrained_deal",
    "get_game",
    "redact",
    "register",
    "render_text",
    "seat_name",
    "win_chances",
    "winners_text",
]
