"""Slaughter the Dragon, Ha (Siroup Games): trick-taking with ninjutsu, for 3 to 5 players."""

from ...core import register
from .heuristic import DragonHeuristic
from .rules import DragonGame, DragonState

DragonGame.heuristic_bot = DragonHeuristic

GAME = register(DragonGame())

__all__ = ["GAME", "DragonGame", "DragonHeuristic", "DragonState"]
