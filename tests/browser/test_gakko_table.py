"""Shinobi no Gakko in the browser: three people split their hands (a draft they may undo before `done`) and play
a whole game by clicking."""

from __future__ import annotations

import pytest
from pages import Setup, three_people_play_a_whole_game
from test_table_page import seat_page


# A whole game by clicking is a soak run (`make soak`, run by CI after `make test`); the tests below play this
# game's page in `make test`.
@pytest.mark.soak
def test_three_people_play_a_whole_game(live, person, screenshots):
    # Random clicking passes a lot, so a round could run for hundreds of turns: the documented safeguard
    # `max_turns` ends each round after 10 turns (everyone scoring their hands), keeping the game to seconds.
    # The README's picture waits for the table to be open on Ann's turn, past the split.
    setup = Setup("gakko", 3, {"max_turns": 10}, picture_when=".board:has(.prompt.mine):has(.tiers)")
    three_people_play_a_whole_game(live, person, screenshots, setup)


def ann_and_two_bots(live, person, seed: int = 4):
    """Ann's page at a three-seat table where two heuristic bots split and play at once."""
    created = live.create(game="gakko", players=3, seed=seed, settings={"bot_pause": 0},
                          seats=[{"kind": "person", "name": "Ann"}] + [{"kind": "bot", "bot": "heuristic"}] * 2)
    page = seat_page(person, live, created["table"]["id"], 0, created["tokens"][0]["token"])
    page.locator(".prompt.mine").wait_for()
    return page


def hand(page, name: str) -> list[str]:
    """The numbers shown in one of Ann's hands, in order."""
    return page.locator(".hand-area", has_text=f"Your {name}").locator(".card").all_inner_texts()


def test_the_split_is_a_draft_undone_card_by_card_and_sent_with_done(live, person):
    page = ann_and_two_bots(live, person)
    dealt = hand(page, "Heaven")
    assert len(dealt) == 15 and hand(page, "Earth") == []
    page.locator(".hand-area", has_text="Your Heaven").locator("button.card.playable").first.click()
    page.locator(".hand-area", has_text="Your Earth").locator(".card").first.wait_for()
    assert hand(page, "Earth") == [dealt[0]] and len(hand(page, "Heaven")) == 14
    page.get_by_role("button", name="Undo").click()
    page.wait_for_function("() => !document.querySelector('.hand-area:nth-child(2) .card')")
    assert hand(page, "Heaven") == dealt
    for _ in range(2):  # the last card twice: the draft follows the hand as it changes
        page.locator(".hand-area", has_text="Your Heaven").locator("button.card.playable").last.click()
        page.wait_for_timeout(200)
    page.wait_for_function("() => document.querySelectorAll('.hand-area:nth-child(2) .card').length === 2")
    earth = hand(page, "Earth")
    page.locator(".prompt .draft .btn.primary").click()
    page.locator(".tiers").wait_for()  # everyone has split: the table opens
    assert hand(page, "Earth") == earth
    assert page.locator(".log li", has_text=f"You reveal Earth: {' '.join(earth)}").count() == 1
    assert page.errors == []


def test_the_kth_card_of_a_group_plays_a_set_of_k(live, person):
    page = ann_and_two_bots(live, person)
    page.locator(".prompt .draft .btn.primary").click()  # everything stays in Heaven
    heaven = page.locator(".hand-area.turn", has_text="Your Heaven")
    heaven.wait_for(timeout=20_000)
    # Every playable card names the set it plays: as many cards as its place in its group of equal numbers.
    sets = heaven.locator(".set button.card.playable").evaluate_all(
        "cards => cards.map(c => [c.dataset.action, [...c.parentElement.children].indexOf(c) + 1, c.textContent])")
    assert sets
    for label, place, number in sets:
        assert label == f"Heaven {place}x{number.strip()}"
    label = max(sets, key=lambda s: s[1])[0]
    heaven.locator(f'button.card[data-action="{label}"]').click()
    count, rank = label.split()[1].split("x")
    page.locator(".log li", has_text=f"You play {count}x{rank} from Heaven").wait_for()
    assert page.errors == []
