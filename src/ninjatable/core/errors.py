"""The errors the kernel raises: each message says what was wrong and what is allowed."""


class NinjatableError(Exception):
    """Base of every error ninjatable raises on bad input."""


class IllegalAction(NinjatableError):
    """A seat or action that is not allowed now (not an integer, out of range, not to move, against the rules);
    the state is left unchanged."""


class BadArgument(NinjatableError):
    """Any other argument of the wrong type or shape (an observation buffer, a random generator)."""


class BadOptions(NinjatableError):
    """An unknown option, a value out of range, or a player count the game does not support."""


class UnknownGame(NinjatableError):
    """A game id that is not registered."""


class BadRecord(NinjatableError):
    """A record that cannot be read or written, is malformed, tampered with, or does not replay."""
