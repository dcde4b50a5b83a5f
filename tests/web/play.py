"""Driving the web table like a person: create a table in the lobby, then play by clicking.

The player presses what the board offers: a highlighted move if a piece is picked up (or opens
the chooser of a cell several placements cover, in Aztack), else picks a piece up, else presses a
move on the board, else a button beside the board. `per_turn` limits how
many picked-up moves it makes before ending the turn (Stakz and Shifting Stones let a turn go on).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout

CLICKABLE = """() => document.body.dataset.status === 'over'
  || document.querySelector('#board [data-action], #board [data-select], #actionbar button')"""


@dataclass
class Played:
    """What a game by clicking did, for the test to check."""

    clicks: int = 0
    board_moves: int = 0
    bar_moves: int = 0
    refusals: list[str] = field(default_factory=list)


def create_table(
    page: Any,
    base: str,
    game: str,
    seats: list[str],
    options: dict[str, Any],
    *,
    bot_delay: float | None = None,
    open_seats: bool | None = None,
    name: str | None = None,
) -> str:
    """Fill in the lobby form (seat 1 a person, the rest bots) and return seat 1's link.

    A seat is "human" or a bot: its spec as the lobby offers it ("random", "greedy",
    "mcts:time=1") or a bare technical name ("mcts", "ismcts": the first level that uses it).
    """
    page.goto(f"{base}/")
    page.wait_for_selector("body[data-ready='true']")
    page.click(f"#game-card-{game}")  # the game's picture card (a radio button)
    page.wait_for_function("(g) => document.getElementById('game').value === g", arg=game)
    if name is not None:
        page.fill("#player-name", name)
    # Seats first: some options apply only to some player counts (the lobby hides the others).
    while page.locator("#seats li").count() > len(seats):
        page.click("#remove-seat")
    while page.locator("#seats li").count() < len(seats):
        page.click("#add-seat")
    for i, seat in enumerate(seats):
        kind = "human" if seat == "human" else "bot"
        page.select_option(f"#seat-{i}-kind", kind)
        if kind == "bot":
            value = page.eval_on_selector(
                f"#seat-{i}-bot",
                """(select, want) => {
                    const values = [...select.options].map((o) => o.value);
                    return values.find((v) => v === want)
                        ?? values.find((v) => v.split(":")[0] === want) ?? want;
                }""",
                seat,
            )
            page.select_option(f"#seat-{i}-bot", value)
    for option, value in options.items():
        field_ = page.locator(f"#option-{option}")
        if isinstance(value, bool):
            field_.set_checked(value)
        elif field_.evaluate("e => e.tagName") == "SELECT":
            field_.select_option(f'"{value}"')
        else:
            field_.fill(str(value))
    if bot_delay is not None:
        page.fill("#bot-delay", str(bot_delay))
    if open_seats is not None:
        page.locator("#open-seats").set_checked(open_seats)
    page.click("#create")
    page.wait_for_selector("#created:not([hidden])")
    link = page.locator("#links a").first
    href: str = link.get_attribute("href") or ""
    assert "seat=0" in href and "token=" in href
    return href


def play_by_clicking(page: Any, per_turn: int | None = None, max_clicks: int = 1500) -> Played:
    """Play seat 1 to the end of the game by pressing the board; return what it did."""
    played = Played()
    moves_this_turn = 0
    misses = 0
    while played.clicks < max_clicks:
        page.wait_for_function(CLICKABLE, timeout=60000)
        if page.evaluate("document.body.dataset.status") == "over":
            return played
        before = page.evaluate("[document.body.dataset.renders, document.body.dataset.step]")
        score = page.locator("#board [data-action^='score ']")
        chosen = page.locator("#board [data-action][data-for-selection]")
        pieces = page.locator("#board [data-select]")
        board = page.locator("#board [data-action]")
        bar = page.locator("#actionbar button")
        if score.count():
            target, kind = score.first, "board"
        elif chosen.count():
            target, kind = chosen.last, "board"
            moves_this_turn += 1
        elif page.locator("#board [data-choose]").count():
            # Aztack: a cell several placements cover opens a chooser of them.
            target, kind = page.locator("#board [data-choose]").first, "select"
        elif pieces.count() and (per_turn is None or moves_this_turn < per_turn):
            target, kind = pieces.first, "select"
        elif board.count():
            target, kind = board.last, "board"
            moves_this_turn = 0
        elif bar.count():
            target, kind = bar.first, "bar"
            moves_this_turn = 0
        else:
            continue
        try:
            # A live table (Speed Stack, bots) may draw anew between finding a target and
            # pressing it, and a selection does not outlive a change of hand: look again.
            target.click(timeout=5000)
        except PlaywrightTimeout:
            misses += 1
            assert misses <= 20, "the board kept changing under every press for 20 tries"
            continue
        played.clicks += 1
        if kind == "board":
            played.board_moves += 1
        elif kind == "bar":
            played.bar_moves += 1
        # Wait for the answer: a new drawing (the selection or a new state) or a refusal.
        page.wait_for_function(
            """(before) => document.body.dataset.renders !== before[0]
                || document.body.dataset.step !== before[1]
                || !document.getElementById('error').hidden""",
            arg=before,
        )
        if page.is_visible("#error"):
            played.refusals.append(page.inner_text("#error"))
            page.wait_for_function(
                "(before) => document.body.dataset.step !== before[1] "
                "|| document.body.dataset.status === 'over'",
                arg=before,
            )
    raise AssertionError(f"the game did not end within {max_clicks} clicks")


def final_scores(page: Any) -> list[tuple[str, str, str]]:
    """The rows of the final score table: (place, player, score)."""
    page.wait_for_selector("#result:not([hidden]) table.scores")
    rows = page.locator("#result table.scores tbody tr")
    out = []
    for i in range(rows.count()):
        cells = rows.nth(i).locator("td")
        out.append(
            (cells.nth(0).inner_text(), cells.nth(1).inner_text(), cells.nth(2).inner_text())
        )
    return out
