"""The hub: every table of this server process, created, looked up, rebuilt after a restart, unloaded when done."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from typing import Any

from ..bots import make_bot
from ..core import BadOptions, Game, NinjatableError, get_game
from .botpool import BotPool
from .protocol import CreateTable, SeatRequest
from .security import new_table_id
from .store import Store, TableRow
from .tables import Refused, Table, seats_from_request

log = logging.getLogger("ninjatable.server")

MAX_BOT_MS = 10_000  # a bot at a table may think up to 10 s a decision
MAX_BOT_ITERATIONS = 50_000
MAX_NAME = 32


class Hub:
    """The tables of one server: those in play stay in memory; finished ones are read back when asked for."""

    def __init__(self, store: Store, bots: BotPool) -> None:
        self.store = store
        self.bots = bots
        self.tables: dict[str, Table] = {}
        self._loading: dict[str, asyncio.Future] = {}

    async def start(self) -> None:
        """Rebuild every unfinished table from its stored moves."""
        for row in await self.store.unfinished():
            try:
                table = Table(row, self)
            except NinjatableError:
                log.exception("table %s cannot be rebuilt from its moves; it is left out", row.id)
                continue
            self.tables[row.id] = table
            if table.started:
                table.start()
        log.info("%d unfinished tables rebuilt", len(self.tables))

    def stop(self) -> None:
        for table in self.tables.values():
            table.stop()

    # --- creating --------------------------------------------------------------------------------------
    async def create(self, request: CreateTable) -> tuple[Table, list[tuple[int, str]]]:
        """A new table from a request the kernel has checked; raises BadOptions with what is allowed."""
        game = get_game(request.game)
        players = game.check_players(request.players)
        wanted = request.seats if request.seats is not None else [_open() for _ in range(players)]
        settings = request.settings.model_dump()
        settings["live"] = live = live_table(game, request.settings.live, wanted)
        options = {**request.options, **live_options(game, request.options)} if live else request.options
        state = game.new_state(players, seed=0, **options)  # checks every option
        if len(wanted) != players:
            raise BadOptions(f"give one entry in seats per player: {players}, not {len(wanted)}")
        for i, seat in enumerate(wanted):
            if seat.kind == "person":
                seat.name = check_name(seat.name)
            elif seat.kind == "bot":
                if seat.bot is None:
                    raise BadOptions(f"seat {i} is a bot seat: name its bot (e.g. heuristic)")
                check_bot(seat.bot, game)
            elif seat.name or seat.bot:
                raise BadOptions(f"seat {i} is open: it takes no name or bot")
        check_bot(request.settings.bot, game)
        seats, tokens = seats_from_request(wanted, players)
        full = all(s.kind != "open" for s in seats)
        seed = request.seed if request.seed is not None else random.SystemRandom().getrandbits(63)
        row = TableRow(
            id=new_table_id(), game=game.id, players=players, options=state.options, seed=seed,
            settings=settings, status="playing" if full else "waiting",
            created_at=time.time(), seats=[s.row() for s in seats],
        )
        await self.store.create_table(row)
        table = Table(row, self)
        self.tables[row.id] = table
        if full:
            table.start()
        return table, tokens

    # --- finding -----------------------------------------------------------------------------------------
    async def get(self, table_id: str) -> Table:
        """The table with this id, read back from storage if it is not in memory; Refused if there is none."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if not isinstance(table_id, str) or len(table_id) > 32:
            raise Refused("no_table", f"there is no table {table_id!r}")
        pending = self._loading.get(table_id)
        if pending is None:
            pending = self._loading[table_id] = asyncio.ensure_future(self._load(table_id))
        try:
            return await asyncio.shield(pending)
        finally:
            self._loading.pop(table_id, None)

    async def _load(self, table_id: str) -> Table:
        row = await self.store.load(table_id)
        if row is None:
            raise Refused("no_table", f"there is no table {table_id!r}")
        table = self.tables.get(table_id) or Table(row, self)
        self.tables[table_id] = table
        return table

    def maybe_unload(self, table: Table) -> None:
        """Forget a finished table nobody watches (it is stored; a later visitor reads it back)."""
        if table.status == "finished" and not table.clients:
            self.tables.pop(table.id, None)

    async def listing(self, base_url: str, limit: int = 50) -> list[dict[str, Any]]:
        """The public tables, newest first, as the lobby lists them."""
        out = []
        for row in await self.store.listing(limit * 2):
            if not row["settings"].get("public", True):
                continue
            game = get_game(row["game"])
            out.append({
                "id": row["id"], "game": row["game"], "title": game.title, "players": row["players"],
                "status": row["status"], "open_seats": sum(s.kind == "open" for s in row["seats"]),
                "seats": [{"seat": s.seat, "kind": s.kind, "name": s.name, "bot": s.bot} for s in row["seats"]],
                "invite_url": f"{base_url.rstrip('/')}/t/{row['id']}",
            })
            if len(out) >= limit:
                break
        return out


def _open() -> Any:
    from .protocol import SeatRequest

    return SeatRequest(kind="open")


def check_name(name: str | None) -> str:
    """A person's name as shown at the table: 1 to 32 printable characters."""
    name = (name or "").strip()
    if not name or len(name) > MAX_NAME or not name.isprintable():
        raise BadOptions(f"a name is 1 to {MAX_NAME} printable characters, not {name!r}")
    return name


def check_bot(spec: str, game: Any) -> None:
    """Refuse an unknown bot, a parameter it lacks, a budget too large for a table, or a bot the game lacks."""
    bot = make_bot(spec)
    check = getattr(bot, "check_game", None)
    if check is not None:
        check(game)
    ms = getattr(bot, "ms", None)
    iterations = getattr(bot, "iterations", None) if "iterations" in spec else None
    if (ms is not None and ms > MAX_BOT_MS) or (iterations is not None and iterations > MAX_BOT_ITERATIONS):
        raise BadOptions(f"bot {spec}: a bot at a table thinks at most ms={MAX_BOT_MS} or "
                         f"iterations={MAX_BOT_ITERATIONS}")


def live_table(game: Game, wanted: bool | None, seats: list[SeatRequest]) -> bool:
    """Whether a new table plays in real time: as asked, else when the game has a live mode and people sit."""
    if game.live_options is None:
        if wanted:
            raise BadOptions(f"{game.id} has no live mode; only games played in real time (ninjaaatack) have one")
        return False
    return wanted if wanted is not None else any(s.kind != "bot" for s in seats)


def live_options(game: Game, asked: dict[str, Any]) -> dict[str, Any]:
    """The options a live table plays with; an asked option that contradicts them is refused."""
    for name, value in game.live_options.items():
        if name in asked and asked[name] != value:
            raise BadOptions(f"a live table plays {name}={value}; leave {name} out, or create the table with "
                             f"settings.live false")
    return dict(game.live_options)
