"""Load on the table server: many concurrent tables, one scripted client seat each, bots in the other seats.

Starts `ninjatable serve` on a free loopback port with a fresh SQLite file (or `--db`), creates `--tables` tables
of one game, connects one WebSocket client per table, and has each client answer its seat's decisions with a
random legal action until every game is over. Prints the tables completed, the moves per second (every seat's,
bots included) and the latency from a client's action to the next view it receives, p50 / p99 / max.

    python benchmarks/server_load.py --tables 200 --bot heuristic
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
from pathlib import Path

import httpx
import websockets


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(db: str, port: int, workers: int) -> subprocess.Popen:
    process = subprocess.Popen([sys.executable, "-m", "ninjatable.cli", "serve", "--port", str(port), "--db", db,
                                "--bot-workers", str(workers),
                                # every table and socket comes from this one address
                                "--limit", "tables_burst=1000000", "--limit", "sockets_per_address=1000000"],
                               stderr=subprocess.DEVNULL)
    for _ in range(600):
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1)
            return process
        except httpx.TransportError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("the server did not start")


async def play_table(ws_url: str, table_id: str, token: str, seed: int, latencies: list[float],
                     errors: list[str]) -> int:
    """Play seat 0 of one table to the end; returns the number of moves the game had."""
    rng = random.Random(seed)
    async with websockets.connect(f"{ws_url}/ws/tables/{table_id}", max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        sent_at: float | None = None
        acted_at: tuple | None = None  # the version and draft the last action was chosen at
        async for text in ws:
            message = json.loads(text)
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


async def run(args: argparse.Namespace, port: int) -> None:
    base = f"http://127.0.0.1:{port}"
    players = args.players
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        created = []
        for i in range(args.tables):
            answer = await http.post("/api/tables", json={
                "game": args.game, "players": players, "seed": args.seed + i, "settings": {"bot_pause": 0},
                "seats": [{"kind": "person", "name": "Load"}] + [{"kind": "bot", "bot": args.bot}] * (players - 1),
            })
            answer.raise_for_status()
            body = answer.json()
            created.append((body["table"]["id"], body["tokens"][0]["token"]))
    latencies: list[float] = []
    errors: list[str] = []
    start = time.perf_counter()
    games = await asyncio.wait_for(asyncio.gather(*(
        play_table(f"ws://127.0.0.1:{port}", t, token, i, latencies, errors) for i, (t, token) in enumerate(created)
    )), args.timeout)
    elapsed = time.perf_counter() - start
    done = sum(1 for moves in games if moves)
    latencies.sort()
    p = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000
    print(f"{args.game}, {players} players, {args.tables} concurrent tables, one scripted seat each, "
          f"{args.bot} bots in the others, {args.workers} bot worker(s)")
    print(f"tables completed: {done} of {args.tables} in {elapsed:.1f} s; errors: {len(errors)}")
    print(f"moves: {sum(games)} ({sum(games) / elapsed:.0f} a second, every seat); client actions: {len(latencies)}")
    print(f"action to next view: p50 {p(0.50):.1f} ms, p99 {p(0.99):.1f} ms, max {latencies[-1] * 1000:.1f} ms, "
          f"mean {statistics.mean(latencies) * 1000:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--game", default="dragon")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bot", default="heuristic")
    parser.add_argument("--workers", type=int, default=1, help="bot worker processes of the server")
    parser.add_argument("--db", help="database URL (default: a fresh SQLite file)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=600, help="give up after this many seconds")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = args.db or f"sqlite:///{Path(folder) / 'load.db'}"
        port = free_port()
        server = start_server(db, port, args.workers)
        try:
            asyncio.run(run(args, port))
        finally:
            server.terminate()
            server.wait()


if __name__ == "__main__":
    main()
