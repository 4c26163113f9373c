"""Oboro Ninja Star Trick in the browser: three people play a whole game by clicking; on a phone-sized page a
card that does not follow the led colour is greyed with the rulebook's reason."""

from __future__ import annotations

import pytest
from pages import Setup, seat_page, three_people_play_a_whole_game


# Three people through the lobby and the invite link: a soak run (`make soak`, run by CI after `make test`), as in
# the other games; tests/browser/test_people.py and test_analysis.py play whole Oboro games by clicking in
# `make test`.
@pytest.mark.soak
def test_three_people_play_a_whole_game(live, person, screenshots):
    three_people_play_a_whole_game(live, person, screenshots, Setup("oboro", 3))


def test_on_a_phone_a_card_that_does_not_follow_is_greyed_with_the_reason(live, person, screenshots):
    # seed 3: the bots lead, and Player 1 holds cards of the led colour and of others
    seats = [{"kind": "person", "name": "Ann"}] + [{"kind": "bot", "bot": "heuristic"}] * 2
    created = live.create(game="oboro", seed=3, seats=seats, settings={"bot_pause": 0})
    table_id = created["table"]["id"]
    page = seat_page(person, live, table_id, 0, created["tokens"][0]["token"], width=390, height=844)
    page.locator(".prompt.mine").wait_for(timeout=20_000)
    state = live.hub.tables[table_id].state
    assert state.trick, "the test's seed should have Player 1 follow, not lead"
    led = state.view(None)["led"]
    assert page.locator(".prompt.mine").inner_text().endswith(f"Follow the lead: play a {led} card to the trick")
    refused = page.locator(".area.mine button.card.unplayable")
    assert refused.count() > 0
    assert refused.first.get_attribute("title") == (f"you must follow {led}, the led colour, while you hold a "
                                                     f"{led} card")
    playable = page.locator(".area.mine button.card.playable")
    assert all(led in playable.nth(i).get_attribute("aria-label") for i in range(playable.count()))
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    page.screenshot(path=str(screenshots / "oboro-phone.png"), full_page=True)
    assert page.errors == []
