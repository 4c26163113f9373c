"""Storage: tables as records (game, players, options, seed, moves) plus seats, in SQLite or PostgreSQL.

The schema is created and upgraded by Alembic migrations shipped in the package (`server/migrations`), so a
schema change never loses stored games. Every accepted move is one row, committed before it is broadcast; a
table's state is never stored, only rebuilt by replaying its moves.
"""

from __future__ import annotations

import asyncio
import json
import queue
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import make_url

metadata = sa.MetaData()

tables = sa.Table(
    "tables",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("game", sa.String(32), nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("options", sa.Text, nullable=False),  # JSON
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("settings", sa.Text, nullable=False),  # JSON: grace, clock, takeover bot, public, bot pause
    sa.Column("status", sa.String(16), nullable=False),  # waiting, playing, finished; closed: abandoned, stopped
    sa.Column("result", sa.Text, nullable=True),  # JSON, once finished
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("updated_at", sa.Float, nullable=False),
    # Copied from settings["public"] so that the lobby filters private tables in SQL (migration 0002).
    sa.Column("public", sa.Boolean, nullable=False, server_default=sa.true()),
    # Migration 0004: rated tables (a copy of settings["rated"]), when the game ended and when its ratings were
    # counted, and the table "Play again" made from this one (or this one was made from).
    sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("finished_at", sa.Float, nullable=True),
    sa.Column("rated_at", sa.Float, nullable=True),
    sa.Column("rematch_id", sa.String(32), nullable=True),
    sa.Column("rematch_of", sa.String(32), nullable=True),
)

accounts = sa.Table(
    "accounts",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("name", sa.String(32), nullable=False),  # as chosen
    sa.Column("name_key", sa.String(160), nullable=False, unique=True),  # the name folded: unique regardless of case
    sa.Column("password_hash", sa.String(255), nullable=False),  # argon2id, with its salt and parameters
    sa.Column("created_at", sa.Float, nullable=False),
)

sessions = sa.Table(
    "sessions",
    metadata,
    sa.Column("id_hash", sa.String(64), primary_key=True),  # SHA-256 of the cookie's random id
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("expires_at", sa.Float, nullable=False),
)

# Migration 0006: the browsers that logged in as an account, by their device cookie (their attempts to log in count
# against their own device, not the account's name). A new password forgets them all.
devices = sa.Table(
    "devices",
    metadata,
    sa.Column("id_hash", sa.String(64), primary_key=True),  # SHA-256 of the device cookie's random id
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("expires_at", sa.Float, nullable=False),
    sa.Index("devices_by_account", "account_id"),
)

ratings = sa.Table(
    "ratings",
    metadata,
    sa.Column("game", sa.String(32), primary_key=True),
    sa.Column("player", sa.String(220), primary_key=True),  # person:<account id> or bot:<spec>
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("wins", sa.Integer, nullable=False),
)

rating_history = sa.Table(
    "rating_history",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("player", sa.String(220), primary_key=True),
    sa.Column("game", sa.String(32), nullable=False),
    sa.Column("place", sa.Integer, nullable=False),
    sa.Column("mu_before", sa.Float, nullable=False),
    sa.Column("sigma_before", sa.Float, nullable=False),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)

seats = sa.Table(
    "seats",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(8), nullable=False),  # open, person, bot
    sa.Column("name", sa.String(64), nullable=True),
    sa.Column("token_hash", sa.String(64), nullable=True),
    sa.Column("bot", sa.String(200), nullable=True),
    # Migration 0004: the account holding a person's seat (none: a guest), and the account an open seat is kept
    # for after a rematch (its `name` then holds that account's name).
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=True),
    sa.Column("offered_to", sa.Integer, sa.ForeignKey("accounts.id"), nullable=True),
)

moves = sa.Table(
    "moves",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("number", sa.Integer, primary_key=True),  # 1, 2, ... in the order the server accepted them
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("action", sa.Integer, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)

analyses = sa.Table(
    "analyses",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("worlds", sa.Integer, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("result", sa.Text, nullable=False),  # JSON: ninjatable.analysis.Analysis.to_dict()
    sa.Column("made_at", sa.Float, nullable=False),
)

# Migration 0007: the process driving each table in play, until when (by the database's clock), when several
# processes share the database (server/cluster.py). No foreign key: a lease is taken before its new table is stored.
leases = sa.Table(
    "leases",
    metadata,
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column("owner", sa.String(32), nullable=False),
    sa.Column("expires_at", sa.Float, nullable=False),
)

sa.Index("tables_by_status", tables.c.status, tables.c.updated_at)
sa.Index("tables_by_age", tables.c.created_at)
sa.Index("tables_public_by_age", tables.c.public, tables.c.created_at)
sa.Index("tables_to_rate", tables.c.rated, tables.c.rated_at, tables.c.finished_at)
sa.Index("seats_by_account", seats.c.account_id)
sa.Index("seats_by_offer", seats.c.offered_to)
sa.Index("sessions_by_account", sessions.c.account_id)
sa.Index("leases_by_owner", leases.c.owner)
sa.Index("rating_history_by_player", rating_history.c.player, rating_history.c.game, rating_history.c.at)


class RematchMade(Exception):
    """Another rematch of the same table was stored first."""


@dataclass
class SeatRow:
    seat: int
    kind: str
    name: str | None = None
    token_hash: str | None = None
    bot: str | None = None
    account_id: int | None = None  # a person's seat held by an account (None: a guest's)
    offered_to: int | None = None  # an open seat kept for this account (its name is `name`)


@dataclass
class TableRow:
    id: str
    game: str
    players: int
    options: dict[str, Any]
    seed: int
    settings: dict[str, Any]
    status: str
    created_at: float
    seats: list[SeatRow]
    moves: list[tuple[int, int]] = field(default_factory=list)
    result: dict[str, Any] | None = None
    rematch_id: str | None = None  # the table "Play again" made from this one
    rematch_of: str | None = None  # the table this one was made from


def is_sqlite(url: str) -> bool:
    """Whether a database URL a user gives is an SQLite file's."""
    try:
        return make_url(url).get_backend_name() == "sqlite"
    except Exception:
        return False


def database_url(url: str) -> str:
    """The SQLAlchemy URL for a URL a user gives: `sqlite:///path` or `postgresql://...` (through psycopg)."""
    try:
        parsed = make_url(url)
    except Exception:
        # (not repeated: a URL that does not parse may still hold a password)
        raise ValueError("--db is not a database URL: use sqlite:///path or postgresql://user@host/db") from None
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        if parsed.database in (None, "", ":memory:"):
            raise ValueError("an SQLite database must be a file: sqlite:///path/to/file.db")
        Path(parsed.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        return str(parsed.set(drivername="sqlite"))
    if backend == "postgresql":
        return parsed.set(drivername="postgresql+psycopg").render_as_string(hide_password=False)
    shown = parsed.render_as_string(hide_password=True)  # an error message may end up in a log
    raise ValueError(f"unsupported database {shown!r}: use sqlite:///path or postgresql://user@host/db")


def _on_sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    # WAL keeps readers off the writer's back; synchronous=NORMAL in WAL mode survives a crash of the process
    # (every committed move is in the log), trading only durability against a power cut for speed.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def alembic_config(sync_url: str) -> Any:
    """The Alembic configuration of the migrations shipped in the package, for the database at `sync_url`."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).with_name("migrations")))
    config.set_main_option("sqlalchemy.url", sync_url.replace("%", "%%"))
    return config


def upgrade_schema(sync_url: str, revision: str = "head") -> None:
    """Create or upgrade the schema to `revision` (the newest migration by default), keeping every stored row."""
    from alembic import command

    config = alembic_config(sync_url)
    engine = sa.create_engine(sync_url, hide_parameters=True)
    if engine.dialect.name == "sqlite":
        sa.event.listen(engine, "connect", _on_sqlite_connect)
    try:
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, revision)
    finally:
        engine.dispose()


class Store:
    """The tables, seats and moves of one server process.

    SQLAlchemy's synchronous engine, called from worker threads so that the event loop never waits on the
    database. Moves go through one writer thread that commits every move waiting at that moment in one
    transaction (group commit): each move is still committed before its table goes on, and a busy server pays
    one commit for many tables' moves.
    """

    def __init__(self, url: str) -> None:
        self.sync_url = database_url(url)
        self.engine: sa.Engine | None = None
        self._writer: MoveWriter | None = None
        # In a cluster, this process's id: a table's moves and seats are stored only while its lease is this
        # process's (a process that lost a table without knowing it stores nothing more there).
        self.fence: str | None = None

    async def open(self) -> None:
        await asyncio.to_thread(upgrade_schema, self.sync_url)
        # hide_parameters: a database error logged with its statement would show the values (a password's hash).
        self.engine = sa.create_engine(self.sync_url, pool_pre_ping=True, hide_parameters=True)
        if self.engine.dialect.name == "sqlite":
            sa.event.listen(self.engine, "connect", _on_sqlite_connect)
        self._writer = MoveWriter(self.engine, self.fence)

    async def close(self) -> None:
        if self._writer is not None:
            await asyncio.to_thread(self._writer.stop)
            self._writer = None
        if self.engine is not None:
            self.engine.dispose()
            self.engine = None

    # --- writing -------------------------------------------------------------------------------------
    async def create_table(self, row: TableRow, replacing: str | None = None) -> None:
        """Store a new table with its seats; a rematch (`row.rematch_of`) is linked to its finished table in the
        same transaction, refused (RematchMade) if that table has another rematch than `replacing` by then."""
        await asyncio.to_thread(self._create_table, row, replacing)

    def _create_table(self, row: TableRow, replacing: str | None = None) -> None:
        with self.engine.begin() as conn:
            conn.execute(tables.insert().values(
                id=row.id, game=row.game, players=row.players, options=json.dumps(row.options), seed=row.seed,
                settings=json.dumps(row.settings), status=row.status, result=None, created_at=row.created_at,
                updated_at=time.time(), public=bool(row.settings.get("public", True)),
                rated=bool(row.settings.get("rated", False)), rematch_of=row.rematch_of,
            ))
            conn.execute(seats.insert(), [_seat_values(row.id, s) for s in row.seats])
            if row.rematch_of is not None:  # the finished table links to its rematch in the same transaction
                unlinked = tables.c.rematch_id.is_(None) if replacing is None else tables.c.rematch_id == replacing
                linked = conn.execute(tables.update().where(tables.c.id == row.rematch_of, unlinked)
                                      .values(rematch_id=row.id))
                if linked.rowcount != 1:
                    raise RematchMade(f"table {row.rematch_of} has a rematch already")

    async def rematch_of(self, table_id: str) -> str | None:
        """The rematch stored for a finished table, if any."""
        return await asyncio.to_thread(self._rematch_of, table_id)

    def _rematch_of(self, table_id: str) -> str | None:
        with self.engine.connect() as conn:
            return conn.execute(sa.select(tables.c.rematch_id).where(tables.c.id == table_id)).scalar()

    async def update_seat(self, table_id: str, seat: SeatRow, status: str | None = None) -> None:
        """Store a seat's new holder (and the table's new status, in the same transaction)."""
        await asyncio.to_thread(self._update_seat, table_id, seat, status)

    def _update_seat(self, table_id: str, seat: SeatRow, status: str | None) -> None:
        with self.engine.begin() as conn:
            check_leases(conn, self.fence, [table_id])
            conn.execute(
                seats.update()
                .where(seats.c.table_id == table_id, seats.c.seat == seat.seat)
                .values(kind=seat.kind, name=seat.name, token_hash=seat.token_hash, bot=seat.bot,
                        account_id=seat.account_id, offered_to=seat.offered_to)
            )
            values: dict[str, Any] = {"updated_at": time.time()}
            if status is not None:
                values["status"] = status
            conn.execute(tables.update().where(tables.c.id == table_id).values(**values))

    async def expire_waiting(self, created_before: float, only: list[str] | None = None) -> list[str]:
        """Delete every table still waiting for players that was created before `created_before` (of those `only`
        names, if given); their ids."""
        if only is not None and not only:
            return []
        return await asyncio.to_thread(self._expire_waiting, created_before, only)

    def _expire_waiting(self, created_before: float, only: list[str] | None) -> list[str]:
        # One DELETE ... RETURNING: a table whose last seat is taken meanwhile is no longer "waiting" and stays.
        # Its seats go by ON DELETE CASCADE (SQLite enforces it: foreign_keys=ON on every connection).
        query = (tables.delete()
                 .where(tables.c.status == "waiting", tables.c.created_at < created_before)
                 .returning(tables.c.id))
        if only is not None:
            query = query.where(tables.c.id.in_(only))
        with self.engine.begin() as conn:
            return list(conn.execute(query).scalars())

    async def close_tables(self, table_ids: list[str]) -> list[str]:
        """Store games in play as closed (abandoned: never rebuilt, listed or played again); the ids of those that
        were still in play."""
        if not table_ids:
            return []
        return await asyncio.to_thread(self._close_tables, table_ids)

    def _close_tables(self, table_ids: list[str]) -> list[str]:
        query = (tables.update()
                 .where(tables.c.id.in_(table_ids), tables.c.status == "playing")
                 .values(status="closed", updated_at=time.time())
                 .returning(tables.c.id))
        with self.engine.begin() as conn:
            return list(conn.execute(query).scalars())

    async def append_move(
        self, table_id: str, number: int, seat: int, action: int, result: dict[str, Any] | None = None
    ) -> None:
        """Commit move `number`; with `result`, the game is over and the table is finished in the same commit."""
        await self.append_moves(table_id, number, [(seat, action)], result)

    async def append_moves(
        self, table_id: str, first: int, played: list[tuple[int, int]], result: dict[str, Any] | None = None
    ) -> None:
        """Commit moves numbered from `first` together (all or none), and the result if the game is over."""
        future = asyncio.get_running_loop().create_future()
        self._writer.put(PendingMove(table_id, first, played, result, future))
        await future

    # --- reading -------------------------------------------------------------------------------------
    async def load(self, table_id: str) -> TableRow | None:
        return await asyncio.to_thread(self._load, table_id)

    def _load(self, table_id: str) -> TableRow | None:
        with self.engine.connect() as conn:
            found = conn.execute(tables.select().where(tables.c.id == table_id)).first()
            return None if found is None else _complete(conn, found)

    async def status(self, table_id: str) -> str | None:
        """The table's status as stored (None: there is no such table)."""
        return await asyncio.to_thread(self._status, table_id)

    def _status(self, table_id: str) -> str | None:
        with self.engine.connect() as conn:
            return conn.execute(sa.select(tables.c.status).where(tables.c.id == table_id)).scalar()

    async def analysis(self, table_id: str) -> dict[str, Any] | None:
        """The stored analysis of a finished table's game, if one was made."""
        return await asyncio.to_thread(self._analysis, table_id)

    def _analysis(self, table_id: str) -> dict[str, Any] | None:
        with self.engine.connect() as conn:
            found = conn.execute(sa.select(analyses.c.result).where(analyses.c.table_id == table_id)).scalar()
            return None if found is None else json.loads(found)

    async def save_analysis(self, table_id: str, worlds: int, seed: int, result: dict[str, Any]) -> None:
        """Store a finished table's analysis (once: a second one for the same table is dropped)."""
        await asyncio.to_thread(self._save_analysis, table_id, worlds, seed, result)

    def _save_analysis(self, table_id: str, worlds: int, seed: int, result: dict[str, Any]) -> None:
        row = {"table_id": table_id, "worlds": worlds, "seed": seed, "result": json.dumps(result),
               "made_at": time.time()}
        try:
            with self.engine.begin() as conn:
                conn.execute(analyses.insert().values(row))
        except sa.exc.IntegrityError:
            pass  # made meanwhile (by another process): the analysis of a record and seed is the same

    async def unfinished(self) -> list[TableRow]:
        """Every table still waiting for players or in play, to be rebuilt after a start."""
        return await asyncio.to_thread(self._unfinished)

    def _unfinished(self) -> list[TableRow]:
        with self.engine.connect() as conn:
            rows = conn.execute(tables.select().where(tables.c.status.in_(("waiting", "playing")))).all()
            return [_complete(conn, row) for row in rows]

    async def listing(self, limit: int = 100) -> list[dict[str, Any]]:
        """The newest public tables, for the lobby: id, game, players, status, settings and seat holders."""
        return await asyncio.to_thread(self._listing, limit)

    def _listing(self, limit: int) -> list[dict[str, Any]]:
        query = (tables.select().where(tables.c.public, tables.c.status != "closed")
                 .order_by(tables.c.created_at.desc()).limit(limit))
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
            held: dict[str, list[SeatRow]] = {row.id: [] for row in rows}
            if held:
                query = seats.select().where(seats.c.table_id.in_(list(held))).order_by(seats.c.seat)
                for s in conn.execute(query):
                    held[s.table_id].append(SeatRow(s.seat, s.kind, s.name, None, s.bot, s.account_id, s.offered_to))
            return [{"id": row.id, "game": row.game, "players": row.players, "status": row.status,
                     "settings": json.loads(row.settings), "updated_at": row.updated_at, "seats": held[row.id]}
                    for row in rows]


def _complete(conn: Any, row: Any) -> TableRow:
    held = conn.execute(seats.select().where(seats.c.table_id == row.id).order_by(seats.c.seat)).all()
    played = conn.execute(moves.select().where(moves.c.table_id == row.id).order_by(moves.c.number)).all()
    return TableRow(
        id=row.id, game=row.game, players=row.players, options=json.loads(row.options), seed=row.seed,
        settings=json.loads(row.settings), status=row.status, created_at=row.created_at,
        seats=[seat_row(s) for s in held],
        moves=[(m.seat, m.action) for m in played],
        result=json.loads(row.result) if row.result else None,
        rematch_id=row.rematch_id, rematch_of=row.rematch_of,
    )


def seat_row(s: Any) -> SeatRow:
    """A stored seat (a row of `seats`) as the server keeps it."""
    return SeatRow(s.seat, s.kind, s.name, s.token_hash, s.bot, s.account_id, s.offered_to)


@dataclass
class PendingMove:
    """Moves of one table waiting to be committed, numbered from `first`."""

    table_id: str
    first: int
    played: list[tuple[int, int]]
    result: dict[str, Any] | None
    future: asyncio.Future


class MoveWriter:
    """One thread that commits moves in batches: all that wait when it is free go into one transaction (and if
    that transaction fails, each table's moves into their own, so that one table's error refuses no other's)."""

    def __init__(self, engine: sa.Engine, fence: str | None = None) -> None:
        self.engine = engine
        self.fence = fence
        self.queue: queue.SimpleQueue[PendingMove | None] = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._run, name="ninjatable-moves", daemon=True)
        self.thread.start()

    def put(self, move: PendingMove) -> None:
        self.queue.put(move)

    def stop(self) -> None:
        self.queue.put(None)
        self.thread.join()

    def _run(self) -> None:
        while True:
            first = self.queue.get()
            if first is None:
                return
            batch = [first]
            while True:
                try:
                    more = self.queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    self._commit(batch)
                    return
                batch.append(more)
            self._commit(batch)

    def _commit(self, batch: list[PendingMove]) -> None:
        """Commit the batch in one transaction; if that fails, each table's moves on their own."""
        try:
            with self.engine.begin() as conn:
                check_leases(conn, self.fence, [m.table_id for m in batch])
                _write(conn, batch, time.time())
        except Exception:  # one bad table must not refuse the others: retry them one by one
            self._commit_one_by_one(batch)
            return
        for m in batch:
            _answer(m, None)

    def _commit_one_by_one(self, batch: list[PendingMove]) -> None:
        """Commit each pending move in its own transaction; only those that fail get their error."""
        failed: set[str] = set()
        for m in batch:
            if m.table_id in failed:
                # A later move of a table whose earlier one failed would leave a gap in its numbers.
                _answer(m, RuntimeError(f"table {m.table_id}: an earlier move of the batch was not stored"))
                continue
            try:
                with self.engine.begin() as conn:
                    check_leases(conn, self.fence, [m.table_id])
                    _write(conn, [m], time.time())
            except Exception as e:  # this table's moves are refused; the table stays as it was
                failed.add(m.table_id)
                _answer(m, e)
            else:
                _answer(m, None)


class LeaseLost(Exception):
    """A table's lease is no longer this process's: another drives it, and stores its moves."""


def check_leases(conn: Any, owner: str | None, table_ids: list[str]) -> None:
    """In a cluster (`owner`: this process), refuse to write for a table whose lease is another's; the leases are
    held (FOR SHARE) until the caller's transaction ends, so no process takes them over meanwhile."""
    if owner is None:
        return
    wanted = sorted(set(table_ids))
    query = (sa.select(leases.c.table_id).where(leases.c.table_id.in_(wanted), leases.c.owner == owner)
             .order_by(leases.c.table_id).with_for_update(read=True))  # in id order, as the renewal locks them
    held = set(conn.execute(query).scalars())
    lost = [t for t in wanted if t not in held]
    if lost:
        raise LeaseLost(f"table {lost[0]} is driven by another process now")


def _write(conn: Any, batch: list[PendingMove], now: float) -> None:
    """Insert the batch's moves and finish the tables whose game is over (in the caller's transaction)."""
    conn.execute(moves.insert(), [
        {"table_id": m.table_id, "number": m.first + i, "seat": seat, "action": action, "at": now}
        for m in batch for i, (seat, action) in enumerate(m.played)
    ])
    for m in batch:
        if m.result is not None:
            conn.execute(tables.update().where(tables.c.id == m.table_id).values(
                status="finished", result=json.dumps(m.result), updated_at=now, finished_at=now))


def _answer(move: PendingMove, error: BaseException | None) -> None:
    """Settle the move's future on its own event loop (the writer runs in its own thread)."""
    move.future.get_loop().call_soon_threadsafe(_settle, move.future, error)


def _settle(future: asyncio.Future, error: BaseException | None) -> None:
    if future.done():
        return
    if error is None:
        future.set_result(None)
    else:
        future.set_exception(error)


def _seat_values(table_id: str, seat: SeatRow) -> dict[str, Any]:
    return {"table_id": table_id, "seat": seat.seat, "kind": seat.kind, "name": seat.name,
            "token_hash": seat.token_hash, "bot": seat.bot, "account_id": seat.account_id,
            "offered_to": seat.offered_to}
