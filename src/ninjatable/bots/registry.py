"""Bots by name with parameters: `random`, `heuristic`, `ismcts:iterations=2000`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..core import BadOptions, State
from ..core.bot import Bot, RandomBot
from .heuristic import HeuristicBot
from .ismcts import IsmctsBot

_BOTS: dict[str, tuple[type[Bot], dict[str, type]]] = {
    "random": (RandomBot, {}),
    "heuristic": (HeuristicBot, {}),
    "ismcts": (IsmctsBot, IsmctsBot.PARAMS),
}


def register_bot(cls: type[Bot], params: dict[str, type] | None = None) -> None:
    """Make a bot class available by its `name`, with the typed parameters it accepts."""
    _BOTS[cls.name] = (cls, params or {})


def available_bots() -> list[str]:
    return sorted(_BOTS)


def make_bot(spec: str, seed: int | None = None) -> Bot:
    """Build a bot from `name` or `name:key=value,key=value`; BadOptions lists what exists."""
    name, _, rest = spec.strip().partition(":")
    if name not in _BOTS:
        raise BadOptions(f"there is no bot {name!r}; the bots are: {', '.join(available_bots())}")
    cls, accepted = _BOTS[name]
    params: dict[str, Any] = {}
    for item in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = item.partition("=")
        if not eq or key not in accepted:
            allowed = ", ".join(f"{k}=<{t.__name__}>" for k, t in accepted.items()) or "none"
            raise BadOptions(f"bot {name} has no parameter {item!r}; its parameters are: {allowed}")
        try:
            params[key] = accepted[key](value)
        except ValueError:
            raise BadOptions(f"bot parameter {key}={value!r} should be {accepted[key].__name__}") from None
    return cls(seed=seed, **params)


def parse_bot_list(text: str) -> list[str]:
    """Split `heuristic,ismcts:iterations=500,random` into bot specs (a spec's own commas follow a `=`)."""
    specs: list[str] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        if specs and "=" in part and ":" not in part and ":" in specs[-1]:
            specs[-1] += "," + part  # a further parameter of the previous spec
        else:
            specs.append(part)
    for spec in specs:
        make_bot(spec)  # validates names and parameters early
    return specs


def play_game(
    state: State,
    bots: Sequence[Bot],
    on_step: Callable[[State], None] | None = None,
    max_steps: int = 1_000_000,
) -> State:
    """Let `bots[seat]` decide for each seat until the game is over."""
    # In a simultaneous decision each seat decides from its own information (the others' pending choices
    # are hidden from it), so taking the movers one at a time changes nothing.
    steps = 0
    while not state.is_over():
        seat = state.to_move()[0]
        state.apply(seat, bots[seat].choose(state, seat))
        steps += 1
        if on_step is not None:
            on_step(state)
        if steps > max_steps:
            raise RuntimeError(f"{state.game.id} did not end within {max_steps} steps")
    return state
