"""What one server process counts for Prometheus (`GET /metrics`), in a registry of its own.

Counts only: no label or value names a table, a person or a token, so the figures may be shown to whoever
monitors the server. Counters move as things happen (moves stored, actions refused); the figures that are a state
(tables by status, sockets, bot decisions waiting, analyses in the making) are read at each scrape.
"""

from __future__ import annotations

from collections.abc import Iterator
from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Histogram,
    Info,
    PlatformCollector,
    ProcessCollector,
    disable_created_metrics,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from .protocol import PROTOCOL

if TYPE_CHECKING:
    from .analyses import Analyses
    from .botpool import BotPool
    from .hub import Hub

# Seconds. A person's action usually turns into an update within milliseconds (its commit included); a bot's
# decision takes from a millisecond (heuristic) to the table's budget (ismcts:ms=..., at most 10 s by default).
ACTION_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
BOT_BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
STATUSES = ("waiting", "playing", "finished")
CONTENT_TYPE = CONTENT_TYPE_LATEST

# A `_created` timestamp beside every counter and histogram doubles the text for nothing Prometheus uses.
disable_created_metrics()


class Metrics:
    """The counters, histograms and read-at-scrape figures of one application (tests make many of them)."""

    def __init__(self) -> None:
        self.registry = registry = CollectorRegistry()
        self.moves = Counter("ninjatable_moves", "Moves stored: every accepted action, a person's or a bot's",
                             registry=registry)
        self.refused = Counter("ninjatable_actions_refused", "A person's actions the table refused, by the code "
                               "of the refusal (illegal, late, over, slow_down, ...)", ["code"], registry=registry)
        self.action_seconds = Histogram(
            "ninjatable_action_update_seconds", "From a person's action reaching its table to the update it made "
            "being queued for every client of the table (its commit included)", buckets=ACTION_BUCKETS,
            registry=registry)
        self.bot_seconds = Histogram(
            "ninjatable_bot_decision_seconds", "From a table asking the bot workers for a decision to the answer: "
            "waiting for a worker and thinking", buckets=BOT_BUCKETS, registry=registry)
        self.tables_created = Counter("ninjatable_tables_created", "Tables created (rematches too)",
                                      registry=registry)
        self.abandoned = Counter("ninjatable_tables_abandoned", "Games nobody was connected to for "
                                 "abandoned_minutes, by what became of them (finish: left to their bots; close)",
                                 ["then"], registry=registry)
        self.takeovers = Counter("ninjatable_lease_takeovers", "Tables in play this process took over from a process "
                                 "of the cluster that stopped driving them (died, stopped or too slow to renew its "
                                 "lease)", registry=registry)
        Info("ninjatable", "The server's version and the version of its table protocol",
             registry=registry).info({"version": package_version(), "protocol": str(PROTOCOL)})
        ProcessCollector(registry=registry)  # CPU time, memory, open files of this process
        PlatformCollector(registry=registry)  # the Python running it

    def watch(self, hub: Hub, pool: BotPool, analyses: Analyses) -> None:
        """Read the figures that are a state from these, at each scrape."""
        self.registry.register(Figures(hub, pool, analyses))

    def action_refused(self, code: str) -> None:
        self.refused.labels(code=code).inc()

    def text(self) -> bytes:
        """Every metric in Prometheus' text format."""
        return generate_latest(self.registry)


class Figures(Collector):
    """The state of the server as gauges, read when scraped: tables by status, sockets, bot decisions waiting and
    being decided, analyses in the making."""

    def __init__(self, hub: Hub, pool: BotPool, analyses: Analyses) -> None:
        self.hub = hub
        self.pool = pool
        self.analyses = analyses

    def collect(self) -> Iterator[Metric]:
        tables = GaugeMetricFamily("ninjatable_tables", "Tables in this process's memory, by status (finished ones "
                                   "while read or watched, up to finished_kept)", labels=["status"])
        counts = dict.fromkeys(STATUSES, 0)
        for table in list(self.hub.tables.values()):
            counts[table.status] += 1
        for status, count in counts.items():
            tables.add_metric([status], count)
        yield tables
        yield GaugeMetricFamily("ninjatable_sockets", "Open WebSocket connections (players and spectators)",
                                value=sum(self.hub.sockets_by_address.values()))
        waiting = sum(len(queue) for line in (self.pool.fresh, self.pool.served) for queue in line.values())
        yield GaugeMetricFamily("ninjatable_bot_decisions_waiting", "Bot decisions waiting for a worker",
                                value=waiting)
        yield GaugeMetricFamily("ninjatable_bot_work_running", "Bot decisions and analysis steps in the workers' "
                                "hands (at most two a worker)", value=self.pool.running)
        yield GaugeMetricFamily("ninjatable_analyses_making", "Post-game analyses in the making",
                                value=len(self.analyses.making))


def package_version() -> str:
    try:
        return version("ninjatable")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown"
