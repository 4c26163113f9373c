"""Placeholder replaced below."""
from ...core import RandomBot as Heuristic
