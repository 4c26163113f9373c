"""Help at the table over the API: a finished game's post-game analysis (made once in the bot workers, kept, for
its readers only, within the server's limits) and hints (a table setting, never at a rated table)."""

from __future__ import annotations

import asyncio
import time

import httpx
from live import LiveServer, run_async

from ninjatable.analysis import analyse
from ninjatable.core import Record

BOTS = [{"kind": "bot", "bot": "random"}] * 2


def finished_table(live: LiveServer, seed: int = 1, **settings) -> str:
    """An Oboro table of three random bots, played to the end."""
    created = live.create(game="oboro", seed=seed, seats=[{"kind": "bot", "bot": "random"}] + BOTS,
                          settings={"bot_pause": 0, **settings})
    table_id = created["table"]["id"]
    with live.http() as http:
        wait_until(lambda: http.get(f"/api/tables/{table_id}").json()["table"]["status"] == "finished")
    return table_id


def wait_until(condition, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "waited too long"
        time.sleep(0.05)


def analysis_when_done(http, table_id: str, headers: dict | None = None) -> dict:
    answer = {}

    def done() -> bool:
        answer.update(http.get(f"/api/tables/{table_id}/analysis", headers=headers).json())
        return answer["status"] == "done"

    wait_until(done)
    return answer


def test_a_finished_games_analysis_is_made_once_kept_and_is_the_commands(sqlite_url):
    live = LiveServer(sqlite_url).start()
    try:
        table_id = finished_table(live)
        with live.http() as http:
            assert http.get(f"/api/tables/{table_id}/analysis").json() == {
                "status": "none", "done": 0, "of": 0, "analysis": None}
            asked = http.post(f"/api/tables/{table_id}/analysis")
            assert asked.status_code == 202 and asked.json()["status"] in ("waiting", "running", "done")
            assert asked.json()["of"] > 0
            answer = analysis_when_done(http, table_id)
            record = Record.from_dict(http.get(f"/api/tables/{table_id}/record").json())
    finally:
        live.stop()
    # the same record and seed give the same analysis as `ninjatable analyse`
    assert answer["analysis"] == analyse(record, seed=0).to_dict()
    assert answer["done"] == answer["of"] == len(answer["analysis"]["decisions"])
    assert [s["seat"] for s in answer["analysis"]["seats"]] == [0, 1, 2]
    # kept: another server on the same database serves it at once, and asking again makes nothing new
    again = LiveServer(sqlite_url).start()
    try:
        with again.http() as http:
            assert http.get(f"/api/tables/{table_id}/analysis").json() == answer
            assert http.post(f"/api/tables/{table_id}/analysis").json() == answer
            assert not again.app.state.analyses.making
    finally:
        again.stop()


def test_no_analysis_during_play(server):
    created = server.create(game="oboro", seed=2, seats=[{"kind": "person", "name": "Ann"}] + BOTS,
                            settings={"bot_pause": 0})
    table_id = created["table"]["id"]
    with server.http() as http:
        for method in (http.get, http.post):
            answer = method(f"/api/tables/{table_id}/analysis")
            assert answer.status_code == 409 and answer.json()["code"] == "not_finished"
            assert "finished game" in answer.json()["error"]
        assert http.get("/api/tables/nosuchtable/analysis").status_code == 404


def test_a_private_tables_analysis_is_for_its_players(server):
    created = server.create(game="oboro", seed=3, seats=[{"kind": "person", "name": "Ann"}] + BOTS,
                            settings={"bot_pause": 0, "public": False, "grace_seconds": 0})
    table_id, token = created["table"]["id"], created["tokens"][0]["token"]
    with server.http() as http:
        # nobody connects: the bot plays Ann's seat after the grace time, and the game ends
        wait_until(lambda: http.get(f"/api/tables/{table_id}/seat",
                                    headers={"Authorization": f"Bearer {token}"}).json()["status"] == "finished")
        for method in (http.get, http.post):
            answer = method(f"/api/tables/{table_id}/analysis")
            assert answer.status_code == 403, answer.text
        mine = {"Authorization": f"Bearer {token}"}
        assert http.post(f"/api/tables/{table_id}/analysis", headers=mine).status_code == 202
        assert analysis_when_done(http, table_id, mine)["analysis"]["game"] == "oboro"


def test_the_server_makes_a_bounded_number_of_analyses_at_once(server_with):
    live = server_with(analyses_at_once=1)
    first, second = finished_table(live, seed=4), finished_table(live, seed=5)
    with live.http() as http:
        assert http.post(f"/api/tables/{first}/analysis").status_code == 202
        busy = http.post(f"/api/tables/{second}/analysis")
        assert busy.status_code == 429 and busy.json()["code"] == "busy"
        assert "ask again" in busy.json()["error"]
        assert http.get(f"/api/tables/{second}/analysis").json()["status"] == "none"  # nothing was lost
        analysis_when_done(http, first)
        assert http.post(f"/api/tables/{second}/analysis").status_code == 202


def test_asking_many_times_at_once_makes_one_analysis_within_the_limit(server_with):
    live = server_with(analyses_at_once=1)
    first, second = finished_table(live, seed=4), finished_table(live, seed=5)

    async def at_once() -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=live.url, timeout=30, verify=False) as client:
            return await asyncio.gather(*(client.post(f"/api/tables/{t}/analysis")
                                          for t in (first, first, first, second, second)))

    answers = run_async(at_once(), 30)
    by_table = {t: [a.status_code for a in answers if t in str(a.request.url)] for t in (first, second)}
    making = dict(live.app.state.analyses.making)
    # one of the two tables is analysed (once, however often it was asked), the other is refused for now
    assert len(making) == 1
    made = next(iter(making))
    assert set(by_table[made]) == {202}
    other = second if made == first else first
    assert set(by_table[other]) == {429}
    with live.http() as http:
        analysis_when_done(http, made)


def test_one_address_has_a_bounded_number_of_analyses_in_the_making(server_with):
    live = server_with(analyses_per_address=1)
    first, second = finished_table(live, seed=4), finished_table(live, seed=5)
    with live.http() as http:
        assert http.post(f"/api/tables/{first}/analysis").status_code == 202
        refused = http.post(f"/api/tables/{second}/analysis")
        assert refused.status_code == 429 and refused.json()["code"] == "busy"
        assert "as many as one address may have at once" in refused.json()["error"]
        analysis_when_done(http, first)
        assert http.post(f"/api/tables/{second}/analysis").status_code == 202


def test_an_analysis_whose_decision_fails_withdraws_the_rest_and_may_be_asked_again(server, monkeypatch):
    from ninjatable.server import analyses

    table_id = finished_table(server, seed=9)
    pool = server.app.state.analyses.pool
    asked_for, weighed = [], []
    background = pool.background

    async def failing(work):
        asked_for.append(work)
        if len(asked_for) == 3:
            raise RuntimeError("a worker died")
        decision = await background(work)
        weighed.append(decision)
        return decision

    monkeypatch.setattr(pool, "background", failing)
    monkeypatch.setattr(analyses.log, "exception", lambda *args, **kwargs: None)
    with server.http() as http:
        asked = http.post(f"/api/tables/{table_id}/analysis").json()
        wait_until(lambda: http.get(f"/api/tables/{table_id}/analysis").json()["status"] == "none")
        wait_until(lambda: pool.running == 0 and not pool.later)  # whatever was still to be weighed, is
        assert len(weighed) < asked["of"] / 2  # the other decisions were withdrawn, not weighed
        monkeypatch.setattr(pool, "background", background)
        assert http.post(f"/api/tables/{table_id}/analysis").status_code == 202
        assert analysis_when_done(http, table_id)["analysis"]["decisions"]


def test_an_address_asks_for_a_bounded_number_of_analyses(server_with):
    live = server_with(analyses_burst=2, analyses_per_hour=1)
    tables = [finished_table(live, seed=s) for s in (6, 7, 8)]
    with live.http() as http:
        assert http.post(f"/api/tables/{tables[0]}/analysis").status_code == 202
        assert http.post(f"/api/tables/{tables[0]}/analysis").status_code == 202  # made or in the making: free
        analysis_when_done(http, tables[0])
        assert http.post(f"/api/tables/{tables[1]}/analysis").status_code == 202
        refused = http.post(f"/api/tables/{tables[2]}/analysis")
        assert refused.status_code == 429 and refused.json()["code"] == "slow_down"
        assert "1 an hour" in refused.json()["error"]


def hint_table(live: LiveServer, **settings) -> tuple[str, str]:
    created = live.create(game="oboro", seed=8, seats=[{"kind": "person", "name": "Ann"}] + BOTS,
                          settings={"bot_pause": 0, **settings})
    return created["table"]["id"], created["tokens"][0]["token"]


def my_turn(http, table_id: str, token: str) -> dict:
    mine = {}

    def ready() -> bool:
        mine.update(http.get(f"/api/tables/{table_id}/seat", headers={"Authorization": f"Bearer {token}"}).json())
        return bool(mine["legal"])

    wait_until(ready)
    return mine


def test_a_hint_is_the_tables_bots_move_for_the_seat(server, monkeypatch):
    table_id, token = hint_table(server, hints=True)
    pool, decided = server.hub.bots, []
    decide = pool.decide

    async def counted(bot, state, seat, owner=""):
        decided.append(seat)
        return await decide(bot, state, seat, owner)

    mine = {"Authorization": f"Bearer {token}"}
    with server.http() as http:
        seat = my_turn(http, table_id, token)
        monkeypatch.setattr(pool, "decide", counted)
        hint = http.post(f"/api/tables/{table_id}/hint", headers=mine)
        assert hint.status_code == 200, hint.text
        body = hint.json()
        assert body["action"] in [a["id"] for a in seat["legal"]]
        assert body["label"] == next(a["label"] for a in seat["legal"] if a["id"] == body["action"])
        assert body["version"] == seat["version"] and body["draft"] == [] and body["bot"] == "heuristic"
        # the same position, the same hint, worked out once; and nothing was played for the seat
        assert http.post(f"/api/tables/{table_id}/hint", headers=mine).json() == body
        assert decided == [0]
        assert http.get(f"/api/tables/{table_id}/seat", headers=mine).json()["version"] == seat["version"]
        stranger = http.post(f"/api/tables/{table_id}/hint")
        assert stranger.status_code == 403


def test_no_hints_unless_the_table_gives_them_and_never_at_a_rated_table(server):
    table_id, token = hint_table(server)
    with server.http() as http:
        my_turn(http, table_id, token)
        refused = http.post(f"/api/tables/{table_id}/hint", headers={"Authorization": f"Bearer {token}"})
        assert refused.status_code == 403 and refused.json()["code"] == "no_hints"
        rated = http.post("/api/tables", json={"game": "oboro", "settings": {"hints": True, "rated": True}})
        assert rated.status_code == 422 and "a rated table gives no hints" in rated.json()["error"]


def test_a_hint_is_for_the_seat_whose_move_it_is(server):
    created = server.create(game="oboro", seed=8, settings={"hints": True},
                            seats=[{"kind": "person", "name": name} for name in ("Ann", "Bo", "Cy")])
    table_id, tokens = created["table"]["id"], [t["token"] for t in created["tokens"]]
    with server.http() as http:
        waiting = [t for t in tokens if not http.get(f"/api/tables/{table_id}/seat", headers={
            "Authorization": f"Bearer {t}"}).json()["legal"]]
        assert len(waiting) == 2  # one seat leads the first trick
        refused = http.post(f"/api/tables/{table_id}/hint", headers={"Authorization": f"Bearer {waiting[0]}"})
        assert refused.status_code == 409 and refused.json()["code"] == "not_your_move"


def test_a_seat_asks_for_a_bounded_number_of_hints(server_with):
    live = server_with(hints_burst=1, hints_per_minute=1)
    table_id, token = hint_table(live, hints=True)
    mine = {"Authorization": f"Bearer {token}"}
    with live.http() as http:
        my_turn(http, table_id, token)
        assert http.post(f"/api/tables/{table_id}/hint", headers=mine).status_code == 200
        refused = http.post(f"/api/tables/{table_id}/hint", headers=mine)
        assert refused.status_code == 429 and refused.json()["code"] == "slow_down"


def test_a_seat_waits_for_its_hint_before_asking_for_another(server_with):
    live = server_with(hints_burst=10)
    created = live.create(game="oboro", seed=8, seats=[{"kind": "person", "name": "Ann"}] + BOTS,
                          settings={"bot_pause": 0, "hints": True, "bot": "ismcts:ms=1500"})
    table_id, token = created["table"]["id"], created["tokens"][0]["token"]
    mine = {"Authorization": f"Bearer {token}"}
    with live.http() as http:
        my_turn(http, table_id, token)

    async def both() -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=live.url, timeout=30, verify=False) as client:
            first = asyncio.create_task(client.post(f"/api/tables/{table_id}/hint", headers=mine))
            await asyncio.sleep(0.5)  # the first is being worked out: the search thinks for 1.5 s
            second = await client.post(f"/api/tables/{table_id}/hint", headers=mine)
            return [await first, second]

    answers = sorted(run_async(both(), 30), key=lambda a: a.status_code)
    assert [a.status_code for a in answers] == [200, 429]  # whichever reached the server second is refused
    assert "already being worked out" in answers[1].json()["error"]


def test_a_hint_in_the_middle_of_a_choice_of_several_steps_is_a_next_step(server):
    # Shinobi no Gakko begins with each player splitting their hand, one card at a time, then "done".
    # Three people: nobody else moves meanwhile (the split is made by everybody at once).
    created = server.create(game="gakko", players=3, seed=1, settings={"hints": True},
                            seats=[{"kind": "person", "name": name} for name in ("Ann", "Bo", "Cy")])
    table_id, token = created["table"]["id"], created["tokens"][0]["token"]
    mine = {"Authorization": f"Bearer {token}"}
    with server.http() as http:
        first = my_turn(http, table_id, token)
        assert first["decision"]["multi"]
        step = first["legal"][0]["id"]
        drafted = http.post(f"/api/tables/{table_id}/actions", json={"action": step}, headers=mine).json()
        assert drafted["draft"] == [step]
        hint = http.post(f"/api/tables/{table_id}/hint", headers=mine).json()
    assert hint["draft"] == [step] and hint["version"] == drafted["version"]
    assert hint["action"] in [a["id"] for a in drafted["legal"]]
