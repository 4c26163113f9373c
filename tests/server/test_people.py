"""People: accounts and their sessions, rated tables and ratings, people's pages and leaderboards, and rematch.

Each security rule of docs/server.md ("Accounts") has a test here that fails without it.
"""

from __future__ import annotations

import asyncio
import json
import time

import httpx
import pytest
import sqlalchemy as sa
import websockets
from live import run_async

from ninjatable.server.accounts import DEVICE_COOKIE, SESSION_COOKIE, hash_password
from ninjatable.server.ratings import recompute, stored
from ninjatable.server.store import accounts, database_url

PASSWORD = "correct horse battery"
ELSEWHERE = "http://evil.example"


def person(server, name: str, password: str = PASSWORD, signup: bool = True) -> httpx.Client:
    """A browser of its own (its own cookies), signed up (or logged in) as `name`."""
    client = server.http()
    answer = client.post(f"/api/account/{'signup' if signup else 'login'}", json={"name": name, "password": password})
    assert answer.status_code == (201 if signup else 200), answer.text
    return client


def session_of(client: httpx.Client) -> str:
    return client.cookies[SESSION_COOKIE]


def logged_in_as(server, session: str) -> str | None:
    with server.http() as http:
        http.cookies.set(SESSION_COOKIE, session)
        return http.get("/api/account").json()["name"]


def wait_until(check, timeout: float = 60.0, what: str = "the condition"):
    deadline = time.monotonic() + timeout
    while True:
        found = check()
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not happen within {timeout} s")
        time.sleep(0.1)


def finished(server, table_id: str) -> dict:
    def done():
        with server.http() as http:
            info = http.get(f"/api/tables/{table_id}").json()["table"]
        return info if info["status"] == "finished" else None

    return wait_until(done, what=f"the end of table {table_id}")


def rated_game_with_a_bot(server, ann: httpx.Client, bo: httpx.Client, seed: int = 5) -> str:
    """Ann creates a rated Oboro table (her seat, one open, a heuristic bot); Bo joins as his account. Nobody
    connects: after the grace time (none) the table's bot plays for both, and the result counts for them."""
    answer = ann.post("/api/tables", json={
        "game": "oboro", "seed": seed, "seats": [{"kind": "person"}, {"kind": "open"},
                                                 {"kind": "bot", "bot": "heuristic"}],
        "settings": {"rated": True, "grace_seconds": 0, "bot_pause": 0}})
    assert answer.status_code == 201, answer.text
    table_id = answer.json()["table"]["id"]
    joined = bo.post(f"/api/tables/{table_id}/join", json={})
    assert joined.status_code == 200, joined.text
    assert joined.json()["seat"] == 1
    return table_id


# --- accounts and sessions ---------------------------------------------------------------------------------
def test_signing_up_logs_in_with_an_httponly_samesite_cookie_and_stores_no_plain_password(server):
    ann = person(server, "Ann")
    cookie = ann.cookies.jar._cookies["127.0.0.1"]["/"][SESSION_COOKIE]
    assert cookie.has_nonstandard_attr("HttpOnly")
    assert cookie.get_nonstandard_attr("SameSite") == "lax"
    assert not cookie.secure  # served over http here; over https the cookie is Secure (next test)
    assert ann.get("/api/account").json() == {"name": "Ann"}
    engine = sa.create_engine(database_url(server.db_url))
    with engine.connect() as conn:
        row = conn.execute(accounts.select()).one()
    engine.dispose()
    assert row.password_hash.startswith("$argon2id$") and PASSWORD not in row.password_hash
    # the database holds the session's hash, never the id the cookie carries
    assert session_of(ann) not in json.dumps([list(r) for r in _all_rows(server, "sessions")])


def _all_rows(server, table: str) -> list:
    engine = sa.create_engine(database_url(server.db_url))
    with engine.connect() as conn:
        rows = conn.execute(sa.text(f"SELECT * FROM {table}")).all()
    engine.dispose()
    return rows


def test_the_session_cookie_is_secure_when_the_site_is_served_over_https(server):
    with server.http() as http:
        answer = http.post("/api/account/signup", json={"name": "Ann", "password": PASSWORD},
                           headers={"X-Forwarded-Proto": "https"})
        # uvicorn believes X-Forwarded-Proto from loopback (its default --forwarded-allow-ips)
        assert "secure" in answer.headers["set-cookie"].lower()


def test_names_are_unique_regardless_of_case_and_shown_as_chosen(server):
    person(server, "Ann")
    with server.http() as http:
        taken = http.post("/api/account/signup", json={"name": "aNN", "password": PASSWORD})
        short = http.post("/api/account/signup", json={"name": "Cy", "password": "short"})
    assert taken.status_code == 409 and taken.json()["code"] == "name_taken"
    assert short.status_code == 400 and "8 to 256" in short.json()["error"]
    bo = person(server, "ann", signup=False)  # logging in ignores case too
    assert bo.get("/api/account").json() == {"name": "Ann"}


def test_an_unknown_name_and_a_wrong_password_get_the_same_answer(server):
    person(server, "Ann")
    with server.http() as http:
        unknown = http.post("/api/account/login", json={"name": "Nobody", "password": PASSWORD})
        wrong = http.post("/api/account/login", json={"name": "Ann", "password": "not the password"})
    assert unknown.status_code == wrong.status_code == 401
    assert unknown.json() == wrong.json() == {"error": "wrong name or password", "code": "bad_login"}
    assert SESSION_COOKIE not in unknown.cookies and SESSION_COOKIE not in wrong.cookies


def test_logging_in_makes_a_new_session_and_ends_one_planted_before(server):
    mallory = person(server, "Mallory")
    planted = session_of(mallory)  # an attacker's own session, set in Ann's browser (session fixation)
    person(server, "Ann").close()
    with server.http() as ann:
        ann.cookies.set(SESSION_COOKIE, planted)
        answer = ann.post("/api/account/login", json={"name": "Ann", "password": PASSWORD})
        assert answer.status_code == 200
        fresh = answer.cookies[SESSION_COOKIE]
    assert fresh != planted
    assert logged_in_as(server, fresh) == "Ann"
    assert logged_in_as(server, planted) is None  # the planted id is worth nothing now


def test_logging_out_ends_the_session_for_good(server):
    ann = person(server, "Ann")
    session = session_of(ann)
    assert ann.post("/api/account/logout").json() == {"name": None}
    assert logged_in_as(server, session) is None  # a copy of the old cookie logs nobody in


def test_changing_the_password_ends_every_other_session(server):
    phone = person(server, "Ann")
    laptop = person(server, "Ann", signup=False)
    old_laptop = session_of(laptop)
    wrong = phone.post("/api/account/password", json={"old_password": "guess", "new_password": "new password 1"})
    assert wrong.status_code == 401 and logged_in_as(server, old_laptop) == "Ann"
    changed = phone.post("/api/account/password", json={"old_password": PASSWORD, "new_password": "new password 1"})
    assert changed.status_code == 200, changed.text
    assert logged_in_as(server, old_laptop) is None
    assert phone.get("/api/account").json() == {"name": "Ann"}  # this browser has a new session
    with server.http() as http:
        assert http.post("/api/account/login", json={"name": "Ann", "password": PASSWORD}).status_code == 401
    person(server, "Ann", "new password 1", signup=False)


def test_a_request_from_another_site_carrying_the_cookie_is_refused_and_changes_nothing(server):
    ann = person(server, "Ann")
    forged = ann.post("/api/account/password", headers={"Origin": ELSEWHERE},
                      json={"old_password": PASSWORD, "new_password": "taken over!"})
    assert forged.status_code == 403 and forged.json()["code"] == "cross_site"
    by_referer = ann.post("/api/tables", headers={"Referer": f"{ELSEWHERE}/page"},
                          json={"game": "oboro", "seats": [{"kind": "person"}, {"kind": "open"}, {"kind": "open"}]})
    assert by_referer.status_code == 403
    null_origin = ann.post("/api/account/logout", headers={"Origin": "null"})
    assert null_origin.status_code == 403
    person(server, "Ann", signup=False)  # the password is unchanged
    assert ann.get("/api/account").json() == {"name": "Ann"}  # and the session was not ended
    assert ann.post("/api/account/logout", headers={"Origin": server.url}).status_code == 200
    # with no cookie the request speaks for nobody: the open API answers it as before
    with server.http() as guest:
        made = guest.post("/api/tables", headers={"Origin": ELSEWHERE}, json={"game": "oboro"})
    assert made.status_code == 201


def test_login_attempts_are_limited_per_name(server_with):
    server = server_with(login_name_burst=3, logins_per_name=0.001)
    person(server, "Ann").close()
    with server.http() as http:
        for _ in range(3):
            assert http.post("/api/account/login", json={"name": "Ann", "password": "wrong!!!"}).status_code == 401
        stopped = http.post("/api/account/login", json={"name": "ANN", "password": PASSWORD})
        other = http.post("/api/account/login", json={"name": "Bo", "password": "wrong!!!"})
    assert stopped.status_code == 429 and stopped.json()["code"] == "slow_down"
    assert other.status_code == 401  # another name is not held back


def test_login_attempts_are_limited_per_address(server_with):
    server = server_with(login_address_burst=3, logins_per_address=0.001)
    with server.http() as http:
        for name in ("A1", "A2", "A3"):
            assert http.post("/api/account/login", json={"name": name, "password": "wrong!!!"}).status_code == 401
        stopped = http.post("/api/account/login", json={"name": "A4", "password": "wrong!!!"})
    assert stopped.status_code == 429


def test_new_accounts_are_limited_per_address(server_with):
    server = server_with(signups_burst=2, signups_per_minute=0.001)
    for name in ("A1", "A2"):
        person(server, name).close()
    with server.http() as http:
        stopped = http.post("/api/account/signup", json={"name": "A3", "password": PASSWORD})
    assert stopped.status_code == 429 and stopped.json()["code"] == "slow_down"
    person(server, "A1", signup=False).close()  # logging in is another allowance


def test_the_right_password_does_not_use_up_the_names_allowance(server_with):
    server = server_with(login_name_burst=2, logins_per_name=0.001)
    person(server, "Ann").close()
    for _ in range(4):
        person(server, "Ann", signup=False).close()


def login(client: httpx.Client, name: str, password: str = PASSWORD) -> int:
    """The status of a login in this browser (its cookies go with it)."""
    return client.post("/api/account/login", json={"name": name, "password": password}).status_code


def strangers_guess(server, name: str, times: int) -> None:
    """Wrong passwords for `name` from a browser of no account's (here from the same address as everybody)."""
    with server.http() as stranger:
        for _ in range(times):
            assert login(stranger, name, "wrong!!!") == 401


def test_a_login_gives_the_browser_a_device_cookie_that_the_server_keeps_only_as_its_hash(server):
    ann = person(server, "Ann")
    assert login(ann, "Ann") == 200
    cookie = ann.cookies.jar._cookies["127.0.0.1"]["/api/account"][DEVICE_COOKIE]
    assert cookie.has_nonstandard_attr("HttpOnly") and cookie.get_nonstandard_attr("SameSite") == "lax"
    assert not cookie.secure and cookie.expires > time.time() + 300 * 86400  # long-lived; over https, Secure
    assert cookie.value not in json.dumps([list(r) for r in _all_rows(server, "devices")])
    with server.http() as http:
        answer = http.post("/api/account/login", json={"name": "Ann", "password": PASSWORD},
                           headers={"X-Forwarded-Proto": "https"})
    assert any(DEVICE_COOKIE in c and "secure" in c.lower() for c in answer.headers.get_list("set-cookie"))


def test_strangers_guessing_a_name_do_not_lock_out_its_owner_on_a_browser_that_logged_in_before(server_with):
    server = server_with(login_name_burst=3, logins_per_name=0.001)
    laptop = person(server, "Ann")
    assert login(laptop, "Ann") == 200  # an earlier login: the laptop is one of Ann's devices
    bo = person(server, "Bo")
    assert login(bo, "Bo") == 200  # Bo's browser is one of Bo's devices, not Ann's
    strangers_guess(server, "Ann", 3)
    with server.http() as new_browser:
        assert login(new_browser, "Ann") == 429  # a browser Ann never logged in from is held back
    assert login(bo, "Ann") == 429  # another account's device does not help
    assert login(laptop, "Ann") == 200 and login(laptop, "Ann") == 200  # each login gives a new device cookie
    assert laptop.get("/api/account").json() == {"name": "Ann"}
    # The laptop's attempts count against its own allowance: its wrong passwords hold back the laptop only.
    assert [login(laptop, "Ann", "wrong!!!") for _ in range(4)] == [401, 401, 401, 429]


def test_a_device_cookie_does_not_lift_the_limit_per_address(server_with):
    server = server_with(login_address_burst=3, logins_per_address=0.001)
    laptop = person(server, "Ann")
    assert login(laptop, "Ann") == 200
    strangers_guess(server, "Bo", 2)  # the same address: its allowance is spent
    assert login(laptop, "Ann") == 429


def test_a_new_password_forgets_the_browsers_that_knew_the_old_one(server_with):
    server = server_with(login_name_burst=3, logins_per_name=0.001)
    phone, laptop = person(server, "Ann"), person(server, "Ann", signup=False)
    changed = phone.post("/api/account/password", json={"old_password": PASSWORD, "new_password": "new password 1"})
    assert changed.status_code == 200, changed.text
    strangers_guess(server, "Ann", 3)
    assert login(laptop, "Ann", "new password 1") == 429  # the laptop's device cookie is worth nothing now


# --- look-alike names ----------------------------------------------------------------------------------------
CYRILLIC_ANN = "\u0410nn"  # "Аnn": a Cyrillic capital A, then Latin letters
GREEK_ANN = "\u0391nn"  # "Αnn": a Greek capital alpha, then Latin letters
CYRILLIC_POPE = "\u0420\u043e\u0440\u0435"  # "Роре": all Cyrillic, and it looks like "Pope"


def test_a_name_that_mixes_scripts_to_pass_for_another_is_refused_and_one_in_a_single_script_is_not(server):
    with server.http() as http:
        refused = {name: http.post("/api/account/signup", json={"name": name, "password": PASSWORD})
                   for name in (CYRILLIC_ANN, GREEK_ANN, "Pa\u03c5l")}  # "Paυl": a Greek upsilon for the u
    for name, answer in refused.items():
        assert answer.status_code == 400, name
        assert answer.json()["error"].startswith(f"the name {name!r} could pass for another:"), answer.text
    assert "Cyrillic letter that looks like a Latin one" in refused[CYRILLIC_ANN].json()["error"]
    for name in ("Анна", "山田たろう", "Анна-Мария 2", "山田 エリカ (3)", "José O'Neil 4"):
        person(server, name).close()  # one script, with any digits, spaces and punctuation
    with server.http() as http:
        assert http.get(f"/api/people/{CYRILLIC_ANN}").status_code == 404  # nobody was made


def test_an_account_made_before_the_rule_on_scripts_keeps_its_name(server):
    engine = sa.create_engine(database_url(server.db_url))
    with engine.begin() as conn:
        conn.execute(accounts.insert().values(name=CYRILLIC_ANN, name_key=CYRILLIC_ANN.casefold(),
                                              password_hash=hash_password(PASSWORD), created_at=time.time()))
    engine.dispose()
    old = person(server, CYRILLIC_ANN, signup=False)
    assert old.get("/api/account").json() == {"name": CYRILLIC_ANN}
    assert old.get(f"/api/people/{CYRILLIC_ANN}").json()["name"] == CYRILLIC_ANN


def test_a_guest_or_a_new_account_cannot_pass_for_an_account_with_look_alike_letters(server):
    ann = person(server, "Ann")
    person(server, "Pope").close()
    with server.http() as guest:
        made = guest.post("/api/tables", json={"game": "oboro", "seats": [{"kind": "person", "name": CYRILLIC_ANN},
                                                                         {"kind": "open"}, {"kind": "open"}]})
        table = guest.post("/api/tables", json={"game": "oboro"}).json()["table"]
        joined = guest.post(f"/api/tables/{table['id']}/join", json={"name": GREEK_ANN})
        whole = guest.post(f"/api/tables/{table['id']}/join", json={"name": CYRILLIC_POPE})
        twin = guest.post("/api/account/signup", json={"name": CYRILLIC_POPE, "password": PASSWORD})
        other = guest.post(f"/api/tables/{table['id']}/join", json={"name": "Анна"})  # like no account's name
    assert made.status_code == 400 and "belongs to an account" in made.json()["error"]
    assert joined.status_code == 400 and "log in as Ann" in joined.json()["error"]
    assert whole.status_code == 400 and "log in as Pope" in whole.json()["error"]
    assert twin.status_code == 409 and "looks like 'Pope'" in twin.json()["error"]
    assert other.status_code == 200, other.text
    assert ann.post(f"/api/tables/{table['id']}/join", json={}).status_code == 200


# --- rated tables, ratings and pages ------------------------------------------------------------------------
def test_a_rated_table_seats_accounts_only(server):
    with server.http() as guest:
        refused = guest.post("/api/tables", json={"game": "oboro", "settings": {"rated": True}})
    assert refused.status_code == 401 and refused.json()["code"] == "login"
    ann = person(server, "Ann")
    named = ann.post("/api/tables", json={"game": "oboro", "settings": {"rated": True}, "seats": [
        {"kind": "person"}, {"kind": "person", "name": "Guest"}, {"kind": "bot", "bot": "heuristic"}]})
    assert named.status_code == 400 and "accounts only" in named.json()["error"]
    only_bots = ann.post("/api/tables", json={"game": "oboro", "settings": {"rated": True},
                                              "seats": [{"kind": "bot", "bot": "random"}] * 3})
    assert only_bots.status_code == 400
    table = ann.post("/api/tables", json={"game": "oboro", "settings": {"rated": True}, "seats": [
        {"kind": "person"}, {"kind": "open"}, {"kind": "bot", "bot": "heuristic"}]}).json()["table"]
    assert table["rated"] and table["seats"][0]["account"] == "Ann"
    listed = ann.get("/api/tables").json()[0]
    assert listed["rated"] and listed["seats"][0]["account"] == "Ann" and listed["seats"][1]["account"] is None
    with server.http() as guest:
        joining = guest.post(f"/api/tables/{table['id']}/join", json={"name": "Guest"})
    assert joining.status_code == 401 and joining.json()["code"] == "login"
    twice = ann.post(f"/api/tables/{table['id']}/join", json={})
    assert twice.status_code == 409 and twice.json()["code"] == "seated"


def test_a_rated_game_rates_people_and_bots_and_recomputing_gives_the_same_numbers(any_server):
    server = any_server
    ann, bo = person(server, "Ann"), person(server, "Bo")
    first = rated_game_with_a_bot(server, ann, bo, seed=5)
    result = finished(server, first)
    assert result["seats"][0]["account"] == "Ann"  # played by the bot while away, and still Ann's
    second = rated_game_with_a_bot(server, bo, ann, seed=6)  # Bo at seat 0 this time
    finished(server, second)

    def rated_twice():
        page = ann.get("/api/people/Ann").json()
        return page if page["ratings"] and page["ratings"][0]["games"] == 2 else None

    page = wait_until(rated_twice, what="Ann's two rated games counted")
    oboro = page["ratings"][0]
    assert oboro["game"] == "oboro" and len(oboro["history"]) == 2
    assert [h["table"] for h in oboro["history"]] == [first, second]
    assert oboro["rating"] == round(oboro["mu"] - 3 * oboro["sigma"], 1)
    assert {g["table"] for g in page["games"]} == {first, second}
    assert all(g["rated"] and g["change"] is not None and 1 <= g["place"] <= 3 for g in page["games"])
    assert page["played"][0]["games"] == 2 and sum(page["played"][0]["places"]) == 2
    with server.http() as http:
        board = http.get("/api/leaderboard/oboro").json()
    assert {(e["kind"], e["name"]) for e in board["entries"]} == {
        ("person", "Ann"), ("person", "Bo"), ("bot", "heuristic")}
    assert [e["rank"] for e in board["entries"]] == [1, 2, 3]
    assert all(e["games"] == 2 for e in board["entries"])
    engine = sa.create_engine(database_url(server.db_url))
    try:
        again, kept = recompute(engine), stored(engine)
    finally:
        engine.dispose()
    assert again.keys() == kept.keys() and len(kept) == 3
    for key, (skill, games, wins) in kept.items():
        assert again[key][1:] == (games, wins)
        assert again[key][0].mu == pytest.approx(skill.mu, abs=1e-9)
        assert again[key][0].sigma == pytest.approx(skill.sigma, abs=1e-9)


def test_an_unrated_game_changes_no_rating_and_an_unknown_game_or_person_is_refused(server):
    ann = person(server, "Ann")
    table = ann.post("/api/tables", json={"game": "oboro", "seed": 2, "settings": {"grace_seconds": 0,
                                                                                   "bot_pause": 0},
                                          "seats": [{"kind": "person"}, {"kind": "bot", "bot": "random"},
                                                    {"kind": "bot", "bot": "random"}]}).json()["table"]
    finished(server, table["id"])
    page = ann.get("/api/people/Ann").json()
    assert page["ratings"] == [] and page["games"][0]["rated"] is False and page["games"][0]["change"] is None
    with server.http() as http:
        assert http.get("/api/leaderboard/oboro").json()["entries"] == []
        unknown = http.get("/api/leaderboard/chess")
        nobody = http.get("/api/people/Nobody")
    assert unknown.status_code == 400 and "oboro" in unknown.json()["error"]
    assert nobody.status_code == 404 and nobody.json()["code"] == "no_person"


def test_one_persons_private_tables_are_unreachable_with_anothers_session(server):
    ann, bo = person(server, "Ann"), person(server, "Bo")
    private = ann.post("/api/tables", json={"game": "oboro", "settings": {"public": False, "grace_seconds": 0,
                                                                          "bot_pause": 0},
                                            "seats": [{"kind": "person"}, {"kind": "bot", "bot": "random"},
                                                      {"kind": "bot", "bot": "random"}]}).json()["table"]
    waiting = ann.post("/api/tables", json={"game": "oboro", "settings": {"public": False},
                                            "seats": [{"kind": "person"}, {"kind": "open"}, {"kind": "open"}]})
    finished(server, private["id"])
    own = ann.get("/api/people/Ann").json()
    assert [g["table"] for g in own["games"]] == [private["id"]]
    assert bo.get("/api/people/Ann").json()["games"] == []
    with server.http() as guest:
        assert guest.get("/api/people/Ann").json()["games"] == []
        assert guest.get("/api/account/tables").status_code == 401
    assert [t["id"] for t in ann.get("/api/account/tables").json()["playing"]] == [waiting.json()["table"]["id"]]
    assert bo.get("/api/account/tables").json() == {"playing": [], "offers": []}


def test_a_seat_held_by_an_account_connects_by_its_session_and_never_from_another_site(server):
    ann = person(server, "Ann")
    table = ann.post("/api/tables", json={"game": "oboro", "seats": [{"kind": "person"}, {"kind": "open"},
                                                                     {"kind": "open"}]}).json()["table"]
    url = f"{server.ws_url}/ws/tables/{table['id']}"

    async def hello(origin: str, session: str | None) -> dict:
        headers = {"Origin": origin}
        if session:
            headers["Cookie"] = f"{SESSION_COOKIE}={session}"
        async with websockets.connect(url, additional_headers=headers) as ws:
            await ws.send(json.dumps({"type": "hello", "account": True}))
            return json.loads(await ws.recv())

    assert run_async(hello(server.url, session_of(ann)))["seat"] == 0
    forged = run_async(hello(ELSEWHERE, session_of(ann)))
    assert forged["type"] == "error" and forged["code"] == "cross_site"
    bo = person(server, "Bo")
    assert run_async(hello(server.url, session_of(bo)))["code"] == "not_seated"
    assert run_async(hello(server.url, None))["code"] == "login"
    mine = ann.get("/api/account/tables").json()["playing"]
    assert mine == [{"id": table["id"], "game": "oboro", "title": table["title"], "players": 3, "status": "waiting",
                     "seat": 0, "rated": False, "url": f"/t/{table['id']}", "your_move": False}]


# --- rematch ----------------------------------------------------------------------------------------------------
def test_play_again_rotates_the_seats_and_keeps_each_accounts_seat_for_it(server):
    ann, bo = person(server, "Ann"), person(server, "Bo")
    old = rated_game_with_a_bot(server, ann, bo, seed=7)
    finished(server, old)
    with server.http() as stranger:
        refused = stranger.post(f"/api/tables/{old}/rematch")
    assert refused.status_code == 403 and refused.json()["code"] == "bad_token"
    made = ann.post(f"/api/tables/{old}/rematch")
    assert made.status_code == 201, made.text
    new = made.json()["table"]
    assert made.json()["seat"] == 1  # Ann sat at 0: now at 1
    assert [(s["kind"], s["account"], s["offered"], s["bot"]) for s in new["seats"]] == [
        ("bot", None, None, "heuristic"), ("person", "Ann", None, None), ("open", None, "Bo", None)]
    assert new["rated"] and new["rematch_of"] == old and new["status"] == "waiting"
    with server.http() as http:
        assert http.get(f"/api/tables/{old}").json()["table"]["rematch"] == new["id"]
        cy = person(server, "Cy")
        kept = cy.post(f"/api/tables/{new['id']}/join", json={})
    assert kept.status_code == 409 and kept.json()["code"] == "full"
    offers = bo.get("/api/account/tables").json()["offers"]
    assert [(o["id"], o["seat"], o["from"]) for o in offers] == [(new["id"], 2, old)]
    again = bo.post(f"/api/tables/{old}/rematch")  # asking again: the same table, and Bo takes his seat
    assert again.status_code == 200 and again.json()["table"]["id"] == new["id"] and again.json()["seat"] == 2
    assert again.json()["table"]["status"] == "playing"
    assert bo.get("/api/account/tables").json()["offers"] == []


def test_a_kept_seat_declined_is_open_to_anyone(server):
    ann, bo = person(server, "Ann"), person(server, "Bo")
    old = rated_game_with_a_bot(server, ann, bo, seed=8)
    finished(server, old)
    new = ann.post(f"/api/tables/{old}/rematch").json()["table"]
    assert bo.post(f"/api/tables/{new['id']}/decline").status_code == 200
    assert bo.post(f"/api/tables/{new['id']}/decline").json()["code"] == "no_offer"
    cy = person(server, "Cy")
    assert cy.post(f"/api/tables/{new['id']}/join", json={}).json()["seat"] == 2


def test_a_guest_plays_again_with_a_seat_token_and_the_table_tells_its_sockets(server):
    created = server.create(game="oboro", seed=3, settings={"bot_pause": 0, "grace_seconds": 0},
                            seats=[{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "random"},
                                   {"kind": "person", "name": "Bo"}])
    old = created["table"]["id"]
    ann_token = created["tokens"][0]["token"]
    finished(server, old)

    async def watch_and_ask() -> tuple[dict, dict]:
        async with websockets.connect(f"{server.ws_url}/ws/tables/{old}") as ws:
            await ws.send(json.dumps({"type": "hello"}))
            async with httpx.AsyncClient(base_url=server.url) as http:
                answer = await http.post(f"/api/tables/{old}/rematch",
                                         headers={"Authorization": f"Bearer {ann_token}"})
            while True:
                message = json.loads(await ws.recv())
                if message["type"] == "rematch":
                    return answer.json(), message

    joined, told = run_async(watch_and_ask())
    new = joined["table"]
    assert told == {"type": "rematch", "table": new["id"], "url": f"{server.url}/t/{new['id']}"}
    assert joined["seat"] == 1 and joined["token"]
    assert [(s["kind"], s["name"]) for s in new["seats"]] == [("open", None), ("person", "Ann"), ("bot", None)]
    with server.http() as http:
        seat = http.get(f"/api/tables/{new['id']}/seat", headers={"Authorization": f"Bearer {joined['token']}"})
    assert seat.json()["seat"] == 1


def test_play_again_is_refused_before_the_end_and_changes_nothing(server):
    created = server.create(game="oboro", seats=[{"kind": "person", "name": "Ann"}, {"kind": "open"},
                                                 {"kind": "open"}])
    table_id, token = created["table"]["id"], created["tokens"][0]["token"]
    with server.http() as http:
        early = http.post(f"/api/tables/{table_id}/rematch", headers={"Authorization": f"Bearer {token}"})
        after = http.get(f"/api/tables/{table_id}").json()["table"]
        listed = http.get("/api/tables").json()
    assert early.status_code == 409 and early.json()["code"] == "not_finished"
    assert after["rematch"] is None and [t["id"] for t in listed] == [table_id]


# --- after a review: each finding, held by a test ------------------------------------------------------------
def test_a_private_tables_game_stays_off_another_persons_view_of_the_page_and_its_record_is_its_players(server):
    ann, bo = person(server, "Ann"), person(server, "Bo")
    answer = ann.post("/api/tables", json={
        "game": "oboro", "seed": 9, "seats": [{"kind": "person"}, {"kind": "open"}, {"kind": "bot", "bot": "random"}],
        "settings": {"rated": True, "public": False, "grace_seconds": 0, "bot_pause": 0}}).json()
    table_id = answer["table"]["id"]
    joined = bo.post(f"/api/tables/{table_id}/join", json={}).json()
    finished(server, table_id)
    wait_until(lambda: ann.get("/api/people/Ann").json()["ratings"], what="the private game rated")
    with server.http() as stranger:
        seen = stranger.get("/api/people/Ann").json()
        assert table_id not in json.dumps(seen)  # not in the games, nor in the rating's history
        assert stranger.get(f"/api/tables/{table_id}/record").status_code == 403
        assert stranger.get(f"/api/tables/{table_id}/replay?seat=0").status_code == 403
        by_token = stranger.get(f"/api/tables/{table_id}/record",
                                headers={"Authorization": f"Bearer {joined['token']}"})
    assert by_token.status_code == 200
    assert [h["table"] for h in ann.get("/api/people/Ann").json()["ratings"][0]["history"]] == [table_id]
    assert ann.get(f"/api/tables/{table_id}/replay?seat=0").status_code == 200  # by Ann's session


def test_logging_out_closes_the_accounts_sockets_and_a_new_password_voids_its_seat_tokens(server):
    ann = person(server, "Ann")
    created = ann.post("/api/tables", json={"game": "oboro", "seats": [{"kind": "person"}, {"kind": "open"},
                                                                       {"kind": "open"}]}).json()
    table_id, token = created["table"]["id"], created["tokens"][0]["token"]
    url = f"{server.ws_url}/ws/tables/{table_id}"
    session = session_of(ann)

    async def closed_when(action) -> dict:
        headers = {"Origin": server.url, "Cookie": f"{SESSION_COOKIE}={session}"}
        async with websockets.connect(url, additional_headers=headers) as ws:
            await ws.send(json.dumps({"type": "hello", "account": True}))
            assert json.loads(await ws.recv())["type"] == "welcome"
            await asyncio.to_thread(action)
            while True:
                message = json.loads(await ws.recv())
                if message["type"] == "error":
                    return message

    laptop = person(server, "Ann", signup=False)
    session = session_of(laptop)
    told = run_async(closed_when(lambda: laptop.post("/api/account/logout")))
    assert told["code"] == "logged_out"
    session = session_of(ann)
    told = run_async(closed_when(lambda: ann.post("/api/account/password", json={
        "old_password": PASSWORD, "new_password": "another password"})))
    assert told["code"] == "logged_out"
    with server.http() as http:
        old_token = http.get(f"/api/tables/{table_id}/seat", headers={"Authorization": f"Bearer {token}"})
    assert old_token.status_code == 403  # the token handed out before the new password seats nobody
    assert run_async(_account_hello(url, server.url, session_of(ann)))["seat"] == 0  # the new session does


async def _account_hello(url: str, origin: str, session: str) -> dict:
    headers = {"Origin": origin, "Cookie": f"{SESSION_COOKIE}={session}"}
    async with websockets.connect(url, additional_headers=headers) as ws:
        await ws.send(json.dumps({"type": "hello", "account": True}))
        return json.loads(await ws.recv())


def test_guessing_the_current_password_is_limited_like_logging_in(server_with):
    server = server_with(login_name_burst=3, logins_per_name=0.001)
    ann = person(server, "Ann")
    answers = [ann.post("/api/account/password", json={"old_password": f"guess {i}!", "new_password": "x" * 10})
               for i in range(4)]
    assert [a.status_code for a in answers] == [401, 401, 401, 429]


def test_an_account_takes_the_seat_a_rematch_keeps_for_it_and_no_other(server):
    ann, bo = person(server, "Ann"), person(server, "Bo")
    old = rated_game_with_a_bot(server, ann, bo, seed=10)
    finished(server, old)
    new = ann.post(f"/api/tables/{old}/rematch").json()["table"]
    elsewhere = bo.post(f"/api/tables/{new['id']}/join", json={"seat": 0})
    assert elsewhere.status_code == 409 and "kept for you" in elsewhere.json()["error"]
    with server.http() as http:
        listed = http.get("/api/tables").json()
    assert next(t for t in listed if t["id"] == new["id"])["open_seats"] == 0  # nothing a stranger could take
    assert bo.post(f"/api/tables/{new['id']}/join", json={}).json()["seat"] == 2


def test_a_rematch_is_made_once_even_when_its_table_was_read_back_and_again_after_it_expired(server_with):
    server = server_with(finished_kept=1)
    ann, bo = person(server, "Ann"), person(server, "Bo")
    old = rated_game_with_a_bot(server, ann, bo, seed=11)
    finished(server, old)
    first = ann.post(f"/api/tables/{old}/rematch").json()["table"]["id"]
    other = rated_game_with_a_bot(server, ann, bo, seed=12)  # its end pushes the first table out of memory
    finished(server, other)
    assert old not in server.hub.tables
    again = ann.post(f"/api/tables/{old}/rematch")
    assert again.status_code == 200 and again.json()["table"]["id"] == first
    run_async(server.hub.expire_waiting(time.time() + 60), timeout=30)  # Bo never came: the rematch expired
    third = bo.post(f"/api/tables/{old}/rematch")
    assert third.status_code == 201, third.text
    assert third.json()["table"]["id"] not in (first, other)


def test_names_no_account_could_have_are_refused_or_unknown_on_both_databases(any_server):
    server = any_server
    with server.http() as http:
        nul = http.get("/api/people/a%00b")
        login = http.post("/api/account/login", json={"name": "a\u0000b", "password": PASSWORD})
        long = http.post("/api/account/signup", json={"name": "\ufdfa" * 10, "password": PASSWORD})
        dots = http.post("/api/account/signup", json={"name": "..", "password": PASSWORD})
    assert nul.status_code == 404 and login.status_code == 401
    assert long.status_code == 400 and "too long" in long.json()["error"]
    assert dots.status_code == 400 and "dots" in dots.json()["error"]


def test_a_guest_cannot_pass_for_an_account(server):
    ann = person(server, "Ann")
    with server.http() as guest:
        made = guest.post("/api/tables", json={"game": "oboro", "seats": [{"kind": "person", "name": "ANN"},
                                                                         {"kind": "open"}, {"kind": "open"}]})
        table = guest.post("/api/tables", json={"game": "oboro"}).json()["table"]
        joined = guest.post(f"/api/tables/{table['id']}/join", json={"name": "ann"})
    assert made.status_code == 400 and "belongs to an account" in made.json()["error"]
    assert joined.status_code == 400 and "log in as Ann" in joined.json()["error"]
    assert ann.post(f"/api/tables/{table['id']}/join", json={}).status_code == 200


def test_the_cookie_outlives_a_session_the_server_renews_and_addresses_count_by_network():
    from ninjatable.server.accounts import COOKIE_DAYS, SESSION_DAYS, address_group

    assert COOKIE_DAYS > 2 * SESSION_DAYS  # the server, not the cookie's age, ends a session unused for 30 days
    assert address_group("2001:db8:1:2:aaaa::1") == address_group("2001:db8:1:2:bbbb::9") == "2001:db8:1:2::/64"
    assert address_group("2001:db8:1:3::1") != address_group("2001:db8:1:2::1")
    assert address_group("::ffff:10.0.0.7") == "10.0.0.7" and address_group("10.0.0.8") == "10.0.0.8"


def test_a_new_password_voids_the_accounts_seat_tokens_also_at_tables_no_process_holds_now(server):
    """A table whose process died is in nobody's memory until another takes it over: the stored seat token of the
    account is voided all the same, so a token stolen before the new password seats nobody there later."""
    from live import stored_row

    from ninjatable.server.security import token_matches

    ann = person(server, "Ann")
    created = ann.post("/api/tables", json={"game": "oboro", "seats": [{"kind": "person"}, {"kind": "bot",
                                                                       "bot": "random"}, {"kind": "open"}]}).json()
    table_id, token = created["table"]["id"], created["tokens"][0]["token"]
    server.hub.tables.pop(table_id).stop()  # as if its process had died: in no memory
    changed = ann.post("/api/account/password", json={"old_password": PASSWORD, "new_password": "another password"})
    assert changed.status_code == 200
    seat = stored_row(server.db_url, table_id).seats[0]
    assert seat.account_id is not None and not token_matches(token, seat.token_hash)
