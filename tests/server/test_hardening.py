"""The server against hostile clients and bad luck: every defect and limit here has a test that fails without it."""

from __future__ import annotations

import asyncio
import contextlib
import time

from live import SocketClient, run_async

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
LIVE_SLOW = {"countdown_seconds": 0.2, "reaction_min": 8.0, "reaction_max": 8.0, "bot_pause": 0, "pass_seconds": 60}


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
