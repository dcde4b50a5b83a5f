"""The table's other promises in a real browser: a refused move explained in the server's words,
the replay viewer stepping through a finished game, keyboard play, and the how-to-play pages."""

from __future__ import annotations

from typing import Any

import pytest

import teocalli

from .play import create_table, final_scores, play_by_clicking


def _open_seat(page: Any, server: str, game: str, options: dict[str, Any] | None = None) -> str:
    link = create_table(page, server, game, ["human", "greedy"], options or {})
    page.goto(f"{server}{link}")
    page.wait_for_selector("#board svg")
    page.wait_for_function("document.body.dataset.step !== undefined")
    return link


def test_refused_move_is_explained_in_the_servers_words(server: str, page: Any) -> None:
    _open_seat(page, server, "aztack")
    step = page.evaluate("document.body.dataset.step")
    # Seat 1 can place a stone at the start, so passing breaks a rule.
    page.fill("#move-filter", "pass")
    page.press("#move-filter", "Enter")
    page.wait_for_selector("#error:not([hidden])")
    message = page.inner_text("#error")
    assert message.startswith("Refused: ")
    assert "pass" in message.lower()
    # Nothing changed: same step, still our turn, the board still offers moves.
    assert page.evaluate("document.body.dataset.step") == step
    assert page.inner_text("#turn") == "Your turn."
    # Notation the game cannot read is refused with the parser's explanation.
    page.fill("#move-filter", "Zz/Qq@a1-b1")
    page.press("#move-filter", "Enter")
    page.wait_for_function("document.getElementById('error').textContent.includes('Zz')")
    # A legal move afterwards clears the message and is played (a cell several placements cover
    # opens a chooser of them first).
    page.locator("#board [data-select]").first.click()
    page.wait_for_selector("#board [data-for-selection], #board [data-choose]")
    if not page.locator("#board [data-action][data-for-selection]").count():
        page.locator("#board [data-choose]").first.click()
    page.locator("#board [data-action][data-for-selection]").first.click()
    page.wait_for_function(f"document.body.dataset.step !== '{step}'")
    assert page.is_hidden("#error")


def test_keyboard_alone_plays_a_move(server: str, page: Any) -> None:
    _open_seat(page, server, "stakz")
    step = page.evaluate("document.body.dataset.step")
    tile = page.locator("#board [data-select]").first
    tile.focus()
    page.keyboard.press("Enter")
    # Picking a tile up moves the focus to the first place it may go; Space plays it.
    page.wait_for_function(
        "document.activeElement && document.activeElement.dataset.forSelection === 'true'"
    )
    action = page.evaluate("document.activeElement.dataset.action")
    page.keyboard.press(" ")
    page.wait_for_function(f"document.body.dataset.step !== '{step}'")
    assert page.locator("#log li").last.get_attribute("title") == action


def test_replay_viewer_steps_through_a_finished_game(server: str, page: Any) -> None:
    link = _open_seat(page, server, "aztack")
    play_by_clicking(page)
    assert final_scores(page)
    last_step = int(page.evaluate("document.body.dataset.step"))
    page.click("#show-replay")
    page.wait_for_selector("#replay:not([hidden]) #replay-board svg")
    assert page.inner_text("#replay-step") == f"Step 0 of {last_step}"
    assert page.locator("#replay-log li").count() == 0
    first_board = page.inner_html("#replay-board")
    page.click("#replay-next")
    assert page.inner_text("#replay-step") == f"Step 1 of {last_step}"
    assert page.locator("#replay-log li").count() == 1
    assert page.inner_html("#replay-board") != first_board
    page.click("#replay-last")
    assert page.inner_text("#replay-step") == f"Step {last_step} of {last_step}"
    assert page.locator("#replay-log li").count() == last_step
    page.click("#replay-prev")
    assert page.inner_text("#replay-step") == f"Step {last_step - 1} of {last_step}"
    page.click("#replay-first")
    assert page.inner_html("#replay-board") == first_board
    # A spectator sees the same finished game (everything is revealed at the end).
    table_id = link.split("/table/")[1].split("?")[0]
    page.goto(f"{server}/table/{table_id}")
    page.wait_for_selector("#result:not([hidden])")
    page.click("#show-replay")
    page.wait_for_selector("#replay:not([hidden]) #replay-board svg")
    assert page.inner_text("#replay-step") == f"Step 0 of {last_step}"


def test_rematch_gives_new_links(server: str, page: Any) -> None:
    _open_seat(page, server, "aztack")
    play_by_clicking(page)
    page.click("#rematch")
    page.wait_for_selector("#rematch-links:not([hidden]) a")
    href = page.locator("#rematch-links a").first.get_attribute("href") or ""
    assert "seat=0" in href and "token=" in href


@pytest.mark.parametrize("game", teocalli.games())
def test_howto_page_explains_and_draws_an_example(server: str, page: Any, game: str) -> None:
    page.goto(f"{server}/howto/{game}")
    page.wait_for_selector("body[data-ready='true']")
    assert page.inner_text("#title").startswith("How to play ")
    assert page.locator("#sections h2").count() >= 3
    assert page.locator("#sections p").count() >= 4
    # The table's own renderer draws the example, legal moves marked.
    page.wait_for_selector("#example-board svg")
    assert page.locator("#example-board .legal").count() > 0


def test_lobby_lists_tables_and_shows_share_links(server: str, page: Any) -> None:
    create_table(page, server, "stakz", ["human", "human"], {})
    links = page.locator("#links a")
    assert links.count() == 3  # two seats and the watch link
    assert "seat=1" in (links.nth(1).get_attribute("href") or "")
    page.click("#refresh")
    page.wait_for_function(
        "[...document.querySelectorAll('#tables tbody td')].some(td => td.textContent === 'Stakz')"
    )


def test_a_placed_stakz_tile_is_final_and_reload_keeps_the_seat(server: str, page: Any) -> None:
    """The rulebook: once placed, a tile cannot be removed; the table never offers to."""
    _open_seat(page, server, "stakz")
    assert page.is_disabled("#undo")
    step = int(page.evaluate("document.body.dataset.step"))
    page.locator("#board [data-select]").first.click()
    page.locator("#board [data-action][data-for-selection]").first.click()
    page.wait_for_function(f"document.body.dataset.step === '{step + 1}'")
    assert page.is_disabled("#undo")
    # Come back with the same link: the same seat, the same position.
    page.reload()
    page.wait_for_function(f"document.body.dataset.step === '{step + 1}'")
    assert page.inner_text("#turn") == "Your turn."
    assert page.is_disabled("#undo")


def test_undo_takes_back_an_aztack_placement(server: str, page: Any) -> None:
    # two people, so that nobody moves between the placement and the undo
    page.goto(server + create_table(page, server, "aztack", ["human", "human"], {}))
    page.wait_for_selector("#moves li button")
    step = int(page.evaluate("document.body.dataset.step"))
    page.locator("#moves li button").first.click()
    page.wait_for_function(f"document.body.dataset.step === '{step + 1}'")
    page.wait_for_selector("#undo:not([disabled])")
    page.click("#undo")
    page.wait_for_function(f"document.body.dataset.step === '{step}'")
    assert page.inner_text("#turn") == "Your turn."


def test_hand_to_bot_and_take_back(server: str, page: Any) -> None:
    _open_seat(page, server, "stakz", {"target": 60})
    page.click("#hand-to-bot")
    page.wait_for_selector("#take-back:not([disabled])")
    assert page.is_disabled("#hand-to-bot")
    page.click("#take-back")
    page.wait_for_selector("#hand-to-bot:not([disabled])")


def test_a_table_with_a_clock_shows_it(server: str, page: Any) -> None:
    page.goto(f"{server}/")
    page.wait_for_selector("body[data-ready='true']")
    page.select_option("#game", "aztack")
    page.select_option("#clock-mode", "bank")
    page.fill("#clock-seconds", "600")
    page.click("#create")
    page.wait_for_selector("#created:not([hidden])")
    page.goto(f"{server}{page.locator('#links a').first.get_attribute('href')}")
    page.wait_for_selector("#clock:not([hidden]) .clock-seat")
    assert page.locator("#clock .clock-seat").count() == 2
    assert "Time bank:" in page.inner_text("#clock")
    assert page.locator("#clock .clock-seat.running").count() == 1


def test_a_solo_player_asks_for_a_hint_and_sees_it_marked(server: str, page: Any) -> None:
    page.goto(server + create_table(page, server, "shifting-stones", ["human"], {}))
    page.wait_for_selector("#hint:not([hidden])")
    page.click("#hint")
    page.wait_for_selector("#hint-text[data-action]")
    suggested = page.get_attribute("#hint-text", "data-action")
    assert page.inner_text("#hint-text").startswith("Suggestion: ")
    marked = page.locator("#moves button[data-hint='true']")
    assert marked.count() == 1 and marked.get_attribute("data-move") == suggested
    page.screenshot(path="/tmp/teocalli-screens/hint-solo.png")
