"""Ratings of rated tables: each account and each bot spec has an openskill rating per game.

A finished rated table is rated once, from its stored result and seats, by `rate_table` (the rule itself is
core/rating.py's), in the order the tables finished; each rating's change is kept as history. `recompute` rates
every stored game again from nothing, in the same order, and must find the same numbers.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Hashable, Iterable
from typing import Any

import sqlalchemy as sa

from ..core.rating import Skill, finishing_ranks, new_skill, rate_game
from .store import Store, rating_history, ratings, seats, tables

log = logging.getLogger("ninjatable.server")


def player_key(seat: Any) -> str:
    """Who a seat of a rated table is, for ratings: `person:<account id>` or `bot:<spec>`; a guest (only at a table
    from before it was rated, which cannot happen) is `guest:<seat>` and keeps no rating."""
    if seat.kind == "bot":
        return f"bot:{seat.bot}"
    if seat.account_id is not None:
        return f"person:{seat.account_id}"
    return f"guest:{seat.seat}"


def kept(player: str) -> bool:
    return not player.startswith("guest:")


def lineup_of(conn: Any, table_id: str) -> list[str]:
    held = conn.execute(seats.select().where(seats.c.table_id == table_id).order_by(seats.c.seat)).all()
    return [player_key(s) for s in held]


def to_rate(conn: Any) -> list[Any]:
    """The finished rated tables not rated yet, in the order they finished."""
    query = (sa.select(tables.c.id, tables.c.game, tables.c.result, tables.c.finished_at)
             .where(tables.c.rated, tables.c.status == "finished", tables.c.rated_at.is_(None))
             .order_by(tables.c.finished_at, tables.c.id))
    return conn.execute(query).all()


def rate_table(conn: Any, table: Any, now: float) -> None:
    """Rate one finished table in the caller's transaction: each player's new rating, its history, and the table
    marked as rated."""
    result = json.loads(table.result)
    lineup = lineup_of(conn, table.id)
    players = _kept(lineup)
    rows = conn.execute(ratings.select().where(ratings.c.game == table.game, ratings.c.player.in_(players))).all()
    before = {row.player: Skill(row.mu, row.sigma) for row in rows}
    counts = {row.player: (row.games, row.wins) for row in rows}
    after = rate_game(before, lineup, result["scores"], result["winners"])
    places = finishing_ranks(result["scores"], result["winners"])
    for player in players:
        seats_held = [s for s, p in enumerate(lineup) if p == player]
        games, wins = counts.get(player, (0, 0))
        values = {"mu": after[player].mu, "sigma": after[player].sigma, "games": games + 1,
                  "wins": wins + won(lineup, player, result["winners"])}
        if player in before:
            conn.execute(ratings.update().where(ratings.c.game == table.game, ratings.c.player == player)
                         .values(**values))
        else:
            conn.execute(ratings.insert().values(game=table.game, player=player, **values))
        start = before.get(player) or new_skill()
        conn.execute(rating_history.insert().values(
            table_id=table.id, player=player, game=table.game, place=min(places[s] for s in seats_held),
            mu_before=start.mu, sigma_before=start.sigma, mu=after[player].mu, sigma=after[player].sigma,
            at=table.finished_at))
    conn.execute(tables.update().where(tables.c.id == table.id).values(rated_at=now))


RATING_LOCK = 0x6E696E6A61  # the PostgreSQL advisory lock under which ratings are counted ("ninja")


class RatingBook:
    """Rates finished rated tables as they finish (one at a time, in order), and at start-up any left unrated."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.lock = asyncio.Lock()

    async def rate_finished(self) -> int:
        """Rate every finished rated table not rated yet; how many were rated."""
        async with self.lock:
            try:
                return await asyncio.to_thread(self._rate_finished)
            except Exception:
                log.exception("rating finished tables failed; they are rated at the next finish or start")
                return 0

    def _rate_finished(self) -> int:
        rated = 0
        while True:  # each in its own transaction, so that one bad table holds back no rating before it
            with self.store.engine.begin() as conn:
                if conn.dialect.name == "postgresql":
                    # Processes sharing the database rate one table at a time, the first unrated one first (as
                    # read under the lock): a rating read by two processes at once would lose one's game.
                    conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": RATING_LOCK})
                waiting = to_rate(conn)
                if not waiting:
                    return rated
                rate_table(conn, waiting[0], time.time())
                rated += 1


def recompute(engine: sa.Engine) -> dict[tuple[str, str], tuple[Skill, int, int]]:
    """Every rating (game, player): (skill, games, wins), computed again from nothing from the stored rated games,
    in the order they finished; read-only."""
    book: dict[tuple[str, str], tuple[Skill, int, int]] = {}
    query = (sa.select(tables.c.id, tables.c.game, tables.c.result)
             .where(tables.c.rated, tables.c.status == "finished", tables.c.rated_at.is_not(None))
             .order_by(tables.c.finished_at, tables.c.id))
    with engine.connect() as conn:
        for table in conn.execute(query).all():
            result = json.loads(table.result)
            lineup = lineup_of(conn, table.id)
            before: dict[Hashable, Skill] = {p: book[(table.game, p)][0] for p in lineup if (table.game, p) in book}
            after = rate_game(before, lineup, result["scores"], result["winners"])
            for player in _kept(lineup):
                _, games, wins = book.get((table.game, player), (None, 0, 0))
                book[(table.game, player)] = (after[player], games + 1, wins + won(lineup, player, result["winners"]))
    return book


def stored(engine: sa.Engine) -> dict[tuple[str, str], tuple[Skill, int, int]]:
    """Every rating as stored."""
    with engine.connect() as conn:
        return {(r.game, r.player): (Skill(r.mu, r.sigma), r.games, r.wins) for r in conn.execute(ratings.select())}


def won(lineup: list[str], player: str, winners: list[int]) -> bool:
    """Whether the player won the game (in any of its seats)."""
    return any(p == player and s in winners for s, p in enumerate(lineup))


def _kept(lineup: Iterable[str]) -> list[str]:
    return sorted({p for p in lineup if kept(p)})
