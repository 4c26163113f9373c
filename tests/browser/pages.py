"""Driving the table pages in Chromium like a person: find what is clickable, click it, read what is shown."""

from __future__ import annotations

import random
import shutil
import time
from pathlib import Path

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


def my_turn(page) -> bool:
    return page.locator(".prompt.mine").count() > 0


def take_turn(page, rng: random.Random) -> bool:
    """Make one decision by clicking, as a person would; False if there was nothing to click."""
    confirm = page.locator(".prompt .draft .btn.primary")
    if confirm.count() and confirm.is_enabled() and rng.random() < 0.6:
        confirm.click()
        return True
    options = page.locator(PLAYABLE)
    count = options.count()
    if not count:
        if confirm.count() and confirm.is_enabled():
            confirm.click()
            return True
        return False
    try:
        options.nth(rng.randrange(count)).click(timeout=2000)
    except Exception:  # the page redrew under the click; the next look will see the new table
        return False
    return True


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
