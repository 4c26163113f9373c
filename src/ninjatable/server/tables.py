"""A live table: the game's state, its seats, the connected clients, and the bots that move for seats.

One table applies one action at a time (an asyncio lock): an action is checked on a copy of the state by the
kernel, committed to the database, and only then made the table's state and broadcast. Every client receives
what its seat may see and nothing else: `view(seat)`, the seat's legal actions and the events addressed to it
or to all (secrecy in one place: `Table.update_for`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..bots import make_bot
from ..core import Bot, Event, IllegalAction, Record, State, get_game, seat_name
from .botpool import bot_seed
from .live import Live
from .protocol import MAX_STEPS, Error, Notice, Out, PreviewOut, Said, Update, Welcome
from .security import new_token, token_hash, token_matches
from .store import SeatRow, TableRow

if TYPE_CHECKING:
    from .hub import Hub

log = logging.getLogger("ninjatable.server")

OUTBOX = 512  # messages waiting for a slow client before it is dropped
CHAT_KEPT = 50  # the latest chat lines, shown to a client when it connects
MAX_CHAT = 200  # characters in one chat line
MAX_DRAFT = MAX_STEPS - 1  # steps in a person's draft, so that with its confirmation it may be sent together


class Refused(Exception):
    """A request the table turns down; `code` names the kind (for clients), the text says why."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class Stale(Exception):
    """A bot's decision for a position the table has already left."""


class Client:
    """One connection to a table: its seat (None watches) and its outbox, drained by the connection's writer."""

    def __init__(self, seat: int | None, base_url: str = "") -> None:
        self.seat = seat
        self.base_url = base_url
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue(maxsize=OUTBOX)
        self.events_sent = 0
        self.dropped = False
        self.account_id: int | None = None  # the account whose seat this is, when it said hello as the account...
        self.session_hash: str | None = None  # ...and the hash of the session it did so with

    def send(self, message: Out) -> None:
        """Queue one message of the protocol (built through its model, see protocol.py)."""
        self.send_text(message.model_dump_json())

    def send_text(self, text: str) -> None:
        if self.dropped:
            return
        try:
            self.outbox.put_nowait(text)
        except asyncio.QueueFull:
            # A client that reads nothing holds no table back: it is cut off, and may reconnect.
            self.dropped = True
            self.outbox = asyncio.Queue()
            self.outbox.put_nowait(None)

    def close(self) -> None:
        try:
            self.outbox.put_nowait(None)
        except asyncio.QueueFull:
            self.dropped = True


@dataclass
class Draft:
    """A person's unconfirmed steps of a multi-step choice, for the decision it began at (`entered`); `marks`
    tell each point the draft passed through, from before its first step."""

    entered: int
    steps: list[int]
    marks: list[str]


def draft_mark(state: State, seat: int) -> str:
    """What `seat` sees of `state` and may do in it: equal marks are the same point of a draft."""
    return json.dumps([state.view(seat), state.legal_actions(seat)], sort_keys=True, separators=(",", ":"))


@dataclass
class Seat:
    """A seat: open, held by a person (through the hash of their token), or given to a bot."""

    index: int
    kind: str
    name: str | None = None
    token_hash: str | None = None
    bot: str | None = None
    account_id: int | None = None  # a person's seat held by an account (None: a guest's)
    offered_to: int | None = None  # an open seat kept for this account, whose name is `name`
    connections: int = 0
    taken_over: bool = False  # away longer than the grace time: the table's bot plays it
    away_timer: asyncio.TimerHandle | None = field(default=None, repr=False)

    def row(self) -> SeatRow:
        return SeatRow(self.index, self.kind, self.name, self.token_hash, self.bot, self.account_id, self.offered_to)

    def public(self, bot_playing: bool) -> dict[str, Any]:
        return {"seat": self.index, "kind": self.kind, "name": self.name if self.kind == "person" else None,
                "bot": self.bot, "connected": self.kind == "bot" or self.connections > 0, "bot_playing": bot_playing,
                "account": self.name if self.account_id is not None else None,
                "offered": self.name if self.offered_to is not None else None}

    def take(self, name: str, token: str, account_id: int | None) -> None:
        """A person sits here (an account, or a guest: account None)."""
        self.kind, self.name, self.token_hash = "person", name, token_hash(token)
        self.account_id, self.offered_to = account_id, None

    def restore(self, row: SeatRow) -> None:
        """Back to what was stored (a change that could not be stored)."""
        self.kind, self.name, self.token_hash, self.bot = row.kind, row.name, row.token_hash, row.bot
        self.account_id, self.offered_to = row.account_id, row.offered_to


class Table:
    """One table in play (or waiting for players, or finished and still watched)."""

    def __init__(self, row: TableRow, hub: Hub) -> None:
        self.hub = hub
        self.id = row.id
        self.game = get_game(row.game)
        self.options = row.options
        self.seed = row.seed
        self.settings = row.settings
        self.created_at = row.created_at
        self.seats = [Seat(s.seat, s.kind, s.name, s.token_hash, s.bot, s.account_id, s.offered_to)
                      for s in row.seats]
        self.rematch_id = row.rematch_id
        self.rematch_of = row.rematch_of
        self.state: State = self.game.new_state(row.players, seed=row.seed, **row.options)
        for seat, action in row.moves:
            self.state.apply(seat, action)
        self.started = row.status != "waiting"
        self.clients: set[Client] = set()
        self.lock = asyncio.Lock()
        # Per seat: the move count at which its current decision began, and the actions it had then; a bot's
        # answer or a clock counts only for the decision it was started for.
        self.entered = [0] * row.players
        self.decision_legal: list[tuple[int, ...]] = [tuple(self.state.legal_actions(s)) for s in range(row.players)]
        self.thinking: dict[int, asyncio.Task] = {}
        self.hinting: set[int] = set()  # seats whose hint is being worked out
        self.hints_given: dict[int, tuple[tuple[int, list[int]], int]] = {}  # each seat's last: (version, draft)
        self.bots: dict[tuple[int, str], Bot] = {}  # (seat, spec): the bot, with whatever it remembers
        self.deadlines: dict[int, float] = {}  # seat: loop time its clock runs out
        self.clock_timers: dict[int, asyncio.TimerHandle] = {}
        self.out_of_time: dict[int, int] = {}  # seat: the decision (entered) its clock ran out on
        # The events each viewer may see, kept as they come (seat or None: list), instead of refiltered per move.
        self.seen_events = 0
        self.events_by_viewer: dict[int | None, list[Event]] = {v: [] for v in [None, *range(row.players)]}
        self._collect_events()
        self.live = Live(self) if self.settings.get("live") else None
        self.chat: deque[Said] = deque(maxlen=CHAT_KEPT)
        self.drafts: dict[int, Draft] = {}
        self.expired = False  # nobody joined in time: the table is deleted
        self.stopped = False  # the server is stopping (or the table expired): no bot starts thinking again
        # Since when no person's socket is connected (None while one is), and whether the game was left to its
        # bots for it: a game nobody comes back to is finished by its bots or closed (Hub.see_to_abandoned).
        self.nobody_since: float | None = time.time()
        self.left_to_bots = False
        # Abandoned: being closed (Hub._close) or closed, stored as such; nobody may play or watch it again.
        self.closed = False

    # --- what everyone may know ----------------------------------------------------------------------
    @property
    def players(self) -> int:
        return self.state.players

    @property
    def status(self) -> str:
        if self.state.is_over():
            return "finished"
        return "playing" if self.started else "waiting"

    @property
    def version(self) -> int:
        return len(self.state.history)

    def bot_playing(self, seat: int) -> bool:
        """Whether a bot decides for this seat now (a bot's seat, or a person away or out of time)."""
        s = self.seats[seat]
        if s.kind == "bot":
            return True
        if s.kind != "person":
            return False
        return s.taken_over or self.out_of_time.get(seat) == self.entered[seat]

    def public_seats(self) -> list[dict[str, Any]]:
        return [s.public(self.bot_playing(s.index)) for s in self.seats]

    def info(self, base_url: str) -> dict[str, Any]:
        base = base_url.rstrip("/")
        return {
            "id": self.id, "game": self.game.id, "title": self.game.title, "players": self.players,
            "options": self.state.options, "status": self.status, "settings": self.settings,
            "seats": self.public_seats(), "version": self.version,
            "invite_url": f"{base}/t/{self.id}", "spectate_url": f"{base}/t/{self.id}/watch",
            "rated": self.rated, "rematch": self.rematch_id, "rematch_of": self.rematch_of,
        }

    @property
    def rated(self) -> bool:
        return bool(self.settings.get("rated", False))

    def record(self) -> Record:
        return Record.from_state(self.state)

    # --- secrecy in one place ------------------------------------------------------------------------
    def update_for(self, client: Client) -> Update:
        """The update a client receives: its seat's view, legal actions and new events, and the seats."""
        seat = client.seat
        events = self.events_by_viewer[seat]
        new = events[client.events_sent:]
        state, draft = self.drafted_state(seat)
        message = Update(
            version=self.version,
            status=self.status,
            seat=seat,
            view=state.view(seat) if self.started else None,
            **self.choice_for(state, seat),
            draft=draft,
            events=[{"kind": e.kind, "text": e.text} for e in new],
            events_from=client.events_sent,
            seats=self.public_seats(),
            clocks=self.clocks(),
            live=self.live.public_for(seat) if self.live is not None else None,
        )
        client.events_sent = len(events)
        return message

    def choice_for(self, state: State, seat: int | None) -> dict[str, Any]:
        """What `seat` may do in `state`: legal actions with labels, the decision in words, refusals with reasons."""
        if seat is None or not self.started or state.is_over():
            return {"legal": [], "decision": None, "refused": []}
        decision = state.decision(seat)
        return {
            "legal": [{"id": a, "label": state.action_label(a)} for a in state.legal_actions(seat)],
            "decision": None if decision is None else decision._asdict(),
            "refused": [{"id": a, "label": state.action_label(a), "reason": r}
                        for a, r in sorted(state.refusals(seat).items())],
        }

    def preview(self, seat: int, actions: list[int]) -> PreviewOut:
        """The seat's view and choices after the steps of a multi-step choice, played on a copy (nothing is stored).

        Only steps the game marks `multi` (they draw no chance and show nothing new), never the confirmation, so
        that a preview cannot be used to peek."""
        candidate = self.state.clone()
        self._play_steps(candidate, seat, actions, confirm_last=False)
        return PreviewOut(version=self.version, actions=list(actions), view=candidate.view(seat),
                          **self.choice_for(candidate, seat))

    def _play_steps(self, state: State, seat: int, actions: list[int], confirm_last: bool) -> None:
        """Apply `actions` for `seat` to `state`: every one but (with `confirm_last`) the last at a multi step."""
        if not self.started:
            raise Refused("not_started", "the game has not started")
        if state.is_over():
            raise Refused("over", "the game is over; no more moves")
        for i, action in enumerate(actions):
            decision = state.decision(seat)
            final = confirm_last and i == len(actions) - 1
            in_choice = decision is not None and decision.multi and (final or action != decision.confirm)
            if (len(actions) > 1 or not confirm_last) and not in_choice:
                what = "sent together" if confirm_last else "previewed"
                raise Refused("not_multi", f"only the steps of a multi-step choice can be {what}; step {i + 1} "
                                           f"is not one")
            try:
                state.apply(seat, action)
            except IllegalAction as e:
                raise Refused("illegal", str(e) if len(actions) == 1 else f"step {i + 1}: {e}") from None

    def clocks(self) -> list[dict[str, Any]]:
        now = asyncio.get_running_loop().time()
        return [{"seat": s, "seconds": round(max(0.0, t - now), 1)} for s, t in sorted(self.deadlines.items())]

    def broadcast(self) -> None:
        for client in list(self.clients):
            client.send(self.update_for(client))

    def send_to_seat(self, seat: int) -> None:
        """An update for the clients of one seat only (a change nobody else may see, such as its own draft)."""
        for client in list(self.clients):
            if client.seat == seat:
                client.send(self.update_for(client))

    def _collect_events(self) -> None:
        for event in self.state.events[self.seen_events:]:
            for viewer, events in self.events_by_viewer.items():
                if event.to is None or event.to == viewer:
                    events.append(event)
        self.seen_events = len(self.state.events)

    # --- seats ---------------------------------------------------------------------------------------
    def seat_for_token(self, token: str) -> int | None:
        for seat in self.seats:
            if seat.kind == "person" and token_matches(token, seat.token_hash):
                return seat.index
        return None

    def seat_for_account(self, account_id: int) -> int | None:
        for seat in self.seats:
            if seat.kind == "person" and seat.account_id == account_id:
                return seat.index
        return None

    async def join(self, name: str, wanted: int | None, account_id: int | None = None) -> tuple[int, str]:
        """Seat a person by name (an account's, or a guest's: `account_id` None) in `wanted` or the first open seat
        they may take; returns (seat, token). A seat kept for an account after a rematch is that account's only."""
        async with self.lock:
            if self.expired:
                raise Refused("no_table", "this table expired: nobody joined it in time")
            if self.started:
                raise Refused("started", "the game has started; every seat is taken (you may watch)")
            if self.rated and account_id is None:
                raise Refused("login", "this table is rated: only people logged in to an account may sit at it")
            held = self.seat_for_account(account_id) if account_id is not None else None
            if held is not None:
                raise Refused("seated", f"you already sit at this table, at seat {held}")
            wanted = self._seat_to_take(wanted, account_id)
            token = new_token()
            seat = self.seats[wanted]
            stored = seat.row()
            seat.take(name, token, account_id)
            await self._store_seat(seat, stored)
            return wanted, token

    def _seat_to_take(self, wanted: int | None, account_id: int | None) -> int:
        """The seat a person joining may take: `wanted` if it is open to them, else the first such (the one kept
        for their account first)."""
        mine = [s.index for s in self.seats
                if s.kind == "open" and account_id is not None and s.offered_to == account_id]
        if mine and wanted not in (None, *mine):  # the rematch moved everybody one seat on: so does this account
            raise Refused("taken", f"seat {mine[0]} is kept for you at this rematch: take it, or leave it open "
                                   "(decline) before you take another")
        free = mine + [s.index for s in self.seats if s.kind == "open" and s.offered_to is None]
        if wanted is None:
            if not free:
                kept = any(s.kind == "open" for s in self.seats)
                raise Refused("full", "every open seat is kept for someone invited to the rematch" if kept
                              else "the table is full")
            return free[0]
        if not 0 <= wanted < self.players:
            raise Refused("bad_seat", f"seat {wanted} does not exist; seats are 0 to {self.players - 1}")
        if wanted not in free:
            which = ", ".join(map(str, free)) or "none"
            reason = "is kept for another player" if self.seats[wanted].kind == "open" else "is taken"
            raise Refused("taken", f"seat {wanted} {reason}; seats you may take: {which}")
        return wanted

    async def _store_seat(self, seat: Seat, before: SeatRow) -> None:
        """Store a seat's change (and start the game if it filled the table); undone if it cannot be stored."""
        full = all(s.kind != "open" for s in self.seats)
        try:
            await self.hub.store.update_seat(self.id, seat.row(), status="playing" if full else None)
        except Exception:
            seat.restore(before)
            log.exception("table %s: storing a seat failed", self.id)
            raise Refused("storage", "the seat could not be stored; nothing changed, try again") from None
        if full:
            self.start()
        else:
            self.broadcast()

    async def forget_tokens(self, account_id: int) -> None:
        """The account's password changed: its seat here (if the game is not over) gets a token nobody knows, and
        every socket at that seat is closed; the account sits there again through its new session."""
        async with self.lock:
            seat_index = self.seat_for_account(account_id)
            if seat_index is None or self.status == "finished":
                return
            seat = self.seats[seat_index]
            stored = seat.row()
            seat.token_hash = token_hash(new_token())
            try:
                await self.hub.store.update_seat(self.id, seat.row())
            except Exception:
                seat.restore(stored)
                raise
            for client in list(self.clients):
                if client.seat == seat_index:
                    client.send(Error(code="logged_out", message="the password changed: log in again to sit here"))
                    client.close()

    async def decline(self, account_id: int) -> None:
        """The account leaves the seat kept for it open, for anyone to take."""
        async with self.lock:
            kept = [s for s in self.seats if s.kind == "open" and s.offered_to == account_id]
            if not kept:
                raise Refused("no_offer", "no seat at this table is kept for you")
            seat = kept[0]
            stored = seat.row()
            seat.offered_to, seat.name = None, None
            await self._store_seat(seat, stored)

    def start(self) -> None:
        """Play begins (every seat taken), or goes on after the table was rebuilt from its moves."""
        self.started = True
        if self.nobody_since is not None:  # the wait for players is no absence from play
            self.nobody_since = time.time()
        loop = asyncio.get_running_loop()
        for seat in self.seats:
            if seat.kind == "person" and seat.connections == 0:
                self._start_away_timer(seat, loop)
        self._after_change(set(), None)

    def check_room(self, seat: int | None) -> None:
        """Refuse another socket for `seat` (None: a spectator) when it already has as many as it may."""
        limits = self.hub.limits
        if self.closed:  # closing or closed while this socket said hello
            raise Refused("closed", self.hub.closed_message())
        if seat is None:
            watching = sum(c.seat is None for c in self.clients)
            if watching >= limits.spectators_per_table:
                raise Refused("too_many_sockets", f"this table has as many spectators as it may "
                                                  f"({limits.spectators_per_table}); try again later")
        elif self.seats[seat].connections >= limits.sockets_per_seat:
            raise Refused("too_many_sockets", f"your seat has {limits.sockets_per_seat} connections already; "
                                              "close one first")

    def attach(self, client: Client) -> None:
        """A client connects (already authenticated for its seat)."""
        self.clients.add(client)
        if client.seat is not None:
            self.nobody_since, self.left_to_bots = None, False
            seat = self.seats[client.seat]
            seat.connections += 1
            if seat.away_timer is not None:
                seat.away_timer.cancel()
                seat.away_timer = None
            seat.taken_over = False
        client.send(Welcome(seat=client.seat, table=self.info(client.base_url), chat=list(self.chat)))
        self.broadcast()

    def detach(self, client: Client) -> None:
        self.clients.discard(client)
        if client.seat is not None:
            seat = self.seats[client.seat]
            seat.connections -= 1
            if seat.connections == 0 and self.started and self.status != "finished":
                self._start_away_timer(seat, asyncio.get_running_loop())
            if not any(s.connections for s in self.seats):
                self.nobody_since = time.time()
        self.broadcast()
        if self.status == "finished":
            self.hub.keep_finished(self)  # nobody may watch it any more: it takes its turn to be forgotten

    def _start_away_timer(self, seat: Seat, loop: asyncio.AbstractEventLoop) -> None:
        if seat.away_timer is not None:
            seat.away_timer.cancel()
        seat.away_timer = loop.call_later(float(self.settings["grace_seconds"]), self._take_over, seat.index)

    def _take_over(self, index: int) -> None:
        seat = self.seats[index]
        seat.away_timer = None
        if seat.connections == 0 and self.status == "playing":
            seat.taken_over = True
            self._schedule_bots()
            self.broadcast()

    # --- abandoned ---------------------------------------------------------------------------------------
    def deserted_since(self, before: float) -> bool:
        """Whether this is a game in play with seats for people, none of whom has been connected since `before`
        (and it was not left to its bots for that already)."""
        return (self.status == "playing" and not self.left_to_bots and self.nobody_since is not None
                and self.nobody_since < before and any(s.kind == "person" for s in self.seats))

    def leave_to_bots(self) -> None:
        """Nobody has come for long: the table's bot plays every person's seat to the end (or until its person
        comes back, as after any absence)."""
        self.left_to_bots = True
        for seat in self.seats:
            if seat.kind == "person" and seat.connections == 0:
                if seat.away_timer is not None:
                    seat.away_timer.cancel()
                    seat.away_timer = None
                seat.taken_over = True
        self._schedule_bots()
        self.broadcast()

    def close(self, message: str) -> None:
        """Closed, as abandoned: whoever still watches is told, and their sockets closed."""
        self.closed = True
        for client in list(self.clients):
            client.send(Error(code="closed", message=message))
        self.stop()

    # --- actions -------------------------------------------------------------------------------------
    async def submit(self, seat: int, action: int | list[int], decision: int | None = None,
                     at: int | None = None) -> bool:
        """Apply `action` for `seat` (or several: the steps of a multi-step choice and its confirmation, all or
        none): checked, stored, then broadcast. `decision`: a bot's (raises Stale if the table moved on).
        `at`: the move count the client saw when it chose (a live table tells a tap that lost the race).

        True if moves were stored; False for a choice kept unplayed (a live table's held pass, a step of a
        person's draft), which costs the sender like any message."""
        arrived = time.perf_counter()
        by_person = decision is None and not self.bot_playing(seat)  # a live table's bots send no decision
        try:
            stored = await self._submit(seat, action, decision, at)
        except Refused as e:
            if by_person:
                self.hub.metrics.action_refused(e.code)
            raise
        if by_person:
            if self.nobody_since is not None:  # a person playing over HTTP, with no socket, is there too
                self.nobody_since = time.time()
            if stored:
                self.hub.metrics.action_seconds.observe(time.perf_counter() - arrived)
        return stored

    async def _submit(self, seat: int, action: int | list[int], decision: int | None, at: int | None) -> bool:
        actions = action if isinstance(action, list) else [action]
        async with self.lock:
            if self.closed:
                raise Refused("closed", self.hub.closed_message())
            if not self.started:
                waiting = sum(s.kind == "open" for s in self.seats)
                raise Refused("not_started", f"the game starts when every seat is taken ({waiting} still open)")
            if decision is not None and (decision != self.entered[seat] or not self.bot_playing(seat)):
                raise Stale
            if self.live is not None:
                late = self.live.late(seat, actions[-1], at)
                if late is not None:
                    self.notice(f"{seat_name(seat)} {self.game.live_race_words} too late")
                    raise Refused("late", late)
                if len(actions) == 1 and self.live.holds(seat, actions[0]):
                    self.live.hold(seat, actions[0])
                    return False
            if decision is None:  # a person's: a lone step of a multi-step choice is a draft, kept unstored
                if len(actions) == 1 and self._is_draft_step(seat, actions[0]):
                    self._add_to_draft(seat, actions[0])
                    return False
                actions = self._complete_draft(seat, actions)
            candidate = self.state.clone()
            self._play_steps(candidate, seat, actions, confirm_last=True)
            step, version = (self.live.step if self.live is not None else None), self.version
            await self._commit(candidate, [(seat, a) for a in actions], seat)
            if self.live is not None:
                self.live.played(seat, actions[-1], step, version)
            return True

    # --- drafts: the steps of a person's multi-step choice, kept here until confirmed --------------------
    # A step sent alone is played on a copy and shown to the seat only; the confirmation stores the steps and
    # itself together. A step that brings the draft back to where it stood before drops the steps between, so
    # moving a card back and forth never grows the record.
    def _is_draft_step(self, seat: int, action: int) -> bool:
        decision = self.state.decision(seat) if self.started and not self.state.is_over() else None
        return decision is not None and decision.multi and action != decision.confirm

    def _draft(self, seat: int) -> Draft | None:
        """The seat's draft if it was made for its current decision."""
        draft = self.drafts.get(seat)
        if draft is not None and draft.entered != self.entered[seat]:
            del self.drafts[seat]
            return None
        return draft

    def _add_to_draft(self, seat: int, action: int) -> None:
        draft = self._draft(seat) or Draft(self.entered[seat], [], [draft_mark(self.state, seat)])
        candidate = self._play_draft(seat, draft.steps)
        self._play_steps(candidate, seat, [action], confirm_last=False)
        mark = draft_mark(candidate, seat)
        if mark in draft.marks:  # back where the draft stood after `back` steps
            back = draft.marks.index(mark)
            steps, marks = draft.steps[:back], draft.marks[:back + 1]
        else:
            steps, marks = [*draft.steps, action], [*draft.marks, mark]
        if len(steps) > MAX_DRAFT:
            raise Refused("bad_message", f"a draft holds at most {MAX_DRAFT} steps: confirm it, or take steps "
                                         "back")
        if steps:
            self.drafts[seat] = Draft(draft.entered, steps, marks)
        else:
            self.drafts.pop(seat, None)
        self.send_to_seat(seat)

    def _play_draft(self, seat: int, steps: list[int]) -> State:
        """A copy of the table's state with the seat's draft steps played on it."""
        candidate = self.state.clone()
        self._play_steps(candidate, seat, steps, confirm_last=False)
        return candidate

    def _complete_draft(self, seat: int, actions: list[int]) -> list[int]:
        """The steps to play for a person's move: its draft and the confirmation sent alone, or what was sent."""
        draft = self._draft(seat)
        self.drafts.pop(seat, None)
        if draft is None or len(actions) != 1:
            return actions  # steps sent together replace any draft
        return [*draft.steps, *actions]

    def drafted_state(self, seat: int | None) -> tuple[State, list[int] | None]:
        """The state as `seat` sees it now: with its draft played on a copy, if it has one."""
        draft = self._draft(seat) if seat is not None else None
        if draft is None:
            return self.state, None
        try:
            return self._play_draft(seat, draft.steps), list(draft.steps)
        except Refused:  # another seat's move ended what the draft was for (it goes at the next update at once)
            del self.drafts[seat]
            return self.state, None

    async def play_together(self, moves: list[tuple[int, int]], still: Callable[[], bool]) -> None:
        """Play the held choices of a live step, in the order they were made (checked, stored, broadcast), if
        `still()` says the step is still the one they were made in once the table is free."""
        async with self.lock:
            if not still():
                return
            candidate = self.state.clone()
            for seat, action in moves:
                try:
                    candidate.apply(seat, action)
                except IllegalAction as e:
                    raise Refused("illegal", str(e)) from None
            await self._commit(candidate, moves, None)

    async def _commit(self, candidate: State, moves: list[tuple[int, int]], actor: int | None) -> None:
        """Store the moves that led to `candidate`, then make it the table's state (the lock is held)."""
        result = candidate.result() if candidate.is_over() else None
        first = self.version + 1
        stored = asyncio.ensure_future(self.hub.store.append_moves(self.id, first, moves, result))
        # Once the commit has started, whatever cancels the caller (a live step's time running out, a bot
        # replaced) must not leave a stored move unapplied: the table waits for the store's answer, takes the
        # new state if it was stored, and only then lets the cancellation through (the lock is still held).
        cancelled = await _finish_despite_cancellation(stored)
        if stored.exception() is not None:
            log.error("table %s: storing moves from %d failed: %r", self.id, first, stored.exception())
            self.hub.commit_failed(self)
            if cancelled:
                raise asyncio.CancelledError
            raise Refused("storage", "the move could not be stored; nothing changed, try again")
        before = set(self.state.to_move())
        self.state = candidate
        self.hub.metrics.moves.inc(len(moves))
        self._after_change(before, actor)
        if cancelled:
            raise asyncio.CancelledError

    def notice(self, text: str) -> None:
        """A line every client at the table sees at once (a late tap at the gong)."""
        for client in list(self.clients):
            client.send(Notice(text=text))

    async def hint(self, seat: int) -> tuple[int, int, list[int]]:
        """The move the table's bot would make for the seat now (with its draft, if it is building one), deciding
        as it does when it plays the seat: from the seat's own information alone (a hint, at a table that gives
        them); and the move count and draft it is for. Asked again at the same point, the same answer, at no
        cost."""
        if not self.settings.get("hints", False):
            raise Refused("no_hints", "this table gives no hints (a table setting, never on at a rated table)")
        if not self.started:
            raise Refused("not_started", "the game has not started")
        if self.state.is_over():
            raise Refused("over", "the game is over")
        state, draft = self.drafted_state(seat)
        if not state.legal_actions(seat):
            raise Refused("not_your_move", "you have no decision to make now")
        point = (self.version, list(draft or ()))
        known = self.hints_given.get(seat)
        if known is not None and known[0] == point:
            return known[1], *point
        if seat in self.hinting:  # one at a time: a searching bot's hint can take seconds of a worker
            raise Refused("slow_down", "a hint for your seat is already being worked out")
        spec = self.settings["bot"]
        # A seed of its own: the hint's chances owe nothing to the deal's seed.
        bot = make_bot(spec, seed=secrets.randbits(31))
        self.hinting.add(seat)
        try:
            action, _ = await self.hub.bots.decide(bot, state.clone(), seat, self.id)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: the hint for seat %d failed", self.id, seat)
            raise Refused("no_hint", "the table's bot could not work out a hint; play on, or ask again") from None
        finally:
            self.hinting.discard(seat)
        self.hints_given[seat] = (point, action)
        return action, *point

    def say(self, seat: int, text: str) -> None:
        """A chat line from a seated person, shown to everybody at the table (spectators too)."""
        if not self.settings.get("chat", True):
            raise Refused("no_chat", "this table has no chat")
        text = " ".join(text.split())
        if not text or len(text) > MAX_CHAT:
            raise Refused("bad_message", f"a chat line has 1 to {MAX_CHAT} characters")
        line = Said(seat=seat, name=self.seats[seat].name or seat_name(seat), text=text)
        self.chat.append(line)
        for client in list(self.clients):
            client.send(line)

    def _after_change(self, before: set[int], actor: int | None) -> None:
        self._collect_events()
        self._track_decisions(before, actor)
        if self.state.is_over():
            self._finish()
        elif self.live is not None:
            self.live.on_change()
        else:
            self._schedule_bots()
        self.broadcast()

    def _track_decisions(self, before: set[int], actor: int | None) -> None:
        """Note which seats face a new decision, and start their clocks."""
        now = self.version
        loop = asyncio.get_running_loop()
        movers = self.state.to_move()
        for seat in movers:
            legal = tuple(self.state.legal_actions(seat))
            if seat in before and seat != actor and legal == self.decision_legal[seat]:
                continue  # still the same decision (others acted at a simultaneous step)
            self.entered[seat] = now
            self.decision_legal[seat] = legal
            self._start_clock(seat, loop)
        for seat in list(self.deadlines):
            if seat not in movers:
                self._stop_clock(seat)

    def _start_clock(self, seat: int, loop: asyncio.AbstractEventLoop) -> None:
        self._stop_clock(seat)
        limit = self.settings.get("clock_seconds")
        if limit and self.seats[seat].kind == "person" and self.live is None:
            self.deadlines[seat] = loop.time() + float(limit)
            self.clock_timers[seat] = loop.call_later(float(limit), self._time_up, seat, self.entered[seat])

    def _stop_clock(self, seat: int) -> None:
        self.deadlines.pop(seat, None)
        timer = self.clock_timers.pop(seat, None)
        if timer is not None:
            timer.cancel()

    def _time_up(self, seat: int, decision: int) -> None:
        self.clock_timers.pop(seat, None)
        self.deadlines.pop(seat, None)
        if self.entered[seat] == decision and seat in self.state.to_move():
            self.out_of_time[seat] = decision
            self._schedule_bots()
            self.broadcast()

    def _finish(self) -> None:
        if self.live is not None:
            self.live.stop()
        for seat in list(self.deadlines):
            self._stop_clock(seat)
        for seat in self.seats:
            if seat.away_timer is not None:
                seat.away_timer.cancel()
                seat.away_timer = None
        self.bots.clear()
        self.hub.table_finished(self)  # in memory while it is read or watched; rated if rated

    # --- bots ----------------------------------------------------------------------------------------
    def bot_spec(self, seat: int) -> str:
        s = self.seats[seat]
        return s.bot if s.kind == "bot" else self.settings["bot"]

    def _schedule_bots(self) -> None:
        if not self.started or self.state.is_over() or self.stopped:
            return
        if self.live is not None:
            self.live.schedule_bots()
            return
        for seat in self.state.to_move():
            if seat not in self.thinking and self.bot_playing(seat):
                self.thinking[seat] = asyncio.create_task(self._think(seat, self.entered[seat]))

    async def bot_decides(self, seat: int, salt: int) -> int:
        """The action the seat's bot chooses in the current state (the bot keeps what it remembers)."""
        spec = self.bot_spec(seat)
        bot = self.bots.get((seat, spec)) or make_bot(spec, seed=bot_seed(self.seed, seat, spec))
        try:
            asked = time.perf_counter()
            action, self.bots[(seat, spec)] = await self.hub.bots.decide(bot, self.state.clone(), seat, self.id)
            self.hub.metrics.bot_seconds.observe(time.perf_counter() - asked)
        except Exception:
            if self.stopped or self.hub.bots.closed:
                raise  # the server is stopping (its workers may be gone with it): no move for the record
            # A bot that fails must not stall the table: any legal action keeps the game going.
            log.exception("table %s: bot %s failed for seat %d", self.id, spec, seat)
            action = random.Random(salt).choice(self.state.legal_actions(seat))
        return action

    async def _think(self, seat: int, decision: int) -> None:
        try:
            pause = float(self.settings.get("bot_pause", 0))
            if pause:
                await asyncio.sleep(pause)
            if decision != self.entered[seat] or not self.bot_playing(seat):
                return
            action = await self.bot_decides(seat, decision)
            await self.submit(seat, action, decision)
        except (Stale, Refused):
            pass
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: bot move for seat %d failed", self.id, seat)
        finally:
            if self.thinking.get(seat) is asyncio.current_task():
                del self.thinking[seat]
                self._schedule_bots()

    def expire(self) -> None:
        """Nobody joined in time: tell whoever waits at the table, and close their sockets."""
        self.expired = True
        for client in list(self.clients):
            client.send(Error(code="expired", message="this table expired: nobody joined it in time; create a new one"))
        self.stop()

    def stop(self) -> None:
        """Cancel the table's timers and thinking bots, and close its sockets (the server is stopping)."""
        self.stop_driving()
        for client in list(self.clients):
            client.close()

    def stop_driving(self) -> None:
        """Cancel the table's timers and thinking bots (the server is stopping, or the table moves to another
        process)."""
        self.stopped = True
        if self.live is not None:
            self.live.stop()
        for task in self.thinking.values():
            task.cancel()
        for seat in list(self.deadlines):
            self._stop_clock(seat)
        for seat in self.seats:
            if seat.away_timer is not None:
                seat.away_timer.cancel()


async def _finish_despite_cancellation(job: asyncio.Future) -> bool:
    """Wait until `job` is done even if the waiting task is cancelled meanwhile; True if it was."""
    cancelled = False
    while not job.done():
        try:
            await asyncio.wait({job})  # returns when the job is done, whether it failed or not
        except asyncio.CancelledError:
            cancelled = True
    return cancelled


def seats_from_request(requests: list[Any], players: int,
                       account: tuple[int, str] | None = None) -> tuple[list[Seat], list[tuple[int, str]]]:
    """The seats of a new table from its request, and a (seat, token) for each person seated now; a person's seat
    without a name is the creating `account`'s (id, name)."""
    seats, tokens = [], []
    for i, wanted in enumerate(requests):
        if wanted.kind == "person":
            token = new_token()
            seat = Seat(i, "open")
            if wanted.name is None and account is not None:
                seat.take(account[1], token, account[0])
            else:
                seat.take(wanted.name, token, None)
            seats.append(seat)
            tokens.append((i, token))
        elif wanted.kind == "bot":
            seats.append(Seat(i, "bot", bot=wanted.bot))
        else:
            seats.append(Seat(i, "open"))
    return seats, tokens

