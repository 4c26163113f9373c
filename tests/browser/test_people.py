"""People in the browser: accounts made through the pages, a rated game played to the end, the ratings on each
person's page and on the leaderboard, "Play again" and its offer accepted; and names and chat lines that look like
HTML stay text on every page that shows them."""

from __future__ import annotations

from urllib.parse import quote

from pages import play_to_the_end

PASSWORD = "a long enough password"
OBORO = "Oboro Ninja Star Trick"


def sign_up(page, url: str, name: str) -> None:
    """Make an account through the sign-up page; it ends on the person's own page."""
    page.goto(url + "/signup")
    page.get_by_label("Name", exact=True).fill(name)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_url("**/people/*")
    page.locator("h1.name").wait_for()


def create_rated_oboro(page, url: str, seat_two: str = "open") -> str:
    """Through the lobby, logged in: a rated Oboro table, seat 1 for the account, seat 2 as given, a bot at seat 3,
    bots without a pause; returns the table's address."""
    page.goto(url + "/")
    page.get_by_role("radio", name=OBORO).click()
    page.get_by_label("Seat 2", exact=True).select_option(seat_two)
    page.get_by_label("Seat 3", exact=True).select_option("heuristic")
    page.get_by_text("Table settings").click()
    page.get_by_label("Rated (accounts only, bots allowed)").check()
    page.get_by_label("Bots wait before each move (seconds)").fill("0")
    page.get_by_role("button", name="Create the table").click()
    page.wait_for_url("**/t/*")
    page.locator(".seats li").first.wait_for()
    return page.url


def seat_texts(page) -> list[str]:
    seats = page.locator(".seats li .who")
    return [seats.nth(i).inner_text() for i in range(seats.count())]


def rating_shown(page, url: str, name: str) -> float:
    """The Oboro rating on the person's page, after checking its plot has a point per rated game."""
    page.goto(f"{url}/people/{quote(name, safe='')}")
    card = page.locator(".game-card", has_text=OBORO)
    card.locator("svg.plot").wait_for()
    assert card.locator("svg.plot circle.point").count() == 1
    assert page.locator("ul.games-list li", has_text=OBORO).count() == 1
    return float(card.locator(".rating strong").inner_text())


def test_two_people_play_rated_then_play_again_with_the_seats_moved_round(live, person, screenshots):
    ann, bo = person(), person()
    sign_up(ann, live.url, "Ann")
    sign_up(bo, live.url, "Bo")
    assert ann.locator("header.top .account-links .me").inner_text() == "Ann"

    invite = create_rated_oboro(ann, live.url)
    assert "Rated" in ann.locator("header.top .title").inner_text()
    bo.goto(invite)
    bo.get_by_role("button", name="Take the seat as Bo").click()
    for page in (ann, bo):
        page.locator(".prompt").first.wait_for()
    assert seat_texts(ann)[1] == "Player 2 · Bo"
    assert ann.locator(".seats").get_by_role("link", name="Bo", exact=True).get_attribute("href") == "/people/Bo"
    play_to_the_end([ann, bo], seed=5)

    for page, name in ((ann, "Ann"), (bo, "Bo")):
        rating_shown(page, live.url, name)
    bo.goto(live.url + "/leaderboard/oboro")
    names = bo.locator("table.ranking tbody .who")
    names.first.wait_for()
    assert sorted(names.nth(i).inner_text() for i in range(names.count())) == ["Ann", "Bo", "bot: heuristic"]
    assert bo.locator("table.ranking tbody a", has_text="Ann").get_attribute("href") == "/people/Ann"

    ann.goto(invite)
    ann.get_by_role("button", name="Play again").click()
    ann.wait_for_url(lambda address: address.rstrip("/") != invite.rstrip("/"))
    ann.locator(".seats li.me").wait_for()
    again = ann.url
    assert ann.locator(".seats li.me").inner_text().startswith("Player 2 (you)")
    assert seat_texts(ann)[2] == "Player 3 · open, kept for Bo"

    bo.goto(live.url + "/account")
    offer = bo.locator(".offers li", has_text=OBORO)
    offer.get_by_role("button", name="Accept").click()
    bo.wait_for_url(again)
    for page in (ann, bo):
        page.locator(".prompt").first.wait_for()
    assert bo.locator(".seats li.me").inner_text().startswith("Player 3 (you)")
    assert seat_texts(bo)[0].startswith("Player 1 · bot")
    assert seat_texts(bo)[1] == "Player 2 · Ann"

    ann.goto(live.url + "/people/Ann")
    ann.locator("svg.plot").wait_for()
    ann.locator(".my-tables li", has_text=OBORO).wait_for()
    ann.screenshot(path=str(screenshots / "person.png"), full_page=True)
    assert ann.errors == [] and bo.errors == []


# A name and a chat line that would run script if a page put them in as HTML (names are at most 32 characters,
# so the name's handler sets the global `pwned`, which is `window.pwned`).
SNEAKY_NAME = '<img src=x onerror="pwned=1">'
SNEAKY_LINE = '<script>window.pwned=2</script><b onmouseover="window.pwned=3">hi</b>'


def nothing_ran(page, dialogs: list) -> None:
    assert page.evaluate("typeof window.pwned") == "undefined"
    assert dialogs == []
    assert page.locator("img[src=x], b[onmouseover]").count() == 0


def test_names_and_chat_lines_that_look_like_html_are_shown_as_text(live, person):
    page = person()
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    sign_up(page, live.url, SNEAKY_NAME)
    assert page.locator("h1.name").inner_text() == SNEAKY_NAME
    nothing_ran(page, dialogs)

    table = create_rated_oboro(page, live.url, seat_two="heuristic")
    page.get_by_label("Say something to the table").fill(SNEAKY_LINE)
    page.get_by_role("button", name="Say").click()
    line = page.locator(".chat li", has_text="window.pwned=2")
    line.wait_for()
    assert line.inner_text() == f"You: {SNEAKY_LINE}"
    line.hover()
    nothing_ran(page, dialogs)

    lobby = person()
    lobby.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    lobby.goto(live.url + "/")
    lobby.locator("ul.tables .seatnames", has_text=SNEAKY_NAME).wait_for()
    lobby.goto(table + "/watch")
    lobby.locator(".chat li", has_text="window.pwned=2").hover()
    assert lobby.locator(".chat li").last.inner_text() == f"{SNEAKY_NAME}: {SNEAKY_LINE}"
    assert lobby.locator(".seats li .who").first.inner_text() == f"Player 1 · {SNEAKY_NAME}"
    nothing_ran(lobby, dialogs)

    play_to_the_end([page], seed=7)
    page.goto(f"{live.url}/people/{quote(SNEAKY_NAME, safe='')}")
    assert page.locator("h1.name").inner_text() == SNEAKY_NAME
    page.locator("ul.games-list li").first.wait_for()
    nothing_ran(page, dialogs)
    page.goto(live.url + "/leaderboard/oboro")
    page.locator("table.ranking tbody a", has_text=SNEAKY_NAME).wait_for()
    nothing_ran(page, dialogs)
    assert page.errors == [] and lobby.errors == []


def test_a_guest_at_a_private_table_downloads_its_record_and_a_stranger_cannot_replay_it(live, person):
    import json

    from pages import seat_page

    bots = [{"kind": "bot", "bot": "random"}] * 2
    created = live.create(game="oboro", seed=4, seats=[{"kind": "person", "name": "Ann"}, *bots],
                          settings={"public": False, "grace_seconds": 0, "bot_pause": 0})
    table_id = created["table"]["id"]
    page = seat_page(person, live, table_id, 0, created["tokens"][0]["token"])
    play_to_the_end([page], seed=4)
    with page.expect_download() as download:
        page.get_by_role("button", name="Download the record").click()
    record = json.loads(download.value.path().read_text())
    assert record["game"] == "oboro" and record["seed"] == 4
    stranger = person()
    stranger.goto(f"{live.url}/t/{table_id}/replay")
    stranger.locator(".error").wait_for()
    assert "only a player of this table" in stranger.locator(".error").first.inner_text()
    assert page.errors == [] and stranger.errors == []
