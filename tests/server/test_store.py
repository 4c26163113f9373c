"""Storage on SQLite and PostgreSQL: the schema comes from migrations, rows survive upgrades, moves keep order."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
import sqlalchemy as sa
from live import run_async

from ninjatable.server.protocol import TableSettings
from ninjatable.server.store import (
    PendingMove,
    SeatRow,
    Store,
    TableRow,
    alembic_config,
    database_url,
    upgrade_schema,
)


def table_row(table_id: str, players: int = 3, public: bool = True, created_at: float | None = None) -> TableRow:
    return TableRow(id=table_id, game="oboro", players=players, options={"mission_value": 11}, seed=2**62 + 5,
                    settings={"grace_seconds": 60.0, "public": public}, status="waiting",
                    created_at=time.time() if created_at is None else created_at,
                    seats=[SeatRow(0, "person", "Ann", "ab" * 32), SeatRow(1, "open"), SeatRow(2, "bot", bot="random")])


def head_revision() -> str:
    """The newest migration shipped in the package."""
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config("sqlite:///unused.db")).get_current_head()


def scalar(db_url: str, sql: str, **params) -> object:
    """One value read with raw SQL, outside the store."""
    engine = sa.create_engine(database_url(db_url))
    try:
        with engine.connect() as conn:
            return conn.execute(sa.text(sql), params).scalar()
    finally:
        engine.dispose()


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
    assert scalar(db_url, "select version_num from alembic_version") == head_revision()
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


def test_a_refused_database_url_is_never_repeated_with_its_password():
    for url in ("mysql://root:hunter2@db/tables", "postgresql//root:hunter2@db"):
        with pytest.raises(ValueError) as refused:
            database_url(url)
        assert "hunter2" not in str(refused.value)


def test_one_tables_move_that_cannot_be_stored_refuses_no_other_table_of_its_batch(db_url):
    async def scenario():
        store = Store(db_url)
        await store.open()
        for table_id in ("t1", "t2"):
            await store.create_table(table_row(table_id))
        await store.append_move("t1", 1, 0, 7)
        loop = asyncio.get_running_loop()
        batch = [
            PendingMove("t1", 1, [(0, 8)], None, loop.create_future()),  # move 1 is already stored
            PendingMove("t1", 2, [(1, 9)], None, loop.create_future()),  # would follow the refused move
            PendingMove("t2", 1, [(0, 5), (1, 6)], {"over": True}, loop.create_future()),
        ]
        # As the writer thread would commit them had all three been waiting at once.
        await asyncio.to_thread(store._writer._commit, batch)
        answers = await asyncio.gather(*(m.future for m in batch), return_exceptions=True)
        rows = [await store.load(table_id) for table_id in ("t1", "t2")]
        await store.close()
        return answers, rows

    answers, (t1, t2) = run(scenario())
    assert isinstance(answers[0], sa.exc.IntegrityError) and isinstance(answers[1], Exception)
    assert answers[2] is None
    assert t1.moves == [(0, 7)] and t1.status == "waiting"
    assert t2.moves == [(0, 5), (1, 6)] and t2.status == "finished" and t2.result == {"over": True}


def test_a_batch_that_can_be_stored_is_committed_in_one_transaction(db_url):
    async def scenario():
        store = Store(db_url)
        await store.open()
        for table_id in ("t1", "t2"):
            await store.create_table(table_row(table_id))
        commits = []
        sa.event.listen(store.engine, "commit", lambda _conn: commits.append(1))
        loop = asyncio.get_running_loop()
        batch = [PendingMove(t, 1, [(0, 4)], None, loop.create_future()) for t in ("t1", "t2")]
        await asyncio.to_thread(store._writer._commit, batch)
        await asyncio.gather(*(m.future for m in batch))
        await store.close()
        return len(commits)

    assert run(scenario()) == 1


def test_the_lobby_lists_a_public_table_behind_many_newer_private_ones(db_url):
    async def scenario():
        store = Store(db_url)
        await store.open()
        await store.create_table(table_row("public", created_at=1000.0))
        for i in range(120):
            await store.create_table(table_row(f"private{i}", public=False, created_at=2000.0 + i))
        listed = await store.listing(100)
        await store.close()
        return listed

    assert [t["id"] for t in run(scenario())] == ["public"]


INSERT_TABLE_0001 = (
    "insert into tables (id, game, players, options, seed, settings, status, result, created_at, updated_at) "
    "values (:id, 'oboro', 3, '{\"mission_value\": 11}', 5, :settings, 'waiting', null, :at, :at)"
)
INSERT_SEAT_0001 = (
    "insert into seats (table_id, seat, kind, name, token_hash, bot) values (:id, 0, 'open', null, null, null)"
)


def test_a_database_written_at_0001_upgrades_keeping_every_row_and_marks_its_private_tables(db_url):
    sync_url = database_url(db_url)
    upgrade_schema(sync_url, "0001")
    written = {"pub": '{"grace_seconds": 60.0, "public": true}', "priv": '{"public": false}', "old": "{}"}
    engine = sa.create_engine(sync_url)
    with engine.begin() as conn:
        for at, (table_id, settings) in enumerate(written.items()):
            conn.execute(sa.text(INSERT_TABLE_0001), {"id": table_id, "settings": settings, "at": 1000.0 + at})
            conn.execute(sa.text(INSERT_SEAT_0001), {"id": table_id})
        conn.execute(sa.text("insert into moves (table_id, number, seat, action, at) values ('priv', 1, 0, 7, 1.0)"))
    engine.dispose()

    upgrade_schema(sync_url)

    async def scenario():
        store = Store(db_url)
        await store.open()
        listed = await store.listing()
        private = await store.load("priv")
        await store.close()
        return listed, private

    listed, private = run(scenario())
    engine = sa.create_engine(sync_url)
    with engine.connect() as conn:
        public = dict(conn.execute(sa.text("select id, public from tables")).all())
    engine.dispose()
    assert scalar(db_url, "select count(*) from seats") == 3
    assert scalar(db_url, "select version_num from alembic_version") == head_revision()
    assert {table_id: bool(flag) for table_id, flag in public.items()} == {"pub": True, "priv": False, "old": True}
    assert [t["id"] for t in listed] == ["old", "pub"]
    assert private.moves == [(0, 7)] and private.settings == {"public": False}


def test_a_database_written_at_0002_upgrades_its_live_time_limits_to_the_games_names(db_url):
    sync_url = database_url(db_url)
    upgrade_schema(sync_url, "0002")
    written = {"live": {"live": True, "pass_seconds": 20.0, "talk_seconds": 5.0, "public": True},
               "turns": {"live": False, "pass_seconds": 15.0, "talk_seconds": 8.0, "public": True}}
    engine = sa.create_engine(sync_url)
    with engine.begin() as conn:
        for at, (table_id, settings) in enumerate(written.items()):
            conn.execute(sa.text(INSERT_TABLE_0001), {"id": table_id, "settings": json.dumps(settings), "at": 1.0 + at})
    engine.dispose()

    upgrade_schema(sync_url)

    async def scenario():
        store = Store(db_url)
        await store.open()
        loaded = {table_id: (await store.load(table_id)).settings for table_id in written}
        await store.close()
        return loaded

    loaded = run(scenario())
    assert loaded["live"] == {"live": True, "public": True, "timings": {"pass": 20.0, "talk": 5.0}}
    assert loaded["turns"] == {"live": False, "public": True}
    TableSettings(**loaded["live"])  # what the server now reads


def test_waiting_tables_created_before_a_time_expire_with_their_seats(db_url):
    async def scenario():
        store = Store(db_url)
        await store.open()
        await store.create_table(table_row("old", created_at=1000.0))
        await store.create_table(table_row("old_playing", created_at=1000.0))
        await store.update_seat("old_playing", SeatRow(1, "person", "Bo", "cd" * 32), status="playing")
        await store.create_table(table_row("new", created_at=3000.0))
        expired = await store.expire_waiting(2000.0)
        again = await store.expire_waiting(2000.0)
        left = {table_id: await store.load(table_id) is not None for table_id in ("old", "old_playing", "new")}
        await store.close()
        return expired, again, left

    expired, again, left = run(scenario())
    assert expired == ["old"] and again == []
    assert left == {"old": False, "old_playing": True, "new": True}
    assert scalar(db_url, "select count(*) from seats where table_id = 'old'") == 0
    assert scalar(db_url, "select count(*) from seats") == 6


def finished_oboro(seed: int) -> tuple[list[tuple[int, int]], dict]:
    """The moves and result of a whole Oboro game played at random."""
    import random

    from ninjatable.core import get_game

    state = get_game("oboro").new_state(3, seed=seed, mission_value=11)
    rng = random.Random(seed)
    while not state.is_over():
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return [(seat, action) for seat, action in state.history], state.result()


def test_a_database_written_at_0003_upgrades_to_people_keeping_its_games(db_url):
    sync_url = database_url(db_url)
    upgrade_schema(sync_url, "0003")
    moves, result = finished_oboro(seed=4)
    engine = sa.create_engine(sync_url)
    with engine.begin() as conn:
        for table_id in ("done", "open"):
            conn.execute(sa.text(INSERT_TABLE_0001), {"id": table_id, "settings": '{"public": true}', "at": 50.0})
            conn.execute(sa.text(INSERT_SEAT_0001), {"id": table_id})
        conn.execute(sa.text("update tables set status = 'finished', result = :result, updated_at = 1234.5 "
                             "where id = 'done'"), {"result": json.dumps(result)})
        conn.execute(sa.text("update seats set kind = 'person', name = 'Ann' where table_id = 'done'"))
        conn.execute(sa.text("insert into moves (table_id, number, seat, action, at) values (:id, :n, :s, :a, 1.0)"),
                     [{"id": "done", "n": n, "s": s, "a": a} for n, (s, a) in enumerate(moves, 1)])
    engine.dispose()

    upgrade_schema(sync_url)

    async def scenario():
        store = Store(db_url)
        await store.open()
        loaded = {table_id: await store.load(table_id) for table_id in ("done", "open")}
        await store.close()
        return loaded

    loaded = run(scenario())
    assert scalar(db_url, "select version_num from alembic_version") == head_revision()
    assert loaded["done"].moves == moves and loaded["done"].result == result
    assert loaded["done"].seats[0] == SeatRow(0, "person", "Ann", None, None, None, None)  # a guest's seat
    assert loaded["done"].rematch_id is None and loaded["open"].status == "waiting"
    assert scalar(db_url, "select finished_at from tables where id = 'done'") == 1234.5
    assert scalar(db_url, "select finished_at from tables where id = 'open'") is None
    assert scalar(db_url, "select count(*) from tables where rated") == 0
    assert scalar(db_url, "select count(*) from accounts") == 0
    upgrade_schema(sync_url, "0003")  # and back: every game is still there
    assert scalar(db_url, "select count(*) from moves") == len(moves)


def test_a_database_written_at_0005_upgrades_to_devices_keeping_its_accounts_and_games(db_url):
    sync_url = database_url(db_url)
    upgrade_schema(sync_url, "0005")
    engine = sa.create_engine(sync_url)
    with engine.begin() as conn:
        conn.execute(sa.text(INSERT_TABLE_0001), {"id": "t1", "settings": '{"public": true}', "at": 50.0})
        conn.execute(sa.text(INSERT_SEAT_0001), {"id": "t1"})
        conn.execute(sa.text("insert into accounts (name, name_key, password_hash, created_at) "
                             "values ('Ann', 'ann', '$argon2id$...', 1.0)"))
        ann = conn.execute(sa.text("select id from accounts")).scalar()
        conn.execute(sa.text("insert into sessions (id_hash, account_id, created_at, expires_at) "
                             "values (:hash, :ann, 1.0, 2.0)"), {"hash": "ab" * 32, "ann": ann})
    engine.dispose()

    upgrade_schema(sync_url)

    assert scalar(db_url, "select version_num from alembic_version") == head_revision()
    for table in ("tables", "seats", "accounts", "sessions"):
        assert scalar(db_url, f"select count(*) from {table}") == 1, table
    assert scalar(db_url, "select count(*) from devices") == 0  # nobody's browser is known yet
    engine = sa.create_engine(sync_url)
    with engine.begin() as conn:
        conn.execute(sa.text("insert into devices (id_hash, account_id, created_at, expires_at) "
                             "values (:hash, :ann, 1.0, 2.0)"), {"hash": "cd" * 32, "ann": ann})
    engine.dispose()
    assert scalar(db_url, "select account_id from devices") == ann  # a device is the account's
