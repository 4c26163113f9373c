"""The server against hostile clients and bad luck: every defect and limit here has a test that fails without it."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time

from live import LiveServer, SocketClient, run_async

from ninjatable.server.botpool import BotPool
from ninjatable.server.hub import Hub
from ninjatable.server.protocol import CreateTable
from ninjatable.server.store import Store


@contextlib.asynccontextmanager
async def open_hub(db_url: str, **limits):
    """A hub on a fresh store, in this test's event loop, with bots thinking in a thread."""
    store = Store(db_url)
    await store.open()
    bots = BotPool(1, "thread")
    hub = Hub(store, bots, **limits)
    await hub.start()
    try:
        yield hub
    finally:
        hub.stop()
        bots.close()
        await store.close()


def people(n: int) -> list[dict]:
    return [{"kind": "person", "name": f"P{i}"} for i in range(n)]


def slow_writer(store: Store, seconds: float) -> None:
    """Make every commit of the store's move writer take `seconds` longer (it runs in the writer's thread)."""
    writer = store._writer
    commit = writer._commit

    def slowly(batch):
        time.sleep(seconds)
        commit(batch)

    writer._commit = slowly


def test_a_move_whose_commit_has_started_is_applied_even_if_its_sender_is_cancelled(db_url):
    async def scenario():
        async with open_hub(db_url) as hub:
            table, _ = await hub.create(CreateTable(game="oboro", seats=people(3), seed=3))
            seat = table.state.to_move()[0]
            slow_writer(hub.store, 0.3)
            sender = asyncio.create_task(table.submit(seat, table.state.legal_actions(seat)[0]))
            await asyncio.sleep(0.1)  # the move is in the writer's hands now
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sender
            stored = (await hub.store.load(table.id)).moves
            assert table.version == len(stored) == 1  # stored, so applied
            seat = table.state.to_move()[0]
            await table.submit(seat, table.state.legal_actions(seat)[0])  # the table goes on
            assert table.version == len((await hub.store.load(table.id)).moves) == 2

    run_async(scenario())


# --- one player cannot flood a table ---------------------------------------------------------------------------
LIVE_SLOW = {"countdown_seconds": 0.2, "reaction_min": 8.0, "reaction_max": 8.0, "bot_pause": 0, "timings": {"pass": 60}}


def updates_since(client: SocketClient, start: int) -> int:
    return sum(m["type"] == "update" for m in client.messages[start:])


def test_changing_a_held_pass_is_rate_limited_and_not_sent_to_the_others(server):
    created = server.create(game="ninjaaatack", seats=people(2) + [{"kind": "bot", "bot": "heuristic"}] * 2,
                            seed=2, settings=LIVE_SLOW)
    table_id, tokens = created["table"]["id"], [t["token"] for t in created["tokens"]]

    async def scenario():
        async with SocketClient(server, table_id, tokens[0]) as ann, SocketClient(server, table_id, tokens[1]) as bo:
            start = await ann.wait_for(lambda m: m["type"] == "update" and m["live"] is not None)
            await bo.wait_for(lambda m: m["type"] == "update" and m["live"] is not None)
            passes = [a["id"] for a in start["legal"] if a["label"].startswith("pass ")][:2]
            assert len(passes) == 2
            await ann.act(passes[0])
            await bo.wait_for(lambda m: m["type"] == "update" and 0 in m["live"]["chosen"])
            seen_by_bo = len(bo.messages)
            for i in range(120):
                await ann.act(passes[i % 2])
            await asyncio.sleep(0.5)  # well before a bot chooses (after 4 s)
            still = [m for m in bo.messages[seen_by_bo:] if m["type"] == "update" and m["live"]["chosen"] == [0]]
            return [e["code"] for e in ann.errors()], len(still)

    codes, bo_updates = run_async(scenario())
    assert "slow_down" in codes  # a change is a message like any other, not a free move
    assert bo_updates == 0  # the others see only that Ann has chosen, which did not change


def test_a_draft_moved_back_and_forth_adds_nothing_to_the_record(server):
    created = server.create(game="gakko", players=4, seats=people(4), seed=5, settings={"bot_pause": 0})
    table_id, tokens = created["table"]["id"], [t["token"] for t in created["tokens"]]

    def label(update: dict, ends: str) -> int:
        return next(a["id"] for a in update["legal"] if a["label"].endswith(ends))

    async def scenario():
        async with SocketClient(server, table_id, tokens[0]) as ann, SocketClient(server, table_id, tokens[1]) as bo:
            start = await ann.wait_for(lambda m: m["type"] == "update" and m["legal"])
            await bo.wait_for(lambda m: m["type"] == "update" and m["legal"])
            seen_by_bo = len(bo.messages)
            there = label(start, "to Earth")
            name = next(a["label"] for a in start["legal"] if a["id"] == there).split(" to ")[0]
            for _ in range(15):
                await ann.act(there)
                moved = await ann.wait_for(lambda m: m["type"] == "update" and m["draft"] == [there],
                                           since=len(ann.messages) - 1)
                await ann.act(label(moved, f"{name} to Heaven"))
                await ann.wait_for(lambda m: m["type"] == "update" and m["draft"] is None,
                                   since=len(ann.messages) - 1)
            await ann.act(there)
            drafted = await ann.wait_for(lambda m: m["type"] == "update" and m["draft"] == [there],
                                         since=len(ann.messages) - 1)
            assert drafted["version"] == 0  # nothing stored yet
            await ann.act(label(drafted, "done"))
            done = await ann.wait_for(lambda m: m["type"] == "update" and m["version"] == 2)
            return done, updates_since(bo, seen_by_bo), [e["code"] for e in ann.errors()]

    done, bo_updates, errors = run_async(scenario())
    assert errors == [] and done["draft"] is None
    moves = server.hub.tables[table_id].state.history
    assert [seat for seat, _ in moves] == [0, 0]  # one card to Earth, then done: the 30 steps between are gone
    assert bo_updates == 1  # Bo saw Ann's split once, when she confirmed it


# --- the lobby and new tables -----------------------------------------------------------------------------------
def test_private_tables_do_not_push_a_public_table_out_of_the_lobby(server_with):
    live = server_with(tables_burst=200, tables_per_minute=600)
    public = live.create(game="oboro", seats=[{"kind": "person", "name": "Ann"}, {"kind": "open"},
                                              {"kind": "open"}])["table"]["id"]
    for _ in range(110):
        live.create(game="oboro", settings={"public": False})
    with live.http() as http:
        listed = [t["id"] for t in http.get("/api/tables").json()]
    assert listed == [public]


def test_an_address_that_creates_too_many_tables_is_told_to_slow_down(server_with):
    live = server_with(tables_burst=3, tables_per_minute=1)
    with live.http() as http:
        answers = [http.post("/api/tables", json={"game": "oboro"}) for _ in range(4)]
    assert [a.status_code for a in answers] == [201, 201, 201, 429]
    assert answers[-1].json()["code"] == "slow_down" and "at most 1 a minute" in answers[-1].json()["error"]


def test_a_table_nobody_joins_expires_and_whoever_waits_there_is_told(server_with):
    live = server_with(waiting_minutes=0.02)  # 1.2 s
    created = live.create(game="oboro", seats=[{"kind": "person", "name": "Ann"}, {"kind": "open"},
                                               {"kind": "open"}])
    table_id, token = created["table"]["id"], created["tokens"][0]["token"]
    playing = live.create(game="oboro", seats=[{"kind": "person", "name": "Bo"}] + [
        {"kind": "bot", "bot": "heuristic"}] * 2, settings={"bot_pause": 5})["table"]["id"]

    async def wait_there():
        async with SocketClient(live, table_id, token) as ann:
            return await ann.wait_for(lambda m: m["type"] == "error", timeout=10)

    told = run_async(wait_there())
    with live.http() as http:
        gone = http.get(f"/api/tables/{table_id}")
        join = http.post(f"/api/tables/{table_id}/join", json={"name": "Cy"})
        still = http.get(f"/api/tables/{playing}")
    assert told["code"] == "expired"
    assert gone.status_code == 404 and join.status_code == 404 and join.json()["code"] == "no_table"
    assert still.status_code == 200  # a table in play never expires


def test_finished_tables_read_back_are_not_all_kept_in_memory(server_with):
    live = server_with(finished_kept=3)
    bots = [{"kind": "bot", "bot": "random"}] * 3
    ids = [live.create(game="oboro", seats=bots, settings={"bot_pause": 0}, seed=i)["table"]["id"]
           for i in range(6)]
    with live.http() as http:
        deadline = time.monotonic() + 60
        while any(http.get(f"/api/tables/{t}").json()["table"]["status"] != "finished" for t in ids):
            assert time.monotonic() < deadline, "the bots did not finish their games"
            time.sleep(0.1)
        for table_id in ids + ids:
            assert http.get(f"/api/tables/{table_id}/record").status_code == 200
    in_memory = [t for t in ids if t in live.hub.tables]
    assert len(in_memory) <= 3 and ids[-1] in in_memory  # the latest read stay, the others are read back


# --- sockets ------------------------------------------------------------------------------------------------------
def open_table(live: LiveServer) -> tuple[str, list[str]]:
    created = live.create(game="oboro", seats=people(3), settings={"bot_pause": 0})
    return created["table"]["id"], [t["token"] for t in created["tokens"]]


async def outcome(client: SocketClient) -> str:
    """'welcome', or the code of the error the server refused the socket with."""
    first = await client.wait_for(lambda m: m["type"] in ("welcome", "error"), timeout=10)
    return first["type"] if first["type"] == "welcome" else first["code"]


async def connect_each(clients: list[SocketClient]) -> list[str]:
    """Connect the clients one after the other; the outcome of each."""
    results = []
    for client in clients:
        await client.connect()
        results.append(await outcome(client))
    return results


def test_a_table_takes_a_bounded_number_of_spectators_and_its_players_always_get_in(server_with):
    live = server_with(spectators_per_table=2, sockets_per_seat=1)
    table_id, tokens = open_table(live)

    async def scenario():
        clients = [SocketClient(live, table_id) for _ in range(3)]
        clients += [SocketClient(live, table_id, tokens[0]), SocketClient(live, table_id, tokens[0])]
        results = await connect_each(clients)
        for client in clients:
            await client.close()
        return results

    results = run_async(scenario())
    assert results == ["welcome", "welcome", "too_many_sockets", "welcome", "too_many_sockets"]


def test_one_address_holds_a_bounded_number_of_sockets(server_with):
    live = server_with(sockets_per_address=3)
    table_id, tokens = open_table(live)

    async def scenario():
        clients = [SocketClient(live, table_id, token) for token in tokens] + [SocketClient(live, table_id)]
        results = await connect_each(clients)
        await clients[0].close()
        for _ in range(250):  # the server counts the socket out once its connection has ended
            if live.hub.sockets_by_address["127.0.0.1"] < 3:
                break
            await asyncio.sleep(0.02)
        again = SocketClient(live, table_id)
        results += await connect_each([again])  # a socket closed frees its place
        for client in clients[1:] + [again]:
            await client.close()
        return results

    results = run_async(scenario())
    assert results == ["welcome", "welcome", "welcome", "too_many_sockets", "welcome"]


def test_reconnecting_does_not_refill_the_message_allowance(server_with):
    live = server_with(message_rate=0.2, message_burst=4)
    table_id, tokens = open_table(live)

    async def scenario():
        async with SocketClient(live, table_id, tokens[0]) as ann:
            for _ in range(4):
                await ann.send({"type": "ping"})
            await ann.wait_for(lambda m: sum(x["type"] == "pong" for x in ann.messages) == 4)
        async with SocketClient(live, table_id, tokens[0]) as again:
            await again.wait_for(lambda m: m["type"] == "welcome")
            await again.send({"type": "ping"})
            return await again.wait_for(lambda m: m["type"] in ("pong", "error"))

    answer = run_async(scenario())
    assert answer["type"] == "error" and answer["code"] == "slow_down"


def test_the_message_limit_counts_bytes(server):
    table_id, tokens = open_table(server)

    async def scenario():
        async with SocketClient(server, table_id, tokens[0]) as ann:
            await ann.wait_for(lambda m: m["type"] == "welcome")
            # 3,000 characters sent as themselves, not escaped: over 6,000 bytes
            await ann.send(json.dumps({"type": "say", "text": "é" * 3000}, ensure_ascii=False))
            return await ann.wait_for(lambda m: m["type"] == "error")

    error = run_async(scenario())
    assert error["code"] == "too_large" and "4096 bytes" in error["message"]


def test_a_token_that_is_not_valid_text_is_a_bad_token(server):
    table_id, _ = open_table(server)

    async def scenario():
        client = SocketClient(server, table_id)
        await client.connect(hello='{"type": "hello", "token": "\\ud800abc"}')
        return await outcome(client)

    assert run_async(scenario()) == "bad_token"


# --- HTTP ---------------------------------------------------------------------------------------------------------
def test_every_http_error_has_the_same_body(server):
    table_id, tokens = open_table(server)
    auth = {"Authorization": f"Bearer {tokens[0]}", "content-type": "application/json"}
    with server.http() as http:
        huge_number = http.post(f"/api/tables/{table_id}/actions", content='{"action": ' + "7" * 4400 + "}",
                                headers=auth)
        nowhere = http.get("/api/nowhere")
        wrong_method = http.delete("/api/tables")
    for answer, status, code in [(huge_number, 400, "bad_request"), (nowhere, 404, "not_found"),
                                 (wrong_method, 405, "method_not_allowed")]:
        assert answer.status_code == status
        assert set(answer.json()) == {"error", "code"} and answer.json()["code"] == code
    assert "4300 digits" in huge_number.json()["error"]


def test_a_request_body_over_the_limit_is_refused_unread(server_with):
    live = server_with(body_bytes=1000)
    padding = {"game": "oboro", "options": {}, "seed": 1, "x": "y" * 2000}
    with live.http() as http:
        declared = http.post("/api/tables", json=padding)
        chunked = http.post("/api/tables", content=(b"{" + b" " * 500 for _ in range(4)),
                            headers={"content-type": "application/json"})
        small = http.post("/api/tables", json={"game": "oboro"})
    for answer in (declared, chunked):
        assert answer.status_code == 413, answer.text
        assert answer.json() == {"error": "a request body is at most 1000 bytes", "code": "too_large"}
    assert small.status_code == 201


def test_an_operator_caps_the_bots_thinking_time(server_with):
    live = server_with(bot_ms=200)
    with live.http() as http:
        slow = http.post("/api/tables", json={"game": "oboro", "seats": [{"kind": "person", "name": "Ann"}] + [
            {"kind": "bot", "bot": "ismcts:ms=500"}] * 2})
        quick = http.post("/api/tables", json={"game": "oboro", "seats": [{"kind": "person", "name": "Ann"}] + [
            {"kind": "bot", "bot": "ismcts:ms=200"}] * 2})
    assert slow.status_code == 400 and "thinks at most ms=200" in slow.json()["error"]
    assert quick.status_code == 201


def test_an_operator_caps_the_worlds_a_searching_bot_reads_beyond_its_time(server_with):
    live = server_with(bot_beliefs=16)
    with live.http() as http:
        def table(bot: str):
            return http.post("/api/tables", json={"game": "ninjaaatack", "settings": {"bot": bot}, "seats": [
                {"kind": "person", "name": "Ann"}] + [{"kind": "bot", "bot": "random"}] * 3})

        many, few = table("ismcts:ms=100,beliefs=20000"), table("ismcts:ms=100,beliefs=16")
    assert many.status_code == 400 and "reads at most beliefs=16" in many.json()["error"]
    assert few.status_code == 201


# --- bots -----------------------------------------------------------------------------------------------------------
def test_a_tables_bot_waits_for_the_decisions_in_hand_not_for_all_of_another_busy_table(db_url, monkeypatch):
    from ninjatable.server import botpool

    started: list[str] = []
    decide = botpool._decide

    def noted(bot, state, seat):
        started.append(state.game.id)
        return decide(bot, state, seat)

    monkeypatch.setattr(botpool, "_decide", noted)

    async def scenario():
        async with open_hub(db_url) as hub:
            # Four bots of a Ninjaaa'Tack table decide at once, each searching for a while (longer than the next
            # table takes to be stored on a busy machine)...
            await hub.create(CreateTable(game="ninjaaatack", seats=[{"kind": "bot", "bot": "ismcts:ms=1500"}] * 4,
                                         settings={"bot_pause": 0}, seed=1))
            await asyncio.sleep(0.05)
            # ...and a quick bot of another table asks while the first of them thinks.
            await hub.create(CreateTable(game="oboro", seats=[{"kind": "bot", "bot": "heuristic"}] * 3,
                                         settings={"bot_pause": 0}, seed=1))
            while "oboro" not in started:
                await asyncio.sleep(0.05)

    run_async(scenario())
    # After the decisions already handed to the worker (two: one running, one ready), not after all four.
    assert started.index("oboro") <= 2


# --- abandoned games ---------------------------------------------------------------------------------------------
def test_the_wait_for_players_and_play_over_http_are_no_absence(server):
    """A game counts as abandoned after a time with no person there; neither the wait for its last player nor a
    person playing through the HTTP API (no socket) is such a time."""
    lineup = [{"kind": "person", "name": "Ann"}, {"kind": "open"}, {"kind": "bot", "bot": "random"}]
    created = server.create(game="oboro", seed=2, settings={"bot_pause": 0}, seats=lineup)
    table_id, token = created["table"]["id"], created["tokens"][0]["token"]
    table = server.hub.tables[table_id]
    long_ago = time.time() - 3600
    table.nobody_since = long_ago  # the table waited an hour for its last player
    with server.http() as http:
        joined = http.post(f"/api/tables/{table_id}/join", json={"name": "Bo"})
        assert joined.status_code == 200, joined.text
        assert not table.deserted_since(time.time() - 60)  # play has just begun
        table.nobody_since = long_ago  # nobody has had a socket open for an hour...
        seats = [token, joined.json()["token"]]
        deadline = time.monotonic() + 20
        while True:  # ...then one of the two people plays a card over HTTP
            assert time.monotonic() < deadline, "nobody could play over HTTP"
            answers = [http.get(f"/api/tables/{table_id}/seat", headers={"Authorization": f"Bearer {t}"}).json()
                       for t in seats]
            mover = next((i for i, a in enumerate(answers) if a["legal"]), None)
            if mover is not None:
                played = http.post(f"/api/tables/{table_id}/actions", json={"action": answers[mover]["legal"][0]["id"]},
                                   headers={"Authorization": f"Bearer {seats[mover]}"})
                assert played.status_code == 200, played.text
                break
            time.sleep(0.02)
        assert not table.deserted_since(time.time() - 60)
