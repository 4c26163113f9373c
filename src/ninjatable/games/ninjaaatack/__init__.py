"""Ninjaaa'Tack: simultaneous passing, table talk in plain sight, and the race to the gong."""

from ...core import register
from .heuristic import Heuristic
from .rules import NinjaaaTack, NinjaaaTackState

NinjaaaTack.heuristic_bot = Heuristic
GAME = register(NinjaaaTack())

__all__ = ["GAME", "Heuristic", "NinjaaaTack", "NinjaaaTackState"]
