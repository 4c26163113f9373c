"""Storage on SQLite and PostgreSQL: the schema comes from migrations, rows survive upgrades, moves keep order."""

from __future__ import annotations

import asyncio
import time

import pytest
import sqlalchemy as sa
from live import run_async

from ninjatable.server.store import SeatRow, Store, TableRow, database_url, upgrade_schema


def table_row(table_id: str, players: int = 3) -> TableRow:
    return TableRow(id=table_id, game="oboro", players=players, options={"mission_value": 11}, seed=2**62 + 5,
                    settings={"grace_seconds": 60.0, "public": True}, status="waiting", created_at=time.time(),
                    seats=[SeatRow(0, "person", "Ann", "ab" * 32), SeatRow(1, "open"), SeatRow(2, "bot", bot="random")])


def run(coroutine):
    return run_async(coroutine)


def test_the_schema_is_made_by_the_migrations_and_upgrading_again_keeps_every_row(db_url):
    async def scenario():
        store = Store(db_url)
        await store.open()
        await store.create_table(table_row("t1"))
        await store.append_move("t1", 1, 0, 7)
        await store.close()
        upgrade_schema(database_url(db_url))  # a second start: nothing to do, nothing lost
        again = Store(db_url)
        await again.open()
        row = await again.load("t1")
        await again.close()
        return row

    row = run(scenario())
    engine = sa.create_engine(database_url(db_url))
    with engine.connect() as conn:
        assert conn.execute(sa.text("select version_num from alembic_version")).scalar() == "0001"
    engine.dispose()
    assert row.moves == [(0, 7)]
    assert row.options == {"mission_value": 11} and row.seed == 2**62 + 5
    assert [s.kind for s in row.seats] == ["person", "open", "bot"] and row.seats[0].token_hash == "ab" * 32


def test_moves_of_many_tables_committed_together_keep_each_tables_order(db_url):
    async def scenario():
        store = Store(db_url)
        await store.open()
        ids = [f"t{i}" for i in range(20)]
        for table_id in ids:
            await store.create_table(table_row(table_id))

        async def play(table_id: str) -> None:
            for number in range(1, 11):
                await store.append_move(table_id, number, number % 3, number)

        await asyncio.gather(*(play(t) for t in ids))
        await store.append_move("t0", 11, 1, 3, result={"over": True, "scores": [1, 2, 3]})
        rows = [await store.load(t) for t in ids]
        unfinished = {r.id for r in await store.unfinished()}
        listed = await store.listing()
        await store.close()
        return rows, unfinished, listed

    rows, unfinished, listed = run(scenario())
    for row in rows[1:]:
        assert row.moves == [(n % 3, n) for n in range(1, 11)]
    assert rows[0].status == "finished" and rows[0].result["scores"] == [1, 2, 3] and len(rows[0].moves) == 11
    assert "t0" not in unfinished and len(unfinished) == 19
    assert len(listed) == 20 and all(s.token_hash is None for t in listed for s in t["seats"])


def test_a_move_that_cannot_be_stored_is_refused(db_url):
    async def scenario():
        store = Store(db_url)
        await store.open()
        await store.create_table(table_row("t1"))
        await store.append_move("t1", 1, 0, 7)
        with pytest.raises(sa.exc.IntegrityError):
            await store.append_move("t1", 1, 0, 8)  # move 1 is already stored
        row = await store.load("t1")
        await store.close()
        return row

    assert run(scenario()).moves == [(0, 7)]


@pytest.mark.parametrize(("url", "message"), [
    ("sqlite://", "an SQLite database must be a file"),
    ("mysql://root@localhost/x", "unsupported database"),
    ("not a url", "is not a database URL"),
])
def test_database_urls_are_checked(url, message):
    with pytest.raises(ValueError, match=message):
        database_url(url)
