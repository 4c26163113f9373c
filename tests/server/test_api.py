"""The HTTP API: games, creating, listing and joining tables, public state, records; bad input is a clear 4xx."""

from __future__ import annotations

import pytest

from ninjatable.core import all_games


def seats(*kinds: str) -> list[dict]:
    out = []
    for kind in kinds:
        if kind == "person":
            out.append({"kind": "person", "name": "Ann"})
        elif kind == "open":
            out.append({"kind": "open"})
        else:
            out.append({"kind": "bot", "bot": kind})
    return out


def test_games_are_listed_with_their_options(server):
    with server.http() as http:
        games = http.get("/api/games").json()
        bots = http.get("/api/bots").json()
    assert [g["id"] for g in games] == [g.id for g in all_games()]
    dragon = next(g for g in games if g["id"] == "dragon")
    assert dragon["players"] == [3, 4, 5] and dragon["options"][0]["name"] == "advanced"
    assert {"random", "heuristic", "ismcts"} <= set(bots)


def test_a_new_table_waits_for_its_open_seats_and_gives_an_invite_link(server):
    created = server.create(game="oboro", seats=seats("person", "open", "heuristic"))
    table = created["table"]
    assert table["status"] == "waiting" and table["players"] == 3
    assert table["invite_url"].endswith(f"/t/{table['id']}")
    assert [s["kind"] for s in table["seats"]] == ["person", "open", "bot"]
    assert [t["seat"] for t in created["tokens"]] == [0]
    # the token is only in the creator's answer, never in the table as others see it
    with server.http() as http:
        public = http.get(f"/api/tables/{table['id']}").json()
    assert created["tokens"][0]["token"] not in str(public)
    assert public["view"] is None  # nothing is dealt to anyone before the start


def test_joining_fills_seats_and_starts_the_game(server):
    table = server.create(game="oboro", seats=seats("open", "open", "random"), settings={"bot_pause": 0})["table"]
    with server.http() as http:
        first = http.post(f"/api/tables/{table['id']}/join", json={"name": "Bo"}).json()
        taken = http.post(f"/api/tables/{table['id']}/join", json={"name": "Cy", "seat": 0})
        second = http.post(f"/api/tables/{table['id']}/join", json={"name": "Cy", "seat": 1}).json()
        full = http.post(f"/api/tables/{table['id']}/join", json={"name": "Di"})
        public = http.get(f"/api/tables/{table['id']}").json()
    assert first["seat"] == 0 and second["seat"] == 1 and first["token"] != second["token"]
    assert taken.status_code == 409 and "seat 0 is taken" in taken.json()["error"]
    assert full.status_code == 409
    assert public["table"]["status"] == "playing"
    assert [s["name"] for s in public["table"]["seats"][:2]] == ["Bo", "Cy"]
    # the spectator's view: hand sizes, never hands
    assert all(s["hand"] is None for s in public["view"]["seats"])


@pytest.mark.parametrize(("body", "expected"), [
    ({"game": "chess"}, "there is no game 'chess'"),
    ({"game": "dragon", "players": 9}, "dragon is played by 3, 4, 5 players, not 9"),
    ({"game": "dragon", "options": {"advanced": "maybe"}}, "option advanced='maybe' is not allowed"),
    ({"game": "dragon", "options": {"colour": 1}}, "dragon has no option 'colour'"),
    ({"game": "dragon", "seats": [{"kind": "open"}]}, "give one entry in seats per player: 4, not 1"),
    ({"game": "oboro", "seats": [{"kind": "bot", "bot": "wizard"}] * 3}, "there is no bot 'wizard'"),
    ({"game": "oboro", "seats": [{"kind": "bot", "bot": "ismcts:ms=99999"}] * 3},
     "a bot at a table on this server thinks at most"),
    ({"game": "oboro", "seats": [{"kind": "person", "name": " "}] * 3}, "a name is 1 to 32 printable characters"),
    ({"game": "oboro", "settings": {"bot": "nobody"}}, "there is no bot 'nobody'"),
])
def test_bad_tables_are_refused_with_what_is_allowed(server, body, expected):
    with server.http() as http:
        answer = http.post("/api/tables", json=body)
        listed = http.get("/api/tables").json()
    assert answer.status_code == 400
    assert expected in answer.json()["error"]
    assert listed == []  # nothing was stored


@pytest.mark.parametrize(("body", "field"), [
    ({"players": 4}, "game"),
    ({"game": "dragon", "settings": {"grace_seconds": -1}}, "settings.grace_seconds"),
    ({"game": "dragon", "seed": "x"}, "seed"),
    ({"game": "dragon", "colour": "red"}, "colour"),
])
def test_malformed_bodies_are_422_naming_the_field(server, body, field):
    with server.http() as http:
        answer = http.post("/api/tables", json=body)
    assert answer.status_code == 422
    assert answer.json()["error"].startswith(field)


def test_malformed_json_and_unknown_tables(server):
    with server.http() as http:
        broken = http.post("/api/tables", content=b"{not json", headers={"content-type": "application/json"})
        missing = http.get("/api/tables/nope")
        joined = http.post("/api/tables/nope/join", json={"name": "Ann"})
    assert broken.status_code == 422
    assert missing.status_code == 404 and "there is no table 'nope'" in missing.json()["error"]
    assert joined.status_code == 404


def test_private_tables_are_not_listed_and_show_no_view(server):
    public = server.create(game="gakko")["table"]
    private = server.create(game="gakko", settings={"public": False, "bot_pause": 0},
                            seats=[{"kind": "bot", "bot": "random"}] * 4)["table"]
    with server.http() as http:
        listed = [t["id"] for t in http.get("/api/tables").json()]
        seen = http.get(f"/api/tables/{private['id']}").json()
    assert public["id"] in listed and private["id"] not in listed
    assert seen["table"]["status"] != "waiting" and seen["view"] is None


def test_the_record_is_kept_back_until_the_game_is_over(server):
    table = server.create(game="oboro", seats=seats("person", "open", "open"))["table"]
    with server.http() as http:
        answer = http.get(f"/api/tables/{table['id']}/record")
    assert answer.status_code == 409 and "once the game is over" in answer.json()["error"]


def test_a_seat_plays_over_http_with_its_token(server):
    created = server.create(game="oboro", seats=seats("person", "random", "random"), settings={"bot_pause": 0})
    table_id, token = created["table"]["id"], created["tokens"][0]["token"]
    with server.http() as http:
        anonymous = http.get(f"/api/tables/{table_id}/seat")
        forged = http.get(f"/api/tables/{table_id}/seat", headers={"Authorization": "Bearer " + "x" * 32})
        mine = http.get(f"/api/tables/{table_id}/seat", headers={"Authorization": f"Bearer {token}"}).json()
    assert anonymous.status_code == 403 and forged.status_code == 403
    assert mine["seat"] == 0 and len(mine["view"]["seats"][0]["hand"]) == 8
    assert all(s["hand"] is None for s in mine["view"]["seats"][1:])


def test_openapi_documents_the_api(server):
    with server.http() as http:
        spec = http.get("/openapi.json").json()
    assert {"/api/games", "/api/tables", "/api/tables/{table_id}/join", "/api/tables/{table_id}/record"} <= set(
        spec["paths"])


def test_the_pages_their_icon_and_each_games_drawing_are_served(server):
    with server.http() as http:
        page = http.get("/t/anything")
        assert page.status_code == 200 and "script-src 'self'" in page.headers["content-security-policy"]
        assert 'rel="icon"' in page.text
        icon = http.get("/favicon.ico")
        assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg+xml")
        for game in ("dragon", "oboro", "clanwars", "gakko"):
            drawing = http.get(f"/games/{game}/web.js")
            assert drawing.status_code == 200 and "export function draw" in drawing.text
        missing = http.get("/games/dragon/rules.py")
        assert missing.status_code == 404 and "no file" in missing.json()["error"]


def test_a_games_rules_are_served_from_the_text_the_command_line_shows(server):
    from ninjatable.core import get_game

    with server.http() as http:
        answer = http.get("/api/games/clanwars/rules")
        unknown = http.get("/api/games/chess/rules")
    assert answer.status_code == 200
    body = answer.json()
    assert body["markdown"] == get_game("clanwars").rules_text()
    assert body["html"].startswith("<h1>Ninja Clan Wars") and "<script" not in body["html"]
    assert unknown.status_code == 400 and "clanwars" in unknown.json()["error"]
