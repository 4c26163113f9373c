"""Every game played to the end by three people in three browsers, with bots in the other seats.

The first person creates the table through the lobby's form and copies the invite link; the others open it and
join by name; everyone plays by clicking. Each page's final scores must equal the record's replay.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import httpx
import pytest
from pages import final_scores, play_to_the_end

from ninjatable.core import Record, get_game


@dataclass
class Setup:
    game: str
    players: int
    options: dict = field(default_factory=dict)  # set through the form's option controls


SETUPS = [Setup("dragon", 4)]


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
    page.get_by_label("Your name").fill("Ann")
    for seat in (2, 3):
        page.get_by_label(f"Seat {seat}", exact=True).select_option("open")
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


@pytest.mark.parametrize("setup", SETUPS, ids=[s.game for s in SETUPS])
def test_three_people_play_a_whole_game_in_their_browsers(live, person, screenshots, setup):
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
        if not shot and ann.locator(".log li").count() > 40:
            ann.screenshot(path=str(screenshots / f"{setup.game}.png"))
            shot.append(True)

    play_to_the_end(pages, seed=1, after_turns=screenshot_mid_game)
    table_id = invite.rsplit("/", 1)[1]
    record = Record.from_dict(httpx.get(f"{live.url}/api/tables/{table_id}/record").json())
    scores = record.replay(check=True).scores()
    for page in pages:
        assert final_scores(page) == scores
        assert page.errors == []
