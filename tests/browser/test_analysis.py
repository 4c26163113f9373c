"""The post-game analysis and hints in the browser: a finished game analysed from the table page (each player's line,
the chances plot, the mistakes linked into the replay), kept for the next visit; the replay showing the decision
at each analysed step; the Hint button at a table that gives hints (and nowhere else); the lobby's Hints box."""

from __future__ import annotations

import re

import httpx

from pages import PLAYABLE, play_to_the_end, seat_page

PHONE = {"width": 390, "height": 844}
ANALYSED = 60_000  # ms: a whole Oboro game weighed in the test server's one bot thread (a few seconds when idle)


def percent(share: float) -> str:
    """A share of a win as the page writes it: 0.0476 as "4.8%", a negative one with a minus sign."""
    shown = f"{share * 100:.1f}".lstrip("-")
    return f"{'−' if share < 0 and float(shown) else ''}{shown}%"


def sign_up(page, url: str, name: str) -> None:
    """An account made through the sign-up page (as test_people does; that module's name is taken in tests/server)."""
    page.goto(url + "/signup")
    page.get_by_label("Name", exact=True).fill(name)
    page.get_by_label("Password", exact=True).fill("a long enough password")
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_url("**/people/*")


def oboro_table(live, bot: str = "random", seed: int = 3, **settings):
    """An Oboro table: Ann at seat 1 (her token returned), two bots, no pause between moves."""
    seats = [{"kind": "person", "name": "Ann"}] + [{"kind": "bot", "bot": bot}] * 2
    created = live.create(game="oboro", players=3, seed=seed, seats=seats, settings={"bot_pause": 0, **settings})
    return created["table"]["id"], created["tokens"][0]["token"]


def test_a_finished_game_is_analysed_and_the_replay_shows_each_decision(live, person, screenshots):
    table_id, token = oboro_table(live)
    page = seat_page(person, live, table_id, 0, token)
    play_to_the_end([page], seed=5)
    section = page.locator("section.analysis")
    section.scroll_into_view_if_needed()
    ask = section.get_by_role("button", name="Analyse the game")
    ask.wait_for()  # below "Game over", before anybody asked (once the page has asked the server)
    ask.click()
    progress = section.locator(".analysis-progress")
    progress.wait_for()
    assert re.match(r"Analysing: .*\d+ of \d+ decisions", progress.inner_text())
    assert progress.locator("progress").count() == 1
    section.screenshot(path=str(screenshots / "analysis-progress.png"))

    rows = section.locator("table.analysis-seats tbody tr")
    rows.first.wait_for(timeout=ANALYSED)
    assert rows.count() == 3
    assert [rows.nth(i).locator("th").inner_text() for i in range(3)] == ["You", "Bot 2", "Bot 3"]
    stored = httpx.get(f"{live.url}/api/tables/{table_id}/analysis").json()
    assert stored["status"] == "done"
    analysis = stored["analysis"]
    for i, line in enumerate(analysis["seats"]):
        cells = rows.nth(i).locator("td").all_inner_texts()
        assert cells[0] == str(line["analysed"]) and cells[1] == str(line["mistakes"])
        assert cells[2] == percent(line["mean_cost"])
    plot = section.locator("figure.lines-plot")
    assert plot.locator("svg.plot path.line").count() == 3  # a line per seat
    assert plot.locator("ul.legend li").all_inner_texts() == ["You", "Bot 2", "Bot 3"]
    mistakes = [d for d in analysis["decisions"] if d["mistake"]]
    assert section.locator("ol.mistakes li").count() == len(mistakes)
    assert plot.locator("circle.mark").count() == len(mistakes)
    page.screenshot(path=str(screenshots / "analysis-table.png"), full_page=True)
    section.screenshot(path=str(screenshots / "analysis.png"))

    # A visit later: the analysis is shown at once, without asking again.
    page.reload()
    rows = page.locator("section.analysis table.analysis-seats tbody tr")
    rows.first.wait_for()
    assert rows.count() == 3
    assert page.get_by_role("button", name="Analyse the game").count() == 0

    # A mistake links to its move in the replay, where the decision is drawn with its options.
    if mistakes:
        first = mistakes[0]
        step = first["move"] + 1
        link = page.locator("ol.mistakes li a").first
        assert link.inner_text() == f"Move {step}"
        link.click()
        page.wait_for_url(f"**/t/{table_id}/replay?seat=0&at={step}")
        assert page.locator(".replay-bar .step").inner_text().startswith(f"Move {step} of")
        panel = page.locator("section.panel.decision")
        panel.wait_for()
        assert panel.locator(".badge.mistake").inner_text() == "mistake"
        assert panel.locator("h2").inner_text().startswith(f"Move {step}: ")
        played = panel.locator("tr.played")
        assert played.count() == 1 and played.get_attribute("data-action") == first["label"]
        assert panel.locator("tr.best").get_attribute("data-action") == first["options"][0]["label"]

    # The replay from the start: every analysed step shows its options, with their chances and expected scores.
    page.goto(f"{live.url}/t/{table_id}/replay")
    page.locator(".replay-bar").wait_for()
    page.locator("section.analysis table.analysis-seats").wait_for()
    assert page.locator("section.panel.decision").count() == 0  # move 0: the start
    assert "no move yet" in page.locator(".decision-none").inner_text()
    decision = analysis["decisions"][0]
    for _ in range(decision["move"] + 1):
        page.get_by_role("button", name="Next ▶").click()
    panel = page.locator("section.panel.decision")
    panel.wait_for()
    options = panel.locator("table.options tbody tr")
    assert options.count() == len(decision["options"]) >= 2
    best = decision["options"][0]
    cells = options.first.locator("td").all_inner_texts()
    assert cells[0].strip() == f"{round(best['win'] * 100)}%" and cells[1] == f"{best['score']:.1f}"
    assert panel.locator("tr.played").count() == 1
    assert page.url.endswith(f"/replay?at={decision['move'] + 1}")  # the step is kept in the address
    # Oboro's card words, as the log says them ("R8" as "red 8")
    assert re.search(r"(red|blue|green) \d", panel.locator("h2").inner_text())
    page.screenshot(path=str(screenshots / "analysis-replay.png"))

    phone = person(**PHONE)
    phone.goto(f"{live.url}/t/{table_id}/replay?at={decision['move'] + 1}")
    phone.locator("section.panel.decision").wait_for()
    phone.locator("section.analysis table.analysis-seats").wait_for()
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    phone.locator("section.analysis").screenshot(path=str(screenshots / "analysis-phone.png"))
    phone.locator("section.panel.decision").screenshot(path=str(screenshots / "analysis-decision-phone.png"))
    assert page.errors == [] and phone.errors == []


def test_the_hint_button_marks_a_playable_card_until_the_table_moves_on(live, person, screenshots):
    table_id, token = oboro_table(live, bot="heuristic", seed=1, hints=True)  # seed 1: Ann leads, any card goes
    page = seat_page(person, live, table_id, 0, token)
    prompt = page.locator(".prompt.mine")
    prompt.wait_for(timeout=20_000)
    assert page.locator(".hinted").count() == 0
    with page.expect_response(f"**/api/tables/{table_id}/hint") as answer:
        prompt.get_by_role("button", name="Hint").click()
    hint = answer.value.json()
    shown = prompt.locator(".hint-text")
    shown.wait_for()
    marked = page.locator(".hinted")
    assert marked.count() == 1
    assert marked.get_attribute("data-action") == hint["label"]
    playable = page.locator(f".area.mine :is({PLAYABLE})").evaluate_all("els => els.map(e => e.dataset.action)")
    assert hint["label"] in playable and len(playable) == 8
    # The hint says the card as the card says itself ("R5": "red 5")
    name = marked.get_attribute("aria-label").split(",")[0]
    assert shown.inner_text() == f"Hint: play {name}"
    assert marked.evaluate("e => getComputedStyle(e).outlineStyle") == "solid"
    page.screenshot(path=str(screenshots / "hint.png"))
    page.set_viewport_size(PHONE)
    page.evaluate("window.scrollTo(0, 0)")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    page.screenshot(path=str(screenshots / "hint-phone.png"))

    # Playing it: the table moves past the hint, which goes.
    version = live.hub.tables[table_id].version
    marked.click()
    page.wait_for_function("() => !document.querySelector('.hint-text')")
    assert live.hub.tables[table_id].version > version
    assert page.locator(".hinted").count() == 0

    # Nobody else is offered hints: a spectator of this table, and Ann at a table without them.
    watcher = person()
    watcher.goto(f"{live.url}/t/{table_id}/watch")
    watcher.locator(".seats li").first.wait_for()
    assert watcher.get_by_role("button", name="Hint").count() == 0
    assert "Hints on" in watcher.locator("header.top").inner_text()  # everybody sees the table gives hints
    # ...in dark letters on the badge's pale ground (the top bar's white letters did not show on it)
    assert watcher.locator("header.top .badge.hints").evaluate("e => getComputedStyle(e).color") != "rgb(255, 255, 255)"
    other_id, other_token = oboro_table(live, bot="heuristic")
    plain = seat_page(person, live, other_id, 0, other_token)
    plain.locator(".prompt.mine").wait_for(timeout=20_000)
    assert plain.get_by_role("button", name="Hint").count() == 0
    assert "Hints on" not in plain.locator("header.top").inner_text()
    assert page.errors == [] and watcher.errors == [] and plain.errors == []


def test_the_lobbys_hints_box_is_off_by_default_and_never_with_rated(live, person, screenshots):
    guest = person()
    guest.goto(live.url + "/")
    guest.get_by_role("radio", name="Oboro Ninja Star Trick").click()
    guest.get_by_text("Table settings").click()
    box = guest.get_by_label("Hints (the table's bot suggests a move on request)")
    assert not box.is_checked() and box.is_enabled()
    box.check()
    guest.get_by_label("Your name").fill("Ann")
    guest.get_by_label("Seat 2", exact=True).select_option("heuristic")
    guest.get_by_label("Seat 3", exact=True).select_option("heuristic")
    guest.get_by_role("button", name="Create the table").click()
    guest.wait_for_url("**/t/*")
    guest.locator(".seats li").first.wait_for()
    table_id = guest.url.rsplit("/", 1)[1]
    assert live.hub.tables[table_id].settings["hints"] is True

    member = person()
    sign_up(member, live.url, "Bo")
    member.goto(live.url + "/")
    member.get_by_text("Table settings").click()
    box = member.get_by_label("Hints (the table's bot suggests a move on request)")
    rated = member.get_by_label("Rated (accounts only, bots allowed)")
    box.check()
    rated.check()
    assert box.is_disabled() and not box.is_checked()
    assert "A rated table gives no hints" in member.locator(".field", has=box).inner_text()
    member.locator("details").screenshot(path=str(screenshots / "lobby-hints.png"))
    rated.uncheck()
    assert box.is_enabled() and not box.is_checked()
    assert guest.errors == [] and member.errors == []
