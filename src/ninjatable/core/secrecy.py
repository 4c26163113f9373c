"""Secrecy in one place: a game marks what is private while building its view, and `redact` filters it.

A game's `_view()` describes everything, wrapping each secret in `Private(value, owners, shown)`.
`redact(data, seat)` replaces every `Private` that `seat` does not own by its `shown` stand-in (a count,
`None`, ...). Front ends, bots and tests only ever see redacted views, so a game cannot leak by forgetting
a seat check in one of many places.
"""

from __future__ import annotations

from typing import Any


class Private:
    """A value that only the seats in `owners` may see; everyone else sees `shown`."""

    __slots__ = ("owners", "shown", "value")

    def __init__(self, value: Any, owners: int | tuple[int, ...] | frozenset[int], shown: Any = None) -> None:
        self.value = value
        self.owners = frozenset((owners,)) if isinstance(owners, int) else frozenset(owners)
        self.shown = shown

    def __repr__(self) -> str:
        return f"Private({self.value!r}, owners={sorted(self.owners)}, shown={self.shown!r})"


_PLAIN = frozenset({int, float, str, bool, type(None)})  # values with nothing inside to filter


def redact(data: Any, seat: int | None) -> Any:
    """Return `data` as `seat` may see it (`None` is a spectator, who owns nothing)."""
    # Views are built on every bot decision, so plain values are passed over without a recursive call.
    kind = type(data)
    if kind in _PLAIN:
        return data
    if kind is dict:
        return {key: value if type(value) in _PLAIN else redact(value, seat) for key, value in data.items()}
    if kind is list or kind is tuple:
        return [value if type(value) in _PLAIN else redact(value, seat) for value in data]
    if kind is Private:
        return redact(data.value if seat in data.owners else data.shown, seat)
    if isinstance(data, dict):
        return {key: redact(value, seat) for key, value in data.items()}
    if isinstance(data, (list, tuple)):
        return [redact(value, seat) for value in data]
    return data
