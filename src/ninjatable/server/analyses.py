"""Post-game analyses on the site: asked for under a finished game, weighed decision by decision in the bot pool's
spare workers (never ahead of a bot's decision: see BotPool.background), stored once done and then served from
the store. Only a finished game is analysed: during play the analysis would tell the players' secrets."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from ..analysis import WORLDS, Plan, plan
from ..core import Record
from .botpool import BotPool
from .config import Limits
from .security import RateLimits
from .store import Store
from .tables import Refused

log = logging.getLogger("ninjatable.server")

SEED = 0  # the site's analyses all use one seed: the same game always gets the same analysis


@dataclass
class Progress:
    """An analysis being made: decisions weighed so far of how many."""

    address: str = ""  # who asked (their address group)
    of: int = 0
    done: int = 0
    task: asyncio.Task | None = field(default=None, repr=False)


class Analyses:
    """The analyses of one server: at most `limits.analyses_at_once` in the making, each table's made once."""

    def __init__(self, store: Store, pool: BotPool, limits: Limits) -> None:
        self.store = store
        self.pool = pool
        self.limits = limits
        self.making: dict[str, Progress] = {}
        self.asked_by = RateLimits(limits.analyses_per_hour / 3600, limits.analyses_burst)

    async def status(self, table_id: str) -> dict[str, Any]:
        """{"status": "none" | "waiting" | "running" | "done", "done": n, "of": m, "analysis": the analysis or
        None}: "waiting" until its first decision is weighed."""
        progress = self.making.get(table_id)
        if progress is not None:
            state = "running" if progress.done else "waiting"
            return {"status": state, "done": progress.done, "of": progress.of, "analysis": None}
        stored = await self.store.analysis(table_id)
        if stored is None:
            return {"status": "none", "done": 0, "of": 0, "analysis": None}
        count = len(stored["decisions"])
        return {"status": "done", "done": count, "of": count, "analysis": stored}

    async def ask(self, table_id: str, record: Record, address: str) -> dict[str, Any]:
        """Start the analysis of a finished table's game unless it is made or in the making; its status."""
        stored = table_id not in self.making and await self.store.analysis(table_id) is not None
        if not stored and table_id not in self.making:  # (asked again meanwhile: that ask makes it)
            self._reserve(table_id, address)  # before any other await: two asks at once make one analysis
            try:
                work = await asyncio.to_thread(plan, record, None, WORLDS, None, SEED)
            except BaseException:
                del self.making[table_id]
                raise
            progress = self.making[table_id]
            progress.of = len(work.indexes)
            progress.task = asyncio.create_task(self._make(table_id, work, progress))
        return await self.status(table_id)

    def _reserve(self, table_id: str, address: str) -> None:
        """Count a new analysis in the making, or refuse it if the server or the address has as many as it may."""
        if len(self.making) >= self.limits.analyses_at_once:
            raise Refused("busy", f"{len(self.making)} analyses are being made, as many as this server makes at "
                                  "once; ask again in a few minutes")
        mine = sum(p.address == address for p in self.making.values())
        if mine >= self.limits.analyses_per_address:
            raise Refused("busy", f"{mine} analyses you asked for are being made, as many as one address may have "
                                  "at once; ask again once they are done")
        if not self.asked_by(address).allow():
            raise Refused("slow_down", f"too many analyses asked from your address: at most "
                                       f"{self.limits.analyses_per_hour:g} an hour; try again later")
        self.making[table_id] = Progress(address=address)

    async def _make(self, table_id: str, work: Plan, progress: Progress) -> None:
        """Weigh every decision in the pool's spare workers (as many at once as it has), then store the analysis;
        if one decision fails, the others are withdrawn."""

        async def weigh(index: int) -> Any:
            decision = await self.pool.background(partial(work.weigh, index))
            progress.done += 1
            return decision

        try:
            async with asyncio.TaskGroup() as group:
                pieces = [group.create_task(weigh(i)) for i in work.indexes]
            decisions = [piece.result() for piece in pieces]
            await self.store.save_analysis(table_id, work.worlds, work.seed, work.analysis(decisions).to_dict())
        except asyncio.CancelledError:
            raise
        except Exception:  # a worker died or the store failed: the analysis may be asked for again
            log.exception("the analysis of table %s failed", table_id)
        finally:
            if self.making.get(table_id) is progress:
                del self.making[table_id]

    def stop(self) -> None:
        """Drop the analyses in the making (the server is stopping; they may be asked for again after)."""
        for progress in self.making.values():
            if progress.task is not None:
                progress.task.cancel()
