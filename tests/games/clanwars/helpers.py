"""A Ninja Clan Wars position set by hand for the rulebook tests: a new state, then `set_position`."""

from __future__ import annotations

from typing import Any

from ninjatable.core import get_game
from ninjatable.games.clanwars.actions import RECRUIT
from ninjatable.games.clanwars.rules import ClanWarsState


def scripted_state(
    hands: list[list[str]],
    deck: list[str] | tuple[str, ...] = (),
    ninja: list[list[str]] | None = None,
    markers: list[int] | None = None,
    current: int = 0,
    first_turn: bool = False,
    phase: int = RECRUIT,
    known: dict[tuple[int, int], list[str]] | None = None,
    **options: Any,
) -> ClanWarsState:
    """A game of `len(hands)` players with `options`, set to the position (see `ClanWarsState._set_position`)."""
    state = get_game("clanwars").new_state(len(hands), seed=0, **options)
    state.set_position(hands=hands, deck=deck, ninja=ninja, markers=markers, current=current, first_turn=first_turn,
                       phase=phase, known=known)
    return state
