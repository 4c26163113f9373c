"""Several server processes on one PostgreSQL database and one Redis: every person at a table sees the same game
whichever process their socket and requests reach, and a table whose process dies or stops plays on in another."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import ssl
import subprocess
import time
from pathlib import Path

import httpx
import pytest
import websockets
from live import PG_ENV, SocketClient, drop_postgres, free_port, play_randomly, postgres_url, run_async, serve
from test_secrecy import check_every_message

from ninjatable.core import Record

REDIS_ENV = "NINJATABLE_TEST_REDIS"
LEASE = 2.0  # seconds: short, so that a take-over is quick to see


class Process:
    """One `ninjatable serve --redis` process of the test's cluster."""

    def __init__(self, db_url: str, redis_url: str, log: Path) -> None:
        self.db_url, self.redis_url, self.log = db_url, redis_url, log
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None

    def start(self) -> Process:
        self.process = serve(self.db_url, self.port, self.log, "--redis", self.redis_url, "--lease-seconds",
                             str(LEASE), "--limit", "message_rate=100", "--limit", "message_burst=200",
                             "--access-log")
        return self

    def stop(self, how: int = signal.SIGTERM) -> int:
        self.process.send_signal(how)
        return self.process.wait(timeout=30)

    def http(self) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=20, verify=False)

    def create(self, **body) -> dict:
        with self.http() as http:
            answer = http.post("/api/tables", json=body)
        assert answer.status_code == 201, answer.text
        return answer.json()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """Three processes on a fresh PostgreSQL database and the Redis of NINJATABLE_TEST_REDIS (shared by this
    file's tests: a test that stops a process starts it again)."""
    if not os.environ.get(PG_ENV) or not os.environ.get(REDIS_ENV):
        pytest.skip(f"a cluster needs {PG_ENV} and {REDIS_ENV}; .ci/run sets them")
    db_url = postgres_url()
    logs = tmp_path_factory.mktemp("cluster")
    processes = [Process(db_url, os.environ[REDIS_ENV], logs / f"server{i}.log") for i in range(3)]
    try:
        processes[0].start()  # the first creates the schema; the others find it
        for p in processes[1:]:
            p.start()
        yield processes
    finally:
        for p in processes:
            if p.process is not None and p.process.poll() is None:
                p.process.kill()
                p.process.wait()
        drop_postgres(db_url)


def record_of(process: Process, table_id: str) -> Record:
    with process.http() as http:
        answer = http.get(f"/api/tables/{table_id}/record")
    assert answer.status_code == 200, answer.text
    return Record.from_dict(answer.json())


def finished(m: dict) -> bool:
    return m["type"] == "update" and m["status"] == "finished"


GAMES = [  # (game, players, options, settings): people's seats first, then bots
    ("oboro", 3, {}, {}),
    ("dragon", 4, {}, {}),
    ("clanwars", 2, {}, {}),
    ("gakko", 3, {"max_turns": 25}, {}),
]


def join(process: Process, table_id: str, name: str) -> str:
    with process.http() as http:
        answer = http.post(f"/api/tables/{table_id}/join", json={"name": name})
    assert answer.status_code == 200, answer.text
    return answer.json()["token"]


def test_people_on_three_processes_play_whole_games_of_every_game_to_the_same_record(cluster):
    """Each table is created on one process; its people join and connect through the others, a spectator
    through a third; all see the game to its end, and the record replays to its result."""

    async def play(game: str, players: int, options: dict, settings: dict, index: int) -> None:
        maker, first, second = cluster[index % 3], cluster[(index + 1) % 3], cluster[(index + 2) % 3]
        seats = [{"kind": "open"}, {"kind": "open"}] + [{"kind": "bot", "bot": "heuristic"}] * (players - 2)
        table = maker.create(game=game, players=players, options=options, seats=seats, seed=index,
                             settings={"bot_pause": 0, "live": False, **settings})["table"]
        tokens = [join(first, table["id"], "Ann"), join(second, table["id"], "Bo")]
        async with (SocketClient(first, table["id"], tokens[0]) as ann,
                    SocketClient(second, table["id"], tokens[1]) as bo,
                    SocketClient(maker, table["id"]) as watcher):
            versions = await asyncio.gather(play_randomly(ann, 1), play_randomly(bo, 2))
            final = await watcher.wait_for(finished, timeout=60)
        assert versions[0] == versions[1] == final["version"]
        record = record_of(second, table["id"])
        assert len(record.moves) == final["version"]
        record.verify()

    async def scenario():
        await asyncio.gather(*(play(*case, i) for i, case in enumerate(GAMES)))

    run_async(scenario(), timeout=240)
    for process in cluster:  # ready: its database and Redis answer
        with process.http() as http:
            assert http.get("/readyz").json() == {"status": "ok", "checks": ["database", "redis"]}


def test_a_live_table_plays_in_real_time_across_processes(cluster):
    """Ninjaaa'Tack live: the table's clock and bots run in the process that drives it; a person and a spectator
    on the other two see the game to its end, which replays exactly from its record."""
    maker, person, spectator = cluster
    seats = [{"kind": "open"}] + [{"kind": "bot", "bot": "heuristic"}] * 3
    settings = {"countdown_seconds": 0.2, "reaction_min": 0.05, "reaction_max": 0.1, "bot_pause": 0,
                "timings": {"pass": 0.5, "talk": 0.5}}
    table = maker.create(game="ninjaaatack", seats=seats, seed=2, settings=settings,
                         options={"points_to_win": 1})["table"]
    assert table["settings"]["live"] is True
    token = join(person, table["id"], "Ann")

    async def scenario():
        async with SocketClient(person, table["id"], token) as ann, SocketClient(spectator, table["id"]) as watcher:
            mine = await ann.wait_for(finished, timeout=90)
            theirs = await watcher.wait_for(finished, timeout=30)
            return mine, theirs

    mine, theirs = run_async(scenario(), timeout=120)
    assert mine["version"] == theirs["version"]
    assert record_of(spectator, table["id"]).replay(check=True).scores() == theirs["view"]["scores"]


def test_a_table_whose_process_is_killed_plays_on_in_another_and_loses_no_move(cluster):
    """SIGKILL the process that drives the tables in mid-game: the people connected through the other processes
    stay connected, their tables are taken over within the lease time and rebuilt from their stored moves, and
    every game of the five finishes with each move stored once (a live Ninjaaa'Tack table's clock and bots start
    again in the process that takes it over)."""
    driver, first, second = cluster
    live_seats = [{"kind": "open"}] + [{"kind": "bot", "bot": "heuristic"}] * 3
    live = driver.create(game="ninjaaatack", seats=live_seats, seed=2, options={"points_to_win": 2},
                         settings={"countdown_seconds": 0.2, "reaction_min": 0.05, "reaction_max": 0.1,
                                   "bot_pause": 0, "timings": {"pass": 0.5, "talk": 0.5}})["table"]
    live_token = join(second, live["id"], "Cy")

    async def scenario():
        tables = []
        for i, (game, players, options) in enumerate(KILLED):
            seats = [{"kind": "open"}, {"kind": "open"}] + [{"kind": "bot", "bot": "heuristic"}] * (players - 2)
            table = driver.create(game=game, players=players, options=options, seats=seats, seed=40 + i,
                                  settings={"bot_pause": 0.1, "live": False})["table"]
            tables.append((table["id"], join(first, table["id"], "Ann"), join(second, table["id"], "Bo")))
        clients = []
        for table_id, ann_token, bo_token in tables:
            clients += [SocketClient(first, table_id, ann_token), SocketClient(second, table_id, bo_token)]
        watching_live = SocketClient(second, live["id"], live_token)
        for client in [*clients, watching_live]:
            await client.connect()
        players = [asyncio.create_task(play_randomly(c, i)) for i, c in enumerate(clients)]
        await asyncio.sleep(1.5)  # well into every game
        before = [(c.last_update()["version"], c.last_update()["status"]) for c in clients]
        live_before = watching_live.last_update()
        driver.stop(signal.SIGKILL)
        versions = await asyncio.gather(*players)
        live_final = await watching_live.wait_for(finished, timeout=90)
        for client in [*clients, watching_live]:
            await client.close()
        return before, versions, clients, (live_before, live_final)

    try:
        before, versions, clients, (live_before, live_final) = run_async(scenario(), timeout=240)
    finally:
        driver.start()  # for the next test
    assert live_before["status"] == "playing" and live_final["version"] > live_before["version"]
    assert record_of(first, live["id"]).replay(check=True).scores() == live_final["view"]["scores"]
    assert any(status == "playing" for _, status in before)
    # every game still in play at the kill went on after it
    assert all(v > b for v, (b, status) in zip(versions, before, strict=True) if status == "playing")
    for client in clients:
        seen = [m["version"] for m in client.updates()]
        assert seen == sorted(seen), "a client saw its table go back: an acknowledged move was lost"
        assert not client.closed.is_set() or client.last_update()["status"] == "finished"
    for table_id in {c.url.rsplit("/", 1)[1] for c in clients}:
        record_of(first, table_id).verify()
    with first.http() as http, second.http() as other:
        metrics = http.get("/metrics").text + other.get("/metrics").text
    taken = sum(float(line.split()[-1]) for line in metrics.splitlines()
                if line.startswith("ninjatable_lease_takeovers_total"))
    playing = {c.url.rsplit("/", 1)[1] for c, (_, status) in zip(clients, before, strict=True) if status == "playing"}
    assert taken >= len(playing)  # each table in play at the kill (and any of an earlier test still in play)


KILLED = [("oboro", 3, {}), ("dragon", 4, {}), ("clanwars", 2, {}), ("gakko", 3, {"max_turns": 25})]


async def play_through_restarts(processes: list[Process], table_id: str, token: str, seed: int, first: int,
                                errors: list) -> int:
    """Play a seat to the end as the page does: when its socket is closed (its process restarts), connect again
    through the next process (as a load balancer would send it) and play on."""
    index = first
    while True:
        client = SocketClient(processes[index % len(processes)], table_id, token)
        try:
            await client.connect()
        except OSError:  # that process is down just now
            index += 1
            await asyncio.sleep(0.1)
            continue
        try:
            return await play_randomly(client, seed + index)
        except AssertionError:
            if not client.closed.is_set():
                raise
            index += 1  # closed by a stopping process: on to the next
        finally:
            errors.extend(client.errors())
            await client.close()


def test_a_rolling_restart_during_play_loses_nothing_and_shows_nobody_an_error(cluster):
    """SIGTERM each process in turn during play, and start it again: each hands its tables over and closes its
    sockets with 1012; the people reconnect through another process, every game finishes, nobody is sent an
    error, and every record replays."""

    async def scenario():
        games = []
        for i, (game, players) in enumerate([("dragon", 4), ("oboro", 3), ("dragon", 3)]):
            seats = [{"kind": "open"}, {"kind": "open"}] + [{"kind": "bot", "bot": "heuristic"}] * (players - 2)
            table = cluster[i].create(game=game, players=players, seats=seats, seed=60 + i,
                                      settings={"bot_pause": 0.1})["table"]
            games.append((table["id"], join(cluster[i], table["id"], "Ann"), join(cluster[i], table["id"], "Bo")))
        errors: list = []
        players = [asyncio.create_task(play_through_restarts(cluster, table_id, token, 10 * i + s, i + s + 1, errors))
                   for i, (table_id, *tokens) in enumerate(games) for s, token in enumerate(tokens)]
        for process in cluster:
            await asyncio.sleep(1.0)
            assert await asyncio.to_thread(process.stop) == 0
            await asyncio.to_thread(process.start)
        await asyncio.gather(*players)
        return [g[0] for g in games], errors

    table_ids, errors = run_async(scenario(), timeout=240)
    # The one refusal allowed: this client chooses again when it is welcomed again, so a move it had sent as its
    # socket was moved (held, then carried out) may come twice, and the second is refused. A page sends a click once.
    assert [e for e in errors if e["code"] != "illegal"] == []
    for table_id in table_ids:
        record = record_of(cluster[0], table_id)
        record.verify()


def documented_nginx_config() -> str:
    """The nginx configuration of docs/server.md's "Running a cluster", as written there."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "server.md").read_text(encoding="utf-8")
    section = text[text.index("## Running a cluster"):]
    start = section.index("```nginx\n") + len("```nginx\n")
    return section[start:section.index("```", start)]


def nginx_in_front(cluster: list[Process], workdir: Path) -> tuple[subprocess.Popen, int]:
    """nginx running the documented configuration before the cluster: its ports, and a certificate made here."""
    nginx_command = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin")
    if nginx_command is None:
        pytest.skip("the load-balancer test needs Debian's nginx (apt-get install nginx); .ci/run installs it")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost", "-days", "1",
                    "-keyout", str(workdir / "privkey.pem"), "-out", str(workdir / "fullchain.pem")],
                   check=True, capture_output=True)
    site = documented_nginx_config()
    for documented, process in zip((8001, 8002, 8003), cluster, strict=True):
        site = site.replace(f"127.0.0.1:{documented};", f"127.0.0.1:{process.port};")
    port = free_port()
    site = site.replace("listen 443 ssl;", f"listen 127.0.0.1:{port} ssl;").replace("/etc/ssl/ninjatable", str(workdir))
    for folder in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (workdir / folder).mkdir(exist_ok=True)
    temp = " ".join(f"{f}_temp_path {workdir / f.split('_')[0]};" for f in
                    ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    (workdir / "nginx.conf").write_text(
        f"daemon off; pid {workdir / 'nginx.pid'}; error_log {workdir / 'error.log'};\n"
        f"events {{ worker_connections 256; }}\n"
        f"http {{ access_log off; {temp}\n{site}\n}}\n")
    (workdir / "client_body").mkdir(exist_ok=True)
    nginx = subprocess.Popen([nginx_command, "-c", str(workdir / "nginx.conf"), "-p", str(workdir)],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    for _ in range(100):
        try:
            httpx.get(f"https://127.0.0.1:{port}/healthz", verify=False, timeout=1)
            return nginx, port
        except httpx.TransportError:
            time.sleep(0.05)
    nginx.kill()
    raise RuntimeError(f"nginx did not start: {nginx.stderr.read().decode()}")


def test_a_game_through_the_documented_nginx_with_tls_reaches_every_process(cluster, tmp_path):
    """Behind docs/server.md's nginx (round robin, no sticky sessions, TLS): the requests and sockets of one
    table land on all three processes, and the game plays to its end with https links."""
    nginx, port = nginx_in_front(cluster, tmp_path)
    try:
        front = Process.__new__(Process)
        front.url, front.ws_url = f"https://127.0.0.1:{port}", f"wss://127.0.0.1:{port}"
        front.http = lambda: httpx.Client(base_url=front.url, timeout=20, verify=False)
        seats = [{"kind": "open"}, {"kind": "open"}, {"kind": "bot", "bot": "heuristic"}]
        created = Process.create(front, game="oboro", players=3, seats=seats, seed=5, settings={"bot_pause": 0})
        table = created["table"]
        # X-Forwarded-Proto and the Host as the browser wrote it (with its port) reached the server
        assert table["invite_url"] == f"https://127.0.0.1:{port}/t/{table['id']}"
        tokens = [join(front, table["id"], name) for name in ("Ann", "Bo")]
        with front.http() as browser:  # a logged-in page's write passes the same-site check through the proxy
            signed = browser.post("/api/account/signup", json={"name": "Gus", "password": "correct horse battery"})
            assert signed.status_code == 201, signed.text
            mine = browser.post("/api/tables", json={"game": "oboro"}, headers={"Origin": front.url})
            assert mine.status_code == 201, mine.text

        async def scenario():
            context = ssl.create_default_context()
            context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
            clients = [SocketClient(front, table["id"], token) for token in tokens]
            for client in clients:
                client.ws = await websockets.connect(client.url, ssl=context)
                client._reader = asyncio.create_task(client._read())
                await client.send({"type": "hello", "token": client.token})
            versions = await asyncio.gather(*(play_randomly(c, i) for i, c in enumerate(clients)))
            for client in clients:
                await client.close()
            return versions

        versions = run_async(scenario(), timeout=120)
        assert versions[0] == versions[1]
        record_of(front, table["id"]).verify()
    finally:
        nginx.terminate()
        nginx.wait(timeout=10)
    # Round robin: every process answered some of this table's requests or sockets (their access logs say so).
    assert all(table["id"] in p.log.read_text() for p in cluster)


@pytest.mark.parametrize(("game_id", "players"), [("dragon", 4), ("gakko", 4), ("clanwars", 2), ("oboro", 3),
                                                   ("ninjaaatack", 4)])
def test_every_message_over_the_cluster_holds_only_what_its_seat_may_see(cluster, game_id, players):
    """The server's secrecy check (test_secrecy.py) with each seat's socket and the spectator's on different
    processes than the table's: every frame, built where the table is driven and carried over Redis, holds only
    what its seat may see."""
    check_every_message(cluster, game_id, players)


def test_a_process_stores_no_move_or_seat_for_a_table_whose_lease_another_holds(tmp_path):
    """The fence: a process that lost a table's lease without knowing it (too slow to renew it) stores nothing more
    there, so the process that took the table over is the only one whose moves count."""
    if not os.environ.get(PG_ENV):
        pytest.skip(f"leases are kept in PostgreSQL ({PG_ENV}); .ci/run sets it")
    from ninjatable.server.cluster import Leases
    from ninjatable.server.store import LeaseLost, SeatRow, Store, TableRow

    db_url = postgres_url()

    async def scenario():
        slow, fast = Store(db_url), Store(db_url)
        slow.fence, fast.fence = "slow", "fast"
        await slow.open()
        await fast.open()
        try:
            assert await Leases(slow, "slow", 0.2).take("t1")
            seats = [SeatRow(0, "person", "Ann", "ab" * 32), SeatRow(1, "bot", bot="random"),
                     SeatRow(2, "bot", bot="random")]
            row = TableRow(id="t1", game="oboro", players=3, options={}, seed=1, settings={}, status="playing",
                           created_at=time.time(), seats=seats)
            await slow.create_table(row)
            await slow.append_moves("t1", 1, [(0, 7)])  # its lease: stored
            await asyncio.sleep(0.3)  # the lease runs out; another process takes the table over
            assert await Leases(fast, "fast", 10).take("t1")
            with pytest.raises(LeaseLost):
                await slow.append_moves("t1", 2, [(1, 9)])
            with pytest.raises(LeaseLost):
                await slow.update_seat("t1", SeatRow(0, "person", "Mallory", "cd" * 32))
            await fast.append_moves("t1", 2, [(1, 3)])
            return await fast.load("t1")
        finally:
            await slow.close()
            await fast.close()

    try:
        stored = run_async(scenario())
    finally:
        drop_postgres(db_url)
    assert stored.moves == [(0, 7), (1, 3)] and stored.seats[0].name == "Ann"


def test_accounts_rated_play_a_hint_and_a_rematch_across_the_processes(cluster):
    """Accounts in a cluster: Eve and Flo sign up on different processes and sit as their accounts through a third
    (their sockets carry only the session cookie, checked where the table is driven, Origin included); a
    stranger's page cannot sit as Eve; the rated game is rated; Play again asked through another process seats
    the asker there; a hint is asked through a process that does not drive the table."""
    from ninjatable.server.accounts import SESSION_COOKIE

    maker, second, third = cluster

    def browser(process: Process, name: str) -> httpx.Client:
        client = process.http()
        answer = client.post("/api/account/signup", json={"name": name, "password": "correct horse battery"})
        assert answer.status_code == 201, answer.text
        return client

    ann, bo = browser(maker, "Eve"), browser(second, "Flo")
    seats = [{"kind": "person"}, {"kind": "open"}, {"kind": "bot", "bot": "heuristic"}]
    created = ann.post("/api/tables", json={"game": "oboro", "seats": seats, "seed": 3,
                                            "settings": {"rated": True, "bot_pause": 0}})
    assert created.status_code == 201, created.text
    table_id = created.json()["table"]["id"]
    joined = httpx.post(f"{third.url}/api/tables/{table_id}/join", json={}, cookies=bo.cookies, verify=False)
    assert joined.status_code == 200 and joined.json()["seat"] == 1, joined.text

    async def as_account(process: Process, client: httpx.Client, origin: str) -> SocketClient:
        socket = SocketClient(process, table_id)
        socket.ws = await websockets.connect(socket.url, additional_headers={
            "Origin": origin, "Cookie": f"{SESSION_COOKIE}={client.cookies[SESSION_COOKIE]}"})
        socket._reader = asyncio.create_task(socket._read())
        await socket.send({"type": "hello", "account": True})
        return socket

    async def scenario():
        stranger = await as_account(third, ann, "http://evil.example")
        refused = await stranger.wait_for(lambda m: m["type"] == "error")
        players = [await as_account(third, ann, third.url), await as_account(second, bo, second.url)]
        versions = await asyncio.gather(*(play_randomly(p, i) for i, p in enumerate(players)))
        for socket in [stranger, *players]:
            await socket.close()
        return refused, versions

    refused, versions = run_async(scenario(), timeout=120)
    assert refused["code"] == "cross_site"
    assert versions[0] == versions[1]
    with third.http() as http:
        deadline = time.monotonic() + 30
        while not http.get("/api/people/Eve").json()["ratings"]:  # rated in the background once the game ended
            assert time.monotonic() < deadline, "the rated game was not rated"
            time.sleep(0.1)
    again = httpx.post(f"{third.url}/api/tables/{table_id}/rematch", cookies=bo.cookies,
                       headers={"Origin": third.url}, verify=False)
    assert again.status_code == 201 and again.json()["seat"] == 2, again.text  # Flo moved one seat on
    mine = maker.http().get("/api/account/tables", cookies=ann.cookies).json()
    assert [o["id"] for o in mine["offers"]] == [again.json()["table"]["id"]]  # Eve's kept seat, seen elsewhere

    hinted = ann.post("/api/tables", json={"game": "oboro", "seats": [{"kind": "person"}] + [
        {"kind": "bot", "bot": "random"}] * 2, "seed": 4, "settings": {"hints": True, "bot_pause": 0}}).json()
    hint_table = hinted["table"]["id"]
    bearer = {"Authorization": f"Bearer {hinted['tokens'][0]['token']}"}
    with second.http() as http:
        deadline = time.monotonic() + 30
        while not (seat := http.get(f"/api/tables/{hint_table}/seat", headers=bearer).json())["legal"]:
            assert time.monotonic() < deadline, "Eve's turn did not come"  # the bots move first
            time.sleep(0.05)
        answer = http.post(f"/api/tables/{hint_table}/hint", headers=bearer)
    assert answer.status_code == 200, answer.text
    assert answer.json()["action"] in [a["id"] for a in seat["legal"]]


def test_what_the_driving_process_refuses_reaches_the_asker_on_another_process_as_it_is(cluster):
    """A refusal made where the table is driven comes back through the process asked, with its code and words:
    a taken seat, a bad token on a socket, an illegal move."""
    maker, other, _ = cluster
    table = maker.create(game="oboro", seats=[{"kind": "person", "name": "Cy"}, {"kind": "open"},
                                              {"kind": "bot", "bot": "random"}], seed=8)["table"]
    with other.http() as http:
        taken = http.post(f"/api/tables/{table['id']}/join", json={"name": "Di", "seat": 0})
    assert taken.status_code == 409 and taken.json()["code"] == "taken" and "seat 0 is taken" in taken.json()["error"]

    async def scenario():
        async with SocketClient(other, table["id"], "not a token") as stranger:
            return await stranger.wait_for(lambda m: m["type"] == "error", timeout=5)

    assert run_async(scenario())["code"] == "bad_token"
