"""A table people can read (issue 15), in a real browser against a real server: the last step
marked on the board, the tab saying whose turn it is, a step of the log shown on the board, the
end screen with the engine's breakdown, presence and the rematch message.

Verdicts never rest on the wall clock: every wait is for a condition in the page.
"""

from __future__ import annotations

import json
import shutil
import urllib.request
from pathlib import Path
from typing import Any

import pytest

import teocalli

SCREENS = Path("/tmp/teocalli-screens")
"""Where the end screens are copied for people to look at (the test prints the path too)."""

SHORT_OPTIONS: dict[str, dict[str, Any]] = {
    "stakz": {"target": 1},
    "shifting-stones": {"round_limit": 4},
    "space-aztecs": {"removed_set": "pink"},
}
"""Options that keep a game short (only games that need some)."""


def _post(base: str, path: str, body: Any) -> Any:
    request = urllib.request.Request(
        f"{base}{path}",
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def _get(base: str, path: str) -> Any:
    with urllib.request.urlopen(f"{base}{path}", timeout=30) as response:
        return json.loads(response.read())


def create(
    base: str,
    game: str,
    seats: list[str],
    *,
    pace: float = 0.0,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A table through the API: "human" seats and bots named by their spec."""
    body = {
        "game": game,
        "seats": [{"kind": "human"} if s == "human" else {"kind": "bot", "bot": s} for s in seats],
        "options": options or {},
        "pace": pace,
        "bot_delay": 0,
    }
    created: dict[str, Any] = _post(base, "/api/tables", body)
    return created


def seat_link(created: dict[str, Any], seat: int) -> str:
    link: str = created["seats"][seat]["link"]
    assert link
    return link


def open_table(page: Any, base: str, link: str) -> None:
    page.goto(f"{base}{link}")
    page.wait_for_selector("#board svg")
    page.wait_for_function("document.body.dataset.step !== undefined")


def shown(page: Any) -> dict[str, Any]:
    """What the page shows now, read in one go (so the parts agree with each other)."""
    result: dict[str, Any] = page.evaluate(
        """() => ({
            step: Number(document.body.dataset.step),
            myTurn: document.body.dataset.myTurn === 'true',
            mineClass: document.getElementById('turn').classList.contains('mine'),
            title: document.title,
            icon: document.querySelector('link[rel=icon]').dataset.turn,
            lastPlayer: document.body.dataset.lastPlayer,
            status: document.body.dataset.status,
        })"""
    )
    return result


def play_first_listed_move(page: Any) -> None:
    """Press the first move of the list and wait until the page shows a new step."""
    step = page.evaluate("document.body.dataset.step")
    page.locator("#moves li button").first.click()
    page.wait_for_function(
        "(step) => document.body.dataset.step !== step || !document.getElementById('error').hidden",
        arg=step,
    )
    assert page.is_hidden("#error"), page.inner_text("#error")


def check_turn_signal(now: dict[str, Any]) -> None:
    """The tab says "your turn" exactly when the page offers the person a move."""
    says = "your turn" in now["title"].lower()
    assert says == now["myTurn"], now
    assert now["icon"] == ("mine" if now["myTurn"] else "other"), now


def play_until_the_bot_steps(page: Any) -> None:
    """Play the first listed move until the last step shown is the bot's (seat 2); the tab's
    turn signal is checked at every step seen."""
    for _ in range(80):
        page.wait_for_function(
            "document.body.dataset.myTurn === 'true' || document.body.dataset.lastPlayer === '1'"
            " || document.body.dataset.status === 'over'"
        )
        now = shown(page)
        check_turn_signal(now)
        if now["lastPlayer"] == "1" or now["status"] == "over":
            break
        play_first_listed_move(page)
        check_turn_signal(shown(page))
    else:
        raise AssertionError("the bot never made a step")
    assert shown(page)["lastPlayer"] == "1"


@pytest.mark.parametrize("game", teocalli.games())
def test_the_bots_step_is_marked_and_the_tab_says_whose_turn(
    server: str, page: Any, game: str
) -> None:
    # A little pace: the server shows the bot's steps one by one, so the page sees each.
    created = create(server, game, ["human", "greedy"], pace=0.2, options=SHORT_OPTIONS.get(game))
    open_table(page, server, seat_link(created, 0))
    play_until_the_bot_steps(page)
    # The renderer marks what the bot's step changed.
    assert page.locator("#board [data-last]").count() > 0, f"{game}: nothing marked data-last"
    page.wait_for_function("document.body.dataset.myTurn === 'true'")
    now = shown(page)
    check_turn_signal(now)
    assert "your turn" in now["title"].lower()


def test_a_log_entry_shows_that_step_and_the_live_table_goes_on(
    server: str, page: Any, browser: Any
) -> None:
    created = create(server, "aztack", ["human", "human"])
    other_context = browser.new_context(viewport={"width": 1000, "height": 800})
    other = other_context.new_page()
    try:
        open_table(page, server, seat_link(created, 0))
        open_table(other, server, seat_link(created, 1))
        pages = [page, other]
        # Three steps, each by whoever is to move; the tab of the other one never says "your turn".
        for step in range(3):
            for p in pages:
                p.wait_for_function("(s) => document.body.dataset.step === s", arg=str(step))
            states = [shown(p) for p in pages]
            for now in states:
                check_turn_signal(now)
            movers = [p for p, now in zip(pages, states, strict=True) if now["myTurn"]]
            assert len(movers) == 1, states
            waiting = pages[1 - pages.index(movers[0])]
            assert "your turn" not in shown(waiting)["title"].lower()
            if step == 0:
                # A move typed out of turn: refused in words that count seats from 1, and the
                # list beside the box is not left empty.
                move = movers[0].get_attribute("#moves li button", "data-move") or ""
                waiting.fill("#move-filter", move)
                waiting.press("#move-filter", "Enter")
                waiting.wait_for_selector("#error:not([hidden])")
                mover = pages.index(movers[0]) + 1
                assert waiting.inner_text("#error") == (
                    f"Refused: it is not your turn (waiting for Seat {mover})"
                )
                assert waiting.input_value("#move-filter") == ""
                assert waiting.locator("#moves li").count() == 1  # "Nothing to do now..."
            play_first_listed_move(movers[0])
        page.wait_for_function("document.body.dataset.step === '3'")
        live = page.inner_html("#board")
        assert page.locator("#log li").count() == 3
        # Press the first entry: the board as it was after step 1, clearly not the live table.
        page.locator("#log li[data-step='1'] button").click()
        page.wait_for_selector("body[data-viewing='1']")
        assert page.is_visible("#history")
        assert "step 1 of 3" in page.inner_text("#history").lower()
        assert page.locator("#board.history svg").count() == 1
        assert page.inner_html("#board") != live
        assert page.locator("#log li.current").get_attribute("data-step") == "1"
        # The table goes on meanwhile: the other person moves, the log grows, the step stays.
        if shown(other)["myTurn"]:
            play_first_listed_move(other)
            page.wait_for_function("document.querySelectorAll('#log li').length === 4")
            assert page.evaluate("document.body.dataset.viewing") == "1"
            assert page.locator("#board.history").count() == 1
            assert "step 1 of 4" in page.inner_text("#history").lower()
        # Escape returns to the live table.
        page.keyboard.press("Escape")
        page.wait_for_function("document.body.dataset.viewing === undefined")
        assert page.is_hidden("#history")
        assert page.locator("#board.history").count() == 0
        assert page.locator("#log li.current").count() == 0
        # Another entry, then the button back.
        page.locator("#log li[data-step='2'] button").click()
        page.wait_for_selector("body[data-viewing='2']")
        page.click("#history-back")
        page.wait_for_function("document.body.dataset.viewing === undefined")
        assert page.locator("#board.history").count() == 0
        # Presence: when the other person leaves, their seat reads "away".
        assert "away" not in page.inner_text("#seats")
        other_context.close()
        page.wait_for_function(
            "document.querySelector('#seats li[data-seat=\"1\"]').textContent.includes('away')"
        )
        assert page.inner_text("#seats li[data-seat='1']") == "Seat 2: away"
    finally:
        other_context.close()


def test_a_spectator_is_never_told_it_is_their_turn(server: str, page: Any) -> None:
    created = create(server, "stakz", ["human", "greedy"])
    page.goto(f"{server}{created['spectate']}")
    page.wait_for_selector("#board svg")
    page.wait_for_function("document.body.dataset.step !== undefined")
    now = shown(page)
    assert not now["myTurn"] and "your turn" not in now["title"].lower()
    assert now["icon"] == "other"
    # The beep is off until switched on, and the choice is remembered.
    assert not page.is_checked("#sound")
    page.check("#sound")
    assert page.evaluate("localStorage.getItem('teocalli.sound')") == "on"
    page.reload()
    page.wait_for_selector("#board svg")
    assert page.is_checked("#sound")


def _breakdown_shown(page: Any, player: int) -> list[list[Any]]:
    items = page.locator(f"#result tr.player[data-player='{player}'] td.breakdown li")
    return [
        [items.nth(i).get_attribute("data-label"), float(items.nth(i).get_attribute("data-points"))]
        for i in range(items.count())
    ]


def _finish(page: Any, base: str, created: dict[str, Any]) -> dict[str, Any]:
    """Play a move from the list if it is ours, hand the seat to the bot, wait for the end; the
    engine's outcome (the replay's last frame, as seat 1 sees it)."""
    link = seat_link(created, 0)
    open_table(page, base, link)
    if shown(page)["myTurn"]:
        play_first_listed_move(page)
    page.wait_for_selector("#hand-to-bot:not([disabled])")
    page.click("#hand-to-bot")
    page.wait_for_selector("#result:not([hidden]) table.scores", timeout=180000)
    token = link.split("#token=")[1]
    replay = _get(base, f"/api/tables/{created['id']}/replay?seat=0&token={token}")
    outcome: dict[str, Any] = replay["frames"][-1]["view"]["outcome"]
    return outcome


def _screenshot(page: Any, tmp_path: Path, name: str) -> None:
    page.locator("#result").scroll_into_view_if_needed()
    path = tmp_path / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    SCREENS.mkdir(parents=True, exist_ok=True)
    shutil.copy(path, SCREENS / path.name)
    print(f"end screen: {path} (copied to {SCREENS / path.name})")


def _check_scores(page: Any, outcome: dict[str, Any]) -> None:
    rows = page.locator("#result tr.player")
    assert rows.count() == len(outcome["scores"])
    for i in range(rows.count()):
        player = int(rows.nth(i).get_attribute("data-player") or "-1")
        score = float(rows.nth(i).locator("td").nth(2).inner_text())
        assert score == pytest.approx(outcome["scores"][player])
    breakdown = outcome.get("breakdown")
    if breakdown is None:
        assert page.locator("#result td.breakdown").count() == 0
    else:
        for player, parts in enumerate(breakdown):
            expected = [[label, pytest.approx(float(points))] for label, points in parts]
            assert _breakdown_shown(page, player) == expected
    assert page.locator("#result .lower-is-better").count() == (
        1 if outcome.get("lower_is_better") else 0
    )
    # After the end: no moves, no hints, nobody "to move".
    assert page.is_hidden("#moves-section")
    assert page.inner_text("#turn") == "The game is over."
    assert page.locator("#seats li.to-move").count() == 0


@pytest.mark.parametrize("game", teocalli.games())
def test_the_end_screen_shows_the_engines_breakdown(
    server: str, page: Any, game: str, tmp_path: Path
) -> None:
    created = create(server, game, ["human", "greedy"], options=SHORT_OPTIONS.get(game))
    outcome = _finish(page, server, created)
    _check_scores(page, outcome)
    winners = page.inner_text("#result .winners")
    assert winners.startswith(("Winner: ", "Shared win: ", "Nobody won"))
    assert winners not in ("Winner: ", "Shared win: ")
    _screenshot(page, tmp_path, f"{game}-end")
    if game == "aztack":
        # A rematch: every connection is told, each person with their own link.
        page.click("#rematch")
        page.wait_for_selector("#rematch-notice:not([hidden]) a")
        assert page.inner_text("#rematch-notice").startswith("Rematch ready:")
        href = page.get_attribute("#rematch-notice a", "href") or ""
        assert "seat=0" in href and "token=" in href


def test_a_solo_game_says_won_or_lost(server: str, page: Any, tmp_path: Path) -> None:
    created = create(server, "shifting-stones", ["human"], options={"round_limit": 3})
    outcome = _finish(page, server, created)
    _check_scores(page, outcome)
    won = outcome["won"][0] if "won" in outcome else outcome["ranks"][0] == 0
    assert page.inner_text("#result .winners") == ("You won!" if won else "You lost.")
    place = page.locator("#result tr.player td").first.inner_text()
    assert place == ("won" if won else "lost")
    assert "Winner" not in page.inner_text("#result")
    _screenshot(page, tmp_path, "shifting-stones-solo-end")
