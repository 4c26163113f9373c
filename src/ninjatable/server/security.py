"""Seat tokens and flood control.

A seat is held by a random token that only its holder receives (in the answer to its join); the server keeps
only the token's SHA-256 and compares digests in constant time, so a stolen database does not seat anyone.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time

TOKEN_BYTES = 24  # 192 random bits, URL-safe: 32 characters


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def token_matches(token: str, stored_hash: str | None) -> bool:
    """Whether `token` is the one whose hash is stored (constant time in the token's content)."""
    if not stored_hash or not isinstance(token, str):
        return False
    return hmac.compare_digest(token_hash(token), stored_hash)


def new_table_id() -> str:
    """An id for a table: 72 random bits, so that an unlisted table cannot be found by guessing."""
    return secrets.token_urlsafe(9)


class RateLimit:
    """A token bucket: `rate` messages a second on average, bursts of up to `burst`."""

    __slots__ = ("burst", "clock", "level", "rate", "stamp")

    def __init__(self, rate: float, burst: int, clock=time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.level = float(burst)
        self.stamp = clock()

    def allow(self) -> bool:
        now = self.clock()
        self.level = min(self.burst, self.level + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.level >= 1.0:
            self.level -= 1.0
            return True
        return False

    def refund(self) -> None:
        """Give back the last message's token (it did useful work, such as an accepted move)."""
        self.level = min(self.burst, self.level + 1.0)
