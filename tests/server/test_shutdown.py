"""A rolling restart loses nothing: on SIGTERM the server closes every socket with 1012 ("service restart"), stores or
refuses what is in flight (never acknowledging a move it then loses), ends its bots in mid-thought and exits 0 at
once; a new process on the same database plays on where the clients last saw the table."""

from __future__ import annotations

import asyncio
import json
import random
import shutil
import signal
import subprocess
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
from live import LiveServer, SocketClient, free_port, play_randomly, run_async, serve, stored_row

from ninjatable.core import Record
from ninjatable.server.store import Store

EXIT_SECONDS = 8  # a stop takes about half a second (more on a busy machine); a wait for the bot would take 10+


def terminate(process: subprocess.Popen) -> float:
    """SIGTERM the server, as a restart does; the seconds until it exited with status 0."""
    sent = time.monotonic()
    process.send_signal(signal.SIGTERM)
    try:
        code = process.wait(timeout=EXIT_SECONDS)
    except subprocess.TimeoutExpired:
        process.kill()
        raise AssertionError(f"the server was still running {EXIT_SECONDS} s after SIGTERM") from None
    assert code == 0, f"the server exited with status {code} after SIGTERM"
    return time.monotonic() - sent


def assert_quiet(log: Path) -> None:
    """Nothing in the server's stderr an operator should worry about: no error, warning or traceback."""
    text = log.read_text()
    for word in ("Traceback", "ERROR", "WARNING", "Warning"):
        assert word not in text, text


def create(port: int, seats: list[dict[str, Any]], **settings: Any) -> dict[str, Any]:
    body = {"game": "oboro", "seed": 7, "settings": {"bot_pause": 0, **settings}, "seats": seats}
    answer = httpx.post(f"http://127.0.0.1:{port}/api/tables", json=body, timeout=10)
    assert answer.status_code == 201, answer.text
    return answer.json()


ANN_AND_BOTS = [{"kind": "person", "name": "Ann"}] + [{"kind": "bot", "bot": "heuristic"}] * 2


def stored_moves(db_url: str, table_id: str) -> list[tuple[int, int]]:
    """The table's moves as stored (read once its server has stopped)."""
    return [tuple(move) for move in stored_row(db_url, table_id).moves]


def client_of(port: int, table_id: str, token: str) -> SocketClient:
    """A socket client of the server at `port` (SocketClient needs only the server's ws_url)."""
    return SocketClient(SimpleNamespace(ws_url=f"ws://127.0.0.1:{port}"), table_id, token)


async def play_until(client: SocketClient, rng: random.Random, version: int) -> dict[str, Any]:
    """Play the seat's decisions until it is asked to move at `version` or later: that update, left unanswered.

    At Oboro one seat moves at a time: while the seat has a decision, nothing else can change at the table."""
    seen = 0
    while True:
        update = await client.wait_for(lambda m: m["type"] == "update", since=seen)
        seen = client.messages.index(update, seen) + 1
        if update is not client.last_update() or not update["legal"]:
            continue
        if update["version"] >= version:
            return update
        await client.act(rng.choice(update["legal"])["id"])


async def closed_with(client: SocketClient) -> int:
    """The code the server closed the client's socket with."""
    await asyncio.wait_for(client.closed.wait(), EXIT_SECONDS)
    return client.ws.close_code


def assert_told_as_stored(updates: list[dict[str, Any]], record: Record, seat: int) -> None:
    """Every update the seat was sent shows the game as stored at that move count: nothing it was told is lost."""
    by_version: dict[int, list[dict[str, Any]]] = {}
    for update in updates:
        by_version.setdefault(update["version"], []).append(update)
    state = record.start()
    for number in range(len(record.moves) + 1):
        for update in by_version.pop(number, []):
            assert update["view"] == json.loads(json.dumps(state.view(seat))), f"move {number}"
        if number < len(record.moves):
            state.apply(*record.moves[number])
    assert not by_version, f"updates beyond the stored moves: {sorted(by_version)}"


def test_a_restarted_server_closes_with_1012_exits_0_and_the_seat_plays_on(tmp_path):
    db_url, port = f"sqlite:///{tmp_path / 'tables.db'}", free_port()
    first_log, second_log = tmp_path / "first.log", tmp_path / "second.log"
    server = serve(db_url, port, first_log)
    rng = random.Random(3)
    try:
        created = create(port, ANN_AND_BOTS)
        table_id, token = created["table"]["id"], created["tokens"][0]["token"]

        async def until_the_restart() -> tuple[dict[str, Any], int, float, list[dict[str, Any]]]:
            async with client_of(port, table_id, token) as ann:
                asked = await play_until(ann, rng, 20)
                # The seat has a move to make and nothing else can move: the restart comes in mid-game.
                stopping = asyncio.get_running_loop().run_in_executor(None, terminate, server)
                code = await closed_with(ann)
                seconds = await stopping
            return asked, code, seconds, ann.updates()

        last, code, seconds, before = run_async(until_the_restart())
        assert code == 1012 and seconds < EXIT_SECONDS
        assert_quiet(first_log)
        assert last is before[-1]  # nothing was sent after the update that asked for the move

        server = serve(db_url, port, second_log)

        async def after_the_restart() -> tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]:
            async with client_of(port, table_id, token) as ann:
                welcome = await ann.wait_for(lambda m: m["type"] == "welcome")
                again = await ann.wait_for(lambda m: m["type"] == "update")
                await play_randomly(ann, seed=4)
            return welcome, again, ann.updates()

        welcome, again, after = run_async(after_the_restart())
        # The same seat, at the move count and the decision it was last told of, plays the game to its end.
        assert welcome["seat"] == 0
        assert (again["version"], again["view"], again["legal"]) == (last["version"], last["view"], last["legal"])
        assert after[-1]["status"] == "finished"
        record = Record.from_json(httpx.get(f"http://127.0.0.1:{port}/api/tables/{table_id}/record").text)
        terminate(server)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    record.replay(check=True)
    assert len(record.moves) == after[-1]["version"] > last["version"]
    assert_told_as_stored(before + after, record, 0)
    assert_quiet(second_log)


def descendants(pid: int) -> set[int]:
    """The processes `pid` started, and theirs (from Linux's /proc): the forkserver and the bot workers."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            after_name = stat.read_text().rsplit(")", 1)[1].split()  # state, parent, ...
        except OSError:
            continue  # ended meanwhile
        children.setdefault(int(after_name[1]), []).append(int(stat.parent.name))
    found, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def running(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the server's processes from Linux's /proc")
def test_a_bot_in_mid_thought_is_cancelled_and_its_worker_ends(tmp_path):
    db_url, port, log = f"sqlite:///{tmp_path / 'tables.db'}", free_port(), tmp_path / "server.log"
    server = serve(db_url, port, log)
    try:
        # A table of searching bots plays itself: its first decision holds the worker for 10 s.
        created = create(port, [{"kind": "bot", "bot": "ismcts:ms=10000"}] * 3)
        deadline = time.monotonic() + 30
        while "ninjatable_bot_work_running 1.0" not in httpx.get(f"http://127.0.0.1:{port}/metrics").text:
            assert time.monotonic() < deadline, "the bot never started thinking"
            time.sleep(0.05)
        workers = descendants(server.pid)
        assert workers
        terminate(server)  # long before the thought could end
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    deadline = time.monotonic() + EXIT_SECONDS
    while alive := [pid for pid in workers if running(pid)]:
        assert time.monotonic() < deadline, f"processes of the server still run after it exited: {alive}"
        time.sleep(0.05)
    assert stored_moves(db_url, created["table"]["id"]) == []
    assert_quiet(log)


class HeldCommit:
    """Holds the commit of seat 0's next move until `release` is set: the move is being stored meanwhile."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.original = store.append_moves
        self.started = threading.Event()
        self.release = threading.Event()
        store.append_moves = self.append_moves

    async def append_moves(self, table_id: str, first: int, played: list[tuple[int, int]],
                           result: dict[str, Any] | None = None) -> None:
        if played[0][0] == 0 and not self.started.is_set():
            self.started.set()
            await asyncio.to_thread(self.release.wait, 30)
        await self.original(table_id, first, played, result)


def refusing(url: str) -> bool:
    """Whether the server no longer takes connections (it is stopping)."""
    try:
        httpx.get(f"{url}/healthz", timeout=1)
    except httpx.ConnectError:
        return True
    return False


@pytest.mark.parametrize("over", ["socket", "http"])
def test_a_move_being_stored_when_the_server_stops_is_stored_and_never_acknowledged_then_lost(sqlite_url, over):
    live = LiveServer(sqlite_url).start()
    try:
        created = live.create(game="oboro", seed=7, settings={"bot_pause": 0}, seats=ANN_AND_BOTS)
        table_id, token = created["table"]["id"], created["tokens"][0]["token"]
        auth = {"Authorization": f"Bearer {token}"}
        with live.http() as http:
            mine = http.get(f"/api/tables/{table_id}/seat", headers=auth).json()
            while not mine["legal"]:  # the bots move first: wait for the seat's decision
                time.sleep(0.02)
                mine = http.get(f"/api/tables/{table_id}/seat", headers=auth).json()
        version, action = mine["version"], mine["legal"][0]["id"]
        held = HeldCommit(live.hub.store)
        stopper = threading.Thread(target=live.stop)

        async def by_socket() -> list[dict[str, Any]]:
            async with SocketClient(live, table_id, token) as ann:
                await ann.wait_for(lambda m: m["type"] == "update")
                await ann.act(action)
                await asyncio.to_thread(held.started.wait, 10)
                stopper.start()
                assert await closed_with(ann) == 1012  # closed while the move is still being stored...
                held.release.set()
            return ann.updates()

        if over == "socket":
            updates = run_async(by_socket())
            stopper.join(timeout=10)
            # ...so it was never acknowledged: the seat learns of it when it reconnects.
            assert max(u["version"] for u in updates) == version
        else:
            with ThreadPoolExecutor(1) as pool, live.http() as http:
                answer = pool.submit(http.post, f"/api/tables/{table_id}/actions", json={"action": action},
                                     headers=auth)
                assert held.started.wait(10)
                stopper.start()
                deadline = time.monotonic() + 10
                while not refusing(live.url):
                    assert time.monotonic() < deadline, "the server kept taking connections"
                    time.sleep(0.02)
                held.release.set()
                # A request in flight is answered before the server stops: the move is acknowledged.
                assert answer.result(timeout=10).status_code == 200
                assert answer.result().json()["version"] == version + 1
            stopper.join(timeout=10)
        assert not stopper.is_alive()
    finally:
        live.stop()
    assert stored_moves(sqlite_url, table_id)[version] == (0, action)


# --- the page's reconnection, in a real browser when one is installed ------------------------------------------------
SCHEDULE = """async () => {
  const { reconnectAfter, tableEnded } = await import("/static/table.js");
  const FIRST = { backoff: 500, restartSince: null };
  const waits = (closes) => {  // [code, time in ms, random] each
    let retry = FIRST;
    return closes.map(([code, now, random]) => {
      const [wait, next] = reconnectAfter(retry, code, now, () => random);
      retry = next;
      return wait;
    });
  };
  return {
    restart: waits([[1012, 0, 0.5], [1006, 10, 0], [1006, 300, 1], [1006, 900, 0.5], [1012, 1300, 0],
                    [1006, 9990, 0], [1006, 10000, 0], [1006, 10600, 0], [1006, 11700, 0], [1006, 14000, 0]]),
    going_away: waits([[1001, 50, 0.5], [1006, 60, 0.5]]),
    drop: waits([[1006, 0, 0], [1006, 600, 0], [1006, 1700, 0], [1006, 3800, 0], [1006, 8000, 0], [1006, 16100, 0],
                 [1006, 24200, 0]]),
    refused: waits([[4403, 0, 0], [1012, 600, 0]]),
    ended: [[4410, null], [4404, "no_table"], [1000, "closed"], [1000, "expired"], [1006, null], [1012, null],
            [4403, "bad_token"], [1000, "illegal"], [1006, "closed"]].map(([code, error]) => tableEnded(code, error)),
  };
}"""

WATCH_AND_RECORD_THE_CLOSE = """([url, table]) => new Promise((resolve) => {
  const ws = new WebSocket(`${url}/ws/tables/${table}`);
  ws.onopen = () => ws.send(JSON.stringify({ type: "hello" }));
  ws.onmessage = (event) => { if (JSON.parse(event.data).type === "welcome") resolve(); };
  ws.onclose = (event) => { window.closedWith = event.code; };
})"""


def test_the_page_reconnects_at_once_then_every_250_to_500_ms_after_a_restart_and_never_to_an_ended_table(server):
    # Debian's Chromium, as the browser tests use it (tests/browser/pages.py); none is ever downloaded.
    executable = shutil.which("chromium") or shutil.which("chromium-browser")
    if executable is None:
        pytest.skip("needs Debian's Chromium: apt-get install chromium")
    sync_api = pytest.importorskip("playwright.sync_api", reason="needs Playwright for Python")
    table = server.create(game="oboro", seats=[{"kind": "bot", "bot": "random"}] * 3,
                          settings={"bot_pause": 10})["table"]["id"]

    def in_the_page() -> tuple[dict, int]:
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=executable, args=["--no-sandbox", "--disable-gpu"])
            try:
                page = browser.new_page()
                page.goto(f"{server.url}/")
                waits = page.evaluate(SCHEDULE)
                # What a browser sees of a stopping server: the close code the page reconnects at once for.
                page.evaluate(WATCH_AND_RECORD_THE_CLOSE, [server.ws_url, table])
                server.stop()
                return waits, page.wait_for_function("window.closedWith", timeout=10_000).json_value()
            finally:
                browser.close()

    # In a thread of its own: the browser tests' Playwright may already run in this worker's main thread.
    with ThreadPoolExecutor(1) as pool:
        waits, closed = pool.submit(in_the_page).result()
    assert closed == 1012
    # At once, then 250-500 ms (a second 1012 in the same outage brings no tight loop) for 10 s; then the backoff.
    assert waits["restart"] == [0, 250, 500, 375, 250, 250, 500, 1000, 2000, 4000]
    assert waits["going_away"] == [0, 375]
    # Other drops and refusals wait 0.5 s, doubling up to 8 s, as before; a refusal starts no restart window.
    assert waits["drop"] == [500, 1000, 2000, 4000, 8000, 8000, 8000]
    assert waits["refused"] == [500, 0]
    # A table closed (4410) or gone (4404), or ended while the socket was open (its error, then a plain close), is
    # never tried again; any other close is.
    assert waits["ended"] == ["closed", "gone", "closed", "gone", None, None, None, None, None]
