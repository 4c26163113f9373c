"""Ninjaaa'Tack in the browser, live: three people and a bot pass cards on the count, gesture and race to the gong;
a person who does not choose in time has their card chosen by the bot; of two taps at once only the first counts."""

from __future__ import annotations

import random
import re
import time

import pytest
from pages import Setup, create_through_the_lobby, every_page_shows_the_records_scores, finished, join_by_invite
from test_table_page import seat_page

GONG = ".livebar .gong-btn"
QUICK = {"countdown_seconds": 1, "bot_pause": 0}
SLOW_BOTS = {"reaction_min": 10.0, "reaction_max": 10.0}  # bots that never beat a test's people to the gong


def hand(page) -> dict[str, int]:
    """The seat's hand as drawn: family: cards."""
    counts: dict[str, int] = {}
    for family in page.locator(".nt-hand .nt-slot").evaluate_all("slots => slots.map(s => s.dataset.family)"):
        counts[family] = counts.get(family, 0) + 1
    return counts


def where(page) -> tuple[str, str, str] | None:
    """Round, passes and step as drawn, or None before the table is drawn."""
    table = page.locator(".nt-table")
    if not table.count():
        return None
    try:
        return tuple(table.evaluate("t => [t.dataset.round, t.dataset.passes, t.dataset.step]"))
    except Exception:  # redrawn under the look
        return None


def all_hands(ann, bo, cy) -> list[dict[str, int]] | None:
    """Every seat's hand: the three people's as their pages show them, the bot's the cards left over; None while
    the pages are not at the same moment of the game."""
    now = where(ann)
    if now is None or where(bo) != now or where(cy) != now:
        return None
    families = ann.locator(".nt-table").get_attribute("data-families").split()
    a, b, c = hand(ann), hand(bo), hand(cy)
    if any(where(p) != now for p in (ann, bo, cy)):
        return None
    bot = {f: 4 - a.get(f, 0) - b.get(f, 0) - c.get(f, 0) for f in families}
    return [a, b, c, {f: n for f, n in bot.items() if n}]


def clan(one: dict[str, int], other: dict[str, int]) -> bool:
    return any(one.get(f, 0) + other.get(f, 0) >= 4 for f in {*one, *other})


def penalised(page) -> bool:
    """Whether the page's team is under the Penalty this round."""
    return page.locator(".nt-team.yours .nt-tag.pen", has_text="this round").count() > 0


def ninjaaa_right(hand: dict[str, int], partner: dict[str, int], penalty: bool) -> bool:
    if penalty:
        return any(n >= 4 for n in [*hand.values(), *partner.values()])
    return clan(hand, partner)


def wrong_call(ann, bo, cy, hands) -> tuple | None:
    """A call that is wrong now, as (page, label): Bo's or Cy's Attack!, or Bo's or Ann's Ninjaaa!; None if every
    call would be right."""
    a, b, c, d = hands
    if not clan(a, c):
        return bo, "attack"
    if not clan(b, d):
        return cy, "attack"
    if not ninjaaa_right(b, d, penalised(bo)):
        return bo, "ninjaaa"
    if not ninjaaa_right(a, c, penalised(ann)):
        return ann, "ninjaaa"
    return None


def both_can_tap(ann, bo) -> bool:
    return (ann.locator(f"{GONG}[data-action='ninjaaa']").count() > 0
            and bo.locator(f"{GONG}[data-action^='attack']").count() > 0)


def clan_held(ann, hands: list[dict[str, int]]) -> bool:
    """Whether Ann and Cy may call Ninjaaa! now: a clan between them (under the Penalty, in one hand)."""
    a, _, c, _ = hands
    if ann.locator(".nt-team.yours .nt-tag.pen", has_text="this round").count():
        return any(n >= 4 for n in [*a.values(), *c.values()])
    return clan(a, c)


def pass_a_card(page, keep: str | None, rng: random.Random, give: bool = False) -> bool:
    """Click a card to pass: not of the family `keep` if it can help it (with `give`, of that family if held);
    False if no card is open to passing."""
    cards = page.locator(".nt-hand .nt-slot button.card.playable:not([disabled])")
    families = cards.evaluate_all("cs => cs.map(c => c.parentElement.dataset.family)")
    if not families:
        return False
    others = ([i for i, f in enumerate(families) if (f == keep) == give]
              or list(range(len(families))))
    try:
        cards.nth(rng.choice(others)).click(timeout=2000)
    except Exception:  # the count ended under the click
        return False
    return True


def gesture(page, rng: random.Random) -> bool:
    options = page.locator(".nt-gesture.playable:not([disabled])")
    count = options.count()
    if not count:
        return False
    try:
        options.nth(rng.randrange(count)).click(timeout=2000)
    except Exception:
        return False
    return True


def collected(ann, cy) -> str | None:
    """The family Ann and Cy hold most of together: the one their team collects."""
    a, c = hand(ann), hand(cy)
    together = {f: a.get(f, 0) + c.get(f, 0) for f in {*a, *c}}
    return max(sorted(together), key=together.get) if together else None


# A whole live game by clicking is a soak run (`make soak`, run by CI after `make test`); the tests below play a
# live step on this game's page in `make test`, and tests/server/test_live.py whole live games over the sockets.
@pytest.mark.soak
def test_three_people_and_a_bot_play_a_live_game_to_the_end(live, person, screenshots):
    # points_to_win 1 keeps the game short. Two wrong calls are made as the first rounds are dealt (by the gong's
    # button, then by its key), so the game goes on; then Ann and Cy keep the family they collect and Ann taps the
    # gong by its key (N) the moment their hands hold a clan. (If both teams are dealt a clan, no call can be wrong:
    # Ann's button and Bo's key tap at once, and the first to arrive ends the game.)
    setup = Setup("ninjaaatack", 4, {"points_to_win": 1}, fields={
        "Time to choose a card to pass (seconds)": 3, "Time for gestures after each pass (seconds)": 2,
        "The count before the chosen cards move (seconds)": 1,
        # The bot reacts in 6 to 7 s: the people's scripted calls come first, and a pass (the bot's card is chosen
        # after half its reaction time, then the count) comes before the bot could call at the gong.
        "Bots react after at least (seconds)": 6, "and at most (seconds)": 7})
    ann, bo, cy = person(), person(), person()
    invite = create_through_the_lobby(ann, live.url, setup)
    join_by_invite(bo, invite, "Bo")
    join_by_invite(cy, invite, "Cy")
    pages = [ann, bo, cy]
    for page in pages:
        page.locator(".nt-table").wait_for()
    rng = random.Random(3)
    taps: list[str] = []
    shots: set[str] = set()
    deadline = time.monotonic() + 90
    while not all(finished(p) for p in pages):
        assert time.monotonic() < deadline, "\n".join(["the live game did not end in time", str(taps),
                                                        *ann.locator(".log li").all_inner_texts()])
        now = where(ann)
        if now is None or finished(ann):
            ann.wait_for_timeout(50)
            continue
        round_, passes, step = now
        hands = all_hands(ann, bo, cy)
        wrong = wrong_call(ann, bo, cy, hands) if hands is not None and len(taps) < 2 else None
        if wrong is not None:
            # A wrong call (the test sees every hand), made at once, before the bot reacts: the game goes on.
            caller, label = wrong
            gong = caller.locator(f"{GONG}[data-action^='{label}']")
            if gong.count():
                if not taps:
                    gong.first.click()
                    taps.append("button")
                else:
                    caller.keyboard.press(label[0])
                    taps.append("key")
                caller.wait_for_function("r => document.querySelector('.nt-table').dataset.round !== r", arg=round_)
                continue
        if hands is not None and not taps and wrong is None and step == "pass" and both_can_tap(ann, bo):
            # Both teams hold a clan, so every call is right and ends the game: Ann by the button and Bo by his key
            # tap at the same instant, before the bot; one call is played, the other comes too late.
            at = ann.evaluate("() => Date.now() + 200")
            ann.evaluate(f"at => setTimeout(() => document.querySelector(\"{GONG}[data-action='ninjaaa']\").click(),"
                         " at - Date.now())", at)
            bo.evaluate("at => setTimeout(() => window.dispatchEvent(new KeyboardEvent('keydown', {key: 'a'})),"
                        " at - Date.now())", at)
            taps.extend(["button", "key"])
            ann.locator(".banner.done").wait_for()
            continue
        if (len(taps) >= 2 and hands is not None and clan_held(ann, hands)
                and ann.locator(f"{GONG}[data-action='ninjaaa']").count()):
            ann.keyboard.press("n")
            taps.append("key")
            ann.wait_for_timeout(300)
            continue
        # Ann and Cy keep the family they hold most of together (until the two wrong calls are made, they pass it
        # on: no call can be wrong while both teams hold a clan); Bo passes any card.
        most = collected(ann, cy) if step == "pass" else None
        for page in pages:
            if finished(page) or page.locator(".livebar .chosen").count():
                continue
            if step == "pass":
                if page is bo:
                    pass_a_card(page, None, rng)
                else:
                    pass_a_card(page, most, rng, give=len(taps) < 2)
            else:
                gesture(page, rng)
        # The first picture is the README's.
        for name, page, when in (("ninjaaatack", ann, "signal"), ("ninjaaatack-live-pass", cy, "pass")):
            if name not in shots and step == when and int(passes) >= 1 and ann.locator(".nt-bubble.fresh").count():
                page.screenshot(path=str(screenshots / f"{name}.png"), full_page=True)
                shots.add(name)
        ann.wait_for_timeout(60)
    assert "button" in taps and "key" in taps, "\n".join([str(taps), *ann.locator(".log li").all_inner_texts()])
    every_page_shows_the_records_scores(live, invite, pages)
    ann.screenshot(path=str(screenshots / "ninjaaatack-live-end.png"), full_page=True)


def ann_alone(live, person, settings: dict, people: int = 1, **size):
    """Pages of the people at a live four-seat table whose other seats are heuristic bots."""
    seats = ([{"kind": "person", "name": name} for name in ("Ann", "Bo")[:people]]
             + [{"kind": "bot", "bot": "heuristic"}] * (4 - people))
    created = live.create(game="ninjaaatack", players=4, seed=2, seats=seats, settings={**QUICK, **settings})
    table_id = created["table"]["id"]
    return [seat_page(person, live, table_id, s, created["tokens"][s]["token"], **size) for s in range(people)]


def test_a_person_who_does_not_choose_in_time_sees_the_bot_choose_and_the_pass_happen(live, person, screenshots):
    # On a phone-sized screen: the table must work there too. The time starts with the table, before the page
    # has loaded: 6 s leave the page time to show the hand first.
    (page,) = ann_alone(live, person, {**SLOW_BOTS, "timings": {"pass": 6, "talk": 30}}, width=390, height=844)
    page.locator(".nt-hand .nt-slot").first.wait_for()
    dealt = hand(page)
    # Ann never clicks: when her time is up the bot chooses her card, the page says so, and the count passes it.
    page.locator(".livebar .chosen", has_text="Time is up: the bot chose").wait_for(timeout=15_000)
    assert page.locator('.nt-seat[data-seat="0"] .nt-mark.bot').count() == 1
    page.screenshot(path=str(screenshots / "ninjaaatack-time-up.png"), full_page=True)
    # The bots wait 10 s before a call or a gesture: the talk after the pass is still on when the page is read.
    page.locator('.nt-table[data-step="signal"]').wait_for(timeout=15_000)
    received = page.locator(".log li", has_text="You pass")
    passed, got = received.inner_text().removeprefix("You pass ").split(" and receive ")
    after = dict(dealt)
    after[passed] -= 1
    after[got] = after.get(got, 0) + 1
    assert hand(page) == {f: n for f, n in after.items() if n}
    assert page.locator(".nt-slot.new", has_text=got).count() == 1
    page.locator(".nt-gesture.playable").first.wait_for()
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390  # nothing wider than the screen
    page.screenshot(path=str(screenshots / "ninjaaatack-phone-talk.png"), full_page=True)
    assert page.errors == []


def test_of_two_taps_at_the_gong_at_once_the_first_counts_and_the_other_is_told_late(live, person):
    ann, bo = ann_alone(live, person, {**SLOW_BOTS, "timings": {"pass": 60}}, people=2)
    for page in (ann, bo):
        page.locator(f"{GONG}[data-action='ninjaaa']").wait_for()
    # Both pages tap at the same instant of the browser's clock, before either can hear of the other's call.
    at = ann.evaluate("() => Date.now() + 300")
    for page in (ann, bo):
        page.evaluate("""at => setTimeout(() => document.querySelector(".livebar .gong-btn[data-action='ninjaaa']")
                           .click(), at - Date.now())""", at)
    late = ann.locator(".banner.error", has_text="too late")
    late_bo = bo.locator(".banner.error", has_text="too late")
    ann.wait_for_function("() => document.querySelector('.nt-call')")
    bo.locator(".nt-call").wait_for()
    deadline = time.monotonic() + 10
    while not (late.count() or late_bo.count()):
        assert time.monotonic() < deadline, "neither page was told it was late"
        ann.wait_for_timeout(50)
    loser, winner = (ann, bo) if late.count() else (bo, ann)
    assert (late.count(), late_bo.count()) in ((1, 0), (0, 1))
    who = "Bo" if winner is bo else "Ann"  # the page names the seats (the server's text says "Player N")
    assert f"{who} tapped the gong first" in loser.locator(".banner.error").inner_text()
    assert loser.locator(".nt-call", has_text="tapped the gong").count() == 1
    # One call only: the log of both pages names one tap at the gong.
    for page in (ann, bo):
        assert page.locator(".log li", has_text=re.compile(r"taps? the gong")).count() == 1  # "You tap" on its own
        assert page.errors == []
