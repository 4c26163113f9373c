"""ninjatable: ninja card games with faithful rules engines, bots and research environments."""

from .core import Record, all_games, get_game

__version__ = "0.1.0"

__all__ = ["Record", "__version__", "all_games", "get_game"]
