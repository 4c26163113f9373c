"""Shinobi no Gakko (Kujiradama): a two-handed climbing game for 3 to 5 players."""

from ...core import register
from .heuristic import GakkoHeuristic
from .rules import GakkoGame, GakkoState

GakkoGame.heuristic_bot = GakkoHeuristic
GAME = register(GakkoGame())

__all__ = ["GAME", "GakkoGame", "GakkoHeuristic", "GakkoState"]
