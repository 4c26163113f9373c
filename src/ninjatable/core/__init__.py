"""The game-agnostic kernel: the Game/State contract, the registry, records, errors and secrecy."""

from .bot import Bot, RandomBot, SeatInfo, win_chances
from .deal import constrained_deal, deal_by_places
from .errors import BadArgument, BadOptions, BadRecord, IllegalAction, NinjatableError, UnknownGame
from .game import Decision, Event, Game, LiveStep, LiveTiming, ScoreLine, State, seat_name, winners_text
from .observe import RELATIVE_SEAT, SEATS_FROM, bit_floats, float32s, one_hot
from .options import Option
from .record import Record
from .registry import all_games, get_game, register
from .secrecy import Private, redact
from .text import render_text

__all__ = [
    "RELATIVE_SEAT",
    "SEATS_FROM",
    "BadArgument",
    "BadOptions",
    "BadRecord",
    "Bot",
    "Decision",
    "Event",
    "Game",
    "IllegalAction",
    "LiveStep",
    "LiveTiming",
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
    "bit_floats",
    "float32s",
    "constrained_deal",
    "deal_by_places",
    "get_game",
    "one_hot",
    "redact",
    "register",
    "render_text",
    "seat_name",
    "win_chances",
    "winners_text",
]
