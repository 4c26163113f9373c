"""What the people's pages and the leaderboards show, read from the database: a person's ratings with their
history, finished games and places, and each game's ranking of people and bots together."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import sqlalchemy as sa

from ..core import get_game
from ..core.rating import Skill, finishing_ranks
from .store import accounts, rating_history, ratings, seats, tables

GAMES_LISTED = 100  # the newest finished games on a person's page
LEADERS = 100  # the best ratings on a leaderboard


def shown(skill: Skill) -> float:
    """The rating shown: the ordinal, with one decimal."""
    return round(skill.ordinal, 1)


def person_page(conn: Any, account: Any, own: bool) -> dict[str, Any]:
    """A person's page: ratings per game with history, games played by game, and the newest finished games (the
    private tables' only on their own page)."""
    player = f"person:{account.id}"
    # The ratings first: a rating and its history are committed together, so every game a rating counts is then in
    # the history read after it (the two reads need not see the same moment).
    rows = conn.execute(ratings.select().where(ratings.c.player == player).order_by(ratings.c.game)).all()
    query = (sa.select(rating_history).join(tables, tables.c.id == rating_history.c.table_id)
             .where(rating_history.c.player == player).order_by(rating_history.c.at, rating_history.c.table_id))
    if not own:  # a private table's game, even its place in a rating's history, is its players' own
        query = query.where(tables.c.public)
    history = conn.execute(query).all()
    rated = [{
        "game": row.game, "title": get_game(row.game).title, "rating": shown(Skill(row.mu, row.sigma)),
        "mu": row.mu, "sigma": row.sigma, "games": row.games, "wins": row.wins,
        "history": [{"at": h.at, "rating": shown(Skill(h.mu, h.sigma)), "table": h.table_id}
                    for h in history if h.game == row.game],
    } for row in rows]
    change = {h.table_id: round(Skill(h.mu, h.sigma).ordinal - Skill(h.mu_before, h.sigma_before).ordinal, 1)
              for h in history}
    finished = _finished_games(conn, account.id, own)
    return {"name": account.name, "since": account.created_at, "ratings": rated,
            "played": _played(finished), "games": [{**g, "change": change.get(g["table"])}
                                                   for g in finished[:GAMES_LISTED]]}


def _finished_games(conn: Any, account_id: int, own: bool) -> list[dict[str, Any]]:
    query = (sa.select(tables.c.id, tables.c.game, tables.c.players, tables.c.result, tables.c.finished_at,
                       tables.c.rated, seats.c.seat)
             .join(seats, seats.c.table_id == tables.c.id)
             .where(seats.c.account_id == account_id, tables.c.status == "finished")
             .order_by(tables.c.finished_at.desc(), tables.c.id))
    if not own:
        query = query.where(tables.c.public)
    found = conn.execute(query).all()
    lineups = _lineups(conn, [row.id for row in found[:GAMES_LISTED]])
    games = []
    for row in found:
        result = json.loads(row.result)
        games.append({
            "table": row.id, "game": row.game, "title": get_game(row.game).title, "players": row.players,
            "finished_at": row.finished_at, "seat": row.seat,
            "place": finishing_ranks(result["scores"], result["winners"])[row.seat],
            "score": result["scores"][row.seat], "won": row.seat in result["winners"], "rated": row.rated,
            "replay_url": f"/t/{row.id}/replay?seat={row.seat}", "seats": lineups.get(row.id, []),
        })
    return games


def _lineups(conn: Any, table_ids: list[str]) -> dict[str, list[dict[str, Any]]]:
    """Who sat where at these tables (the account's name for an account's seat)."""
    if not table_ids:
        return {}
    query = (sa.select(seats.c.table_id, seats.c.kind, seats.c.name, seats.c.bot, accounts.c.name.label("account"))
             .outerjoin(accounts, accounts.c.id == seats.c.account_id)
             .where(seats.c.table_id.in_(table_ids)).order_by(seats.c.table_id, seats.c.seat))
    out: dict[str, list[dict[str, Any]]] = {}
    for s in conn.execute(query):
        out.setdefault(s.table_id, []).append({"name": s.name, "kind": s.kind, "account": s.account, "bot": s.bot})
    return out


def _played(games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per game: games played, wins, and how often each place was reached (1st, 2nd, ...)."""
    by_game: dict[str, list[dict[str, Any]]] = {}
    for g in games:
        by_game.setdefault(g["game"], []).append(g)
    out = []
    for game_id, played in sorted(by_game.items()):
        places = Counter(g["place"] for g in played)
        most = max(g["players"] for g in played)
        out.append({"game": game_id, "title": get_game(game_id).title, "games": len(played),
                    "wins": sum(g["won"] for g in played), "places": [places[p] for p in range(1, most + 1)]})
    return out


def leaderboard(conn: Any, game_id: str) -> list[dict[str, Any]]:
    """People and bots of one game, best rating first, with the number of rated games behind each."""
    rows = conn.execute(ratings.select().where(ratings.c.game == game_id)).all()
    ids = [int(r.player.split(":", 1)[1]) for r in rows if r.player.startswith("person:")]
    names = dict(conn.execute(sa.select(accounts.c.id, accounts.c.name).where(accounts.c.id.in_(ids))).all()) \
        if ids else {}
    entries = []
    for row in rows:
        kind, _, who = row.player.partition(":")
        name = names.get(int(who)) if kind == "person" else who
        if name is None:
            continue
        skill = Skill(row.mu, row.sigma)
        entries.append({"kind": kind, "name": name, "rating": shown(skill), "mu": row.mu, "sigma": row.sigma,
                        "games": row.games, "wins": row.wins, "ordinal": skill.ordinal})
    entries.sort(key=lambda e: (-e["ordinal"], e["name"]))
    return [{"rank": i + 1, **{k: v for k, v in e.items() if k != "ordinal"}} for i, e in enumerate(entries[:LEADERS])]


def seats_of(conn: Any, account_id: int) -> list[Any]:
    """The unfinished tables where the account holds a seat, and those where a seat is kept for it."""
    query = (sa.select(tables.c.id, tables.c.status, seats.c.seat, seats.c.kind, seats.c.account_id,
                       seats.c.offered_to, tables.c.rematch_of)
             .join(seats, seats.c.table_id == tables.c.id)
             .where(tables.c.status != "finished",
                    sa.or_(seats.c.account_id == account_id, seats.c.offered_to == account_id))
             .order_by(tables.c.created_at.desc()))
    return conn.execute(query).all()
