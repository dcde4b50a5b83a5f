"""A phone (390 x 844, touch): every game is played to the end against a bot by tapping the board
only, never the list of moves; on the way every control that picks or plays a move must offer a
44 x 44 CSS px hit area and no visible text may be under 12 px. Stack Back is played as a phone
player would: tap a colour (a stick is taken in hand at one of the bots' places), step to another
place, turn it, press Place; Pass when the rules offer it.
Screenshots go to /tmp/teocalli-screens/phone-<game>.png."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .play import CLICKABLE, create_table, final_scores

SCREENS = Path("/tmp/teocalli-screens")
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "has_touch": True,
    "is_mobile": True,
    "device_scale_factor": 2,
}
GAMES: dict[str, tuple[list[str], dict[str, Any], int | None]] = {
    "aztack": (["human", "greedy"], {}, None),
    "stakz": (["human", "greedy"], {"target": 1}, 1),
    "shifting-stones": (["human", "greedy"], {}, 1),
    "space-aztecs": (["human", "greedy"], {"removed_set": "pink"}, None),
}
"""Seats, short options and picked-up moves per turn (Stakz and Shifting Stones: turns go on)."""

MEASURE = """() => {
  const targets = [...document.querySelectorAll(
    '#board [data-action], #board [data-select], #board [role=button], #board [role=checkbox]')];
  const small = [];
  for (const node of targets) {
    const r = node.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;  // not shown now (display: none)
    if (r.width < 44 - 0.5 || r.height < 44 - 0.5) {
      const name = node.dataset.action ?? node.dataset.select ?? node.getAttribute('class');
      small.push(`${name}: ${r.width.toFixed(1)}x${r.height.toFixed(1)}`);
    }
  }
  const tiny = [];
  const visible = (node) => {
    const r = node.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && !node.closest('[hidden]')
      && getComputedStyle(node).visibility !== 'hidden';
  };
  for (const node of document.querySelectorAll('#board svg text')) {
    if (!node.textContent.trim() || !visible(node)) continue;
    const m = node.getScreenCTM();
    const scale = m ? Math.hypot(m.a, m.b) : 1;
    const px = parseFloat(getComputedStyle(node).fontSize) * scale;
    if (px < 12 - 0.05) tiny.push(`svg "${node.textContent.slice(0, 20)}": ${px.toFixed(1)}px`);
  }
  for (const node of document.body.querySelectorAll('*')) {
    if (node.closest('svg') || ['SCRIPT', 'STYLE', 'TITLE'].includes(node.tagName)) continue;
    const own = [...node.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim());
    if (!own || !visible(node)) continue;
    const px = parseFloat(getComputedStyle(node).fontSize);
    const words = node.textContent.slice(0, 20);
    if (px < 12 - 0.05) tiny.push(`${node.tagName}#${node.id} "${words}": ${px}px`);
  }
  return {count: targets.length, small, tiny};
}"""


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """A fresh phone-sized touch page whose JavaScript errors fail the test."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.set_default_timeout(60000)
    yield page
    context.close()
    assert not errors, f"errors in the browser: {errors}"


FITS = """() => {
  const board = document.getElementById('board');
  return {page: document.scrollingElement.scrollWidth - innerWidth,
          board: board.scrollWidth - board.clientWidth};
}"""
"""How far the page and the board's box scroll sideways (0: they fit the width)."""

TOGETHER = """() => {
  const seen = (node) => {
    const r = node.getBoundingClientRect();
    return r.width > 0 && r.top >= 0 && r.bottom <= innerHeight
      && r.left >= 0 && r.right <= innerWidth;
  };
  const picked = document.querySelector('#board [data-select][aria-pressed=true]');
  const targets = [...document.querySelectorAll('#board [data-action][data-for-selection]')];
  return {picked: Boolean(picked && seen(picked)), targets: targets.filter(seen).length,
          all: targets.length};
}"""
"""Whether the piece picked up and how many of the places it may go are on the screen at once."""


def check_fits(page: Any, where: str) -> None:
    """Nothing scrolls sideways: neither the page nor the board's own box."""
    over = page.evaluate(FITS)
    assert over["page"] <= 0 and over["board"] <= 0, f"{where}: scrolls sideways by {over}"


def check_sizes(page: Any, where: str) -> int:
    """Every board control at least 44 x 44 CSS px, no visible text under 12 px."""
    found = page.evaluate(MEASURE)
    assert not found["small"], f"{where}: targets under 44 x 44 px: {found['small'][:8]}"
    assert not found["tiny"], f"{where}: text under 12 px: {found['tiny'][:8]}"
    return int(found["count"])


def play_by_tapping(page: Any, per_turn: int | None, max_taps: int = 600) -> int:
    """Play seat 1 to the end by tapping the board (and the buttons beside it); return the
    number of taps on the board."""
    taps = board_taps = moves_this_turn = 0
    while taps < max_taps:
        page.wait_for_function(CLICKABLE, timeout=60000)
        if page.evaluate("document.body.dataset.status") == "over":
            return board_taps
        check_sizes(page, f"tap {taps}")
        check_fits(page, f"tap {taps}")
        before = page.evaluate("[document.body.dataset.renders, document.body.dataset.step]")
        chosen = page.locator("#board [data-action][data-for-selection]")
        pieces = page.locator("#board [data-select]")
        board = page.locator("#board [data-action]")
        bar = page.locator("#actionbar button")
        if chosen.count():
            # The moment of choosing: the piece in hand and where it may go, on screen together.
            together = page.evaluate(TOGETHER)
            assert together["picked"] and together["targets"], f"tap {taps}: {together}"
            target = chosen.last
            moves_this_turn += 1
        elif page.locator("#board [data-choose]").count():
            target = page.locator("#board [data-choose]").first  # Aztack: a cell's chooser
        elif pieces.count() and (per_turn is None or moves_this_turn < per_turn):
            target = pieces.first
        elif board.count():
            target = board.last
            moves_this_turn = 0
        elif bar.count():
            target = bar.first
            moves_this_turn = 0
        else:
            continue
        if target.evaluate("e => e.closest('#board') !== null"):
            board_taps += 1
        target.tap()
        taps += 1
        page.wait_for_function(
            """(before) => document.body.dataset.renders !== before[0]
                || document.body.dataset.step !== before[1]
                || !document.getElementById('error').hidden""",
            arg=before,
        )
        if page.is_visible("#error"):
            # Only a race is forgiven: a bot moved at the same time (Space Aztecs' simultaneous
            # choices); the table shows the new position and play goes on from there.
            words = page.inner_text("#error")
            assert "changed since you saw it" in words, words
            page.wait_for_function(
                "(before) => document.body.dataset.step !== before[1]"
                " || document.body.dataset.status === 'over'",
                arg=before,
            )
    raise AssertionError(f"the game did not end within {max_taps} taps")


@pytest.mark.parametrize("game", list(GAMES))
def test_a_whole_game_by_tapping_on_a_phone(server: str, page: Any, phone: Any, game: str) -> None:
    seats, options, per_turn = GAMES[game]
    link = create_table(page, server, game, seats, options)
    phone.goto(f"{server}{link}")
    phone.wait_for_selector("#board svg")
    phone.wait_for_function(CLICKABLE)
    # The board uses the width and the moves are one tap away.
    box = phone.locator("#board").bounding_box()
    assert box is not None and box["width"] >= 370
    assert phone.locator("#moves-jump").is_visible()
    SCREENS.mkdir(parents=True, exist_ok=True)
    phone.screenshot(path=str(SCREENS / f"phone-{game}.png"))
    board_taps = play_by_tapping(phone, per_turn)
    assert board_taps > 0
    phone.screenshot(path=str(SCREENS / f"phone-{game}-over.png"))
    assert len(final_scores(phone)) == len(seats)


def test_the_moves_button_reaches_the_list(server: str, page: Any, phone: Any) -> None:
    link = create_table(page, server, "aztack", ["human", "greedy"], {})
    phone.goto(f"{server}{link}")
    phone.wait_for_selector("#moves button")
    phone.locator("#moves-jump").tap()
    phone.wait_for_function(
        "() => { const r = document.getElementById('moves').getBoundingClientRect();"
        " return r.top < innerHeight && r.bottom > 0; }"
    )


SB_READY = """() => document.body.dataset.status === 'over'
  || (document.body.dataset.myTurn === 'true'
      && document.querySelector('#board [data-select], #board [data-action="pass"]'))"""


IN_VIEW = """() => {
  const seen = (node) => {
    const r = node.getBoundingClientRect();
    return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight;
  };
  const area = document.querySelector('#board .boards-area');
  const colours = [...document.querySelectorAll('#board [data-select]')];
  const hand = [...document.querySelectorAll(
    '#board .ghost-place, #board .ghost-turn-right, #board .ghost-next, #board .pass-button')]
    .filter((node) => node.getBoundingClientRect().height > 0);
  const box = area && area.getBoundingClientRect();
  const page = document.getElementById('board').getBoundingClientRect();
  return {board: Boolean(area && seen(area)), colours: colours.length,
          seen: colours.filter(seen).length, buttons: hand.length,
          buttonsSeen: hand.filter(seen).length, height: box && box.height, top: box && box.top,
          bottom: box && box.bottom, scrolled: scrollY, screen: innerHeight,
          boardBox: [page.top, page.bottom]};
}"""
"""Whether the boards' area, your supply's colours and the stick in hand's buttons (Place, the
turns, the bots' next place, Pass) are all on the screen at once."""


def check_hand_and_board(page: Any, where: str, *, in_hand: bool = False) -> None:
    """The boards, every colour of your supply and the hand's buttons on the screen together (no
    scrolling: a tap on Place must not scroll the board away)."""
    seen = page.evaluate(IN_VIEW)
    together = seen["seen"] == seen["colours"] and seen["buttonsSeen"] == seen["buttons"]
    shown = seen["buttons"] >= 3 if in_hand else True  # Place, turn, next: only with a stick
    if not (seen["board"] and seen["colours"] and shown and together):
        page.screenshot(path=str(SCREENS / "phone-stack-back-not-in-view.png"))
        raise AssertionError(f"{where}: {seen}")


def test_a_whole_stack_back_game_by_tapping_on_a_phone(server: str, page: Any, phone: Any) -> None:
    """Every stick is placed by tapping: a colour, sometimes the next bots' place or a turn of
    15 degrees and back (the ghost judged each time), then Place; Pass when offered."""
    link = create_table(page, server, "stack-back", ["human", "random"], {})
    phone.goto(f"{server}{link}")
    phone.wait_for_selector("#board svg")
    box = phone.locator("#board").bounding_box()
    assert box is not None and box["width"] >= 370
    SCREENS.mkdir(parents=True, exist_ok=True)
    placed = passes = turned = 0
    zoomed = False
    phone.wait_for_function(SB_READY)
    overview_height = phone.evaluate(IN_VIEW)["height"]
    check_hand_and_board(phone, "both boards")
    for _ in range(200):
        phone.wait_for_function(SB_READY)
        if phone.evaluate("document.body.dataset.status") == "over":
            break
        check_sizes(phone, f"stick {placed}")
        check_fits(phone, f"stick {placed}")
        step = phone.evaluate("document.body.dataset.step")
        if placed == 6 and not zoomed:  # the rest of the game zoomed on board A (twice the scale)
            before = phone.evaluate("document.body.dataset.renders")
            phone.locator("#board .zoom-button").nth(1).tap()
            phone.wait_for_function("(b) => document.body.dataset.renders !== b", arg=before)
            assert phone.get_attribute("#board .zoom-button >> nth=1", "aria-pressed") == "true"
            check_sizes(phone, "zoomed on board A")
            check_fits(phone, "zoomed on board A")
            # Twice the scale, yet the board and your sticks are still seen together.
            zoomed_height = phone.evaluate(IN_VIEW)["height"]
            assert zoomed_height > 1.5 * overview_height, (zoomed_height, overview_height)
            check_hand_and_board(phone, "zoomed on board A")
            phone.screenshot(path=str(SCREENS / "phone-stack-back-zoom.png"))
            zoomed = True
        colours = phone.locator("#board [data-select]")
        if zoomed and colours.count():
            check_hand_and_board(phone, f"zoomed, stick {placed}")
        if not colours.count():
            phone.locator("#board [data-action='pass']").tap()
            passes += 1
        else:
            colours.nth(placed % colours.count()).tap()
            ghost = phone.locator("#board .ghost")
            phone.wait_for_selector("#board .ghost:not([display='none'])[data-judged='legal']")
            spots = int(phone.text_content("#board .ghost-spot").split()[-1])
            if placed % 3 == 1 and spots > 1:  # the bots' next place: a new pose, legal at once
                first = ghost.get_attribute("data-pose")
                phone.locator("#board .ghost-next").tap()
                phone.wait_for_function(
                    "(p) => document.querySelector('#board .ghost').dataset.pose !== p", arg=first
                )
            if placed % 5 == 2:  # turned 15 degrees (judged by the server), and back
                first = ghost.get_attribute("data-pose")
                phone.locator("#board .ghost-turn-left").tap()
                phone.wait_for_selector(
                    "#board .ghost[data-judged='legal'], #board .ghost[data-judged='illegal']"
                )
                turned += 1
                phone.locator("#board .ghost-turn-right").tap()
                phone.wait_for_function(
                    "(p) => document.querySelector('#board .ghost').dataset.pose === p", arg=first
                )
            phone.wait_for_selector("#board .ghost[data-judged='legal']")
            if zoomed:
                check_hand_and_board(phone, f"zoomed, stick {placed} in hand", in_hand=True)
            if placed == 3:
                check_sizes(phone, "a stick in hand")
                check_fits(phone, "a stick in hand")
                phone.screenshot(path=str(SCREENS / "phone-stack-back-hand.png"))
            phone.locator("#board .ghost-place").tap()
            placed += 1
        phone.wait_for_function(
            """(step) => document.body.dataset.step !== step
                || !document.getElementById('error').hidden""",
            arg=step,
        )
        assert not phone.is_visible("#error"), phone.inner_text("#error")
    else:
        raise AssertionError("the game did not end within 200 plays")
    phone.screenshot(path=str(SCREENS / "phone-stack-back-over.png"))
    assert placed > 10 and turned > 0 and zoomed
    assert len(final_scores(phone)) == 2


@pytest.mark.parametrize("game", [*GAMES, "stack-back"])
def test_the_narrowest_phone_scrolls_nothing_sideways(
    server: str, page: Any, browser: Any, game: str
) -> None:
    """At 360 px (the narrowest screen supported) every board fits the width."""
    seats, options, _ = GAMES.get(game, (["human", "random"], {}, None))
    link = create_table(page, server, game, seats, options)
    context = browser.new_context(**{**PHONE, "viewport": {"width": 360, "height": 740}})
    narrow = context.new_page()
    try:
        narrow.goto(f"{server}{link}")
        narrow.wait_for_function(CLICKABLE)
        narrow.wait_for_selector("#board svg")
        check_fits(narrow, game)
        check_sizes(narrow, game)
        narrow.screenshot(path=str(SCREENS / f"phone-360-{game}.png"))
    finally:
        context.close()


HOWTO = """() => {
  const box = document.getElementById('example-board');
  const tiny = [];
  for (const node of box.querySelectorAll('svg text')) {
    const r = node.getBoundingClientRect();
    if (!node.textContent.trim() || !r.width || node.closest('[display=none]')) continue;
    const m = node.getScreenCTM();
    const px = parseFloat(getComputedStyle(node).fontSize) * (m ? Math.hypot(m.a, m.b) : 1);
    if (px < 12 - 0.05) tiny.push(`${node.textContent.slice(0, 20)}: ${px.toFixed(1)}px`);
  }
  return {tiny, page: document.scrollingElement.scrollWidth - innerWidth,
          board: box.scrollWidth - box.clientWidth, width: box.getBoundingClientRect().width};
}"""


@pytest.mark.parametrize("width", [390, 360])
def test_how_to_pages_are_readable_on_a_phone(server: str, browser: Any, width: int) -> None:
    """Each how-to page's example board uses the phone's width, scrolls nothing sideways and
    has no text under 12 px."""
    context = browser.new_context(**{**PHONE, "viewport": {"width": width, "height": 800}})
    page = context.new_page()
    try:
        for game in [*GAMES, "stack-back"]:
            page.goto(f"{server}/howto/{game}")
            page.wait_for_selector("body[data-ready='true']")
            seen = page.evaluate(HOWTO)
            assert not seen["tiny"], f"{game}: {seen['tiny'][:6]}"
            assert seen["page"] <= 0 and seen["board"] <= 0, f"{game}: {seen}"
            assert seen["width"] >= width - 30, f"{game}: {seen}"
            if width == 390:
                page.locator("#example").screenshot(path=str(SCREENS / f"phone-howto-{game}.png"))
    finally:
        context.close()


DISTINCT = """() => {
  const nodes = [...document.querySelectorAll(
    '#board [data-action][data-for-selection], #board [data-choose]')];
  const boxes = nodes.map((n) => n.getBoundingClientRect());
  const overlaps = [];
  for (let i = 0; i < boxes.length; i += 1) {
    for (let j = i + 1; j < boxes.length; j += 1) {
      const [a, b] = [boxes[i], boxes[j]];
      const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (w > 0.5 && h > 0.5) overlaps.push([i, j]);
    }
  }
  const small = boxes.filter((r) => r.width < 43.5 || r.height < 43.5).length;
  return {count: nodes.length, overlaps: overlaps.length, small,
          actions: nodes.map((n) => n.dataset.action).filter(Boolean),
          cells: nodes.map((n) => n.dataset.choose).filter(Boolean)};
}"""


PREVIEW = """() => {
  const seen = [];
  const marked = () => [...document.querySelectorAll('#board .cell[data-preview]')];
  for (const option of document.querySelectorAll('#board .chooser [data-action]')) {
    option.focus();
    const cells = marked();
    const shown = [...document.querySelectorAll('#board .chooser-preview')].filter(
      (o) => o.getAttribute('display') !== 'none');
    const box = shown.length === 1 ? shown[0].getBoundingClientRect() : null;
    const inside = (c) => {
      const r = c.getBoundingClientRect();
      return box !== null && r.left >= box.left - 4 && r.right <= box.right + 4
        && r.top >= box.top - 4 && r.bottom <= box.bottom + 4;
    };
    seen.push({action: option.dataset.action,
               cells: cells.map((c) => c.dataset.pyramidCell).sort(),
               marks: cells.map((c) => c.dataset.preview),
               outlines: shown.map((o) => o.dataset.previewFor), inside: cells.every(inside)});
    option.blur();
  }
  return {seen, afterBlur: marked().length};
}"""
"""Focus each chooser button in turn: the cells marked on the pyramid and the outline shown."""


def check_preview(page: Any, cell: str) -> None:
    """While a chooser button is focused, exactly its placement's two cells are marked on the
    pyramid, under one outline; nothing stays marked once it loses focus."""
    found = page.evaluate(PREVIEW)
    assert found["seen"] and found["afterBlur"] == 0, (cell, found)
    for one in found["seen"]:
        action = one["action"]
        cells = sorted(action.split("@")[1].split("=")[0].split("-"))
        assert one["cells"] == cells and cell in cells, (cell, one)
        assert one["marks"] == [action, action] and one["outlines"] == [action], (cell, one)
        assert one["inside"], (cell, one)


@pytest.mark.parametrize("options", [{}, {"speed": True, "declare": True}])
def test_every_aztack_placement_is_one_distinct_target(
    server: str, page: Any, phone: Any, options: dict[str, Any]
) -> None:
    """A stone picked up: no two targets overlap and each is 44 px or more; a cell several
    placements cover opens a chooser with one 44 px button per placement over it; together the
    board reaches every legal placement of that stone (declared matches included)."""
    # In Speed Stack the bot waits (its reaction delay) while the choices are looked at.
    delay = 30.0 if options.get("speed") else None
    link = create_table(page, server, "aztack", ["human", "greedy"], options, bot_delay=delay)
    phone.goto(f"{server}{link}")
    phone.wait_for_selector("#board [data-select]")
    stone = phone.get_attribute("#board [data-select]", "data-select") or ""
    halves = sorted(stone.split("/"))
    legal = {
        move
        for move in phone.eval_on_selector_all(
            "#moves button[data-move]", "bs => bs.map((b) => b.dataset.move)"
        )
        if "@" in move and sorted(move.split("@")[0].split("/")) == halves
    }
    assert legal
    phone.locator("#board [data-select]").first.tap()
    phone.wait_for_selector("#board [data-for-selection], #board [data-choose]")
    seen = phone.evaluate(DISTINCT)
    assert seen["overlaps"] == 0 and seen["small"] == 0, seen
    reached = set(seen["actions"])
    for cell in seen["cells"]:
        before = phone.evaluate("document.body.dataset.renders")
        phone.locator(f"#board [data-choose='{cell}']").tap()
        phone.wait_for_function("(b) => document.body.dataset.renders !== b", arg=before)
        options_here = phone.eval_on_selector_all(
            "#board .chooser [data-action]", "ns => ns.map((n) => n.dataset.action)"
        )
        assert len(options_here) >= 2
        assert all(cell in a.split("@")[1].split("=")[0].split("-") for a in options_here)
        open_seen = phone.evaluate(DISTINCT)
        assert open_seen["overlaps"] == 0 and open_seen["small"] == 0, (cell, open_seen)
        check_sizes(phone, f"chooser of {cell}")
        check_fits(phone, f"chooser of {cell}")
        check_preview(phone, cell)
        reached |= set(options_here)
        if cell == seen["cells"][0]:
            phone.locator("#board .chooser [data-action]").last.focus()
            phone.screenshot(path=str(SCREENS / f"phone-aztack-chooser{len(options)}.png"))
            phone.locator("#board .chooser [data-action]").last.blur()
    assert reached == legal
