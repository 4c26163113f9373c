"""Bots take over: a person away longer than the grace time, a person out of time on the clock; and a searching bot
at one table never holds up another."""

from __future__ import annotations

import asyncio

from live import LiveServer, SocketClient, play_randomly, run_async

from ninjatable.core import Record


def run(coroutine, timeout: float = 120):
    return run_async(coroutine, timeout)


def seat_state(update: dict, seat: int) -> dict:
    return update["seats"][seat]


def test_an_away_person_is_played_by_the_bot_until_they_come_back(server):
    created = server.create(game="oboro", seed=8, settings={"grace_seconds": 0.3, "bot_pause": 0, "bot": "random"},
                            seats=[{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bo"},
                                   {"kind": "bot", "bot": "random"}])
    table_id = created["table"]["id"]
    ann, bo = (t["token"] for t in created["tokens"])

    async def scenario():
        stayer = SocketClient(server, table_id, bo)
        leaver = SocketClient(server, table_id, ann)
        await stayer.connect()
        await leaver.connect()
        await leaver.wait_for(lambda m: m["type"] == "update" and m["status"] == "playing")
        await leaver.close()
        # Bo plays on; once the grace time is over, Ann's seat is played by the bot
        taken = asyncio.create_task(stayer.wait_for(lambda m: m["type"] == "update" and m["seats"][0]["bot_playing"]))
        played_for_ann = asyncio.create_task(stayer.wait_for(
            lambda m: m["type"] == "update" and any(e["text"].startswith("Player 1 plays") for e in m["events"])))
        player = asyncio.create_task(play_randomly(stayer, seed=1, stop=lambda: played_for_ann.done()))
        await taken
        await played_for_ann
        await player
        # Ann comes back with her token: the seat is hers again, and the bot leaves it alone (a move the bot was
        # already storing as she came back stands)
        back = SocketClient(server, table_id, ann)
        await back.connect()
        update = await back.wait_for(lambda m: m["type"] == "update")
        await asyncio.sleep(0.5)
        await play_randomly(stayer, seed=2, stop=lambda: bool(back.last_update()["legal"]))
        now = stayer.last_update()["version"]
        mine = await back.wait_for(lambda m: m["type"] == "update" and m["legal"] and m["version"] >= now)
        await asyncio.sleep(1.0)
        still = back.last_update()
        for c in (stayer, back):
            await c.close()
        return update, mine, still

    update, mine, still = run(scenario())
    assert seat_state(update, 0)["connected"] and not seat_state(update, 0)["bot_playing"]
    assert mine["legal"]  # her decisions come to her again...
    assert still["version"] == mine["version"] and still["legal"]  # ...and nobody takes them from her


def test_a_person_out_of_time_is_played_by_the_bot_for_that_decision(server):
    created = server.create(game="oboro", seed=8, settings={"clock_seconds": 1, "bot_pause": 0, "bot": "random"},
                            seats=[{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "random"},
                                   {"kind": "bot", "bot": "random"}])
    table_id, token = created["table"]["id"], created["tokens"][0]["token"]

    async def scenario():
        async with SocketClient(server, table_id, token) as idle:
            clocked = await idle.wait_for(lambda m: m["type"] == "update" and m["legal"] and m["clocks"])
            moved = await idle.wait_for(lambda m: m["type"] == "update" and any(
                e["text"].startswith("Player 1 plays") for e in m["events"]), timeout=30)
            again = await idle.wait_for(lambda m: m["type"] == "update" and m["legal"] and m["clocks"]
                                        and m["version"] > moved["version"], timeout=30)
            return clocked, again

    clocked, again = run(scenario())
    assert clocked["clocks"][0]["seat"] == 0 and 0 < clocked["clocks"][0]["seconds"] <= 1
    assert not clocked["seats"][0]["bot_playing"]
    assert again["clocks"][0]["seat"] == 0  # a new decision, a fresh clock, hers again
    assert not again["seats"][0]["bot_playing"]


def test_a_searching_bot_does_not_hold_up_other_tables(sqlite_url):
    # The search is given far longer than the other game takes on any machine (the test's time limit ends it
    # first); the pool ends a worker in mid-search when the server stops.
    live = LiveServer(sqlite_url, bot_kind="process", bot_workers=2, bot_ms=100_000).start()
    try:
        slow = live.create(game="dragon", seed=1, settings={"bot_pause": 0},
                           seats=[{"kind": "bot", "bot": "ismcts:ms=100000"}] + [{"kind": "bot", "bot": "random"}] * 3)
        fast = live.create(game="oboro", seed=2, settings={"bot_pause": 0},
                           seats=[{"kind": "person", "name": "Ann"}] + [{"kind": "bot", "bot": "random"}] * 2)

        async def scenario():
            async with SocketClient(live, slow["table"]["id"]) as watcher:
                async with SocketClient(live, fast["table"]["id"], fast["tokens"][0]["token"]) as me:
                    await play_randomly(me, seed=4)
                return [e["text"] for m in watcher.updates() for e in m["events"]]

        watched = run(scenario())
        # the whole oboro game was played while the search was still thinking about dragon's first card
        assert not any(text.startswith("Player 1 plays") for text in watched)
        with live.http() as http:
            assert Record.from_dict(http.get(f"/api/tables/{fast['table']['id']}/record").json()).replay()
    finally:
        live.stop()
