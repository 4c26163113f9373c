"""Help at the table: the Rules panel, the last trick, the players' names, phone layouts, greyed cards' reasons and
the sound switch."""

from __future__ import annotations

import random

import httpx
import pytest
from pages import PLAYABLE, seat_page, take_turn

GAMES = {"oboro": 3, "dragon": 3, "clanwars": 3, "gakko": 3, "ninjaaatack": 4}
PHONE = {"width": 390, "height": 844}


def table_with_bots(live, game: str, seed: int = 3, people=("Ann",), pause: float = 0.0):
    """A table whose first seats are people (tokens returned) and the rest heuristic bots."""
    seats = [{"kind": "person", "name": name} for name in people]
    seats += [{"kind": "bot", "bot": "heuristic"}] * (GAMES[game] - len(people))
    created = live.create(game=game, players=GAMES[game], seed=seed, seats=seats, settings={"bot_pause": pause})
    return created["table"]["id"], [t["token"] for t in created["tokens"]]


def test_the_rules_panel_shows_the_games_rules_and_glossary(live, person, screenshots):
    for game in sorted(GAMES):  # one server for the five games' tables
        table_id, tokens = table_with_bots(live, game)
        page = seat_page(person, live, table_id, 0, tokens[0])
        assert page.locator("#rules-panel").count() == 0  # closed until asked for
        page.get_by_role("button", name="Rules").click()
        panel = page.locator("#rules-panel")
        rules = httpx.get(f"{live.url}/api/games/{game}/rules").json()
        panel.locator(".rules-text").wait_for()
        assert rules["title"] in panel.locator(":scope > h2").last.inner_text()
        assert panel.locator(".rules-text h2, .rules-text h1").count() > 0
        assert panel.locator("dl.glossary dt").count() >= 8, game
        assert panel.locator(".now").inner_text().startswith("Now:")
        if game == "clanwars":
            terms = panel.locator("dl.glossary dt").all_inner_texts()
            assert {"AYN", "ECP", "TIP"} <= set(terms)
            titles = page.locator(".game [title]").evaluate_all("els => els.map(e => e.title)")
            assert "-" not in titles
        page.screenshot(path=str(screenshots / f"rules-{game}.png"))
        assert page.errors == []
        page.close()


def test_oboro_names_the_players_and_keeps_the_last_trick_with_its_winner(live, person, screenshots):
    # seed 3: Bot 3 leads the red 8 (an Arrow: it leads the next trick too), Ann follows, then Bo
    table_id, (ann_token, bo_token) = table_with_bots(live, "oboro", people=("Ann", "Bo"), pause=3)
    ann = seat_page(person, live, table_id, 0, ann_token)
    bo = seat_page(person, live, table_id, 1, bo_token)
    ann.locator(".prompt.mine").wait_for(timeout=20_000)
    ann.locator(f".area.mine :is({PLAYABLE})").first.click()
    bo.locator(".prompt.mine").wait_for()
    bo.locator(f".area.mine :is({PLAYABLE})").first.click()
    last = ann.locator(".last-trick")
    last.wait_for()
    assert last.locator(".stat").first.inner_text() == "Last trick: Bot 3 wins it"
    assert last.locator(".card").count() == 3
    log = "\n".join(ann.locator(".log li").all_inner_texts())
    assert "Bot 3 plays red 8" in log and "Bo plays" in log and "You play red 2" in log
    assert "Player " not in log
    ann.screenshot(path=str(screenshots / "oboro-last-trick.png"))
    assert ann.errors == [] and bo.errors == []


def test_dragon_keeps_the_last_trick_with_its_winner(live, person, screenshots):
    table_id, tokens = table_with_bots(live, "dragon", seed=4, pause=2)
    page = seat_page(person, live, table_id, 0, tokens[0])
    rng = random.Random(4)
    for _ in range(60):
        if page.locator(".last-trick").count():
            break
        if page.locator(".prompt.mine").count():
            take_turn(page, rng)
        page.wait_for_timeout(200)
    last = page.locator(".last-trick")
    last.wait_for()
    said = last.locator(".stat").first.inner_text()
    winner = said.removeprefix("Last trick: ").rsplit(" ", 2)[0]
    won = page.locator(".log li", has_text="wins the trick").last.inner_text()
    assert won.startswith(winner)
    assert last.locator(".card").count() == 3
    page.screenshot(path=str(screenshots / "dragon-last-trick.png"))
    assert page.errors == []


def test_the_lobby_fits_a_phone(live, person, screenshots):
    page = person(**PHONE)
    page.goto(live.url + "/")
    page.get_by_role("button", name="Create the table").wait_for()
    for name in page.get_by_role("radio").all_inner_texts():
        page.get_by_role("radio", name=name.split("\n")[0]).click()
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert page.get_by_label("Seat 2", exact=True).input_value() == "open"
    page.screenshot(path=str(screenshots / "lobby-phone.png"), full_page=True)


@pytest.mark.parametrize("game", ["oboro", "dragon"])
def test_on_a_phone_the_playable_hand_is_on_screen_at_your_move(live, person, screenshots, game):
    table_id, tokens = table_with_bots(live, game)
    page = seat_page(person, live, table_id, 0, tokens[0], **PHONE)
    page.locator(".prompt.mine").wait_for(timeout=20_000)
    assert "Your move" in page.locator(".prompt.mine").inner_text()
    cards = page.locator(".area.mine button.card.playable")
    cards.first.wait_for()
    for box in cards.evaluate_all("els => els.map(e => e.getBoundingClientRect().toJSON())"):
        assert 0 <= box["top"] and box["bottom"] <= PHONE["height"]
    page.screenshot(path=str(screenshots / f"{game}-phone-move.png"))
    assert page.errors == []


def test_tapping_a_greyed_card_says_why(live, person, screenshots):
    # seed 3 (as in test_oboro_table.py): Ann must follow red and holds other colours too
    table_id, tokens = table_with_bots(live, "oboro")
    page = seat_page(person, live, table_id, 0, tokens[0], **PHONE)
    page.locator(".prompt.mine").wait_for(timeout=20_000)
    page.locator(".area.mine button.card.unplayable").first.click(force=True)  # as a tap: it is aria-disabled
    assert "you must follow red, the led colour" in page.locator(".why").inner_text()
    assert page.locator(".prompt.mine").count() == 1  # nothing was played
    page.screenshot(path=str(screenshots / "oboro-why.png"))
    assert page.errors == []


def test_the_sound_switch_is_off_until_turned_on_and_remembered(live, person):
    table_id, tokens = table_with_bots(live, "gakko")
    page = seat_page(person, live, table_id, 0, tokens[0])
    switch = page.locator(".sound-btn")
    assert switch.inner_text() == "Sound: off" and switch.get_attribute("aria-pressed") == "false"
    switch.click()
    assert switch.inner_text() == "Sound: on"
    page.reload()
    assert page.locator(".sound-btn").inner_text() == "Sound: on"
    assert page.evaluate("localStorage.getItem('ninjatable:sound')") == "on"
    assert page.errors == []
