"""The table page as people use it: reloading, leaving (a bot takes the seat), watching, replaying, a phone, the
keyboard; and a seat's page holds no card its seat may not see, neither in the DOM nor in any frame received."""

from __future__ import annotations

import json
import random

from pages import finished, my_turn, seat_page, take_turn
from test_secrecy import kernel_truth

from ninjatable.core import Record

DRAGON_COLOURS = {"purple": "P", "red": "R", "blue": "B", "green": "G"}


def dragon_table(live, people: int = 1, **settings):
    seats = [{"kind": "person", "name": n} for n in ["Ann", "Bo"][:people]]
    seats += [{"kind": "bot", "bot": "heuristic"}] * (4 - people)
    return live.create(game="dragon", seed=6, seats=seats, settings={"bot_pause": 0, **settings})


def play_moves(page, count: int, rng: random.Random) -> None:
    for _ in range(count):
        page.locator(".prompt.mine").wait_for(timeout=20_000)
        take_turn(page, rng)
        page.wait_for_timeout(50)


def test_a_reload_keeps_the_seat_and_play_goes_on(live, person):
    created = dragon_table(live)
    table_id, token = created["table"]["id"], created["tokens"][0]["token"]
    page = seat_page(person, live, table_id, 0, token)
    rng = random.Random(2)
    play_moves(page, 4, rng)
    page.locator(".prompt.mine").wait_for(timeout=20_000)  # the turn came back: the page shows the last card gone
    hand_before = page.locator(".area.mine .card").count()
    page.reload()
    page.locator(".area.mine").wait_for()
    assert page.locator(".seats li.me").inner_text().startswith("Player 1 (you)")
    assert page.locator(".area.mine .card").count() == hand_before
    play_moves(page, 3, rng)
    assert page.errors == []


def test_a_closed_page_is_played_by_the_bot_and_the_page_says_so(live, person):
    # Bo's seat is open until Ann's page is at the table: with a grace of 1 s a seat whose page is still loading
    # is played by its bot at once, and on a loaded machine the bots could finish the game before the pages come.
    created = live.create(game="dragon", seed=6, settings={"bot_pause": 0, "grace_seconds": 1},
                          seats=[{"kind": "person", "name": "Ann"}, {"kind": "open"},
                                 {"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "heuristic"}])
    table_id = created["table"]["id"]
    ann = seat_page(person, live, table_id, 0, created["tokens"][0]["token"])
    with live.http() as http:
        joined = http.post(f"/api/tables/{table_id}/join", json={"name": "Bo", "seat": 1}).json()
    bo = seat_page(person, live, table_id, 1, joined["token"])
    bo.close()  # the page goes, and its socket with it
    bo.context.close()
    ann.get_by_text("bot playing").wait_for(timeout=30_000)  # Bo's seat, after the grace time (slow if loaded)
    rng = random.Random(3)
    played_for_bo = ann.get_by_text("Bo plays").first
    while not played_for_bo.is_visible():
        if my_turn(ann):
            take_turn(ann, rng)
        ann.wait_for_timeout(50)
    # Bo comes back: his page says nothing of a bot any more
    back = seat_page(person, live, table_id, 1, joined["token"])
    assert back.locator(".banner.warn").count() == 0


def test_a_seats_page_holds_no_card_it_may_not_see(live, person):
    created = dragon_table(live)
    table_id, token = created["table"]["id"], created["tokens"][0]["token"]
    frames: list[dict] = []
    page = person()
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(json.loads(payload))))
    page.goto(live.url + "/")
    page.evaluate("([key, value]) => localStorage.setItem(key, value)",
                  [f"ninjatable:{table_id}", json.dumps({"seat": 0, "token": token, "name": "Ann"})])
    page.goto(f"{live.url}/t/{table_id}")
    rng = random.Random(4)
    shown: set[str] = set()
    for _ in range(6):
        play_moves(page, 1, rng)
        shown.update(shown_cards(page))
    page.close()
    record = Record.from_dict({**live.hub.tables[table_id].record().to_dict(), "result": None})
    truth, final_events = kernel_truth(record)
    # the DOM: every card face it showed was in one of the seat's views, or named by an event the seat was told
    # (the last trick stays on the table until the next card; the card that completes a trick is in no view's
    # trick, only in the public events "plays" and "wins the trick")
    seen = " ".join(json.dumps(views[0][0]) for views in truth.values())
    told = {word.strip("(),.") for event in final_events[0] for word in event["text"].split()}
    hidden = sorted(c for c in shown if f'"{c}"' not in seen and c not in told)
    assert shown and not hidden, hidden
    # every frame: exactly the kernel's view, choices and events for seat 0 at that move
    updates = [f for f in frames if f["type"] == "update"]
    assert updates
    for frame in updates:
        view, choice, _ = truth[frame["version"]][0]
        assert frame["view"] == view
        assert {k: frame[k] for k in choice} == choice
        assert frame["events"] == final_events[0][frame["events_from"]:frame["events_from"] + len(frame["events"])]


def shown_cards(page) -> list[str]:
    """The dragon cards whose faces the page shows, as labels (R7)."""
    out = []
    for label in page.locator(".card[aria-label]").evaluate_all("cards => cards.map(c => c.ariaLabel)"):
        words = label.split(" (")[0].split()
        if len(words) == 2 and words[0].isdigit() and words[1] in DRAGON_COLOURS:
            out.append(DRAGON_COLOURS[words[1]] + words[0])
    return out


def test_a_spectator_sees_the_table_but_no_hand(live, person):
    created = dragon_table(live)
    page = person()
    page.goto(created["table"]["spectate_url"])
    page.get_by_text("You are watching").wait_for()
    page.locator(".area").first.wait_for()
    assert page.locator(".area.mine").count() == 0
    assert page.locator("[data-action].playable").count() == 0
    public = json.dumps(live.hub.tables[created["table"]["id"]].state.view(None))
    assert all(f'"{card}"' in public for card in shown_cards(page))


def test_a_finished_game_replays_move_by_move(live, person):
    created = live.create(game="dragon", seed=9, settings={"bot_pause": 0},
                          seats=[{"kind": "bot", "bot": "random"}] * 4)
    table_id = created["table"]["id"]
    page = person()
    page.goto(f"{live.url}/t/{table_id}")
    page.locator(".banner.done").wait_for(timeout=30_000)
    page.get_by_role("link", name="Replay the game").click()
    page.get_by_text("Move 0 of").wait_for()
    page.get_by_role("button", name="Next ▶").click()
    page.get_by_text("Move 1 of").wait_for()
    page.keyboard.press("End")
    page.get_by_text("Move 0 of").wait_for(state="detached")
    assert page.locator(".log li").last.inner_text().startswith("The game is over")
    page.get_by_label("Seen by").select_option("2")
    page.wait_for_url("**/replay?seat=2")
    page.get_by_text("Move 0 of").wait_for()
    assert page.locator(".area.mine").count() == 1  # Player 3's own hand, as they saw it


def tab_to(page, selector: str) -> None:
    """Press Tab until the focused element matches `selector`, as a keyboard user would."""
    for _ in range(200):
        page.keyboard.press("Tab")
        if page.evaluate("(s) => document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def test_a_phone_sized_page_fits_and_every_move_is_reachable_by_keyboard(live, person):
    # seed 6: Player 1 begins with the Bodily Division, a multi-step choice with a confirmation
    created = dragon_table(live)
    page = seat_page(person, live, created["table"]["id"], 0, created["tokens"][0]["token"], width=390, height=844)
    page.locator(".prompt.mine").wait_for(timeout=20_000)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    tab_to(page, "[data-action].playable:not([disabled])")
    page.keyboard.press("Enter")  # a card set aside, in the draft
    page.get_by_role("button", name="Undo").wait_for()
    page.locator(".prompt .draft button:not([disabled])", has_text="Undo").wait_for()
    before = page.locator(".log li").count()
    tab_to(page, ".prompt .draft .btn.primary:not([disabled])")
    page.keyboard.press("Enter")  # confirmed: the split is played
    for _ in range(100):
        if page.locator(".log li").count() > before:
            break
        page.wait_for_timeout(50)
    assert page.locator(".log li").count() > before
    assert not finished(page)
