"""Shinobi no Gakko (Kujiradama): a two-handed climbing game for 3 to 5 players."""

from ...core import register
from .rules import GakkoGame, GakkoState

GAME = register(GakkoGame())

__all__ = ["GAME", "GakkoGame", "GakkoState"]
