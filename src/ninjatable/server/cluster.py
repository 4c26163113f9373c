"""Several server processes on one PostgreSQL database and one Redis: each table is driven by one process at a time.

- **Leases** (PostgreSQL, table `leases`): the process that drives a table (checks and stores its actions, runs its
  bots, clocks and live timers) holds its lease, which lasts three fifths of `--lease-seconds` and is renewed
  every fifth, by the database's clock.
  A table whose lease ran out (its process died) is taken over by the first process to ask for it, or to sweep
  for such tables: it is rebuilt from its stored moves, which stay the one truth. Moves and seats are stored only
  in a transaction that finds the lease still the process's own (`store.check_leases`), so a process that lost
  a table without knowing it stores nothing more there.
- **The bus** (Redis pub/sub, a channel per process): a socket is served by the process it reached. When its table
  is driven elsewhere, that process relays it: the hello and every message go to the driving process, which
  checks them with the same code as for its own sockets (`sockets.admit`, `sockets.take`) and keeps
  the client among the table's clients; what that client receives is built there, by `Table.update_for`, and
  sent back over the bus. HTTP requests about a table in play run where it is driven (`Hub.run`).
- **Moving a table**: a process stopping (SIGTERM) or losing a lease tells the processes that relay its tables'
  sockets, which attach them again wherever the table is driven next (taking it over themselves if nobody holds
  it); a process that died stops answering its heartbeat, and the relays do the same when it has. A client
  sees a new welcome and its seat's whole state again, on the socket it had.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from fastapi import WebSocket
from sqlalchemy.dialects.postgresql import insert as pg_insert

from ..core import NinjatableError
from .accounts import SESSION_COOKIE
from .operations import OPERATIONS
from .sockets import admit, error, receive_text, refuse, serve_messages, socket_base_url, take, write
from .store import Store, leases, tables
from .tables import Client, Refused, Table

if TYPE_CHECKING:
    from .hub import Hub

log = logging.getLogger("ninjatable.server")

LEASE_SECONDS = 10.0  # a table whose process stops answering is taken over within this long
LEASE_SHARE, RENEW_SHARE = 0.6, 0.2  # of that: how long a lease lasts, and how often it is renewed (and swept for)
CHANNEL = "ninjatable:process:"  # + a process's id: what is sent to that process
EVERYONE = "ninjatable:everyone"  # what every process hears
ALIVE = "ninjatable:alive:"  # + a process's id: set while it runs, for a lease's time
REPLY_SECONDS = 10.0  # a process that does not answer a request within this long is taken for gone
SWEEP_BATCH = 50  # tables with no live lease taken over at one sweep
REDIS_CONNECTIONS = 32  # per process; more callers wait their turn
ALIVE_SEEN_SECONDS = 1.0  # a process seen alive this recently is not asked about again
ID_CHARS, REF_CHARS = 16, 24  # a process's id and a socket's, in hex
TEXT_KINDS = {b"o": "out", b"i": "in"}  # a socket's texts on the bus: to it, from it
TEXT_HEAD = 1 + ID_CHARS + REF_CHARS


READ_ONLY = {"public_state", "seat_state", "summary"}  # operations that may be asked again elsewhere


class Moved(Exception):
    """The table is not driven by the process that was asked (any more): find where it is now."""


class Leases:
    """Which process drives each table in play, until when: rows of `leases`, timed by the database's clock (the
    processes' clocks may differ)."""

    def __init__(self, store: Store, owner: str, seconds: float) -> None:
        self.store = store
        self.owner = owner
        self.seconds = seconds

    @staticmethod
    def _now() -> Any:
        return sa.func.extract("epoch", sa.func.clock_timestamp())

    async def take(self, table_id: str) -> bool:
        """Take the table's lease if nobody holds it (or it ran out, or it is ours); whether we hold it now."""
        query = pg_insert(leases).values(table_id=table_id, owner=self.owner, expires_at=self._now() + self.seconds)
        query = query.on_conflict_do_update(
            index_elements=[leases.c.table_id],
            set_={"owner": self.owner, "expires_at": query.excluded.expires_at},
            where=sa.or_(leases.c.expires_at < self._now(), leases.c.owner == self.owner),
        ).returning(leases.c.owner)
        return await self._run(query, lambda result: result.first()) is not None

    async def renew(self, table_ids: set[str]) -> set[str]:
        """Renew this process's leases on these tables; those it still holds."""
        if not table_ids:
            return set()
        # Rows locked in id order, as the move writer's fence locks them: two transactions of this process never
        # wait for each other in a circle.
        locked = (sa.select(leases.c.table_id)
                  .where(leases.c.owner == self.owner, leases.c.table_id.in_(sorted(table_ids)))
                  .order_by(leases.c.table_id).with_for_update())
        query = (leases.update().where(leases.c.table_id.in_(locked.scalar_subquery()))
                 .values(expires_at=self._now() + self.seconds).returning(leases.c.table_id))
        return await self._run(query, lambda result: set(result.scalars()))

    async def owner_of(self, table_id: str) -> str | None:
        """The process whose lease on the table has not run out, if any."""
        query = sa.select(leases.c.owner).where(leases.c.table_id == table_id, leases.c.expires_at >= self._now())
        return await self._run(query, lambda result: result.scalar())

    async def release(self, table_ids: list[str]) -> None:
        """Give up these tables' leases (finished, or handed over)."""
        if table_ids:
            query = leases.delete().where(leases.c.owner == self.owner, leases.c.table_id.in_(table_ids))
            await self._run(query)

    async def free(self, limit: int = SWEEP_BATCH) -> list[str]:
        """Tables in play (or waiting for players) that no live lease covers: their process is gone."""
        joined = tables.outerjoin(leases, leases.c.table_id == tables.c.id)
        query = (sa.select(tables.c.id).select_from(joined)
                 .where(tables.c.status.in_(("waiting", "playing")),
                        sa.or_(leases.c.table_id.is_(None), leases.c.expires_at < self._now()))
                 .order_by(sa.func.random()).limit(limit))  # one that cannot be rebuilt holds back no other
        return await self._run(query, lambda result: list(result.scalars()))

    async def _run(self, query: Any, read: Callable[[Any], Any] = lambda result: None) -> Any:
        """Run a statement in a transaction of its own, in a worker thread; what `read` takes of its result."""

        def run() -> Any:
            with self.store.engine.begin() as conn:
                return read(conn.execute(query))

        return await asyncio.to_thread(run)


class Bus:
    """Messages between the processes through Redis pub/sub: JSON objects, sent in order by one task, and read by
    one that hands each to `deliver` (which must not wait)."""

    def __init__(self, url: str, me: str, deliver: Callable[[dict[str, Any]], None], seconds: float,
                 period: float) -> None:
        import redis.asyncio

        # A bounded pool that makes callers wait for a connection (not fail) when many sockets attach at once.
        pool = redis.asyncio.BlockingConnectionPool.from_url(url, max_connections=REDIS_CONNECTIONS,
                                                             timeout=REPLY_SECONDS)
        self.redis = redis.asyncio.Redis(connection_pool=pool)
        self._seen_alive: dict[str, float] = {}  # process: when it was last seen alive (loop time)
        self.me = me
        self.deliver = deliver
        self.seconds = seconds  # how long a heartbeat lasts
        self.period = period  # how often it beats
        self.outgoing: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self.on_reconnect: Callable[[], None] = lambda: None
        self._tasks: list[asyncio.Task] = []

    async def start(self) -> None:
        self.pubsub = self.redis.pubsub()
        await self.pubsub.subscribe(CHANNEL + self.me, EVERYONE)
        await self.beat()
        self._tasks = [asyncio.create_task(self._read()), asyncio.create_task(self._publish()),
                       asyncio.create_task(self._beat_on())]

    async def stop(self) -> None:
        await self.flush()
        for task in self._tasks:
            task.cancel()
        with contextlib.suppress(Exception):
            await self.redis.delete(ALIVE + self.me)
        with contextlib.suppress(Exception):
            await self.pubsub.aclose()
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    def send(self, process: str, message: dict[str, Any]) -> None:
        self.outgoing.put_nowait((CHANNEL + process, json.dumps({**message, "from": self.me})))

    def send_text(self, process: str, kind: str, ref: str, text: str) -> None:
        """A socket's text, to or from the process that drives its table: sent as it is, after a fixed-width head
        (kind, sender, socket), not escaped into JSON again (they are most of what the bus carries)."""
        self.outgoing.put_nowait((CHANNEL + process, f"{kind}{self.me}{ref}{text}"))

    def send_everyone(self, message: dict[str, Any]) -> None:
        self.outgoing.put_nowait((EVERYONE, json.dumps({**message, "from": self.me})))

    async def flush(self) -> None:
        """Wait until everything queued was published (a stopping process's last words)."""
        for _ in range(100):
            if self.outgoing.empty():
                break
            await asyncio.sleep(0.01)

    async def ping(self) -> None:
        await self.redis.ping()

    async def beat(self) -> None:
        """Say this process runs, for one lease's time."""
        await self.redis.set(ALIVE + self.me, 1, px=int(self.seconds * 1000))

    async def _beat_on(self) -> None:
        """Say it runs every period, whatever else waits (a slow database)."""
        while True:
            await asyncio.sleep(self.period)
            try:
                await self.beat()
            except Exception:
                log.warning("Redis did not take this process's heartbeat; trying again")

    async def alive(self, processes: set[str]) -> set[str]:
        """Those of `processes` that said they run within a lease's time (as seen within the last second: many
        sockets attaching at once ask once)."""
        now = asyncio.get_running_loop().time()
        fresh = {p for p in processes if now - self._seen_alive.get(p, -1e9) < ALIVE_SEEN_SECONDS}
        ordered = sorted(processes - fresh)
        if not ordered:
            return fresh
        found = await self.redis.mget([ALIVE + p for p in ordered])
        living = {p for p, beat in zip(ordered, found, strict=True) if beat is not None}
        for p in living:
            self._seen_alive[p] = now
        for p in set(ordered) - living:
            self._seen_alive.pop(p, None)
        return fresh | living

    async def _publish(self) -> None:
        while True:
            batch = [await self.outgoing.get()]
            while not self.outgoing.empty() and len(batch) < 500:
                batch.append(self.outgoing.get_nowait())
            while True:  # the same batch until Redis takes it: messages are neither lost nor reordered
                try:
                    async with self.redis.pipeline(transaction=False) as pipe:
                        for channel, text in batch:
                            pipe.publish(channel, text)
                        await pipe.execute()
                    break
                except Exception:
                    log.exception("publishing %d messages to the other processes failed; trying again", len(batch))
                    await asyncio.sleep(0.5)

    async def _read(self) -> None:
        while True:
            try:
                async for message in self.pubsub.listen():
                    if message["type"] != "message":
                        continue
                    data = message["data"]
                    if data[:1] in TEXT_KINDS:
                        head = data[:TEXT_HEAD].decode("ascii")
                        self.deliver({"k": TEXT_KINDS[data[:1]], "from": head[1:1 + ID_CHARS],
                                      "ref": head[1 + ID_CHARS:], "t": data[TEXT_HEAD:].decode("utf-8")})
                        continue
                    found = json.loads(data)
                    if found.get("from") != self.me:
                        self.deliver(found)
            except asyncio.CancelledError:
                raise
            except Exception:
                # Messages sent meanwhile are lost: every relayed socket is attached again (a fresh state).
                log.exception("reading from Redis failed; subscribing again")
                await asyncio.sleep(0.5)
                with contextlib.suppress(Exception):
                    await self.pubsub.subscribe(CHANNEL + self.me, EVERYONE)
                    self.on_reconnect()


class RemoteClient(Client):
    """A client of a table driven here whose socket is served by another process: what it is sent goes over the
    bus to that process, and what it says comes in through `inbox`."""

    def __init__(self, seat: int | None, base_url: str, bus: Bus, process: str, ref: str) -> None:
        super().__init__(seat, base_url)
        self.bus = bus
        self.process = process
        self.ref = ref
        self.inbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.ended = False

    def send_text(self, text: str) -> None:
        if not self.ended:
            self.bus.send_text(self.process, "o", self.ref, text)

    def close(self) -> None:
        """Close the socket (the relaying process closes it) and stop serving it here."""
        if not self.ended:
            self.bus.send(self.process, {"k": "close", "ref": self.ref})
        self.end()

    def end(self) -> None:
        """Stop serving it here, telling nobody (the socket goes on elsewhere)."""
        self.ended = True
        self.inbox.put_nowait(None)


class Relay:
    """A socket served here; its table is driven here (`table`) or by another process (`owner`)."""

    def __init__(self, websocket: WebSocket, table_id: str, hello: str, address: str) -> None:
        self.ref = secrets.token_hex(REF_CHARS // 2)
        self.table_id = table_id
        self.hello = hello
        self.address = address
        self.raw_headers = dict(websocket.scope["headers"])
        # What the driving process needs to check an account's hello: where the page came from, and its session.
        self.headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in self.raw_headers.items()
                        if k in (b"origin", b"referer", b"host")}
        self.session = websocket.cookies.get(SESSION_COOKIE)
        self.client = Client(None, socket_base_url(websocket))
        self.table: Table | None = None
        self.owner: str | None = None
        self.moving: asyncio.Task | None = None
        self.held: list[str] = []  # what the socket said while it was being attached again
        self.asking: str | None = None  # the process asked to take it (whose welcome may come before its answer)


class Cluster:
    """This process's part in a cluster: its id, its leases, the bus, the sockets it relays and the clients it
    serves for other processes."""

    def __init__(self, hub: Hub, redis_url: str, lease_seconds: float = LEASE_SECONDS) -> None:
        self.id = secrets.token_hex(ID_CHARS // 2)
        self.hub = hub
        self.seconds = lease_seconds
        # A lease (and a heartbeat) lasts three fifths of the setting and is renewed every fifth, and the sweeps
        # come every fifth: a table whose process dies is driven again within the setting.
        self.period = lease_seconds * RENEW_SHARE
        self.leases = Leases(hub.store, self.id, lease_seconds * LEASE_SHARE)
        hub.store.fence = self.id  # moves and seats are stored only under this process's leases
        self.bus = Bus(redis_url, self.id, self._deliver, lease_seconds * LEASE_SHARE, self.period)
        self.bus.on_reconnect = self._attach_all_again
        self.driven: set[str] = set()  # the tables whose lease this process holds
        self.relays: dict[str, Relay] = {}
        self.remotes: dict[str, RemoteClient] = {}
        self.waiting: dict[str, asyncio.Future] = {}  # requests sent, by their id
        self._taking: dict[str, asyncio.Future] = {}  # take-overs under way, by table
        self.stopping = False  # handing its tables over: it takes none again
        self._keeper: asyncio.Task | None = None
        self._tasks: set[asyncio.Task] = set()

    async def start(self) -> None:
        await self.bus.start()
        self._keeper = asyncio.create_task(self._keep())

    # --- the leases ------------------------------------------------------------------------------------------
    async def _keep(self) -> None:
        """Every fifth of the lease time: renew the leases and the heartbeat, give up tables whose lease was lost,
        take over tables nobody drives, and attach again the sockets whose driving process is gone."""
        while True:
            try:
                await self._keep_once()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("keeping the leases failed; trying again")
            await asyncio.sleep(self.period)

    async def _keep_once(self) -> None:
        # The tables driven before the renewal: one taken meanwhile was leased just now, and is not lost.
        before = set(self.driven)
        held = await self.leases.renew(before)
        for table_id in sorted(before - held):
            if table_id in self.driven:
                self._lost(table_id)
        for table_id in await self.leases.free():
            if self.stopping:
                return
            await self.take_over(table_id)
        owners = {r.owner for r in self.relays.values() if r.owner is not None}
        gone = owners - await self.bus.alive(owners)
        for relay in list(self.relays.values()):
            if relay.owner in gone:
                self.attach_again(relay)
        processes = {c.process for c in self.remotes.values()}
        away = processes - await self.bus.alive(processes)
        for client in list(self.remotes.values()):
            if client.process in away:  # its socket's process died with the socket
                client.end()

    async def take_over(self, table_id: str) -> Table | None:
        """Drive a table nobody drives: its lease, then the table rebuilt from its stored moves (None if another
        process took it first, or it is no longer in play). Asked again meanwhile, the same answer: a table is
        rebuilt once."""
        taking = self._taking.get(table_id)
        if taking is None:
            taking = self._taking[table_id] = asyncio.ensure_future(self._take_over(table_id))
            taking.add_done_callback(lambda _: self._taking.pop(table_id, None))
        return await asyncio.shield(taking)

    async def _take_over(self, table_id: str) -> Table | None:
        if table_id in self.driven and table_id in self.hub.tables:
            return self.hub.tables[table_id]
        if self.stopping or not await self.leases.take(table_id):
            return None
        try:
            table = await self.hub.adopt(table_id)
        except BaseException:
            await self.leases.release([table_id])
            raise
        if table is None or self.stopping:  # gone, or this process began handing its tables over meanwhile
            if table is not None:
                self.hub.tables.pop(table_id, None)
                table.stop_driving()
            await self.leases.release([table_id])
            return None
        self.driven.add(table_id)
        self.hub.metrics.takeovers.inc()
        log.info("table %s: taken over by this process", table_id, extra={"table": table_id})
        return table

    async def lease_new(self, table_id: str) -> None:
        """The lease of a table this process is creating."""
        if not await self.leases.take(table_id):
            raise Refused("storage", "the table could not be created; try again")
        self.driven.add(table_id)

    def patience(self) -> float:
        """How long a table may take to move: its dead process's lease running out, and a take-over."""
        return 3 * self.seconds + 5

    def drives(self, table_id: str) -> bool:
        return table_id in self.driven

    def ended(self, table_id: str) -> None:
        """A table driven here finished (anyone may read it back; its clients stay here), expired or was closed:
        its lease is given up."""
        self.driven.discard(table_id)
        self._spawn(self.leases.release([table_id]))

    def conflict(self, table_id: str) -> None:
        """A move of this table could not be stored: another process may have stored one at that number (it took
        the table, or drove it without knowing it had lost it). The table is let go, and driven again from the
        stored moves by whoever holds its lease (this process, if it does)."""
        if table_id in self.driven:
            self._lost(table_id)

    def _lost(self, table_id: str) -> None:
        """Another process took this table's lease (this one was too slow to renew it): stop driving it, and send
        its clients to where it is driven now."""
        self.driven.discard(table_id)
        table = self.hub.tables.pop(table_id, None)
        log.warning("table %s: its lease was lost; it is driven elsewhere now", table_id, extra={"table": table_id})
        if table is not None:
            self._move_clients(table)

    def _move_clients(self, table: Table) -> None:
        """The table is no longer driven here: its timers and bots stop, and its clients are attached again
        wherever it goes (remote ones by their own processes)."""
        table.stop_driving()
        for client in list(table.clients):
            if isinstance(client, RemoteClient):
                self.bus.send(client.process, {"k": "moved", "ref": client.ref})
                client.end()
            table.clients.discard(client)
        for relay in list(self.relays.values()):
            if relay.table is table:
                relay.table = None
                self.attach_again(relay)

    async def hand_over(self) -> None:
        """The process is stopping: nothing more is played here, the leases are given up, and every socket relayed
        here from elsewhere is attached again by its process wherever its table goes."""
        self.stopping = True
        if self._keeper is not None:
            self._keeper.cancel()
        moving = [self.hub.tables[t] for t in sorted(self.driven) if t in self.hub.tables]
        for table in moving:  # no move is being stored meanwhile, nor after: the locks stay held
            await table.lock.acquire()
        ids = [t.id for t in moving]
        for table in moving:
            self.hub.tables.pop(table.id, None)
            self._move_clients(table)
        self.driven.clear()
        with contextlib.suppress(Exception):
            await self.leases.release(ids)
        # Finished tables watched from elsewhere: their sockets are attached again (read back there).
        for client in list(self.remotes.values()):
            self.bus.send(client.process, {"k": "moved", "ref": client.ref})
            client.end()
        if ids:
            log.info("%d tables handed over to the other processes", len(ids))

    async def stop(self) -> None:
        if self._keeper is not None:
            self._keeper.cancel()
        for task in list(self._tasks):
            task.cancel()
        await self.bus.stop()

    # --- sockets served here -----------------------------------------------------------------------------------
    async def serve_relayed(self, websocket: WebSocket, table_id: str, hello: str, address: str) -> None:
        """Serve a socket whose hello was read: attached to its table here or where it is driven; its messages
        carried out or forwarded until it leaves."""
        relay = Relay(websocket, table_id, hello, address)
        self.relays[relay.ref] = relay
        try:
            try:
                await self._attach(relay)
            except Refused as e:
                await refuse(websocket, e.code, e.message)
                return
            except Exception:  # Redis or the database failing: the page is told, and tries again
                log.exception("table %s: a socket could not be attached", table_id)
                await refuse(websocket, "unavailable", "the server could not reach the table just now; connect again")
                return
            writer = asyncio.create_task(write(websocket, relay.client))
            try:
                while not relay.client.dropped:
                    text = await receive_text(websocket)
                    if text is None or not await self._forward(relay, text):
                        break
            finally:
                self._detach(relay)
                relay.client.close()
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(writer, 2)
                writer.cancel()
        finally:
            self.relays.pop(relay.ref, None)
            if relay.moving is not None:
                relay.moving.cancel()

    async def _attach(self, relay: Relay) -> None:
        """Attach the socket to its table: here if it is driven here (or finished), else where it is driven."""
        deadline = asyncio.get_running_loop().time() + self.patience()
        while True:
            located = await self.hub.locate(relay.table_id)
            if isinstance(located, Table):
                await self._attach_here(relay, located)
                return
            relay.asking = located  # its welcome may come before its answer
            try:
                await self.request(located, {"k": "attach", "ref": relay.ref, "table": relay.table_id,
                                             "hello": relay.hello, "headers": relay.headers,
                                             "session": relay.session, "address": relay.address,
                                             "base": relay.client.base_url})
                relay.owner, relay.table = located, None
                return
            except Moved:
                relay.asking = None
                if asyncio.get_running_loop().time() > deadline:
                    raise Refused("unavailable", "the table is moving between the server's processes; connect "
                                                 "again") from None
                await asyncio.sleep(0.2)  # its lease runs out, or its new process starts driving it

    async def _attach_here(self, relay: Relay, table: Table) -> None:
        """Attach the socket to a table of this process, its hello checked (again, after a move)."""
        await admit(relay.client, table, self.hub, relay.hello, relay.raw_headers, relay.session)
        relay.table, relay.owner = table, None

    async def _forward(self, relay: Relay, text: str) -> bool:
        """One message of a relayed socket: held while it is attached again, else carried out or sent on."""
        if relay.moving is not None:
            relay.held.append(text)  # said on once the socket is attached again
            return True
        return await self._send_on(relay, text)

    async def _send_on(self, relay: Relay, text: str) -> bool:
        """Carry a message out here, or send it to the process driving the socket's table."""
        if relay.table is not None:
            return await take(relay.client, relay.table, self.hub, relay.address, text)
        if relay.owner is not None:
            self.bus.send_text(relay.owner, "i", relay.ref, text)
        return True

    def _detach(self, relay: Relay) -> None:
        if relay.table is not None:
            relay.table.detach(relay.client)
        elif relay.owner is not None:
            self.bus.send(relay.owner, {"k": "detach", "ref": relay.ref})
        relay.table, relay.owner = None, None

    def attach_again(self, relay: Relay) -> None:
        """Attach a socket again, wherever its table is driven now (its process stopped, died or lost it)."""
        if relay.moving is not None:
            return
        relay.moving = self._spawn(self._attach_again(relay))

    async def _attach_again(self, relay: Relay) -> None:
        try:
            self._detach(relay)
            await self._attach(relay)
            while relay.held:  # said on in order; what comes meanwhile joins the queue
                if not await self._send_on(relay, relay.held.pop(0)):
                    relay.client.close()
                    break
        except Refused as e:
            relay.client.send(error(e.code, e.message))
            relay.client.close()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: a socket could not be attached again; it is closed", relay.table_id)
            relay.client.close()
        finally:
            if relay.moving is asyncio.current_task():  # not a later attach begun meanwhile
                relay.moving = None

    def _attach_all_again(self) -> None:
        for relay in list(self.relays.values()):
            if relay.owner is not None:
                self.attach_again(relay)

    # --- requests between processes ------------------------------------------------------------------------
    async def request(self, process: str, message: dict[str, Any], seconds: float = REPLY_SECONDS,
                      again_if_gone: bool = True) -> Any:
        """Send a request to a process and wait for its answer (its result); Moved if it does not drive the table
        (or, with `again_if_gone`, does not answer and is gone), Refused as it refused."""
        if process not in await self.bus.alive({process}):
            raise Moved  # gone: its tables are taken over once their leases run out
        rid = secrets.token_hex(8)
        answer = self.waiting[rid] = asyncio.get_running_loop().create_future()
        self.bus.send(process, {**message, "id": rid})
        try:
            reply = await asyncio.wait_for(answer, seconds)
        except TimeoutError:
            if again_if_gone and process not in await self.bus.alive({process}):
                raise Moved from None
            # It may have done what was asked before it went: asking another would do it twice.
            raise Refused("unavailable", "the server process driving this table did not answer in time; see "
                                         "whether it was done, and try again") from None
        finally:
            self.waiting.pop(rid, None)
        if reply.get("moved"):
            raise Moved
        if "code" in reply:
            raise Refused(reply["code"], reply["message"])
        return reply.get("result")

    async def call(self, process: str, table_id: str, op: str, args: dict[str, Any], seconds: float) -> Any:
        """Run a table operation (operations.py) where the table is driven."""
        return await self.request(process, {"k": "call", "table": table_id, "op": op, "args": args}, seconds,
                                  again_if_gone=op in READ_ONLY)

    def _reply(self, asked: dict[str, Any], /, **answer: Any) -> None:
        """Answer a request (`answer`: result=..., or code= and message= of a refusal, or moved=True)."""
        self.bus.send(asked["from"], {"k": "reply", "id": asked["id"], **answer})

    # --- what the bus brings ---------------------------------------------------------------------------------
    def _deliver(self, message: dict[str, Any]) -> None:
        kind = message.get("k")
        if kind == "out":
            relay = self.relays.get(message["ref"])
            if relay is not None and message["from"] in (relay.owner, relay.asking):
                relay.client.send_text(message["t"])
            else:  # a socket gone, an attach given up, or a driver replaced: that process stops serving it
                self.bus.send(message["from"], {"k": "detach", "ref": message["ref"]})
        elif kind == "in":
            client = self.remotes.get(message["ref"])
            if client is not None:
                client.inbox.put_nowait(message["t"])
            else:  # served here no more (its process was taken for dead): it attaches again
                self.bus.send(message["from"], {"k": "moved", "ref": message["ref"]})
        elif kind == "reply":
            waiting = self.waiting.get(message["id"])
            if waiting is not None and not waiting.done():
                waiting.set_result(message)
        elif kind == "close":
            relay = self.relays.get(message["ref"])
            if relay is not None and message["from"] == relay.owner:
                relay.owner = None
                relay.client.close()
        elif kind == "detach":
            client = self.remotes.get(message["ref"])
            if client is not None:
                client.end()
        elif kind == "moved":
            relay = self.relays.get(message["ref"])
            if relay is not None and relay.owner == message["from"]:
                relay.owner = None
                self.attach_again(relay)
        elif kind == "attach":
            self._spawn(self._serve_remote(message))
        elif kind == "call":
            self._spawn(self._run_call(message))
        elif kind == "everyone":
            self._spawn(self.hub.heard(message["what"], message["args"]))

    async def _serve_remote(self, message: dict[str, Any]) -> None:
        """A socket of another process attaches to a table driven here: its hello checked as ours are, then its
        messages carried out until it leaves."""
        table = self._served_here(message)
        if table is None:
            return
        headers = {k.encode("latin-1"): v.encode("latin-1") for k, v in message["headers"].items()}
        client = RemoteClient(None, message["base"], self.bus, message["from"], message["ref"])
        try:
            await admit(client, table, self.hub, message["hello"], headers, message["session"])
        except Refused as e:
            self._reply(message, code=e.code, message=e.message)
            return
        self.remotes[client.ref] = client
        self._reply(message, result=client.seat)
        try:
            await serve_messages(client, table, self.hub, message["address"], client.inbox.get)
        finally:
            if self.remotes.get(client.ref) is client:  # not a later attach of the same socket
                del self.remotes[client.ref]
            if client in table.clients:
                table.detach(client)
            if not client.ended:  # it flooded: its socket is closed
                client.close()

    def _served_here(self, message: dict[str, Any]) -> Table | None:
        """The table a request of another process is about, if this process drives it (or holds it finished);
        else the request is answered `moved` (ask where it is now)."""
        table = self.hub.tables.get(message["table"])
        if table is None or not (self.drives(table.id) or table.status == "finished"):
            self._reply(message, moved=True)
            return None
        return table

    async def _run_call(self, message: dict[str, Any]) -> None:
        table = self._served_here(message)
        if table is None:
            return
        try:
            result = await OPERATIONS[message["op"]](self.hub, table, **message["args"])
        except Refused as e:
            self._reply(message, code=e.code, message=e.message)
        except NinjatableError as e:
            self._reply(message, code="bad_request", message=str(e))
        except Exception:
            log.exception("table %s: %s asked by another process failed", table.id, message["op"])
            self._reply(message, code="storage", message="the server could not do that; try again")
        else:
            self._reply(message, result=result)

    def tell_everyone(self, what: str, **args: Any) -> None:
        """Tell every other process something that concerns the tables it holds (Hub.heard carries it out)."""
        self.bus.send_everyone({"k": "everyone", "what": what, "args": args})

    def _spawn(self, coroutine: Any) -> asyncio.Task:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task
