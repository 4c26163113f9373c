"""The registry of games, by id."""

from __future__ import annotations

from .errors import UnknownGame
from .game import Game

_GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Add a game (called once by each game package); returns it for use as a module constant."""
    if not game.id:
        raise ValueError("a game needs an id")
    _GAMES[game.id] = game
    return game


def get_game(game_id: str) -> Game:
    """The registered game with this id, or UnknownGame naming the ids that exist."""
    _discover()
    try:
        return _GAMES[game_id]
    except (KeyError, TypeError):
        known = ", ".join(sorted(_GAMES)) or "none"
        raise UnknownGame(f"there is no game {game_id!r}; the games are: {known}") from None


def all_games() -> list[Game]:
    """Every registered game, sorted by id."""
    _discover()
    return [_GAMES[k] for k in sorted(_GAMES)]


def _discover() -> None:
    # The game packages register themselves on import; importing the `games` package imports them all.
    # This is a name lookup, not a dependency: the kernel knows no game.
    import importlib

    importlib.import_module("ninjatable.games")
