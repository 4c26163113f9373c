"""The real-time layer of a live table, for games that people play against the clock (`State.live_step`).

The game's engine still decides every rule; this layer only decides *when* actions reach it:
- a held step (a pass of cards, say): each seat's choice is kept here, unseen by the others, until every seat has
  chosen (or its time ran out and its bot chose); then a count ("3, 2, 1, go!") and the choices are played
  together, in the order they were made;
- a step that is not held (gestures, say): each action is played the moment it arrives; when the step's time runs
  out, the seats that did nothing play the step's default;
- instant actions (the gong) are played the moment they arrive, in any step; the first one wins, and a tap that
  arrives after it is told it came too late;
- bots act in real time: they choose, then wait a human reaction time before they tap the gong or gesture.
The table's record is the order in which actions were played, so a live game replays exactly.
"""

from __future__ import annotations

import asyncio
import logging
import random
from typing import TYPE_CHECKING, Any

from ..core import LiveStep, LiveTiming, seat_name

if TYPE_CHECKING:
    from .tables import Table

log = logging.getLogger("ninjatable.server")


class Live:
    """One live table's timing: held choices, the count, the step's time limit, bots' reactions, late taps."""

    def __init__(self, table: Table) -> None:
        self.table = table
        settings = table.settings
        # The game's kinds of steps, with the seconds this table gives each (settings.timings, set at creation).
        declared = table.game.live_timings
        seconds = settings.get("timings") or {}
        self.timings = {t.name: t._replace(seconds=float(seconds.get(t.name, t.seconds))) for t in declared}
        self.count_seconds = float(settings["countdown_seconds"])
        self.reaction = (float(settings["reaction_min"]), float(settings["reaction_max"]))
        self.rng = random.Random(table.seed)
        self.step_id: int | None = None  # the move count at which the current step began
        self.step_entered: int | None = None  # the earliest decision of the step's movers (see Table.entered)
        self.step: LiveStep | None = None
        self.held: dict[int, int] = {}  # seat: its held choice, in the order they were made
        self.timed_out: set[int] = set()  # people whose time ran out in this step (their bot chose for them)
        self.step_ends: float | None = None
        self.count_ends: float | None = None
        self.timers: list[asyncio.TimerHandle] = []
        self.tasks: set[asyncio.Task] = set()
        # The last instant action played: (the move count before it, seat, the step's instant actions).
        self.last_call: tuple[int, int, frozenset[int]] | None = None

    # --- what the seats see ------------------------------------------------------------------------------
    def public_for(self, seat: int | None) -> dict[str, Any] | None:
        """The live state as `seat` may see it: who has chosen (not what), its own held choice, the count."""
        if self.step is None:
            return None
        now = asyncio.get_running_loop().time()
        mine = self.held.get(seat) if seat is not None else None
        return {
            "held": self.step.held,
            "chosen": sorted(self.held),
            "timed_out": sorted(self.timed_out),
            "mine": None if mine is None else {"id": mine, "label": self.table.state.action_label(mine)},
            "instant": sorted(self.step.instant),
            "count": None if self.count_ends is None else round(max(0.0, self.count_ends - now), 1),
            "ends": None if self.step_ends is None else round(max(0.0, self.step_ends - now), 1),
            "timing": self.timing.name, "clock": self.timing.clock, "count_word": self.timing.count_word,
        }

    @property
    def timing(self) -> LiveTiming:
        """How the current step is timed: the game's kind of step it names (the first declared if it names none)."""
        return self.timings.get(self.step.timing) or next(iter(self.timings.values()))

    # --- steps -------------------------------------------------------------------------------------------
    def on_change(self) -> None:
        """After every change of the table: start a new step's clock and bots, or go on with the current one."""
        state = self.table.state
        movers = state.to_move()
        if state.is_over() or not movers:
            self.stop()
            self.step = None
            return
        entered = min(self.table.entered[s] for s in movers)
        # A held step changes nothing until its count, so any move during it (a call at the gong) ends it, even
        # when the next step offers every seat the same choices and so leaves their decisions where they were.
        moved = self.step is not None and self.step.held and self.table.version != self.step_id
        if entered == self.step_entered and not moved:
            self.schedule_bots()  # a seat may have been taken over since
            return
        self.stop()
        step_id = self.table.version
        self.step_id, self.step_entered, self.step, self.held = step_id, entered, state.live_step(), {}
        self.timed_out = set()
        if self.step is None:
            return
        limit = self.timing.seconds
        loop = asyncio.get_running_loop()
        self.step_ends = loop.time() + limit
        self.timers.append(loop.call_later(limit, self._time_up, step_id))
        self.schedule_bots()

    def schedule_bots(self) -> None:
        if self.table.stopped:
            return
        for seat in self.table.state.to_move():
            if self.table.bot_playing(seat) and seat not in self.held and seat not in self.table.thinking:
                self._spawn(seat, self._bot_turn(seat, self.step_id), thinking=True)

    def stop(self) -> None:
        """Cancel the step's timers and waiting bots (the step ended, or the table stops)."""
        for timer in self.timers:
            timer.cancel()
        self.timers.clear()
        current = asyncio.current_task()
        for task in list(self.tasks):
            if task is not current:
                task.cancel()
        thinking = self.table.thinking
        for seat, task in list(thinking.items()):
            if task in self.tasks:  # cancelled, or the task that ended the step: it decides no more here
                del thinking[seat]
        self.step_ends = self.count_ends = None

    def _spawn(self, seat: int, coro, thinking: bool = False) -> None:
        task = asyncio.create_task(coro)
        self.tasks.add(task)
        if thinking:
            self.table.thinking[seat] = task

        def done(t: asyncio.Task) -> None:
            self.tasks.discard(t)
            if self.table.thinking.get(seat) is t:
                del self.table.thinking[seat]
                if not self.table.state.is_over():
                    self.schedule_bots()

        task.add_done_callback(done)

    # --- held choices and the count ----------------------------------------------------------------------
    def holds(self, seat: int, action: int) -> bool:
        """Whether this action is kept for the count rather than played now."""
        return self.step is not None and self.step.held and action not in self.step.instant

    def hold(self, seat: int, action: int) -> None:
        """Keep `seat`'s choice (a new choice replaces the old one until the count ends)."""
        from .tables import Refused

        state = self.table.state
        if seat not in state.to_move() or action not in state.legal_actions(seat):
            allowed = ", ".join(state.action_label(a) for a in state.legal_actions(seat)) or "nothing now"
            what = state.action_label(action) if 0 <= action < state.game.num_actions(state.players) else action
            raise Refused("illegal", f"{what} is not allowed now; {seat_name(seat)} may play: {allowed}")
        changed = seat in self.held
        if changed and self.held[seat] == action:
            return
        self.held.pop(seat, None)
        self.held[seat] = action
        if changed:  # the others see only who has chosen, which is as it was
            self.table.send_to_seat(seat)
            return
        if self.count_ends is None and all(s in self.held for s in state.to_move()):
            self._start_count()
        self.table.broadcast()

    def _start_count(self) -> None:
        loop = asyncio.get_running_loop()
        self.count_ends = loop.time() + self.count_seconds
        self.timers.append(loop.call_later(self.count_seconds, self._count_done, self.step_id))

    def _count_done(self, step_id: int) -> None:
        if step_id == self.step_id:
            self._spawn(-1, self._play_held(step_id))

    async def _play_held(self, step_id: int) -> None:
        from .tables import Refused

        if step_id != self.step_id:
            return
        moves = list(self.held.items())
        try:
            await self.table.play_together(moves, lambda: step_id == self.step_id)
        except Refused as e:  # cannot happen unless the state moved on; the next step starts afresh
            log.warning("table %s: held choices refused: %s", self.table.id, e.message)

    def _time_up(self, step_id: int) -> None:
        """The step's time ran out: bots choose for the seats that did not (held), or they play the default."""
        if step_id != self.step_id or self.step is None:
            return
        self.step_ends = None
        for seat in self.table.state.to_move():
            if seat in self.held:
                continue
            if self.step.held or self.step.default is None:
                if self.table.seats[seat].kind == "person":
                    self.timed_out.add(seat)
                waiting = self.table.thinking.pop(seat, None)
                if waiting is not None:
                    waiting.cancel()
                self._spawn(seat, self._bot_turn(seat, step_id, forced=True), thinking=True)
            else:
                self._spawn(seat, self._play_default(seat, step_id))
        if self.timed_out:
            names = ", ".join(seat_name(s) for s in sorted(self.timed_out))
            self.table.notice(f"Time is up: the bot chooses for {names}")
        self.table.broadcast()

    async def _play_default(self, seat: int, step_id: int) -> None:
        from .tables import Refused

        if step_id == self.step_id and self.step is not None and self.step.default is not None:
            try:
                await self.table.submit(seat, [self.step.default])
            except Refused:
                pass

    # --- bots in real time -------------------------------------------------------------------------------
    async def _bot_turn(self, seat: int, step_id: int, forced: bool = False) -> None:
        """A bot (or a person's seat whose time ran out) chooses, then acts after a human reaction time."""
        from .tables import Refused, Stale

        table = self.table
        action = await table.bot_decides(seat, step_id)
        if step_id != self.step_id:
            return
        step = self.step
        if step is not None and step.held and action not in step.instant:
            if not forced:
                await asyncio.sleep(self.rng.uniform(*self.reaction) / 2)
            if step_id == self.step_id and seat not in self.held:
                try:
                    self.hold(seat, action)
                except Refused:
                    pass
            return
        if not forced:
            await asyncio.sleep(self.rng.uniform(*self.reaction))
        if step_id != self.step_id:
            return
        try:
            await table.submit(seat, [action])
        except (Refused, Stale):
            pass

    # --- the race of instant actions ----------------------------------------------------------------------------
    def played(self, seat: int, action: int, step: LiveStep | None, version: int) -> None:
        """Note an instant action that was played (the winner of a race) as the move after `version`."""
        if step is not None and action in step.instant:
            self.last_call = (version, seat, step.instant)

    def late(self, seat: int, action: int, at: int | None) -> str | None:
        """If `action`, chosen when the table stood at move `at`, is a tap that lost the race to a call the
        seat had not yet seen, say so."""
        if self.last_call is None or at is None:
            return None
        version, caller, instant = self.last_call
        if action not in instant or caller == seat or at > version:
            return None
        label = self.table.state.action_label(action)
        return f"too late: {seat_name(caller)} {self.table.game.live_race_words} first (your {label} was not played)"
