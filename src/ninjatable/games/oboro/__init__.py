"""Oboro Ninja Star Trick (mogwai, 2017): trick-taking for exactly 3 players."""

from ...core import register
from .heuristic import OboroHeuristic
from .rules import OboroGame, OboroState

OboroGame.heuristic_bot = OboroHeuristic
GAME = register(OboroGame())

__all__ = ["GAME", "OboroGame", "OboroHeuristic", "OboroState"]
