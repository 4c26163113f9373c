"""Ninjaaa'Tack: simultaneous passing, table talk in plain sight, and the race to the gong."""

from ...core import register
from .heuristic import NinjaaaTackHeuristic
from .rules import NinjaaaTackGame, NinjaaaTackState

NinjaaaTackGame.heuristic_bot = NinjaaaTackHeuristic
GAME = register(NinjaaaTackGame())

__all__ = ["GAME", "NinjaaaTackGame", "NinjaaaTackHeuristic", "NinjaaaTackState"]
