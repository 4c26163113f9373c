"""Game options (variants): each has a default, the values it allows, and a one-line description."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import BadOptions


@dataclass(frozen=True)
class Option:
    """One variant switch or setting of a game.

    `choices` lists every allowed value; for a numeric setting with a wide range, give `minimum`/`maximum`
    instead and `choices` is derived as the values worth testing (the default and the bounds).
    """

    name: str
    default: Any
    description: str
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None

    def __post_init__(self) -> None:
        if self.choices is None and self.minimum is None and not isinstance(self.default, bool):
            raise ValueError(f"option {self.name!r} needs choices or a minimum")

    @property
    def allowed(self) -> tuple[Any, ...]:
        """The values a contract test should try."""
        if isinstance(self.default, bool) and self.choices is None:
            return (True, False)
        if self.choices is not None:
            return self.choices
        return tuple(dict.fromkeys(v for v in (self.default, self.minimum) if v is not None))

    def describe_allowed(self) -> str:
        if isinstance(self.default, bool) and self.choices is None:
            return "true or false"
        if self.choices is not None:
            return ", ".join(_show(c) for c in self.choices)
        top = "" if self.maximum is None else f" to {self.maximum}"
        return f"an integer from {self.minimum}{top}"

    def check(self, value: Any) -> Any:
        """Return `value` converted to the option's type, or raise BadOptions naming what is allowed."""
        if isinstance(value, str):
            value = self.parse(value)
        if isinstance(self.default, bool):
            if isinstance(value, bool) and (self.choices is None or value in self.choices):
                return value
        elif self.choices is not None:
            if value in self.choices and type(value) is type(self.default):
                return value
        elif isinstance(value, int) and not isinstance(value, bool):
            if value >= self.minimum and (self.maximum is None or value <= self.maximum):
                return value
        raise BadOptions(f"option {self.name}={_show(value)} is not allowed; use {self.describe_allowed()}")

    def parse(self, text: str) -> Any:
        """Read a value typed on a command line (`true`, `11`, `cost`)."""
        low = text.strip().lower()
        if isinstance(self.default, bool):
            if low in ("true", "yes", "on", "1"):
                return True
            if low in ("false", "no", "off", "0"):
                return False
            raise BadOptions(f"option {self.name}={text!r} is not allowed; use true or false")
        if isinstance(self.default, int):
            try:
                return int(low)
            except ValueError:
                raise BadOptions(
                    f"option {self.name}={text!r} is not a number; use {self.describe_allowed()}"
                ) from None
        return text.strip()


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def resolve_options(declared: tuple[Option, ...], given: dict[str, Any], game_id: str) -> dict[str, Any]:
    """Merge `given` over the defaults, checking every name and value."""
    by_name = {o.name: o for o in declared}
    unknown = [name for name in given if name not in by_name]
    if unknown:
        allowed = ", ".join(by_name) or "none"
        raise BadOptions(f"{game_id} has no option {unknown[0]!r}; its options are: {allowed}")
    resolved = {o.name: o.default for o in declared}
    for name, value in given.items():
        resolved[name] = by_name[name].check(value)
    return resolved
