"""Load on the table server: many concurrent tables, one scripted client seat each, bots in the other seats.

Starts `ninjatable serve` on a free loopback port with a fresh SQLite file (or `--db`), creates `--tables` tables
of one game, connects one WebSocket client per table, and has each client answer its seat's decisions with a
random legal action until every game is over. Prints the tables completed, the moves per second (every seat's,
bots included) and the latency from a client's action to the next view it receives, p50 / p99 / max.

    python benchmarks/server_load.py --tables 200 --bot heuristic

With `--processes N` it starts N processes sharing a fresh PostgreSQL database (made on the server `--db` names,
dropped after) and `--redis`; each table is created on one process in turn and its client connects to any of
them at random, as behind a load balancer with no sticky sessions. `--kill S` SIGKILLs the first process S seconds
into play (its tables' clients connect through the others) and prints the time from the kill to each of its tables
playing on.

    python benchmarks/server_load.py --tables 200 --processes 2 --db postgresql://postgres@127.0.0.1/test \
        --redis redis://127.0.0.1:6379/0
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import httpx
import websockets


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(db: str, port: int, workers: int, *options: str, log: str | None = None) -> subprocess.Popen:
    process = subprocess.Popen([sys.executable, "-m", "ninjatable.cli", "serve", "--port", str(port), "--db", db,
                                "--bot-workers", str(workers),
                                # every table and socket comes from this one address
                                "--limit", "tables_burst=1000000", "--limit", "sockets_per_address=1000000",
                                *options],
                               stderr=open(log, "a") if log else subprocess.DEVNULL)  # noqa: SIM115
    for _ in range(600):
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1)
            return process
        except httpx.TransportError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("the server did not start")


async def play_table(ws_url: str, table_id: str, token: str, seed: int, latencies: list[float],
                     errors: list[str], heard: list[float] | None = None) -> int:
    """Play seat 0 of one table to the end; returns the number of moves the game had (`heard`: when each message
    came)."""
    rng = random.Random(seed)
    async with websockets.connect(f"{ws_url}/ws/tables/{table_id}", max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        sent_at: float | None = None
        acted_at: tuple | None = None  # the version and draft the last action was chosen at
        async for text in ws:
            message = json.loads(text)
            if heard is not None:
                heard.append(time.perf_counter())
            if message["type"] == "welcome":  # attached again after its table moved: a move may be lost
                acted_at, sent_at = None, None
                continue
            if message["type"] == "error":
                errors.append(message["message"])
                continue
            if message["type"] != "update":
                continue
            # A step of a multi-step choice sent alone is a draft: the version stays, the draft grows.
            position = (message["version"], tuple(message.get("draft") or ()))
            if sent_at is not None and position != acted_at:
                latencies.append(time.perf_counter() - sent_at)  # the first view after the action
                sent_at = None
            if message["status"] == "finished":
                return message["version"]
            if message["legal"] and position != acted_at and sent_at is None:
                acted_at = position
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "action": rng.choice(message["legal"])["id"]}))
    return 0


async def run(args: argparse.Namespace, servers: list[tuple[int, subprocess.Popen]]) -> None:
    players = args.players
    rng = random.Random(args.seed)
    created = []  # (table, token, the process that drives it, the process its client connects to)
    for i in range(args.tables):
        driver = i % len(servers)
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{servers[driver][0]}", timeout=30) as http:
            answer = await http.post("/api/tables", json={
                "game": args.game, "players": players, "seed": args.seed + i, "settings": {"bot_pause": 0},
                "seats": [{"kind": "person", "name": "Load"}] + [{"kind": "bot", "bot": args.bot}] * (players - 1),
            })
        answer.raise_for_status()
        body = answer.json()
        # Any process, as a load balancer with no sticky sessions would choose (not the one to be killed).
        reachable = range(1, len(servers)) if args.kill else range(len(servers))
        created.append((body["table"]["id"], body["tokens"][0]["token"], driver, rng.choice(list(reachable))))
    latencies: list[float] = []
    errors: list[str] = []
    heard: list[list[float]] = [[] for _ in created]
    start = time.perf_counter()
    playing = asyncio.gather(*(
        play_table(f"ws://127.0.0.1:{servers[via][0]}", t, token, i, latencies, errors, heard[i])
        for i, (t, token, _, via) in enumerate(created)
    ))
    if args.kill:
        await asyncio.sleep(args.kill)
        killed_at = time.perf_counter()
        servers[0][1].kill()
    games = await asyncio.wait_for(playing, args.timeout)
    elapsed = time.perf_counter() - start
    done = sum(1 for moves in games if moves)
    latencies.sort()
    p = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000
    print(f"{args.game}, {players} players, {args.tables} concurrent tables, one scripted seat each, "
          f"{args.bot} bots in the others, {args.workers} bot worker(s)")
    print(f"tables completed: {done} of {args.tables} in {elapsed:.1f} s; errors: {len(errors)}")
    print(f"moves: {sum(games)} ({sum(games) / elapsed:.0f} a second, every seat); client actions: {len(latencies)}")
    print(f"action to next view: p50 {p(0.50):.1f} ms, p99 {p(0.99):.1f} ms, max {latencies[-1] * 1000:.1f} ms, "
          f"mean {statistics.mean(latencies) * 1000:.1f} ms ({len(servers)} process{'es' * (len(servers) > 1)})")
    if args.kill:
        # Per table of the killed process still in play then: from the kill to the next message its client got.
        gaps = sorted(next(t for t in times if t > killed_at) - killed_at
                      for (_, _, driver, _), times in zip(created, heard, strict=True)
                      if driver == 0 and times and times[-1] > killed_at)
        if gaps:
            print(f"SIGKILL of the process driving {len(gaps)} tables in play: each played on after "
                  f"p50 {statistics.median(gaps):.1f} s, max {gaps[-1]:.1f} s (lease {args.lease_seconds:g} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--game", default="dragon")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bot", default="heuristic")
    parser.add_argument("--workers", type=int, default=1, help="bot worker processes of the server")
    parser.add_argument("--db", help="database URL (default: a fresh SQLite file; with --processes, the PostgreSQL "
                                     "server on which a fresh database is made)")
    parser.add_argument("--processes", type=int, default=1, help="server processes sharing the tables")
    parser.add_argument("--redis", help="the Redis of several processes (default with --processes or --kill: "
                                        "redis://127.0.0.1:6379/0)")
    parser.add_argument("--lease-seconds", type=float, default=10.0)
    parser.add_argument("--kill", type=float, default=0, help="SIGKILL the first process this many seconds in")
    parser.add_argument("--server-log", help="append the servers' logs to this file (default: dropped)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=600, help="give up after this many seconds")
    args = parser.parse_args()
    cluster = args.processes > 1 or bool(args.kill) or args.redis is not None
    postgres = (args.db or "").startswith("postgresql")
    if cluster and not postgres:
        raise SystemExit("--processes, --kill and --redis need --db postgresql://... (a fresh database is made there)")
    redis = args.redis or "redis://127.0.0.1:6379/0"
    with tempfile.TemporaryDirectory() as folder:
        db = fresh_postgres(args.db) if postgres else args.db or f"sqlite:///{Path(folder) / 'load.db'}"
        options = ["--redis", redis, "--lease-seconds", str(args.lease_seconds)] if cluster else []
        servers = []
        try:
            for _ in range(args.processes):
                port = free_port()
                servers.append((port, start_server(db, port, args.workers, *options, log=args.server_log)))
            asyncio.run(run(args, servers))
        finally:
            for _, server in servers:
                server.terminate()
                server.wait()
            if postgres:
                drop_postgres(db, args.db)


def fresh_postgres(base: str) -> str:
    """A new database on the PostgreSQL server of `base`."""
    import psycopg
    from sqlalchemy.engine import make_url

    url = make_url(base)
    name = f"ninjatable_load_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(url.set(drivername="postgresql").render_as_string(hide_password=False),
                         autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return url.set(database=name).render_as_string(hide_password=False)


def drop_postgres(db: str, base: str) -> None:
    import psycopg
    from sqlalchemy.engine import make_url

    admin = make_url(base).set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{make_url(db).database}" WITH (FORCE)')


if __name__ == "__main__":
    main()
