"""Oboro Ninja Star Trick (mogwai, 2017): trick-taking for exactly 3 players."""

from ...core import register
from .heuristic import Heuristic
from .rules import OboroGame, OboroState

OboroGame.heuristic_bot = Heuristic
GAME = register(OboroGame())

__all__ = ["GAME", "Heuristic", "OboroGame", "OboroState"]
