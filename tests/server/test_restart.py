"""Nothing is lost: a server killed hard (SIGKILL) in mid-game comes back on the same database and plays on."""

from __future__ import annotations

import os
import random
import signal
import time

import httpx
import pytest
from live import free_port, serve, stored_row

from ninjatable.core import Record


def play(http: httpx.Client, table_id: str, token: str, rng: random.Random, moves: int, acked: list) -> dict:
    """Play up to `moves` of seat 0's decisions over HTTP; note each accepted action with its move number."""
    auth = {"Authorization": f"Bearer {token}"}
    mine = http.get(f"/api/tables/{table_id}/seat", headers=auth).json()
    while moves and mine["status"] != "finished":
        if not mine["legal"]:
            time.sleep(0.01)
            mine = http.get(f"/api/tables/{table_id}/seat", headers=auth).json()
            continue
        action = rng.choice(mine["legal"])["id"]
        answer = http.post(f"/api/tables/{table_id}/actions", json={"action": action}, headers=auth)
        assert answer.status_code == 200, answer.text
        if answer.json()["draft"] is None:  # stored (a step of a multi-step choice waits for its confirmation)
            # the server accepted the draft's steps and this action as the moves after number version
            for number, step in enumerate([*(mine["draft"] or []), action], start=mine["version"]):
                acked.append((number, step))
        mine = answer.json()
        moves -= 1
    return mine


def stored_record(db_url: str, table_id: str) -> Record:
    """The table's game as its moves are stored (the server is stopped; the game is not over)."""
    row = stored_row(db_url, table_id)
    return Record(row.game, row.players, row.options, row.seed, row.moves)


# On PostgreSQL a soak run (`make soak`, run by CI after `make test`): two server starts are most of its time.
@pytest.mark.parametrize("db_url", ["sqlite", pytest.param("postgresql", marks=pytest.mark.soak)], indirect=True)
def test_a_killed_server_loses_no_accepted_move(db_url, tmp_path):
    port, log = free_port(), tmp_path / "server.log"
    server = serve(db_url, port, log)
    rng = random.Random(5)
    acked: list[tuple[int, int]] = []
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10, verify=False) as http:
            created = http.post("/api/tables", json={
                "game": "dragon", "seed": 21, "settings": {"bot_pause": 0},
                "seats": [{"kind": "person", "name": "Ann"}] + [{"kind": "bot", "bot": "heuristic"}] * 3,
            }).json()
            table_id, token = created["table"]["id"], created["tokens"][0]["token"]
            play(http, table_id, token, rng, 20, acked)
        os.kill(server.pid, signal.SIGKILL)
        server.wait()
        server = serve(db_url, port, log)
        before = len(acked)
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10, verify=False) as http:
            # the table plays on where it was: the seat's next decisions, and the bots' between them
            now = play(http, table_id, token, rng, 20, acked)
    finally:
        server.kill()
        server.wait()
    record = stored_record(db_url, table_id)
    assert before > 10 and len(acked) > before
    for number, action in acked:
        assert record.moves[number] == (0, action)
    record.replay(check=True)
    # what the seat was last told is the stored game at that move (the bots may have moved on since)
    state = record.start()
    for seat, action in record.moves[:now["version"]]:
        state.apply(seat, action)
    assert state.view(0) == now["view"]
