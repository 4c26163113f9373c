"""The errors the kernel raises: each message says what was wrong and what is allowed."""


class NinjatableError(Exception):
    """Base of every error ninjatable raises on bad input."""


class IllegalAction(NinjatableError):
    """An action that the rules do not allow now; the state is left unchanged."""


class BadOptions(NinjatableError):
    """An unknown option, a value out of range, or a player count the game does not support."""


class UnknownGame(NinjatableError):
    """A game id that is not registered."""


class BadRecord(NinjatableError):
    """A record that is malformed, tampered with, or does not replay."""
