"""Bots: the interface, the registry by name, and the game-agnostic bots."""

from ..core.bot import Bot, RandomBot, SeatInfo
from .registry import available_bots, make_bot, parse_bot_list, play_game

__all__ = ["Bot", "RandomBot", "SeatInfo", "available_bots", "make_bot", "parse_bot_list", "play_game"]
