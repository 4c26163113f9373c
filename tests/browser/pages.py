"""Driving the table pages in Chromium like a person: find what is clickable, click it, read what is shown."""

from __future__ import annotations

import json
import random
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from ninjatable.core import Record, get_game

CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def chromium_path() -> str | None:
    """Debian's Chromium (the browser tests never download a browser)."""
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None


PLAYABLE = "[data-action].playable:not([disabled]), .actions button.playable:not([disabled])"
# At a live table: the race to the gong (instant actions, the page's own buttons), and a choice already held.
INSTANT = ".livebar .instant-btn"
HELD = ".livebar .chosen"


def my_turn(page) -> bool:
    """The page has something to decide: at a live table every seat decides at once, but a seat whose choice is
    held for the count has nothing more to do."""
    return page.locator(".prompt.mine").count() > 0 and page.locator(HELD).count() == 0


def enabled_now(locator) -> bool:
    """The element is there and enabled; False if it is not, or if the page redrew it away meanwhile (an update
    arrived), which the next look at the page sees."""
    from playwright.sync_api import Error as Redrawn  # its TimeoutError too

    try:
        return locator.count() > 0 and locator.is_enabled(timeout=1000)
    except Redrawn:
        return False


def click_now(locator) -> bool:
    """Click the element; False if the page redrew it away under the click."""
    from playwright.sync_api import Error as Redrawn

    try:
        locator.click(timeout=2000)
    except Redrawn:
        return False
    return True


def take_turn(page, rng: random.Random) -> bool:
    """Make one decision by clicking, as a person would; False if there was nothing to click."""
    confirm = page.locator(".prompt .draft .btn.primary")
    if enabled_now(confirm) and rng.random() < 0.6:
        return click_now(confirm)
    # A live table's gong ends the round for everybody: tapped now and then, not as often as a card is played.
    instant = page.locator(INSTANT).count() > 0 and rng.random() < 0.03
    options = page.locator(INSTANT if instant else f":is({PLAYABLE}):not(.instant-btn)")
    count = options.count()
    if not count:
        return enabled_now(confirm) and click_now(confirm)
    return click_now(options.nth(rng.randrange(count)))


def finished(page) -> bool:
    return page.locator(".banner.done").count() > 0


def play_to_the_end(pages, seed: int, timeout: float = 240.0, after_turns=None) -> None:
    """Click through a whole game on every page (each page one seat) until every page shows the end;
    `after_turns()` is called after each round of looking at the pages."""
    rng = random.Random(seed)
    deadline = time.monotonic() + timeout
    while not all(finished(p) for p in pages):
        if time.monotonic() > deadline:
            raise AssertionError("the game did not end in time")
        acted = False
        for page in pages:
            if not finished(page) and my_turn(page):
                acted = take_turn(page, rng) or acted
        if after_turns is not None:
            after_turns()
        if not acted:
            pages[0].wait_for_timeout(30)


def final_scores(page) -> list[int]:
    """The totals row of the score sheet, as shown."""
    cells = page.locator("table.sheet tfoot td")
    return [int(cells.nth(i).inner_text()) for i in range(cells.count())]


@dataclass
class Setup:
    game: str
    players: int
    options: dict = field(default_factory=dict)  # set through the form's option controls
    # A selector the README's mid-game picture also waits for, for a game whose first events may be its set-up.
    picture_when: str = ""
    fields: dict = field(default_factory=dict)  # other fields of the form, by their label (a live table's times)


def seat_page(person, live, table_id: str, seat: int, token: str, **size):
    """A person's page at a table whose seat token their browser already holds (as after joining)."""
    page = person(**size)
    page.goto(live.url + "/")
    page.evaluate("([key, value]) => localStorage.setItem(key, value)",
                  [f"ninjatable:{table_id}", json.dumps({"seat": seat, "token": token, "name": "Ann"})])
    page.goto(f"{live.url}/t/{table_id}")
    page.locator(".seats li").first.wait_for()
    return page


def create_through_the_lobby(page, url: str, setup: Setup) -> str:
    """Fill the lobby's form as a person would: game, players, options, seat 1 for Ann, two open seats, bots."""
    title = get_game(setup.game).title
    page.goto(url + "/")
    page.get_by_role("radio", name=title).click()
    page.get_by_label("Players").select_option(str(setup.players))
    for name, value in setup.options.items():
        control = page.locator(f"#opt-{name}")
        if isinstance(value, bool):
            control.set_checked(value)
        elif control.evaluate("e => e.tagName") == "SELECT":
            control.select_option(str(value))
        else:
            control.fill(str(value))
    for label, value in setup.fields.items():
        page.get_by_label(label).fill(str(value))
    page.get_by_label("Your name").fill("Ann")
    for seat in range(2, setup.players + 1):  # the lobby starts every other seat as open
        page.get_by_label(f"Seat {seat}", exact=True).select_option("open" if seat <= 3 else "heuristic")
    page.get_by_text("Table settings").click()
    page.get_by_label("Bots wait before each move (seconds)").fill("0")
    page.get_by_role("button", name="Create the table").click()
    page.wait_for_url("**/t/*")
    invite = page.get_by_label("Invite link")
    invite.wait_for()
    return invite.input_value()


def join_by_invite(page, invite: str, name: str) -> None:
    page.goto(invite)
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name="Take the seat").click()
    page.locator(".prompt, .banner.invite").first.wait_for()


def three_people_play_a_whole_game(live, person, screenshots, setup: Setup) -> None:
    """Ann creates the table through the lobby (two open seats, bots in the rest), Bo and Cy join by the invite
    link, all three play by clicking until the end; each page's final scores must equal the record's replay."""
    ann, bo, cy = person(), person(), person()
    invite = create_through_the_lobby(ann, live.url, setup)
    assert "/t/" in invite
    join_by_invite(bo, invite, "Bo")
    join_by_invite(cy, invite, "Cy")
    pages = [ann, bo, cy]
    for page in pages:
        page.locator(".seats li").first.wait_for()
    shot = []

    def screenshot_mid_game() -> None:  # the README's picture of this game's table
        if not shot and ann.locator(".log li").count() > 40 and (
                not setup.picture_when or ann.locator(setup.picture_when).count()):
            ann.evaluate("window.scrollTo(0, 0)")  # clicking may have scrolled the hand into view
            ann.screenshot(path=str(screenshots / f"{setup.game}.png"))
            shot.append(True)

    play_to_the_end(pages, seed=1, after_turns=screenshot_mid_game)
    every_page_shows_the_records_scores(live, invite, pages)


def every_page_shows_the_records_scores(live, invite: str, pages) -> None:
    """Each page's final scores are those of the stored record's replay (checked against its result), and no page
    raised an error."""
    table_id = invite.rsplit("/", 1)[1]
    record = Record.from_dict(httpx.get(f"{live.url}/api/tables/{table_id}/record").json())
    scores = record.replay(check=True).scores()
    for page in pages:
        assert final_scores(page) == scores
        assert page.errors == []
