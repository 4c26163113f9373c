"""Ninja Clan Wars (Warpspawn): recruit Ninja, spy and raid the other clans' villages, for 2 to 6 players."""

from ...core import register
from .heuristic import ClanWarsHeuristic
from .rules import ClanWarsGame, ClanWarsState

ClanWarsGame.heuristic_bot = ClanWarsHeuristic
GAME = register(ClanWarsGame())

__all__ = ["GAME", "ClanWarsGame", "ClanWarsHeuristic", "ClanWarsState"]
