"""Ninja Clan Wars in the browser: three people play a whole game by clicking; on a phone-sized page recruiting is
a draft of several Ninja (one with Sleeper Agent) that the player can undo before confirming, and an Event that
waits for its phase is greyed with the reason."""

from __future__ import annotations

import pytest
from pages import Setup, seat_page, three_people_play_a_whole_game


# One of the two longest whole games by clicking: a soak run (`make soak`, run by CI after `make test`); the test
# below and tests/browser/test_table_help.py play this game's page in `make test`.
@pytest.mark.soak
def test_three_people_and_two_bots_play_a_whole_game(live, person, screenshots):
    # The war ends when the deck runs out. Three clans clicking at random make near 300 decisions; with five clans
    # the deck lasts about 21 turns and the three people make about 120, as many as in the other games' tests.
    three_people_play_a_whole_game(live, person, screenshots, Setup("clanwars", 5))


def test_on_a_phone_recruiting_is_a_draft_with_undo_and_a_waiting_event_says_why(live, person, screenshots):
    # seed 37: Player 1 goes first, holding Clan Leader, Genin, Ninja Spy and Sleeper Agent, with 20 markers
    seats = [{"kind": "person", "name": "Ann"}] + [{"kind": "bot", "bot": "heuristic"}] * 2
    created = live.create(game="clanwars", players=3, seed=37, seats=seats, settings={"bot_pause": 0})
    table_id = created["table"]["id"]
    page = seat_page(person, live, table_id, 0, created["tokens"][0]["token"], width=390, height=844)
    prompt = page.locator(".prompt.mine")
    prompt.get_by_text("Recruit Phase").wait_for(timeout=20_000)
    village = page.locator(".cw-clan.mine .cw-village")
    assert village.inner_text().startswith("20")

    page.locator("[data-action='recruit Clan Leader']").click()
    prompt.get_by_text("(you have 16)").wait_for()  # the draft, previewed: 4 markers paid
    page.locator("[data-action='recruit Genin with Sleeper Agent']").click()
    page.locator(".cw-clan.mine .card", has_text="Genin 3").wait_for()  # its three tokens in play
    assert village.inner_text().startswith("16")  # Sleeper Agent paid Genin's 3
    page.get_by_role("button", name="Undo").click()
    page.locator(".cw-clan.mine .card", has_text="Genin 3").wait_for(state="detached")
    assert page.locator(".cw-clan.mine .card", has_text="Clan Leader").count() == 1
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    page.screenshot(path=str(screenshots / "clanwars-phone.png"), full_page=True)

    page.locator(".prompt .draft .btn.primary").click()  # confirmed: the recruit is played
    prompt.get_by_text("Spy Phase").wait_for()
    assert page.locator(".log li", has_text="You recruit Clan Leader for 4").count() == 1
    smoke = page.locator(".area.mine button.card[data-action='Smoke Bombs']")
    assert smoke.is_disabled() and smoke.get_attribute("title") == "played in a Stealth or Fight contest"
    assert page.errors == []
