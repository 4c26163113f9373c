"""Seat tokens, flood control, and the rules against other sites (CSRF) and injected content.

A seat is held by a random token that only its holder receives (in the answer to its join); the server keeps
only the token's SHA-256 and compares digests in constant time, so a stolen database does not seat anyone.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections.abc import Hashable
from urllib.parse import urlsplit

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

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
    """A token bucket: `rate` messages a second on average, bursts of up to `burst`; `strikes` counts the
    messages refused."""

    __slots__ = ("burst", "clock", "level", "rate", "stamp", "strikes")

    def __init__(self, rate: float, burst: int, clock=time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.level = float(burst)
        self.stamp = clock()
        self.strikes = 0

    def allow(self) -> bool:
        now = self.clock()
        self.level = min(self.burst, self.level + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.level >= self.burst:  # calm for a while: earlier excesses are forgiven
            self.strikes = 0
        if self.level >= 1.0:
            self.level -= 1.0
            return True
        return False

    def refund(self) -> None:
        """Give back the last message's token (it did useful work, such as an accepted move)."""
        self.level = min(self.burst, self.level + 1.0)


class RateLimits:
    """Token buckets by key (an address; a seat from an address), kept between connections so that a client
    cannot refill its bucket or clear its strikes by reconnecting. A bucket unused for `idle` seconds (at least
    twice the time it takes to fill up) is full again anyway, and is forgotten (with its strikes)."""

    def __init__(self, rate: float, burst: int, idle: float = 600.0, clock=time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.idle = max(idle, 2 * burst / rate)
        self.clock = clock
        self.buckets: dict[Hashable, RateLimit] = {}
        self.pruned = clock()

    def __call__(self, key: Hashable) -> RateLimit:
        """The bucket of `key` (a new, full one if it has none)."""
        self._prune()
        bucket = self.buckets.get(key)
        if bucket is None:
            bucket = self.buckets[key] = RateLimit(self.rate, self.burst, self.clock)
        return bucket

    def _prune(self) -> None:
        now = self.clock()
        if now - self.pruned < self.idle / 10:
            return
        self.pruned = now
        for key in [k for k, b in self.buckets.items() if now - b.stamp > self.idle]:
            del self.buckets[key]


# --- requests from other sites -------------------------------------------------------------------------------
UNSAFE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}


def same_site(headers: dict[bytes, bytes]) -> bool:
    """Whether a request comes from this server's own pages: its Origin (or, lacking one, its Referer) names the
    host it was sent to. A request with neither is no browser's cross-site request and passes; "null" does not."""
    source = headers.get(b"origin") or headers.get(b"referer")
    if source is None:
        return True
    host = headers.get(b"host", b"").decode("latin-1").lower()
    return urlsplit(source.decode("latin-1")).netloc.lower() == host != ""


def has_cookie(headers: dict[bytes, bytes], name: str) -> bool:
    return f"{name}=".encode() in headers.get(b"cookie", b"")


class SameSiteWrites:
    """Refuse (403, `cross_site`) a state-changing request that carries the session cookie when another site sent
    it: a page elsewhere cannot make a logged-in browser act (CSRF). The cookie's SameSite=Lax already keeps it off
    most such requests; this holds for the rest (an older browser, a sibling subdomain)."""

    def __init__(self, app: ASGIApp, cookie: str) -> None:
        self.app = app
        self.cookie = cookie

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in UNSAFE_METHODS:
            headers = dict(scope["headers"])
            if has_cookie(headers, self.cookie) and not same_site(headers):
                refusal = JSONResponse({"error": "this request came from another site; it is refused (act from "
                                                 "this site's own pages)", "code": "cross_site"}, status_code=403)
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)


# What every answer that is not a page carries: nothing in it runs, nothing frames it.
API_HEADERS = [(b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"same-origin"),
               (b"content-security-policy", b"default-src 'none'; frame-ancestors 'none'")]
OWN_POLICY = ("/docs", "/redoc", "/static/", "/games/")  # Swagger's pages and the page's files keep their own


class SecurityHeaders:
    """Add the API's security headers to every HTTP answer that has no policy of its own."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"].startswith(OWN_POLICY):
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", [])}
                extra = [(name, value) for name, value in API_HEADERS if name not in present]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, with_headers)
