"""The server's settings: where it keeps its tables by default (an SQLite file in the user's data directory),
and the limits an operator may set."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from pathlib import Path

from platformdirs import user_data_dir


def default_database_url() -> str:
    """`sqlite:///<user data dir>/ninjatable/tables.db` (the folder is made on first start)."""
    path = Path(user_data_dir("ninjatable", appauthor=False)) / "tables.db"
    return f"sqlite:///{path}"


@dataclass(frozen=True)
class Limits:
    """Every resource a stranger can make the server spend, bounded; `ninjatable serve` sets each (docs/server.md).

    Addresses are the clients' as the server sees them: behind a reverse proxy, the forwarded address when the
    proxy is trusted (`--forwarded-allow-ips`), else the proxy's own."""

    tables_per_minute: float = 10.0  # tables one address may create, on average...
    tables_burst: int = 20  # ...in bursts of up to this many
    waiting_minutes: float = 24 * 60.0  # a table still waiting for players this long after its creation expires
    abandoned_minutes: float = 60.0  # a game in play with no person connected this long is finished or closed
    finished_kept: int = 200  # finished tables kept in memory after a read (the least recently read go first)
    spectators_per_table: int = 50  # sockets watching one table (its players always get in)
    sockets_per_seat: int = 5  # sockets of one seat (a player's tabs and devices)
    sockets_per_address: int = 64  # sockets from one address, over every table
    message_rate: float = 20.0  # messages a second one seat (or one address watching a table) may send on average...
    message_burst: int = 40  # ...in bursts of up to this many; an accepted move does not count
    strikes: int = 100  # messages over the rate before the socket is closed
    body_bytes: int = 64 * 1024  # the largest HTTP request body
    bot_ms: int = 10_000  # the largest thinking time a table may give a bot (ismcts:ms=...)
    bot_iterations: int = 50_000  # the largest iteration budget a table may give a bot
    bot_beliefs: int = 256  # the most worlds a table's searching bot may read from the table (ismcts:beliefs=...)
    logins_per_name: float = 5.0  # login attempts a minute for one name, on average (a right password is free)...
    login_name_burst: int = 10  # ...in bursts of up to this many
    logins_per_address: float = 20.0  # login attempts a minute from one address...
    login_address_burst: int = 30  # ...in bursts of up to this many
    signups_per_minute: float = 2.0  # new accounts a minute from one address...
    signups_burst: int = 10  # ...in bursts of up to this many
    analyses_at_once: int = 4  # post-game analyses being made at once (each weighs every decision of a game)
    analyses_per_address: int = 2  # ...of them asked from one address
    analyses_per_hour: float = 20.0  # analyses one address may ask for an hour, on average...
    analyses_burst: int = 5  # ...in bursts of up to this many
    hints_per_minute: float = 6.0  # hints one seat may ask for a minute, on average...
    hints_burst: int = 10  # ...in bursts of up to this many

    def check(self) -> Limits:
        """Refuse a limit that would stop the server from working, saying which."""
        for name, value in vars(self).items():
            if value <= 0:
                raise ValueError(f"the limit {name} must be positive, not {value}")
        return self


def limits_from(pairs: list[str], **given: float | None) -> Limits:
    """Limits from `name=value` pairs (and named values, None for the default); a wrong one is a ValueError
    that lists every limit."""
    defaults = Limits()
    values: dict[str, float | int] = {}
    for pair in pairs:
        name, _, text = pair.partition("=")
        name = name.strip().replace("-", "_")
        if name not in vars(defaults):
            raise ValueError(f"unknown limit {name!r}; the limits are: {', '.join(vars(defaults))}")
        kind = type(getattr(defaults, name))
        try:
            values[name] = kind(text)
        except ValueError:
            raise ValueError(f"the limit {name} takes a{'n integer' if kind is int else ' number'}, not "
                             f"{text!r}") from None
    values.update({name: value for name, value in given.items() if value is not None})
    return Limits(**{**vars(defaults), **values}).check()


ABANDONED = ("finish", "close")  # what becomes of a game nobody has been connected to for abandoned_minutes


@dataclass(frozen=True)
class Operation:
    """How an operator runs the server beyond its limits: what it tells monitoring, and what becomes of a game
    everybody left (docs/server.md, "Operating it")."""

    metrics: bool = True  # serve /metrics (counts only: no table id, name or token)
    metrics_from: tuple[str, ...] = ()  # the addresses or networks that may read /metrics; none: any
    abandoned: str = "finish"  # finish: the table's bots play every person's seat to the end; close: stop it (a
    # rated game is finished by its bots either way)
    redis: str | None = None  # redis://...: one process of several sharing the database (server/cluster.py)
    lease_seconds: float = 10.0  # a table whose process stops answering is taken over within about this long

    def check(self) -> Operation:
        """Refuse a value the server cannot work with, saying what is allowed."""
        if self.abandoned not in ABANDONED:
            raise ValueError(f"abandoned tables are either finished by their bots or closed: {' or '.join(ABANDONED)}, "
                             f"not {self.abandoned!r}")
        self.networks()
        if self.redis is not None and not self.redis.startswith(("redis://", "rediss://", "unix://")):
            raise ValueError(f"--redis takes a Redis URL such as redis://127.0.0.1:6379/0, not {self.redis!r}")
        if not 1 <= self.lease_seconds <= 300:
            raise ValueError(f"--lease-seconds is 1 to 300, not {self.lease_seconds:g}")
        return self

    def networks(self) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
        """`metrics_from` as networks (an address alone is a network of one)."""
        networks = []
        for text in self.metrics_from:
            try:
                networks.append(ipaddress.ip_network(text.strip(), strict=False))
            except ValueError:
                raise ValueError(f"--metrics-from takes addresses or networks such as 127.0.0.1 or 10.0.0.0/8, not "
                                 f"{text.strip()!r}") from None
        return networks
