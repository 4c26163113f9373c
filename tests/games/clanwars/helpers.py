"""A Ninja Clan Wars position set by hand for the rulebook tests: a new state, then `set_position`."""

from __future__ import annotations

from typing import Any

from ninjatable.core import get_game
from ninjatable.games.clanwars.rules import ClanWarsState

GAME = get_game("clanwars")
OPTION_NAMES = {option.name for option in GAME.options}


def scripted_state(hands: list[list[str]], **given: Any) -> ClanWarsState:
    """A game of `len(hands)` players: the game's options among `given` start it, the rest is the position (the
    keywords of `ClanWarsState._set_position`: deck, ninja, markers, current, first_turn, phase, known)."""
    options = {name: value for name, value in given.items() if name in OPTION_NAMES}
    state = GAME.new_state(len(hands), seed=0, **options)
    state.set_position(hands=hands, **{name: value for name, value in given.items() if name not in OPTION_NAMES})
    return state
