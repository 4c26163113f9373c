"""Slaughter the Dragon, Ha (Siroup Games): trick-taking with ninjutsu, for 3 to 5 players."""

from ...core import register
from .rules import DragonGame, DragonState

GAME = register(DragonGame())

__all__ = ["GAME", "DragonGame", "DragonState"]
