"""Live tables (Ninjaaa'Tack in real time): held passes on a count, gestures shown at once, the race to the gong,
time limits handled by bots, chat, and a live game that replays exactly from its record."""

from __future__ import annotations

import asyncio

from live import SocketClient, run_async

from ninjatable.core import Record
from ninjatable.server.protocol import Said, Update

FAST = {"countdown_seconds": 0.2, "reaction_min": 0.05, "reaction_max": 0.1, "bot_pause": 0}
SLOW_BOTS = {"reaction_min": 8.0, "reaction_max": 8.0}  # bots that never beat a test's people to anything


def seats(people: int, players: int = 4, bot: str = "heuristic") -> list[dict]:
    names = ["Ann", "Bo", "Cy", "Di"]
    return ([{"kind": "person", "name": names[i]} for i in range(people)]
            + [{"kind": "bot", "bot": bot}] * (players - people))


def create(server, people: int, settings: dict, **body):
    # Seed 2: no bot taps the gong at the first pass, so the tests see a whole pass.
    created = server.create(game="ninjaaatack", seats=seats(people), seed=2, settings=settings, **body)
    return created["table"], [t["token"] for t in created["tokens"]]


def label_id(update: dict, label: str) -> int:
    return next(a["id"] for a in update["legal"] if a["label"] == label)


def first_pass(update: dict) -> int:
    return next(a["id"] for a in update["legal"] if a["label"].startswith("pass "))


def playing(m: dict) -> bool:
    return m["type"] == "update" and m["status"] == "playing" and m["live"] is not None


def test_a_table_with_people_plays_live_and_one_of_bots_does_not(server):
    table, _ = create(server, 1, {})
    assert table["settings"]["live"] is True
    assert table["options"]["gong_order"] == "arrival" and table["options"]["talk"] == "at_once"
    bots_only = server.create(game="ninjaaatack", seats=[{"kind": "bot", "bot": "random"}] * 4)["table"]
    assert bots_only["settings"]["live"] is False and bots_only["options"]["gong_order"] == "random"


def test_live_settings_that_cannot_work_are_refused_with_the_reason(server):
    with server.http() as http:
        dragon = http.post("/api/tables", json={"game": "dragon", "settings": {"live": True}})
        assert dragon.status_code == 400 and "no live mode" in dragon.json()["error"]
        clash = http.post("/api/tables", json={"game": "ninjaaatack", "options": {"gong_order": "random"}})
        assert clash.status_code == 400 and "gong_order=arrival" in clash.json()["error"]
        order = http.post("/api/tables", json={"game": "ninjaaatack",
                                               "settings": {"reaction_min": 2, "reaction_max": 1}})
        assert order.status_code == 422 and "reaction_min" in order.text
        # Time limits are set by the kinds of steps the game declares, and only those.
        unknown = http.post("/api/tables", json={"game": "ninjaaatack", "settings": {"timings": {"bid": 5}}})
        assert unknown.status_code == 400
        assert "no step named bid" in unknown.json()["error"] and "pass, talk" in unknown.json()["error"]
        untimed = http.post("/api/tables", json={"game": "oboro", "settings": {"timings": {"pass": 5}}})
        assert untimed.status_code == 400 and "it has no live mode" in untimed.json()["error"]
        too_short = http.post("/api/tables", json={"game": "ninjaaatack", "settings": {"timings": {"pass": 0.1}}})
        assert too_short.status_code == 422 and "timings.pass" in too_short.json()["error"]


def test_a_live_table_times_each_step_as_the_game_declares_it_and_says_so_in_its_words(server):
    games = {g["id"]: g for g in server.http().get("/api/games").json()}
    declared = {t["name"]: t for t in games["ninjaaatack"]["live_timings"]}
    assert {name: t["seconds"] for name, t in declared.items()} == {"pass": 15.0, "talk": 8.0}
    assert games["dragon"]["live_timings"] == [] and games["ninjaaatack"]["live_summary"]
    table, tokens = create(server, 1, {"timings": {"talk": 4}})
    assert table["settings"]["timings"] == {"pass": 15.0, "talk": 4}

    async def scenario():
        async with SocketClient(server, table["id"], tokens[0]) as ann:
            return await ann.wait_for(playing)

    live = run_async(scenario())["live"]
    assert live["timing"] == "pass" and live["ends"] <= 15.0
    assert (live["clock"], live["count_word"]) == (declared["pass"]["clock"], declared["pass"]["count_word"])


def test_passes_are_held_unseen_and_made_together_after_the_count(server):
    table, tokens = create(server, 2, {**FAST, **SLOW_BOTS, "countdown_seconds": 0.5})

    async def scenario():
        async with SocketClient(server, table["id"], tokens[0]) as ann, \
                SocketClient(server, table["id"], tokens[1]) as bo:
            start = await ann.wait_for(playing)
            await bo.wait_for(playing)
            assert start["live"]["held"] and start["live"]["chosen"] == []
            choice = first_pass(start)
            seen = len(bo.messages)
            await ann.act(choice)
            mine = await ann.wait_for(lambda m: playing(m) and m["live"]["mine"] is not None)
            assert mine["live"]["mine"]["id"] == choice and mine["version"] == 0  # held, not played
            Update.model_validate(mine)
            theirs = await bo.wait_for(lambda m: playing(m) and 0 in m["live"]["chosen"], since=seen)
            assert theirs["live"]["mine"] is None  # Bo sees that Ann chose, not what
            assert "pass" not in str(theirs["view"]["pending"][0] or "")
            await bo.act(first_pass(bo.last_update()))
            # The bots choose after their reaction time; then the count, then the pass together.
            counting = await ann.wait_for(lambda m: playing(m) and m["live"]["count"] is not None, timeout=30)
            assert counting["version"] == 0
            passed = await ann.wait_for(lambda m: playing(m) and m["view"]["passes"] == 1, timeout=30)
            assert passed["version"] == 4 and passed["view"]["step"] == "signal"

    run_async(scenario())
    record = server.hub.tables[table["id"]].record()
    assert [seat for seat, _ in record.moves][:2] == [0, 1]  # played in the order they were held


def test_the_first_tap_at_the_gong_wins_and_the_later_one_is_told_it_was_late(server):
    table, tokens = create(server, 2, {**FAST, **SLOW_BOTS})

    async def scenario():
        async with SocketClient(server, table["id"], tokens[0]) as ann, \
                SocketClient(server, table["id"], tokens[1]) as bo:
            start = await ann.wait_for(playing)
            await bo.wait_for(playing)
            ninjaaa = label_id(start, "ninjaaa")
            tap = {"type": "act", "action": ninjaaa, "at": start["version"]}
            await asyncio.gather(ann.send(tap), bo.send(tap))
            late = await asyncio.wait_for(_first_late(ann, bo), 20)
            return late

    loser, message = run_async(scenario())
    record = server.hub.tables[table["id"]].record()
    calls = [(seat, a) for seat, a in record.moves if record.moves]
    winner = calls[0][0]
    assert len(calls) == 1 and winner != loser  # only the first tap was played
    assert message["code"] == "late" and f"Player {winner + 1} tapped the gong first" in message["message"]


async def _first_late(ann: SocketClient, bo: SocketClient) -> tuple[int, dict]:
    while True:
        for seat, client in ((0, ann), (1, bo)):
            for m in client.messages:
                if m["type"] == "error":
                    assert m["code"] == "late", m
                    return seat, m
        await asyncio.sleep(0.02)


def test_a_call_at_the_gong_during_a_pass_drops_the_cards_held_for_that_pass(server):
    # Seed 7: Ann may pass the same families in the next round, so only the call tells the two passes apart.
    created = server.create(game="ninjaaatack", seats=seats(2), seed=7, settings={**FAST, **SLOW_BOTS})
    table, tokens = created["table"], [t["token"] for t in created["tokens"]]

    async def scenario():
        async with SocketClient(server, table["id"], tokens[0]) as ann, \
                SocketClient(server, table["id"], tokens[1]) as bo:
            start = await ann.wait_for(playing)
            await bo.wait_for(playing)
            await ann.act(first_pass(start))
            await ann.wait_for(lambda m: playing(m) and m["live"]["mine"] is not None)
            await bo.act(label_id(bo.last_update(), "ninjaaa"))
            return await ann.wait_for(lambda m: playing(m) and m["view"]["round"] == 2)

    after = run_async(scenario())
    assert after["live"]["mine"] is None and after["live"]["chosen"] == []  # a new pass: nothing chosen yet


def test_a_person_out_of_time_at_the_pass_has_their_card_chosen_by_the_bot(server):
    table, tokens = create(server, 1, {**FAST, **SLOW_BOTS, "timings": {"pass": 1}})

    async def scenario():
        async with SocketClient(server, table["id"], tokens[0]) as ann:
            start = await ann.wait_for(playing)
            assert start["live"]["held"] and (start["live"]["ends"] or 0) <= 1
            told = await ann.wait_for(lambda m: m["type"] == "notice", timeout=30)
            chosen = await ann.wait_for(lambda m: playing(m) and m["live"]["mine"] is not None, timeout=30)
            await ann.wait_for(lambda m: playing(m) and m["version"] > 0, timeout=30)
            return told, chosen

    told, chosen = run_async(scenario())
    assert told["text"] == "Time is up: the bot chooses for Player 1"
    assert chosen["live"]["timed_out"] == [0]  # the page can say the bot chose for Ann
    record = server.hub.tables[table["id"]].record()
    assert 0 in [seat for seat, _ in record.moves]  # Ann's seat moved without her


def test_a_gesture_is_shown_to_everybody_at_once_and_silence_fills_the_talk_time(server):
    table, tokens = create(server, 2, {**FAST, **SLOW_BOTS, "timings": {"pass": 1, "talk": 1.5}})

    async def scenario():
        async with SocketClient(server, table["id"], tokens[0]) as ann, \
                SocketClient(server, table["id"], tokens[1]) as bo:
            await ann.wait_for(lambda m: playing(m) and m["view"]["step"] == "signal", timeout=30)
            talk = await bo.wait_for(lambda m: playing(m) and m["view"]["step"] == "signal", timeout=30)
            await ann.act(label_id(ann.last_update(), "signal wink"))
            shown = await bo.wait_for(lambda m: playing(m) and m["view"]["signals"], since=bo.messages.index(talk))
            assert [(g["seat"], g["signal"]) for g in shown["view"]["signals"]] == [(0, "wink")]
            assert 1 in shown["view"]["to_move"]  # shown before Bo decided
            # Nobody else gestures: when the talk time is up they stay silent and the next pass begins.
            await bo.wait_for(lambda m: playing(m) and m["view"]["step"] == "pass", timeout=30,
                              since=bo.messages.index(shown))

    run_async(scenario())
    record = server.hub.tables[table["id"]].record()
    state = record.replay()
    labels = [state.action_label(a) for _, a in record.moves[4:8]]
    assert labels.count("signal wink") == 1 and labels.count("silence") == 3


def test_players_chat_and_everybody_reads_it(server):
    table, tokens = create(server, 2, {**FAST, **SLOW_BOTS})

    async def scenario():
        async with SocketClient(server, table["id"], tokens[0]) as ann, \
                SocketClient(server, table["id"], None) as watcher:
            await ann.wait_for(playing)
            await watcher.wait_for(playing)
            await ann.send({"type": "say", "text": "  good   luck  "})
            said = await watcher.wait_for(lambda m: m["type"] == "said")
            await watcher.send({"type": "say", "text": "hi"})
            refused = await watcher.wait_for(lambda m: m["type"] == "error")
            await ann.send({"type": "say", "text": "x" * 201})
            too_long = await ann.wait_for(lambda m: m["type"] == "error")
        async with SocketClient(server, table["id"], tokens[1]) as bo:
            welcome = await bo.wait_for(lambda m: m["type"] == "welcome")
        return said, refused, too_long, welcome

    said, refused, too_long, welcome = run_async(scenario())
    assert said == {"type": "said", "seat": 0, "name": "Ann", "text": "good luck"}
    Said.model_validate(said)
    assert refused["code"] == "spectator"
    assert too_long["code"] == "bad_message"
    assert welcome["chat"] == [said]


def test_a_live_game_with_bots_reacting_in_real_time_replays_exactly(server):
    table, tokens = create(server, 1, {**FAST, "timings": {"pass": 0.5, "talk": 0.5}}, options={"points_to_win": 1})

    async def scenario():
        async with SocketClient(server, table["id"], tokens[0]) as ann:
            return await ann.wait_for(lambda m: m["type"] == "update" and m["status"] == "finished", timeout=90)

    final = run_async(scenario(), timeout=120)
    with server.http() as http:
        record = Record.from_dict(http.get(f"/api/tables/{table['id']}/record").json())
    assert record.options["gong_order"] == "arrival"
    assert record.replay(check=True).scores() == final["view"]["scores"]
