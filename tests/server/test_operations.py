"""What an operator of a public server relies on: the health and readiness probes, the metrics (and what they do not
tell), JSON logs, and games everybody left, finished by their bots or closed."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import time

import httpx
import pytest
import sqlalchemy as sa
from live import SocketClient, play_randomly, run_async
from prometheus_client.parser import text_string_to_metric_families
from typer.testing import CliRunner

from ninjatable.cli import app as command
from ninjatable.server import create_app, health
from ninjatable.server.botpool import BotPool
from ninjatable.server.config import Limits, Operation
from ninjatable.server.hub import Hub
from ninjatable.server.logs import JsonLines, QuietProbes, log_config
from ninjatable.server.protocol import CreateTable
from ninjatable.server.store import Store
from ninjatable.server.store import tables as stored_tables
from ninjatable.server.tables import Client

LEFT_ALONE = {"grace_seconds": 3600, "bot_pause": 0}  # no takeover within the test: only the abandoned rule acts


def figures(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a scrape, by name and labels."""
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# --- probes ------------------------------------------------------------------------------------------------------
def test_health_answers_without_the_database_and_readiness_names_what_failed(server):
    store = server.hub.store
    with server.http() as http:
        assert http.get("/healthz").json() == {"status": "ok"}
        ready = http.get("/readyz")
        assert ready.status_code == 200 and ready.json() == {"status": "ok", "checks": ["database"]}
        working, store.engine = store.engine, sa.create_engine("sqlite:////no-such-folder/secret-name.db")
        try:
            broken = http.get("/readyz")
            alive = http.get("/healthz")
        finally:
            store.engine.dispose()
            store.engine = working
        again = http.get("/readyz")
    assert broken.status_code == 503 and broken.json()["status"] == "unavailable"
    assert broken.json()["error"].startswith("database: did not answer (OperationalError")
    assert "secret-name" not in broken.text  # the details are for the server's log, not for whoever asks
    assert alive.status_code == 200 and again.status_code == 200


def test_a_service_that_hangs_is_asked_once_however_many_probes_come(monkeypatch):
    monkeypatch.setattr(health, "CHECK_SECONDS", 0.1)
    asked = []

    async def hangs() -> None:
        asked.append(1)
        await asyncio.sleep(10)

    async def scenario():
        readiness = health.Readiness({"redis": hangs})
        answers = await asyncio.gather(*(readiness.failure() for _ in range(5)))
        answers.append(await readiness.failure())
        return answers

    answers = run_async(scenario(), timeout=30)
    assert answers == ["redis: no answer within 0.1 s"] * 6
    assert len(asked) == 1


# --- metrics -------------------------------------------------------------------------------------------------------
def test_the_metrics_count_a_short_game_and_tell_no_table_name_or_token(server):
    seats = [{"kind": "person", "name": "Annabel"}] + [{"kind": "bot", "bot": "random"}] * 2
    created = server.create(game="oboro", seats=seats, seed=5, settings={"bot_pause": 0})
    table_id, token = created["table"]["id"], created["tokens"][0]["token"]

    async def scenario():
        async with SocketClient(server, table_id, token) as ann:
            await ann.wait_for(lambda m: m["type"] == "update" and m["legal"])
            await ann.act(10_000)  # no such action: refused
            await ann.wait_for(lambda m: m["type"] == "error")
            version = await play_randomly(ann, seed=2)
            mine = sum(1 for m in ann.updates() if m["legal"])
            with server.http() as http:
                scrape = http.get("/metrics")
            return version, mine, scrape

    version, mine, scrape = run_async(scenario())
    assert scrape.status_code == 200 and scrape.headers["content-type"].startswith("text/plain")
    seen = figures(scrape.text)
    assert seen[("ninjatable_moves_total", ())] == version
    assert seen[("ninjatable_actions_refused_total", (("code", "illegal"),))] == 1
    assert 0 < seen[("ninjatable_action_update_seconds_count", ())] <= mine
    assert seen[("ninjatable_bot_decision_seconds_count", ())] > 0
    assert seen[("ninjatable_tables", (("status", "finished"),))] == 1
    assert seen[("ninjatable_tables", (("status", "playing"),))] == 0
    assert seen[("ninjatable_tables_created_total", ())] == 1
    assert seen[("ninjatable_sockets", ())] == 1  # Annabel's, still open when scraped
    assert seen[("ninjatable_bot_decisions_waiting", ())] == 0
    assert seen[("ninjatable_analyses_making", ())] == 0
    assert seen[("ninjatable_info", (("protocol", "1"), ("version", "0.1.0")))] == 1
    for secret in (table_id, "Annabel", token):
        assert secret not in scrape.text


def test_every_app_counts_in_a_registry_of_its_own(tmp_path):
    first = create_app(f"sqlite:///{tmp_path / 'a.db'}", bot_kind="thread", bot_workers=1)
    second = create_app(f"sqlite:///{tmp_path / 'b.db'}", bot_kind="thread", bot_workers=1)
    first.state.metrics.moves.inc(3)
    assert figures(second.state.metrics.text().decode())[("ninjatable_moves_total", ())] == 0


def ask(tmp_path, operation: Operation, path: str, address: str = "127.0.0.1") -> httpx.Response:
    """GET `path` of the app run as `operation` says, asked from `address` (these routes need no started server)."""
    app = create_app(f"sqlite:///{tmp_path / 'tables.db'}", bot_kind="thread", bot_workers=1, operation=operation)

    async def get() -> httpx.Response:
        transport = httpx.ASGITransport(app=app, client=(address, 40000))
        async with httpx.AsyncClient(transport=transport, base_url="http://tables.example") as http:
            return await http.get(path)

    return run_async(get())


def test_an_operator_may_turn_the_metrics_off(tmp_path):
    assert ask(tmp_path, Operation(metrics=False), "/metrics").status_code == 404
    assert ask(tmp_path, Operation(metrics=False), "/healthz").status_code == 200


def test_an_operator_may_show_the_metrics_to_some_addresses_only(tmp_path):
    only = Operation(metrics_from=("10.0.0.0/8", "192.168.1.7"))
    assert ask(tmp_path, only, "/metrics", "10.2.3.4").status_code == 200
    assert ask(tmp_path, only, "/metrics", "::ffff:10.0.0.9").status_code == 200  # IPv4 on a dual-stack socket
    refused = ask(tmp_path, only, "/metrics", "192.168.1.8")
    assert refused.status_code == 403 and refused.json()["code"] == "not_allowed"
    assert ask(tmp_path, Operation(), "/metrics", "192.168.1.8").status_code == 200  # by default: anyone


def test_the_serve_options_refuse_what_they_do_not_know_saying_what_is_allowed():
    port = str(free_port())
    runner = CliRunner()
    for options, allowed in ((["--abandoned", "keep"], "finish or close"),
                             (["--metrics-from", "the office"], "10.0.0.0/8"),
                             (["--log-level", "loud"], "debug, info, warning, error")):
        result = runner.invoke(command, ["serve", "--port", port, *options])
        assert result.exit_code == 2 and allowed in result.output and "Traceback" not in result.output, options


# --- logs ----------------------------------------------------------------------------------------------------------
def test_a_log_record_is_one_line_of_json_with_its_fields():
    try:
        raise ValueError("the store failed")
    except ValueError:
        record = logging.getLogger("ninjatable.server").makeRecord(
            "ninjatable.server", logging.ERROR, __file__, 1, "table %s: storing\nmoves failed", ("t1",),
            sys.exc_info(), extra={"table": "t1"})
    line = JsonLines().format(record)
    assert "\n" not in line
    parsed = json.loads(line)
    assert parsed["level"] == "error" and parsed["logger"] == "ninjatable.server" and parsed["table"] == "t1"
    assert parsed["message"] == "table t1: storing\nmoves failed" and parsed["time"].endswith("+00:00")
    assert "ValueError: the store failed" in parsed["exception"]
    access = logging.getLogger("uvicorn.access").makeRecord(
        "uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:5000", "GET", "/api/games", "1.1", 200), None)
    fields = json.loads(JsonLines().format(access))
    assert (fields["client"], fields["method"], fields["path"], fields["status"]) == ("127.0.0.1:5000", "GET",
                                                                                      "/api/games", 200)


def test_the_probes_access_lines_are_debug_lines():
    logger = logging.getLogger("uvicorn.access")
    level = logger.level

    def line(path: str) -> logging.LogRecord:
        return logger.makeRecord("uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d',
                                 ("127.0.0.1:5000", "GET", path, "1.1", 200), None)

    try:
        logger.setLevel(logging.INFO)
        assert QuietProbes().filter(line("/api/games"))
        assert not any(QuietProbes().filter(line(p)) for p in ("/healthz", "/readyz?verbose=1", "/metrics"))
        logger.setLevel(logging.DEBUG)
        shown = line("/healthz")
        assert QuietProbes().filter(shown) and shown.levelname == "DEBUG"
    finally:
        logger.setLevel(level)
    assert log_config("info", access=False)["loggers"]["uvicorn.error"]["level"] == "WARNING"


def test_serve_with_log_json_writes_every_stderr_line_as_json(tmp_path):
    port = free_port()
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    server = subprocess.Popen(
        [sys.executable, "-m", "ninjatable.cli", "serve", "--log-json", "--access-log", "--port", str(port),
         "--db", f"sqlite:///{tmp_path / 'tables.db'}", "--bot-workers", "1"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None and time.monotonic() < deadline, "the server did not start"
            try:
                healthy = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1)
                break
            except httpx.TransportError:
                time.sleep(0.1)
        games = httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=5)
    finally:
        server.send_signal(signal.SIGINT)
        _, stderr = server.communicate(timeout=30)
    assert healthy.status_code == 200 and games.status_code == 200
    lines = [json.loads(line) for line in stderr.splitlines()]  # each line is JSON, or this fails
    assert any(line["message"].startswith("ninjatable tables at") for line in lines)
    assert [line["status"] for line in lines if line.get("path") == "/api/games"] == [200]
    assert not [line for line in lines if line.get("path") == "/healthz"]  # a probe is a debug line
    assert all({"time", "level", "logger", "message"} <= line.keys() for line in lines)


# --- abandoned games -----------------------------------------------------------------------------------------------
def people_and_a_bot(*names: str) -> list[dict]:
    return [{"kind": "person", "name": n} for n in names] + [{"kind": "bot", "bot": "random"}]


async def open_hub(db_url: str, abandoned: str, **limits) -> Hub:
    store = Store(db_url)
    await store.open()
    hub = Hub(store, BotPool(1, "thread"), Limits(**limits), abandoned=abandoned)
    await hub.start()
    return hub


async def close_hub(hub: Hub) -> None:
    hub.stop()
    hub.bots.close()
    await hub.store.close()


async def until(condition, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "it did not happen in time"
        await asyncio.sleep(0.02)


def test_a_game_nobody_is_connected_to_is_finished_by_its_bots(sqlite_url):
    async def scenario():
        # An hour to wait: the hub's own sweep sees to nothing within the test, and the test's calls do.
        hub = await open_hub(sqlite_url, "finish")
        try:
            request = CreateTable(game="oboro", seats=people_and_a_bot("Ann", "Bo"), seed=4, settings=LEFT_ALONE)
            left, _ = await hub.create(request)
            watched, _ = await hub.create(request)
            watched.attach(Client(0))  # Ann stays at this one
            seen_to = await hub.see_to_abandoned(time.time() + 1)
            await until(lambda: left.status == "finished")
            again = await hub.see_to_abandoned(time.time() + 1)  # a finished game is seen to no more
            stored = await hub.store.load(left.id)
            return (seen_to, again, stored.status, watched.status, watched.seats[0].taken_over,
                    hub.metrics.abandoned.labels(then="finish")._value.get(), left.id)
        finally:
            await close_hub(hub)

    seen_to, again, stored, watched, taken_over, counted, left_id = run_async(scenario())
    assert seen_to == [left_id] and again == []
    assert stored == "finished"  # whoever comes back reads the result
    assert watched == "playing" and not taken_over  # a person connected: nobody plays in her place
    assert counted == 1


def test_a_rated_game_is_finished_by_its_bots_and_rated_even_where_games_nobody_is_at_are_closed(sqlite_url):
    async def scenario():
        hub = await open_hub(sqlite_url, "close")
        try:
            ann, _ = await hub.accounts.signup("Ann", "correct horse battery", "127.0.0.1")
            rated, _ = await hub.create(CreateTable(
                game="oboro", seats=[{"kind": "person"}] + [{"kind": "bot", "bot": "random"}] * 2, seed=3,
                settings={**LEFT_ALONE, "rated": True}), account=ann)
            unrated, _ = await hub.create(CreateTable(game="oboro", seats=people_and_a_bot("Bo", "Di"), seed=3,
                                                      settings=LEFT_ALONE))
            seen_to = await hub.see_to_abandoned(time.time() + 1)
            await until(lambda: rated.status == "finished" or rated.closed)
            await hub.settled()
            with hub.store.engine.connect() as conn:
                rated_at = conn.execute(sa.select(stored_tables.c.rated_at)
                                        .where(stored_tables.c.id == rated.id)).scalar_one()
            closed = (await hub.store.load(unrated.id)).status
            return seen_to, rated.id, unrated.id, rated_at, closed
        finally:
            await close_hub(hub)

    seen_to, rated_id, unrated_id, rated_at, closed = run_async(scenario())
    assert sorted(seen_to) == sorted([rated_id, unrated_id])
    assert rated_at is not None  # leaving a rated game escapes no rating
    assert closed == "closed"


def test_a_person_who_comes_back_plays_on_and_the_wait_starts_again_when_she_leaves(sqlite_url):
    async def scenario():
        hub = await open_hub(sqlite_url, "finish", abandoned_minutes=60)
        try:
            table, _ = await hub.create(CreateTable(game="oboro", seats=people_and_a_bot("Ann", "Bo"), seed=4,
                                                    settings={**LEFT_ALONE, "bot_pause": 5}))
            before = table.nobody_since
            assert table.deserted_since(time.time() + 1) and not table.deserted_since(before)
            await hub.see_to_abandoned(time.time() + 1)
            left = [s.taken_over for s in table.seats[:2]]
            ann = Client(0)
            table.attach(ann)
            back = (table.seats[0].taken_over, table.nobody_since, table.deserted_since(time.time() + 1))
            table.detach(ann)
            return left, back, table.nobody_since > before, table.deserted_since(time.time() + 1)
        finally:
            await close_hub(hub)

    left, back, restarted, deserted_again = run_async(scenario())
    assert left == [True, True]
    assert back == (False, None, False)
    assert restarted and deserted_again


def sweep_as_if(hub: Hub, minutes_later: float) -> None:
    """Stop the clock the hub's sweep reads at `minutes_later` than now: a game nobody is connected to now has been
    left that long at every sweep from then on, and one left later has not been left at all."""
    moment = time.time() + minutes_later * 60
    hub.clock = lambda: moment


ABANDONED_MINUTES = 0.01  # the sweep comes every 0.06 s; its clock says when a game has been left that long


def closing_server(server_with):
    """A live server closing the games left for ABANDONED_MINUTES (`serve --abandoned close`), whose sweep sees no
    game as left until the test moves its clock on."""
    live = server_with(abandoned_minutes=ABANDONED_MINUTES)
    live.hub.abandoned = "close"
    sweep_as_if(live.hub, 0)
    return live


def test_a_game_nobody_is_connected_to_is_closed_when_the_operator_says_so(server_with):
    live = closing_server(server_with)
    stays = live.create(game="oboro", seats=people_and_a_bot("Cy", "Di"), seed=2, settings=LEFT_ALONE)
    left = live.create(game="oboro", seats=people_and_a_bot("Ann", "Bo"), seed=1, settings=LEFT_ALONE)
    left_id, ann = left["table"]["id"], left["tokens"][0]["token"]

    async def scenario():
        async with SocketClient(live, stays["table"]["id"], stays["tokens"][0]["token"]) as cy:
            await cy.wait_for(lambda m: m["type"] == "update")
            async with SocketClient(live, left_id) as watcher:  # a spectator is nobody's seat
                await watcher.wait_for(lambda m: m["type"] == "welcome")
                sweep_as_if(live.hub, ABANDONED_MINUTES)
                told = await watcher.wait_for(lambda m: m["type"] == "error")
                await asyncio.wait_for(watcher.closed.wait(), 10)
            async with SocketClient(live, left_id, ann) as back:
                refused = await back.wait_for(lambda m: m["type"] == "error")
                await asyncio.wait_for(back.closed.wait(), 10)
            return told, refused, back.ws.close_code, [m["type"] for m in back.messages]

    told, refused, refused_with, ann_got = run_async(scenario())
    with live.http() as http:
        answer = http.get(f"/api/tables/{left_id}")
        lobby = [t["id"] for t in http.get("/api/tables").json()]
        kept = http.get(f"/api/tables/{stays['table']['id']}").json()["table"]["status"]
    rebuilt = [row.id for row in run_async(live.hub.store.unfinished())]
    assert told["code"] == "closed"  # told while watching
    assert refused["code"] == "closed" and refused_with == 4410 and ann_got == ["error"]
    assert "nobody was connected to it for 0.01 minutes" in refused["message"]
    assert answer.status_code == 410 and answer.json()["code"] == "closed"
    assert left_id not in lobby and stays["table"]["id"] in lobby
    assert left_id not in rebuilt and stays["table"]["id"] in rebuilt  # a restart does not bring it back
    assert kept == "playing"


def test_a_person_who_comes_back_while_her_table_is_being_closed_is_refused_not_welcomed(server_with, monkeypatch):
    live = closing_server(server_with)
    left = live.create(game="oboro", seats=people_and_a_bot("Ann", "Bo"), seed=1, settings=LEFT_ALONE)
    left_id, ann = left["table"]["id"], left["tokens"][0]["token"]
    storing, stored = threading.Event(), threading.Event()
    close_tables = live.hub.store.close_tables

    async def slowly(table_ids: list[str]) -> list[str]:
        if left_id in table_ids:  # the store takes its time: Ann says hello meanwhile
            storing.set()
            await asyncio.to_thread(stored.wait, 10)
        return await close_tables(table_ids)

    monkeypatch.setattr(live.hub.store, "close_tables", slowly)

    async def come_back():
        try:
            async with SocketClient(live, left_id, ann) as back:
                first = await back.wait_for(lambda m: True)
                stored.set()
                await asyncio.wait_for(back.closed.wait(), 10)
            return first, back.ws.close_code, [m["type"] for m in back.messages]
        finally:
            stored.set()

    sweep_as_if(live.hub, ABANDONED_MINUTES)
    assert storing.wait(10), "the sweep did not close the table"
    first, closed_with, got = run_async(come_back())
    with live.http() as http:
        answer = http.get(f"/api/tables/{left_id}")
    # Never welcomed to a game that is then closed under her: refused, as once it is closed.
    assert first["type"] == "error" and first["code"] == "closed" and closed_with == 4410 and got == ["error"]
    assert answer.status_code == 410


def test_a_game_the_store_could_not_close_stays_in_play_and_is_closed_at_a_later_sweep(sqlite_url, monkeypatch):
    async def scenario():
        hub = await open_hub(sqlite_url, "close")
        try:
            table, _ = await hub.create(CreateTable(game="oboro", seats=people_and_a_bot("Ann", "Bo"), seed=4,
                                                    settings=LEFT_ALONE))
            close_tables = hub.store.close_tables

            async def fails(table_ids: list[str]) -> list[str]:
                raise OSError("the database is away")

            monkeypatch.setattr(hub.store, "close_tables", fails)
            with pytest.raises(OSError):  # the sweep logs it, and tries again later
                await hub.see_to_abandoned(time.time() + 1)
            table.check_room(0)  # Ann may still come back: the table is not closing any more
            kept = (table.id in hub.tables, table.closed, (await hub.store.load(table.id)).status)
            monkeypatch.setattr(hub.store, "close_tables", close_tables)
            closed = await hub.see_to_abandoned(time.time() + 1)
            return kept, closed, table.id, (await hub.store.load(table.id)).status
        finally:
            await close_hub(hub)

    kept, closed, table_id, status = run_async(scenario())
    assert kept == (True, False, "playing")
    assert closed == [table_id] and status == "closed"
