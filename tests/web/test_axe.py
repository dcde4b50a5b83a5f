"""axe-core (installed by `make pytest` from package-lock.json) on the lobby, a table of each game
(a person against a bot) and each how-to page: no "serious" or "critical" violation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import teocalli

from .play import create_table

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
BAD = {"serious", "critical"}


def _axe(page: Any) -> list[str]:
    """Run axe on the page; the serious and critical violations, in words."""
    if not AXE.exists():  # never skipped: the setup must install it
        raise RuntimeError(f"{AXE} is missing: run `npm ci` (make pytest does)")
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    out = []
    for v in result["violations"]:
        if v["impact"] not in BAD:
            continue
        nodes = "; ".join(" ".join(n["target"]) for n in v["nodes"][:5])
        out.append(f"{v['id']} ({v['impact']}): {v['help']} [{nodes}]")
    return out


def test_lobby(server: str, page: Any) -> None:
    page.goto(f"{server}/")
    page.wait_for_selector("body[data-ready='true']")
    assert _axe(page) == []


@pytest.mark.parametrize("game", teocalli.games())
def test_table(server: str, page: Any, game: str) -> None:
    link = create_table(page, server, game, ["human", "greedy"], {})
    page.goto(f"{server}{link}")
    page.wait_for_selector("#board svg")
    page.wait_for_selector("#moves button")
    assert _axe(page) == []


@pytest.mark.parametrize("game", teocalli.games())
def test_howto(server: str, page: Any, game: str) -> None:
    page.goto(f"{server}/howto/{game}")
    page.wait_for_load_state("networkidle")
    assert _axe(page) == []


@pytest.mark.parametrize("game", teocalli.games())
def test_table_and_howto_on_a_phone(server: str, page: Any, browser: Any, game: str) -> None:
    """The phone layouts (ui.narrow) with a piece picked up (Stack Back: a stick in hand;
    Aztack: a cell's chooser open), and the how-to page on the same phone."""
    from .test_phone import PHONE

    link = create_table(page, server, game, ["human", "greedy"], {})
    context = browser.new_context(**PHONE)
    phone = context.new_page()
    try:
        phone.goto(f"{server}{link}")
        phone.wait_for_selector("body[data-my-turn='true'] #board svg")
        pieces = phone.locator("#board [data-select]")
        if pieces.count():
            before = phone.evaluate("document.body.dataset.renders")
            pieces.first.tap()
            phone.wait_for_function("(b) => document.body.dataset.renders !== b", arg=before)
            openers = phone.locator("#board [data-choose]")
            if openers.count():
                before = phone.evaluate("document.body.dataset.renders")
                openers.first.tap()
                phone.wait_for_function("(b) => document.body.dataset.renders !== b", arg=before)
        assert _axe(phone) == []
        phone.goto(f"{server}/howto/{game}")
        phone.wait_for_selector("body[data-ready='true']")
        assert _axe(phone) == []
    finally:
        context.close()
