"""The lobby in a real browser: a picture and a pitch per game, only the chosen game's options, bot
levels named for people with the technical bot beside, the create button always in view, names
per seat in the tables list, a free seat taken from the lobby by a second person, damaged tables
greyed with their reason, and the list paged 50 tables at a time."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest

import teocalli
from teocalli.server.bots import check_bot_spec

from .examples import WEB
from .play import create_table

CATALOGUE = json.loads((WEB / "i18n" / "en.json").read_text())
PERFECT = {"aztack", "stack-back"}
"""The perfect-information games: their strong bots are `mcts`, the others' `ismcts`."""


def _lobby(page: Any, server: str) -> None:
    page.goto(f"{server}/")
    page.wait_for_selector("body[data-ready='true']")


def _post(url: str, body: Any) -> tuple[int, Any]:
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def _summary(server: str, table_id: str) -> Any:
    with urllib.request.urlopen(f"{server}/api/tables/{table_id}", timeout=5) as response:
        return json.loads(response.read())


def _table_id(link: str) -> str:
    return link.split("/table/")[1].split("?", maxsplit=1)[0]


@pytest.fixture
def quiet_page(browser: Any) -> Iterator[Any]:
    """A page whose console may show the browser's own line for a refused request (409)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(60000)
    yield page
    context.close()
    assert not errors, f"errors in the browser: {errors}"


# --- the game chooser -------------------------------------------------------------------------
def test_each_game_has_a_small_picture_of_its_own() -> None:
    for game in teocalli.games():
        path = WEB / "img" / f"{game}.svg"
        text = path.read_text()
        assert text.lstrip().startswith("<svg") and "<script" not in text
        assert len(text.encode()) < 8000, f"{path.name} should stay small"
        assert isinstance(CATALOGUE["lobby"]["pitch"][game], str)


def test_each_game_shows_its_picture_and_pitch(server: str, page: Any) -> None:
    _lobby(page, server)
    for game in teocalli.games():
        card = page.locator(f".game-card[data-game='{game}']")
        assert card.is_visible()
        picture = card.locator("img")
        assert picture.is_visible()
        assert (picture.get_attribute("src") or "").endswith(f"/img/{game}.svg")
        page.wait_for_function(
            "(g) => { const i = document.querySelector(`.game-card[data-game='${g}'] img`);"
            " return i.complete && i.naturalWidth > 0; }",
            arg=game,
        )
        assert card.locator(".game-pitch").inner_text() == CATALOGUE["lobby"]["pitch"][game]
        title = CATALOGUE["games"][game]["title"]
        assert card.locator(".game-card-title").inner_text().startswith(title)
        # The radio button is named by the title and described by the pitch.
        radio = page.get_by_role("radio", name=title, exact=True)
        assert radio.count() == 1
        assert radio.get_attribute("value") == game


def test_choosing_a_game_shows_only_its_options(server: str, page: Any) -> None:
    _lobby(page, server)
    page.click("#game-card-aztack")
    assert page.is_visible("#option-speed")
    assert page.locator("#option-target").count() == 0
    # Label from the catalogue, its help beside it.
    assert (
        page.inner_text("label[for='option-speed']")
        == CATALOGUE["lobby"]["option"]["aztack"]["speed"]
    )
    assert CATALOGUE["games"]["aztack"]["options"]["speed"] in page.inner_text("#option-speed-help")
    # Declaring the match type only applies to Speed Stack; the bots' reaction time to races.
    assert not page.is_visible("#option-declare")
    assert not page.is_visible("#bot-delay")
    page.check("#option-speed")
    assert page.is_visible("#option-declare")
    assert page.is_visible("#bot-delay")

    page.click("#game-card-stakz")
    assert page.evaluate("document.getElementById('game').value") == "stakz"
    assert page.locator("#option-speed").count() == 0
    assert page.is_visible("#option-target")
    assert "From 1 to 100." in page.inner_text("#option-target-help")

    # The plain list (scripts and older tests choose through it) moves the cards too.
    page.select_option("#game", "stack-back")
    assert page.is_checked("#game-card-stack-back")
    assert page.is_visible("#option-dexterity") and not page.is_visible("#option-steadiness_0")
    page.check("#option-dexterity")
    assert page.is_visible("#option-steadiness_0")

    # Shifting Stones: the solo ruling only for one player, the round limit only for two or more.
    page.click("#game-card-shifting-stones")
    assert page.is_visible("#option-round_limit") and not page.is_visible(
        "#option-solo_skip_strikes"
    )
    while page.locator("#seats li").count() > 1:
        page.click("#remove-seat")
    assert page.is_visible("#option-solo_skip_strikes") and not page.is_visible(
        "#option-round_limit"
    )


def test_the_game_chooser_works_from_the_keyboard(server: str, page: Any) -> None:
    _lobby(page, server)
    page.focus("#player-name")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "game-card-aztack"
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.id") == "game-card-shifting-stones"
    assert page.evaluate("document.getElementById('game').value") == "shifting-stones"
    assert page.is_visible("#option-skip_mode")
    # The focused card is outlined (the focus colour) and the chosen one is marked in words too.
    assert page.locator(".game-card.chosen").get_attribute("data-game") == "shifting-stones"


def test_every_form_control_has_a_name(server: str, page: Any) -> None:
    _lobby(page, server)
    for game in teocalli.games():
        page.click(f"#game-card-{game}")
        unnamed = page.evaluate(
            """() => [...document.querySelectorAll('#create-form input, #create-form select,'
                + ' #create-form button, .you-bar input')]
              .filter((e) => e.offsetParent !== null && !e.classList.contains('mirror'))
              .filter((e) => !(e.labels && e.labels.length) && !e.getAttribute('aria-label')
                && !e.getAttribute('aria-labelledby') && !e.textContent.trim())
              .map((e) => e.id || e.outerHTML)"""
        )
        assert unnamed == [], f"{game}: {unnamed}"


# --- bots ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("game", teocalli.games())
def test_bot_levels_name_people_and_the_technical_bot(server: str, page: Any, game: str) -> None:
    _lobby(page, server)
    page.click(f"#game-card-{game}")
    if page.locator("#seat-1-kind").count() == 0:
        page.click("#add-seat")  # a solo game starts with one seat
    page.select_option("#seat-1-kind", "bot")
    choices = page.eval_on_selector_all(
        "#seat-1-bot option", "os => os.map((o) => [o.value, o.textContent])"
    )
    search = "mcts" if game in PERFECT else "ismcts"
    labels = dict(choices)
    assert labels["random"] == "Beginner (random)"
    assert labels["greedy"] == "Casual (greedy)"
    assert labels[f"{search}:time=1"] == f"Strong ({search}, about 1 s a move)"
    assert labels[f"{search}:time=3"] == f"Expert ({search}, about 3 s a move)"
    assert page.eval_on_selector("#seat-1-bot", "s => s.value") == "greedy"  # the default
    # Every spec offered is one this server accepts for the game (caps: time 5 s).
    loaded = teocalli.load(game)
    for value, _ in choices:
        assert check_bot_spec(value, loaded) == value


# --- the create button --------------------------------------------------------------------------
BUTTON_IN_VIEW = """() => {
  const b = document.getElementById('create').getBoundingClientRect();
  const inside = b.top >= 0 && b.left >= 0 && b.bottom <= innerHeight && b.right <= innerWidth;
  const hit = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
  return inside && b.height > 0 && hit !== null && hit.closest('#create') !== null;
}"""


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 900)])
def test_the_create_button_is_always_in_view(
    server: str, browser: Any, width: int, height: int
) -> None:
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = context.new_page()
        _lobby(page, server)
        assert page.evaluate(BUTTON_IN_VIEW), "the button is visible without scrolling"
        assert page.evaluate("document.documentElement.scrollWidth") <= width, "no sideways scroll"
        # The longest form: six seats of Space Aztecs, then scrolled to the middle of it.
        page.click("#game-card-space-aztecs")
        while not page.is_disabled("#add-seat"):
            page.click("#add-seat")
        page.evaluate("window.scrollTo(0, 0)")
        assert page.evaluate(BUTTON_IN_VIEW)
        page.locator("#seats").scroll_into_view_if_needed()
        assert page.evaluate(BUTTON_IN_VIEW), "it stays in view while the form scrolls"
        assert "Space Aztecs, 6 players" in page.inner_text("#create-summary")
    finally:
        context.close()


# --- names, free seats, claiming --------------------------------------------------------------
def test_a_free_seat_is_taken_from_the_lobby_by_a_second_person(
    server: str, page: Any, browser: Any
) -> None:
    link = create_table(page, server, "stakz", ["human", "human"], {}, name="Ana")
    assert parse_qs(urlparse(link).query)["name"] == ["Ana"]  # the creator's name rides along
    table_id = _table_id(link)
    assert _summary(server, table_id)["open_seats"] is True
    page.goto(f"{server}{link}")  # the creator sits down
    page.wait_for_selector("#board svg")

    other = browser.new_context(viewport={"width": 390, "height": 844})
    errors: list[str] = []
    try:
        second = other.new_page()
        second.on("pageerror", lambda exc: errors.append(str(exc)))
        second.set_default_timeout(60000)
        _lobby(second, server)
        second.fill("#player-name", "Bea")
        row = second.locator(f"#tables tr[data-table='{table_id}']")
        row.wait_for()
        take = row.locator(".take-seat[data-seat='1']")
        take.wait_for()
        assert take.inner_text() == "Take seat 2"
        assert row.locator(".take-seat[data-seat='0']").count() == 0  # Ana's is taken
        assert "1. " in row.inner_text() and "2. free" in row.inner_text()
        take.click()
        second.wait_for_url(re.compile(rf"/table/{table_id}\?seat=1"))
        assert "token=" in second.url
        second.wait_for_selector("#board svg")
        second.wait_for_function("document.body.dataset.step !== undefined")
        seat = _summary(server, table_id)["seats"][1]
        assert seat["taken"] is True and seat["name"] == "Bea" and seat["present"] is True
        # The name remembered: the lobby fills it in next time.
        _lobby(second, server)
        assert second.input_value("#player-name") == "Bea"
    finally:
        other.close()
    assert not errors, errors

    # Back in the lobby, the table lists its seats by name and presence, no free seat left.
    _lobby(page, server)
    row = page.locator(f"#tables tr[data-table='{table_id}']")
    row.wait_for()
    page.wait_for_function(
        "(id) => document.querySelector(`#tables tr[data-table='${id}']`)"
        ".textContent.includes('2. Bea')",
        arg=table_id,
    )
    text = row.inner_text()
    assert "2. Bea" in text and "Seat 1" not in text
    assert row.locator(".take-seat").count() == 0


def test_a_seat_someone_else_took_first_is_explained(server: str, quiet_page: Any) -> None:
    page = quiet_page
    status, created = _post(
        f"{server}/api/tables",
        {"game": "aztack", "seats": [{"kind": "human"}, {"kind": "human"}], "open_seats": True},
    )
    assert status == 201
    table_id = created["id"]
    _lobby(page, server)
    take = page.locator(f"#tables tr[data-table='{table_id}'] .take-seat[data-seat='1']")
    take.wait_for()
    # Someone is faster, from elsewhere.
    status, _ = _post(f"{server}/api/tables/{table_id}/seats/1/claim", {"name": "Cy"})
    assert status == 201
    take.click()
    page.wait_for_selector("#tables-error:not([hidden])")
    assert "Someone was faster: seat 2" in page.inner_text("#tables-error")
    page.wait_for_function(
        "(id) => !document.querySelector("
        "`#tables tr[data-table='${id}'] .take-seat[data-seat='1']`)",
        arg=table_id,
    )
    assert "2. Cy" in page.inner_text(f"#tables tr[data-table='{table_id}']")
    assert page.url.rstrip("/") == server  # still in the lobby


def test_tables_closed_to_the_lobby_offer_no_seat(server: str, page: Any) -> None:
    link = create_table(page, server, "stakz", ["human", "human"], {}, open_seats=False)
    table_id = _table_id(link)
    assert _summary(server, table_id)["open_seats"] is False
    page.click("#refresh")
    row = page.locator(f"#tables tr[data-table='{table_id}']")
    row.wait_for()
    assert "2. free" in row.inner_text()
    assert row.locator(".take-seat").count() == 0


def test_bots_are_listed_by_level_and_technical_name(server: str, page: Any) -> None:
    link = create_table(page, server, "stakz", ["human", "random", "ismcts"], {})
    table_id = _table_id(link)
    bots = [s["bot"] for s in _summary(server, table_id)["seats"][1:]]
    assert bots == ["random", "ismcts:time=1"]
    row = page.locator(f"#tables tr[data-table='{table_id}']")
    row.wait_for()
    text = row.inner_text()
    assert "2. Beginner bot (random)" in text and "3. Strong bot (ismcts)" in text


# --- the list: damaged tables, pages of 50 ----------------------------------------------------
def _fake_table(k: int) -> dict[str, Any]:
    return {
        "id": f"fake{k:03d}",
        "game": "aztack",
        "status": "running",
        "open_seats": False,
        "seats": [
            {
                "seat": 0,
                "kind": "human",
                "bot": None,
                "taken": True,
                "name": f"P{k}",
                "present": k % 2 == 0,
            },
            {
                "seat": 1,
                "kind": "bot",
                "bot": "greedy",
                "taken": False,
                "name": None,
                "present": False,
            },
        ],
    }


def test_damaged_tables_are_greyed_with_their_reason(server: str, page: Any) -> None:
    tables = [
        _fake_table(1),
        {
            "id": "broken1",
            "status": "damaged",
            "damaged": "its moves no longer replay",
            "seats": [],
        },
    ]

    def answer(route: Any) -> None:
        route.fulfill(
            status=200,
            headers={"content-type": "application/json", "X-Total-Count": "2"},
            body=json.dumps(tables),
        )

    page.route(re.compile(r"/api/tables\?"), answer)
    _lobby(page, server)
    row = page.locator("#tables tr[data-table='broken1']")
    row.wait_for()
    assert "damaged" in (row.get_attribute("class") or "")
    assert "damaged: its moves no longer replay" in row.inner_text()
    assert row.locator("a").count() == 0  # nothing to watch
    # greyed: the text is lighter than a playing table's, and the word says it (not colour alone)
    grey = row.evaluate("r => getComputedStyle(r).color")
    normal = page.locator("#tables tr[data-table='fake001']").evaluate(
        "r => getComputedStyle(r).color"
    )
    assert grey != normal
    assert "P1" in page.inner_text("#tables tr[data-table='fake001']")
    assert "here" not in page.inner_text("#tables tr[data-table='fake001']")
    assert "away" in page.inner_text("#tables tr[data-table='fake001']")


def test_the_list_shows_50_tables_and_more_on_request(server: str, page: Any) -> None:
    tables = [_fake_table(k) for k in range(120)]
    asked: list[tuple[int, int]] = []

    def answer(route: Any) -> None:
        query = parse_qs(urlparse(route.request.url).query)
        limit, offset = int(query["limit"][0]), int(query["offset"][0])
        asked.append((limit, offset))
        headers = {"content-type": "application/json", "X-Total-Count": str(len(tables))}
        if offset + limit < len(tables):
            headers["Link"] = f'</api/tables?limit={limit}&offset={offset + limit}>; rel="next"'
        route.fulfill(status=200, headers=headers, body=json.dumps(tables[offset : offset + limit]))

    page.route(re.compile(r"/api/tables\?"), answer)
    _lobby(page, server)
    rows = page.locator("#tables tbody tr")
    page.wait_for_function("document.querySelectorAll('#tables tbody tr').length === 50")
    assert page.inner_text("#tables-count") == "Showing 50 of 120 tables."
    assert asked[0] == (50, 0)
    page.click("#more-tables")
    page.wait_for_function("document.querySelectorAll('#tables tbody tr').length === 100")
    # Focus moves on to the first new table, not back to the top.
    assert page.evaluate("document.activeElement.closest('tr')?.dataset.table") == "fake050"
    page.click("#more-tables")
    page.wait_for_function("document.querySelectorAll('#tables tbody tr').length === 120")
    assert page.is_hidden("#more-tables")
    assert rows.nth(119).get_attribute("data-table") == "fake119"
    assert (50, 100) in asked
