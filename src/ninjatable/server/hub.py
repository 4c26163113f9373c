"""The hub: every table of this server process, created, looked up, rebuilt after a restart, unloaded when done."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections import Counter, OrderedDict
from collections.abc import Callable
from typing import Any

from ..bots import make_bot
from ..core import BadOptions, Game, NinjatableError, all_games, get_game
from .accounts import Account, Accounts, check_name
from .botpool import BotPool
from .cluster import Cluster, Moved
from .config import Limits
from .metrics import Metrics
from .operations import OPERATIONS
from .protocol import CreateTable, Error, Rematch, SeatRequest
from .ratings import RatingBook
from .security import RateLimits, new_table_id
from .store import RematchMade, Store, TableRow
from .tables import Refused, Seat, Table, seats_from_request

log = logging.getLogger("ninjatable.server")


class Hub:
    """The tables of one server: those in play stay in memory; finished ones are read back when asked for."""

    def __init__(self, store: Store, bots: BotPool, limits: Limits | None = None, metrics: Metrics | None = None,
                 abandoned: str = "finish") -> None:
        self.store = store
        self.bots = bots
        self.limits = limits = limits or Limits()
        self.metrics = metrics or Metrics()
        self.abandoned = abandoned  # what becomes of a game nobody is connected to: finish (by its bots) or close
        self.clock: Callable[[], float] = time.time  # the sweep's time (a test moves it on rather than wait)
        self.tables: dict[str, Table] = {}
        self._loading: dict[str, asyncio.Future] = {}
        self.finished: OrderedDict[str, None] = OrderedDict()  # finished tables in memory, least recent first
        self.message_limits = RateLimits(limits.message_rate, limits.message_burst)
        self.create_limits = RateLimits(limits.tables_per_minute / 60, limits.tables_burst)
        self.sockets_by_address: Counter[str] = Counter()
        self._sweeper: asyncio.Task | None = None
        self.accounts = Accounts(store, limits)
        self.ratings = RatingBook(store)
        self._rating: set[asyncio.Task] = set()
        self._rematch_lock = asyncio.Lock()
        self.hint_limits = RateLimits(limits.hints_per_minute / 60, limits.hints_burst)
        self.cluster: Cluster | None = None  # one process of several sharing the database (server/cluster.py)

    async def start(self) -> None:
        """Rebuild every unfinished table from its stored moves (in a cluster: join it, and take over the tables
        nobody drives), rate finished rated tables not rated yet, and start expiring tables nobody joins and
        seeing to games everybody left."""
        if self.cluster is None:
            await self._rebuild()
        else:
            await self.cluster.start()
        await self.ratings.rate_finished()
        self._sweeper = asyncio.create_task(self._sweep_waiting())

    def rate_finished(self) -> None:
        """Rate the rated tables that just finished (in the background: the game's end waits for nothing)."""
        task = asyncio.get_running_loop().create_task(self.ratings.rate_finished())
        self._rating.add(task)
        task.add_done_callback(self._rating.discard)

    async def settled(self) -> None:
        """Wait for the ratings being computed (tests, and a stopping server)."""
        while self._rating:
            await asyncio.wait(set(self._rating))

    async def _rebuild(self) -> None:
        """Rebuild every unfinished table from its stored moves."""
        for row in await self.store.unfinished():
            self._rebuilt(row)
        log.info("%d unfinished tables rebuilt", len(self.tables))

    def _rebuilt(self, row: TableRow) -> Table | None:
        """A table in play rebuilt from its stored moves, in this process's memory and going on (None, logged, if
        its moves no longer replay)."""
        try:
            table = Table(row, self)
        except NinjatableError:
            log.exception("table %s cannot be rebuilt from its moves; it is left out", row.id)
            return None
        self.tables[row.id] = table
        if table.started:
            table.start()
        return table

    def stop_sweeping(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()

    def stop(self) -> None:
        self.stop_sweeping()
        for table in self.tables.values():
            table.stop()

    # --- limits ----------------------------------------------------------------------------------------
    def check_create_rate(self, address: str) -> None:
        """Refuse a new table from an address that has created too many lately."""
        if not self.create_limits(address).allow():
            per = self.limits.tables_per_minute
            raise Refused("slow_down", f"too many new tables from your address: at most {per:g} a minute; try "
                                       "again in a while")

    def socket_opened(self, address: str) -> None:
        """Count a socket of `address`, or refuse it if the address has as many as it may."""
        if self.sockets_by_address[address] >= self.limits.sockets_per_address:
            raise Refused("too_many_sockets", f"at most {self.limits.sockets_per_address} connections from one "
                                              "address; close one first")
        self.sockets_by_address[address] += 1

    def socket_closed(self, address: str) -> None:
        self.sockets_by_address[address] -= 1
        if self.sockets_by_address[address] <= 0:
            del self.sockets_by_address[address]

    async def _sweep_waiting(self) -> None:
        """Every little while, expire the tables still waiting for players long after their creation, and finish
        or close the games nobody has been connected to for long."""
        # A tenth of the time a table may wait, or a game be left alone.
        period = min(60.0, self.limits.waiting_minutes * 6, self.limits.abandoned_minutes * 6)
        while True:
            try:
                await self.expire_waiting(self.clock() - self.limits.waiting_minutes * 60)
                await self.see_to_abandoned(self.clock() - self.limits.abandoned_minutes * 60)
                await self.accounts.expire_sessions()
            except Exception:
                log.exception("expiring waiting tables, abandoned games or old sessions failed; trying again later")
            await asyncio.sleep(period)

    async def expire_waiting(self, created_before: float) -> list[str]:
        """Forget and delete every table created before `created_before` that is still waiting for players."""
        stale = [t for t in self.tables.values() if t.status == "waiting" and t.created_at < created_before]
        async with contextlib.AsyncExitStack() as held:
            for table in stale:  # no one joins them meanwhile
                await held.enter_async_context(table.lock)
            # In a cluster, each process expires the tables it drives (the others' are in their memory).
            only = None if self.cluster is None else [t.id for t in stale]
            expired = await self.store.expire_waiting(created_before, only)
            for table_id in expired:
                table = self.tables.pop(table_id, None)
                if table is not None:
                    table.expire()
                if self.cluster is not None:
                    self.cluster.ended(table_id)
        if expired:
            log.info("%d tables nobody joined expired", len(expired))
        return expired

    async def see_to_abandoned(self, deserted_before: float) -> list[str]:
        """The games in play that no person has been connected to since `deserted_before`: their bots play every
        person's seat to the end (`abandoned` finish, and a rated game always), or they are closed (close); their
        ids."""
        left = [t for t in self.tables.values() if t.deserted_since(deserted_before)]
        # A rated game closed before its end would never be rated: a player about to lose would leave to escape it.
        closing = [t for t in left if self.abandoned == "close" and not t.rated]
        finishing = [t for t in left if t not in closing]
        for table in finishing:
            self._leave_to_bots(table)
        return [t.id for t in finishing] + await self._close(closing, deserted_before)

    def _leave_to_bots(self, table: Table) -> None:
        table.leave_to_bots()
        self.metrics.abandoned.labels(then="finish").inc()
        log.info("table %s: nobody connected for %g minutes; its bots finish the game", table.id,
                 self.limits.abandoned_minutes, extra={"table": table.id})

    async def _close(self, left: list[Table], deserted_before: float) -> list[str]:
        """Stop the games `left`, stored as closed (never rebuilt, listed or joined again); a person who came back
        before the closing began keeps their table."""
        async with contextlib.AsyncExitStack() as held:
            for table in left:  # no move is being stored meanwhile
                await held.enter_async_context(table.lock)
            still = [t for t in left if t.deserted_since(deserted_before)]
            if not still:
                return []
            # Closing from now on: a socket saying hello while the store is being told is refused at once
            # (Table.check_room), rather than welcomed to a game that is then closed under it.
            for table in still:
                table.closed = True
            try:
                closed = await self.store.close_tables([t.id for t in still])
            except BaseException:
                # Not stored as closed: in play again, and the next sweep tries again if nobody came back.
                for table in still:
                    table.closed = False
                raise
            for table in still:
                if table.id in closed:
                    self._closed(table)
                else:  # no longer in play as stored: not this sweep's to close
                    table.closed = False
        return closed

    def _closed(self, table: Table) -> None:
        self.tables.pop(table.id, None)
        if self.cluster is not None:
            self.cluster.ended(table.id)
        table.close(self.closed_message())
        self.metrics.abandoned.labels(then="close").inc()
        log.info("table %s: nobody connected for %g minutes; closed", table.id, self.limits.abandoned_minutes,
                 extra={"table": table.id})

    def closed_message(self) -> str:
        return (f"this table was closed: nobody was connected to it for {self.limits.abandoned_minutes:g} minutes; "
                "create a new one")

    # --- creating --------------------------------------------------------------------------------------
    async def create(self, request: CreateTable,
                     account: Account | None = None) -> tuple[Table, list[tuple[int, str]]]:
        """A new table from a request the kernel has checked, by `account` (None: a guest); raises BadOptions with
        what is allowed."""
        game = get_game(request.game)
        players = game.check_players(request.players)
        wanted = request.seats if request.seats is not None else [_open() for _ in range(players)]
        settings = request.settings.model_dump()
        settings["live"] = live = live_table(game, request.settings.live, wanted)
        settings["timings"] = live_timings(game, request.settings.timings)
        options = {**request.options, **live_options(game, request.options)} if live else request.options
        state = game.new_state(players, seed=0, **options)  # checks every option
        if len(wanted) != players:
            raise BadOptions(f"give one entry in seats per player: {players}, not {len(wanted)}")
        check_people(wanted, request.settings.rated, account)
        for i, seat in enumerate(wanted):
            if seat.kind == "person":
                seat.name = None if seat.name is None else check_name(seat.name)
            elif seat.kind == "bot":
                if seat.bot is None:
                    raise BadOptions(f"seat {i} is a bot seat: name its bot (e.g. heuristic)")
                check_bot(seat.bot, game, self.limits)
            elif seat.name or seat.bot:
                raise BadOptions(f"seat {i} is open: it takes no name or bot")
        check_bot(request.settings.bot, game, self.limits)
        for seat in wanted:
            if seat.kind == "person" and seat.name is not None:
                await self.check_guest_name(seat.name, account)
        seats, tokens = seats_from_request(wanted, players, (account.id, account.name) if account else None)
        seed = request.seed if request.seed is not None else random.SystemRandom().getrandbits(63)
        table = await self._open_table(game.id, state.options, seed, settings, seats)
        return table, tokens

    async def _make_rematch(self, old: Table, replacing: str | None) -> str:
        """A new table from a finished one, seats rotated, linked to it; its players are told. Its id."""
        seed = random.SystemRandom().getrandbits(63)
        try:
            new = await self._open_table(old.game.id, old.options, seed, dict(old.settings), rotated_seats(old.seats),
                                         old, replacing=replacing)
        except RematchMade:  # stored by another server process first: that one is the rematch
            made = await self.store.rematch_of(old.id)
            if made is None or not await self._existing(made):
                raise Refused("storage", "the rematch could not be made; try again") from None
            return made
        self._rematch_made_here(old.id, new.id)
        if self.cluster is not None:
            self.cluster.tell_everyone("rematch", old=old.id, new=new.id)
        return new.id

    def _rematch_made_here(self, old_id: str, new_id: str) -> None:
        """Tell whoever watches the finished table here where its rematch is."""
        old = self.tables.get(old_id)
        if old is None:
            return
        old.rematch_id = new_id
        for client in list(old.clients):
            client.send(Rematch(table=new_id, url=f"{client.base_url.rstrip('/')}/t/{new_id}"))

    async def _existing(self, table_id: str) -> bool:
        """Whether the table is still there (a rematch nobody joined in time expires)."""
        try:
            await self.locate(table_id)
        except Refused:
            return False
        return True

    async def _open_table(self, game_id: str, options: dict[str, Any], seed: int, settings: dict[str, Any],
                          seats: list[Seat], rematch_of: Table | None = None, replacing: str | None = None) -> Table:
        """Store a new table, and start it if every seat is taken; with `rematch_of`, linked to that table in the
        same transaction (in place of the rematch `replacing`, which expired)."""
        full = all(s.kind != "open" for s in seats)
        row = TableRow(
            id=new_table_id(), game=game_id, players=len(seats), options=options, seed=seed,
            settings=settings, status="playing" if full else "waiting",
            created_at=time.time(), seats=[s.row() for s in seats],
            rematch_of=rematch_of.id if rematch_of is not None else None,
        )
        if self.cluster is not None:  # driven by this process from the start
            await self.cluster.lease_new(row.id)
        try:
            await self.store.create_table(row, replacing)
        except BaseException:
            if self.cluster is not None:  # not made (another process made this rematch first, say): no lease
                self.cluster.ended(row.id)
            raise
        self.metrics.tables_created.inc()
        table = Table(row, self)
        self.tables[row.id] = table
        if full:
            table.start()
        return table

    async def check_guest_name(self, name: str, account: Account | None = None) -> None:
        """Refuse a guest's name that is an account's (unless it is the asker's own): nobody passes for someone."""
        holder = await self.accounts.find(name)
        if holder is not None and (account is None or holder.id != account.id):
            raise BadOptions(f"the name {name!r} belongs to an account: log in as {holder.name} to use it, or choose "
                             "another name")

    # --- sessions ending ---------------------------------------------------------------------------------------
    async def sessions_ended(self, account_id: int, session_hash: str | None = None) -> None:
        """An account's session ended (logged out: `session_hash`), or all of them (a new password: None). The
        sockets seated by the ended sessions are closed; after a new password, so is every socket at the
        account's seats, and the seat tokens it was given stop working (its seats are its by its sessions)."""
        if self.cluster is not None:  # first: a failure here must not keep the others from hearing it
            self.cluster.tell_everyone("sessions_ended", account_id=account_id, session_hash=session_hash)
        await self._sessions_ended_here(account_id, session_hash)

    async def heard(self, what: str, args: dict[str, Any]) -> None:
        """What another process of the cluster told every process (Cluster.tell_everyone)."""
        if what == "sessions_ended":
            await self._sessions_ended_here(args["account_id"], args["session_hash"])
        elif what == "rematch":
            self._rematch_made_here(args["old"], args["new"])

    async def _sessions_ended_here(self, account_id: int, session_hash: str | None) -> None:
        for table in list(self.tables.values()):
            if session_hash is None:
                try:
                    await table.forget_tokens(account_id)
                except Exception:  # the stored tokens were voided with the password; the sockets still close
                    log.exception("table %s: the account's seat token could not be replaced", table.id)
            for client in list(table.clients):
                if client.account_id == account_id and session_hash in (None, client.session_hash):
                    client.send(Error(code="logged_out", message="your session ended: log in again to sit here"))
                    client.close()

    # --- rematch ---------------------------------------------------------------------------------------------
    async def rematch(self, old: Table, seat: int, base_url: str) -> tuple[dict[str, Any], bool]:
        """"Play again" from a finished table, asked by the person at `seat`: the new table (made by the first to
        ask: the same game, options, bots and settings, a new deal, seats rotated by one) with the asker's seat
        there and their token ("" if their account already sits there), and whether this call made the table."""
        if old.status != "finished":
            raise Refused("not_finished", "play again once the game is over")
        async with self._rematch_lock:
            # As stored: this table may have been read back from storage meanwhile, and another asker's rematch
            # made through the copy then in memory (or by another process).
            made = await self.store.rematch_of(old.id)
            fresh = made is None or not await self._existing(made)
            new_id = await self._make_rematch(old, made) if fresh else made
            for copy in {old, self.tables.get(old.id) or old}:
                copy.rematch_id = new_id
        asker = old.seats[seat]
        joined = await self.run(new_id, "seat_at_rematch", base_url=base_url, name=asker.name,
                                seat=(seat + 1) % old.players, account_id=asker.account_id)
        return joined, fresh

    # --- finding -----------------------------------------------------------------------------------------
    async def run(self, table_id: str, op: str, **args: Any) -> Any:
        """Carry out a table operation (operations.py) where the table is driven: here, or in a cluster in the
        process that drives it; its answer as JSON-ready values."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + (self.cluster.patience() if self.cluster is not None else 0)
        while True:
            located = await self.locate(table_id)
            if isinstance(located, Table):
                return await OPERATIONS[op](self, located, **args)
            try:
                return await self.cluster.call(located, table_id, op, args, 10.0 + self.limits.bot_ms / 1000)
            except Moved:
                if loop.time() > deadline:
                    raise Refused("unavailable", "the table is moving between the server's processes; try again") \
                        from None
                await asyncio.sleep(0.2)

    async def locate(self, table_id: str) -> Table | str:
        """The table, in this process; or, in a cluster, the id of the process that drives it (a table nobody
        drives any more is taken over here). Refused if there is no such table."""
        table = self.tables.get(table_id)
        cluster = self.cluster
        if cluster is None or (table is not None and (table.status == "finished" or cluster.drives(table_id))):
            return await self.get(table_id)
        status = await self.store.status(table_id) if isinstance(table_id, str) and len(table_id) <= 32 else None
        if status in (None, "closed", "finished"):
            return await self.get(table_id)  # read back here (or refused as it is gone)
        for _ in range(3):
            owner = await cluster.leases.owner_of(table_id)
            if owner is not None and owner != cluster.id:
                return owner
            taken = await cluster.take_over(table_id)
            if taken is not None:
                return taken
            if await self.store.status(table_id) not in ("waiting", "playing"):  # it ended meanwhile
                return await self.get(table_id)
        raise Refused("unavailable", "the table is moving between the server's processes; try again")

    async def adopt(self, table_id: str) -> Table | None:
        """A table in play rebuilt from its stored moves, driven by this process from now on (its lease is taken);
        None if it is no longer in play."""
        row = await self.store.load(table_id)
        if row is None or row.status not in ("waiting", "playing"):
            return None
        return self._rebuilt(row)

    async def finished_table(self, table_id: str, message: str) -> Table:
        """A finished table (read back here if need be); Refused `not_finished` with `message` during play."""
        located = await self.locate(table_id)
        if not isinstance(located, Table) or located.status != "finished":
            raise Refused("not_finished", message)
        return located

    def commit_failed(self, table: Table) -> None:
        """A table's move could not be stored (in a cluster, maybe because another process stored one first)."""
        if self.cluster is not None:
            self.cluster.conflict(table.id)

    def table_finished(self, table: Table) -> None:
        """A game just ended here: kept for its readers, rated if rated, and (in a cluster) its lease given up."""
        self.keep_finished(table)
        if table.rated:
            self.rate_finished()
        if self.cluster is not None:
            self.cluster.ended(table.id)

    async def get(self, table_id: str) -> Table:
        """The table with this id, read back from storage if it is not in memory; Refused if there is none."""
        table = self.tables.get(table_id)
        if table is not None:
            if table.closed:  # being closed as abandoned: as good as closed already
                raise Refused("closed", self.closed_message())
            if table_id in self.finished:
                self.finished.move_to_end(table_id)
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
        if row.status == "closed":
            raise Refused("closed", self.closed_message())
        table = self.tables.get(table_id) or Table(row, self)
        self.tables[table_id] = table
        if table.status == "finished":
            self.keep_finished(table)
        return table

    def keep_finished(self, table: Table) -> None:
        """Keep a finished table in memory for its next readers, forgetting the least recently read ones beyond
        the limit that nobody watches (they are stored: a later visitor reads them back)."""
        self.finished[table.id] = None
        self.finished.move_to_end(table.id)
        for table_id in list(self.finished):
            if len(self.finished) <= self.limits.finished_kept:
                break
            kept = self.tables.get(table_id)
            if kept is None or not kept.clients:
                del self.finished[table_id]
                self.tables.pop(table_id, None)

    async def listing(self, base_url: str, limit: int = 50) -> list[dict[str, Any]]:
        """The public tables, newest first, as the lobby lists them."""
        out = []
        for row in await self.store.listing(limit):
            game = get_game(row["game"])
            out.append({
                "id": row["id"], "game": row["game"], "title": game.title, "players": row["players"],
                "status": row["status"],
                "open_seats": sum(s.kind == "open" and s.offered_to is None for s in row["seats"]),
                "rated": bool(row["settings"].get("rated", False)),
                "seats": [{"seat": s.seat, "kind": s.kind, "name": s.name if s.kind == "person" else None,
                           "bot": s.bot, "account": s.name if s.account_id is not None else None}
                          for s in row["seats"]],
                "invite_url": f"{base_url.rstrip('/')}/t/{row['id']}",
            })
            if len(out) >= limit:
                break
        return out


def rotated_seats(old: list[Seat]) -> list[Seat]:
    """The seats of a rematch: each moves one place on (old seat s sits at s + 1); bots keep their seat's bot, a
    guest's seat is open, and an account's is kept open for that account to accept."""
    n = len(old)
    seats = []
    for i in range(n):
        was = old[(i - 1) % n]
        if was.kind == "bot":
            seats.append(Seat(i, "bot", bot=was.bot))
        elif was.account_id is not None:
            seats.append(Seat(i, "open", name=was.name, offered_to=was.account_id))
        else:
            seats.append(Seat(i, "open"))
    return seats


def check_people(wanted: list[SeatRequest], rated: bool, account: Account | None) -> None:
    """Who may sit where at a new table: a person's seat without a name is the creator's account's (one seat);
    a rated table is created by an account, seats accounts only (and bots), and has a seat for a person."""
    mine = [i for i, s in enumerate(wanted) if s.kind == "person" and s.name is None]
    if mine and account is None:
        raise BadOptions(f"seat {mine[0]} is a person's: give their name (or log in to sit as your account)")
    if len(mine) > 1:
        raise BadOptions(f"an account sits at one seat of a table; seats {mine[0]} and {mine[1]} have no name")
    if not rated:
        return
    if account is None:
        raise Refused("login", "only a person logged in to an account may create a rated table")
    guests = [i for i, s in enumerate(wanted) if s.kind == "person" and s.name is not None]
    if guests:
        raise BadOptions(f"a rated table seats accounts only: leave seat {guests[0]} open for an account to join "
                         "(or leave its name out to sit there yourself)")
    if all(s.kind == "bot" for s in wanted):
        raise BadOptions("a rated table needs a seat for a person: leave one open or sit at it")


def _open() -> Any:
    from .protocol import SeatRequest

    return SeatRequest(kind="open")


def check_bot(spec: str, game: Any, limits: Limits) -> None:
    """Refuse an unknown bot, a parameter it lacks, a budget too large for this server, or a bot the game lacks."""
    bot = make_bot(spec)
    check = getattr(bot, "check_game", None)
    if check is not None:
        check(game)
    ms = getattr(bot, "ms", None)
    iterations = getattr(bot, "iterations", None) if "iterations" in spec else None
    if (ms is not None and ms > limits.bot_ms) or (iterations is not None and iterations > limits.bot_iterations):
        raise BadOptions(f"bot {spec}: a bot at a table on this server thinks at most ms={limits.bot_ms} or "
                         f"iterations={limits.bot_iterations}")
    # Each decision reads this many worlds before its budget starts: it multiplies the work beyond ms.
    if getattr(bot, "beliefs", 1) > limits.bot_beliefs:
        raise BadOptions(f"bot {spec}: a bot at a table on this server reads at most beliefs={limits.bot_beliefs}")


def live_table(game: Game, wanted: bool | None, seats: list[SeatRequest]) -> bool:
    """Whether a new table plays in real time: as asked, else when the game has a live mode and people sit."""
    if game.live_options is None:
        if wanted:
            live = ", ".join(g.id for g in all_games() if g.live_options is not None)
            raise BadOptions(f"{game.id} has no live mode; only games played in real time ({live}) have one")
        return False
    return wanted if wanted is not None else any(s.kind != "bot" for s in seats)


def live_timings(game: Game, asked: dict[str, float]) -> dict[str, float]:
    """The seconds of each kind of step the game's live mode times: as asked, else the game's default."""
    declared = {timing.name: timing.seconds for timing in game.live_timings}
    unknown = sorted(set(asked) - set(declared))
    if unknown:
        kinds = ", ".join(declared) or "none: it has no live mode"
        raise BadOptions(f"settings.timings: {game.id} times no step named {', '.join(unknown)}; its kinds of "
                         f"steps: {kinds}")
    return {**declared, **asked}


def live_options(game: Game, asked: dict[str, Any]) -> dict[str, Any]:
    """The options a live table plays with; an asked option that contradicts them is refused."""
    for name, value in game.live_options.items():
        if name in asked and asked[name] != value:
            raise BadOptions(f"a live table plays {name}={value}; leave {name} out, or create the table with "
                             f"settings.live false")
    return dict(game.live_options)
