"""Live play over the WebSocket: whole games with bots, refusals that change nothing, tokens, floods and the rate
limit."""

from __future__ import annotations

import asyncio
import json

from live import SocketClient, play_randomly, run_async

from ninjatable.core import Record
from ninjatable.server.protocol import Update, Welcome

BOTS = {"settings": {"bot_pause": 0}}


def person_and_bots(game: str, players: int, bot: str = "heuristic") -> list[dict]:
    return [{"kind": "person", "name": "Ann"}] + [{"kind": "bot", "bot": bot}] * (players - 1)


def run(coroutine):
    return run_async(coroutine)


def test_a_person_and_bots_play_a_whole_game_and_the_record_replays(any_server):
    created = any_server.create(game="dragon", seats=person_and_bots("dragon", 4), seed=11, **BOTS)
    table_id, token = created["table"]["id"], created["tokens"][0]["token"]

    async def scenario():
        async with SocketClient(any_server, table_id, token) as me:
            await play_randomly(me, seed=1)
            return me.messages

    messages = run(scenario())
    Welcome.model_validate(messages[0])
    for message in messages[1:]:
        if message["type"] == "update":
            Update.model_validate(message)
    final = messages[-1]
    assert final["status"] == "finished" and final["view"]["over"]
    with any_server.http() as http:
        record = Record.from_dict(http.get(f"/api/tables/{table_id}/record").json())
    replayed = record.replay(check=True)  # the stored result is what the moves give
    assert replayed.scores() == final["view"]["scores"]
    assert len(record.moves) == final["version"]


def test_illegal_and_out_of_turn_actions_are_refused_and_change_nothing(server):
    created = server.create(game="oboro", seats=[{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bo"},
                                                 {"kind": "person", "name": "Cy"}], seed=3)
    table_id = created["table"]["id"]
    tokens = [t["token"] for t in created["tokens"]]

    async def scenario():
        clients = [SocketClient(server, table_id, t) for t in tokens]
        for c in clients:
            await c.connect()
        for c in clients:
            await c.wait_for(lambda m: m["type"] == "update" and m["status"] == "playing")
        first = clients[0].last_update()
        mover = first["view"]["to_move"][0]
        idle = (mover + 1) % 3
        me = clients[mover]
        legal = {a["id"] for a in me.last_update()["legal"]}
        illegal = next(a for a in range(24) if a not in legal)
        before = len(me.messages)
        await me.act(illegal)
        await me.act(99999)
        await clients[idle].act(min(legal))
        refused = await me.wait_for(lambda m: m["type"] == "error", since=before)
        out_of_range = await me.wait_for(lambda m: m["type"] == "error", since=me.messages.index(refused) + 1)
        not_yours = await clients[idle].wait_for(lambda m: m["type"] == "error")
        await me.send({"type": "ping"})
        await me.wait_for(lambda m: m["type"] == "pong", since=before)
        for c in clients:
            await c.close()
        return refused, out_of_range, not_yours, me

    refused, out_of_range, not_yours, me = run(scenario())
    assert refused["code"] == "illegal" and "is not allowed now" in refused["message"]
    assert out_of_range["code"] == "illegal" and "99999 is not an action of oboro" in out_of_range["message"]
    assert not_yours["code"] == "illegal" and "turn" in not_yours["message"]
    table = server.hub.tables[table_id]
    assert table.version == 0  # nothing was played
    assert me.last_update()["version"] == 0


def test_spectators_see_public_information_only_and_cannot_act(server):
    created = server.create(game="dragon", seats=person_and_bots("dragon", 4, "random"), seed=2)
    table_id = created["table"]["id"]

    async def scenario():
        async with SocketClient(server, table_id) as watcher:
            update = await watcher.wait_for(lambda m: m["type"] == "update")
            await watcher.act(0)
            error = await watcher.wait_for(lambda m: m["type"] == "error")
            return update, error

    update, error = run(scenario())
    assert update["seat"] is None and update["legal"] == []
    assert all(seat["hand"] is None for seat in update["view"]["seats"])
    assert error["code"] == "spectator"


def test_tokens_hold_only_their_own_seat(server):
    one = server.create(game="oboro", seats=[{"kind": "person", "name": "Ann"}, {"kind": "open"}, {"kind": "open"}])
    other = server.create(game="oboro", seats=[{"kind": "person", "name": "Bo"}, {"kind": "open"}, {"kind": "open"}])
    stranger = other["tokens"][0]["token"]
    private = server.create(game="oboro", settings={"public": False})["table"]["id"]

    async def refused(table_id, hello):
        client = SocketClient(server, table_id)
        await client.connect(hello)
        error = await client.wait_for(lambda m: m["type"] == "error")
        await client.closed.wait()
        return error

    async def scenario():
        table_id = one["table"]["id"]
        return [
            await refused(table_id, {"type": "hello", "token": stranger}),  # another table's token
            await refused(table_id, {"type": "hello", "token": "guess" * 6}),
            await refused(table_id, {"type": "act", "action": 0}),  # no hello first
            await refused(table_id, {"type": "hello", "protocol": 99}),
            await refused(private, {"type": "hello"}),  # watching a private table
            await refused("missing", {"type": "hello"}),
        ]

    codes = [e["code"] for e in run(scenario())]
    assert codes == ["bad_token", "bad_token", "bad_message", "protocol", "private", "no_table"]


def test_bad_messages_get_errors_and_the_connection_survives(server):
    created = server.create(game="oboro", seats=person_and_bots("oboro", 3, "random"), seed=4)
    table_id, token = created["table"]["id"], created["tokens"][0]["token"]

    async def scenario():
        async with SocketClient(server, table_id, token) as me:
            await me.wait_for(lambda m: m["type"] == "update")
            for bad in ["{not json", json.dumps({"type": "dance"}), json.dumps({"type": "act", "action": "R1"}),
                        json.dumps({"type": "act", "action": True}), json.dumps({"type": "act", "action": -1}),
                        json.dumps({"type": "act", "action": 1.5}), "x" * 10_000, json.dumps([1, 2])]:
                await me.send(bad)
            await me.send({"type": "ping"})
            await me.wait_for(lambda m: m["type"] == "pong")
            return me.errors()

    errors = run(scenario())
    assert [e["code"] for e in errors] == ["bad_message"] * 6 + ["too_large", "bad_message"]
    assert "a message is at most 4096 bytes" in errors[6]["message"]
    assert server.hub.tables[table_id].version == 0


def test_a_flood_is_slowed_then_cut_off_and_the_server_goes_on(server):
    created = server.create(game="oboro", seats=person_and_bots("oboro", 3, "random"), seed=4)
    table_id, token = created["table"]["id"], created["tokens"][0]["token"]

    async def scenario():
        async with SocketClient(server, table_id, token) as me:
            await me.wait_for(lambda m: m["type"] == "update")
            for _ in range(300):
                await me.send({"type": "ping"})
            await me.closed.wait()
            codes = {e["code"] for e in me.errors()}
        async with SocketClient(server, table_id, token) as again:  # the seat reconnects at once
            welcome = await again.wait_for(lambda m: m["type"] == "welcome")
        return codes, welcome

    codes, welcome = run(scenario())
    assert codes == {"slow_down", "flood"}
    assert welcome["seat"] == 0


def test_a_move_answered_slow_down_is_ignored_and_plays_when_sent_again(server):
    created = server.create(game="oboro", seats=person_and_bots("oboro", 3, "random"), seed=4, **BOTS)
    table_id, token = created["table"]["id"], created["tokens"][0]["token"]
    pings = 60  # the burst of 40 and more: the limit is reached, and fewer than 100 are over it

    async def scenario():
        async with SocketClient(server, table_id, token) as me:
            mine = await me.wait_for(lambda m: m["type"] == "update" and bool(m["legal"]))
            action = mine["legal"][0]["id"]
            start = len(me.messages)
            for _ in range(pings):
                await me.send({"type": "ping"})
            await me.act(action)
            # every message is answered once: a pong, or an error for what was over the limit
            await me.wait_for(lambda m: len(me.messages) - start >= pings + 1 and m["type"] != "update", since=start)
            answers = [m for m in me.messages[start:] if m["type"] != "update"]
            moved = [m for m in me.messages[start:] if m["type"] == "update" and m["version"] > mine["version"]]
            await asyncio.sleep(0.5)  # the limit fills up again
            await me.act(action)
            after = await me.wait_for(lambda m: m["type"] == "update" and m["version"] > mine["version"], since=start)
            return answers, moved, after, mine

    answers, moved, after, mine = run(scenario())
    assert answers[-1]["type"] == "error" and answers[-1]["code"] == "slow_down"  # the move, ignored
    assert not moved
    assert after["version"] == mine["version"] + 1  # sent again, it is played
    assert after["events"][0]["text"].startswith("Player 1")


def test_acting_on_a_finished_game_and_joining_a_full_table_are_refused(server):
    created = server.create(game="oboro", seats=person_and_bots("oboro", 3, "random"), seed=5, **BOTS)
    table_id, token = created["table"]["id"], created["tokens"][0]["token"]

    async def scenario():
        async with SocketClient(server, table_id, token) as me:
            await play_randomly(me, seed=2)
            await me.act(0)
            return await me.wait_for(lambda m: m["type"] == "error")

    error = run(scenario())
    assert error["code"] == "over"
    with server.http() as http:
        join = http.post(f"/api/tables/{table_id}/join", json={"name": "Late"})
    assert join.status_code == 409


def test_bots_think_in_worker_processes(sqlite_url):
    from live import LiveServer

    live = LiveServer(sqlite_url, bot_kind="process", bot_workers=2).start()
    try:
        created = live.create(game="gakko", players=3, seats=person_and_bots("gakko", 3), seed=9, **BOTS)
        table_id, token = created["table"]["id"], created["tokens"][0]["token"]

        async def scenario():
            async with SocketClient(live, table_id, token) as me:
                return await play_randomly(me, seed=3)

        moves = run(scenario())
        with live.http() as http:
            record = Record.from_dict(http.get(f"/api/tables/{table_id}/record").json())
        assert len(record.moves) == moves
        assert {seat for seat, _ in record.moves} == {0, 1, 2}
    finally:
        live.stop()


def test_a_multi_step_choice_is_previewed_then_sent_together(server):
    # seed 6: Player 1 holds the highest trump and splits for Bodily Division before the first trick
    created = server.create(game="dragon", seed=6, seats=person_and_bots("dragon", 4, "random"), **BOTS)
    table_id, token = created["table"]["id"], created["tokens"][0]["token"]
    labels = {"P2": 1, "R3": 14, "B8": 31, "done": 52}

    async def scenario():
        async with SocketClient(server, table_id, token) as me:
            start = await me.wait_for(lambda m: m["type"] == "update" and m["decision"])
            await me.send({"type": "preview", "actions": [labels["R3"], labels["B8"]]})
            preview = await me.wait_for(lambda m: m["type"] == "preview")
            await me.send({"type": "preview", "actions": [labels["R3"], labels["done"]]})  # never past the confirm
            await me.send({"type": "preview", "actions": [labels["R3"], labels["R3"]]})  # R3 is set aside already
            await me.send({"type": "act", "actions": [labels["P2"], labels["P2"], labels["done"]]})
            await me.send({"type": "act", "actions": [labels["R3"], labels["B8"], labels["done"]]})
            after = await me.wait_for(lambda m: m["type"] == "update" and m["version"] >= 3)
            return start, preview, after, me.errors()

    start, preview, after, errors = run(scenario())
    assert start["decision"] == {"prompt": "Bodily Division: set aside cards for your 2nd half (keep at least one), "
                                           "then done", "multi": True, "confirm": 52}
    me = preview["view"]["seats"][0]
    assert me["pile"] == ["R3", "B8"] and "R3" not in me["hand"] and preview["decision"]["multi"]
    assert [e["code"] for e in errors] == ["not_multi", "illegal", "illegal"]
    assert "step 2" in errors[1]["message"] and "step 2" in errors[2]["message"]
    assert after["version"] == 3 and after["view"]["seats"][0]["pile"] == ["R3", "B8"]
    assert after["view"]["phase"] == "tricks"
    assert server.hub.tables[table_id].record().moves[:3] == [(0, 14), (0, 31), (0, 52)]


def test_a_card_that_may_not_be_played_comes_with_the_reason(server):
    created = server.create(game="dragon", seed=6, seats=person_and_bots("dragon", 4, "random"), **BOTS)
    table_id, token = created["table"]["id"], created["tokens"][0]["token"]

    async def scenario():
        async with SocketClient(server, table_id, token) as me:
            await me.wait_for(lambda m: m["type"] == "update" and m["decision"])
            await me.act(52)  # done at once: a pile of none is not allowed
            error = await me.wait_for(lambda m: m["type"] == "error")
            await me.send({"type": "act", "actions": [1, 52]})
            return error, await me.wait_for(lambda m: m["type"] == "update" and m["refused"], timeout=30)

    error, update = run(scenario())
    assert error["code"] == "illegal"
    reasons = {r["reason"] for r in update["refused"]}
    assert reasons and reasons <= {"purple may not be led until a purple card has been taken"} | {
        f"you must follow {c}" for c in ("purple", "red", "blue", "green")}
    refused = {r["id"] for r in update["refused"]}
    assert not refused & {a["id"] for a in update["legal"]}
