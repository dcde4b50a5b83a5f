"""The Aztack, Stakz and Stack Back boards in a real browser: what the last step changed carries
`data-last`, pieces explain themselves in `data-tip`, and `announce(prev, view, t)` words the
events that change a game's course (a bonus, a round won, the match's end, a pass).

Two kinds of check: a table against the greedy bot, played by pressing the board, where the bot's
step must be marked on the board the page draws; and the renderer modules themselves, fed views the
engine wrote one step apart (seeded games of greedy bots), whose marks and sentences are exact."""

from __future__ import annotations

import json
from typing import Any

import pytest

import teocalli

from ..games.stack_back.blocked import blocked
from .renderers import create_against_greedy, open_table, step_where

GAMES = ["aztack", "stakz", "stack-back"]

MY_TURN = "document.querySelector('#turn.mine') !== null"
ANSWERED = """(before) => document.body.dataset.renders !== before[0]
    || document.body.dataset.step !== before[1]
    || !document.getElementById('error').hidden"""


def _play_my_turn(page: Any) -> None:
    """Press the board until the turn passes: one picked-up move, then what ends the turn."""
    placed = 0
    while page.evaluate(MY_TURN) and page.evaluate("document.body.dataset.status") != "over":
        before = page.evaluate("[document.body.dataset.renders, document.body.dataset.step]")
        chosen = page.locator("#board [data-action][data-for-selection]")
        pieces = page.locator("#board [data-select]")
        board = page.locator("#board [data-action]")
        bar = page.locator("#actionbar button")
        if chosen.count():
            chosen.last.click()
            placed += 1
        elif page.locator("#board [data-choose]").count():
            page.locator("#board [data-choose]").first.click()  # Aztack: a cell's chooser
        elif pieces.count() and not placed:
            pieces.first.click()
        elif board.count():
            board.last.click()
        elif bar.count():
            bar.first.click()
        elif pieces.count():
            pieces.first.click()
        else:
            break
        page.wait_for_function(ANSWERED, arg=before)
        assert page.is_hidden("#error"), page.inner_text("#error")


@pytest.mark.parametrize("game", GAMES)
def test_the_bots_step_is_marked_and_pieces_explain_themselves(
    server: str, page: Any, game: str
) -> None:
    link = create_against_greedy(server, game)
    open_table(page, server, link)
    if page.evaluate(MY_TURN):
        _play_my_turn(page)  # it returns once the turn is the bot's
    # The bot plays its turn (first, or after ours); the board then shows its last step.
    page.wait_for_function(f"({MY_TURN}) && document.body.dataset.step !== '0'")
    marked = page.locator("#board [data-last]")
    assert marked.count() > 0, "the bot's step is marked on the board"
    kinds = set(page.eval_on_selector_all("#board [data-last]", "n => n.map(e => e.dataset.last)"))
    # What the bot's last step was: a stone or stick laid, a bonus settled, a draw, a pass...
    assert kinds and kinds <= {
        "placed",
        "piled",
        "drawn",
        "split",
        "passed",
        "fumbled",
        "ended",
        "discarded",
        "kept",
        "round",
        "scored",
    }, kinds
    tips = page.eval_on_selector_all("#board [data-tip]", "n => n.map(e => e.dataset.tip)")
    assert tips and all(tip.strip() for tip in tips)
    piece = {
        "aztack": ("#board .cell[data-tip]", "level"),
        "stakz": ("#board .tile[data-tip]", ""),
        "stack-back": ("#board .stick[data-tip]", " mm"),
    }[game]
    words = page.get_attribute(piece[0], "data-tip")
    assert words and piece[1] in words
    if game == "stakz":
        assert any(s in words for s in ("circle", "triangle", "square", "star", "heart"))
    # Every piece with words can be reached by the keyboard; the move targets are unchanged.
    assert page.eval_on_selector_all(
        "#board [data-tip]", "n => n.every(e => e.getAttribute('tabindex') === '0')"
    )
    if page.evaluate(MY_TURN):
        assert page.locator("#board [data-select], #board [data-action], #actionbar button").count()


def _aztack_bonus_at_once() -> tuple[int, str]:
    """A seed whose deal gives seat 1 a bonus placement on the first move, and that move."""
    game = teocalli.load("aztack")
    for seed in range(1, 200):
        state = game.new_state(seed)
        for action in state.legal_actions():
            after = state.clone()
            after.apply(action, 0)
            if after.view(0)["state"]["bonus_pending"] == [0]:
                return seed, str(action)
    raise AssertionError("no Aztack deal with a bonus at once")


def test_an_aztack_bonus_is_announced_at_the_table(server: str, page: Any) -> None:
    """A seeded table (Aztack has no hidden information, so a seed may be chosen) where seat 1
    places a bonus stone at once: the table shows the renderer's sentence."""
    seed, bonus = _aztack_bonus_at_once()
    link = create_against_greedy(server, "aztack", seed=seed)
    open_table(page, server, link)
    page.fill("#move-filter", bonus)
    page.press("#move-filter", "Enter")
    page.wait_for_function("document.body.dataset.step === '1'")
    page.wait_for_function("document.body.innerText.includes('Bonus for')")
    assert page.locator("#board [data-last='placed']").count() >= 2  # both cells and the rim


# --- the modules themselves, on views the engine wrote ----------------------------------------


RENDER = """async ([game, prev, view, log]) => {
  const i18n = await import('/static/js/i18n.js');
  await i18n.loadCatalogue();
  const module = await import(`/static/js/games/${game}.js`);
  const name = (p) => `P${p + 1}`;
  const ui = (extra) => ({ t: i18n.t, seat: 0, players: view.players, legal: [], interactive: false,
    selected: null, board: new Set(), act() {}, select() {}, playerName: name, ...extra });
  const marks = (svg) => [...svg.querySelectorAll('[data-last]')].map(
    (e) => `${e.getAttribute('class') || e.tagName}:${e.dataset.last}`);
  const fromPrev = module.render(view, ui({ prev, lastLog: log }));
  const fromLog = module.render(view, ui({ prev: null, lastLog: log }));
  return {
    prev: marks(fromPrev),
    log: marks(fromLog),
    said: module.announce(prev, view, i18n.t, name),
    tips: [...fromPrev.querySelectorAll('[data-tip]')].map((e) => e.dataset.tip),
  };
}"""


def _render(page: Any, server: str, game: str, step: tuple[Any, Any, Any]) -> dict[str, Any]:
    if not page.url.startswith(server):
        page.goto(f"{server}/howto/{game}")
        page.wait_for_selector("body[data-ready='true']")
    result: dict[str, Any] = page.evaluate(RENDER, [game, *step])
    return result


def _kinds(marks: list[str]) -> set[str]:
    return {m.split(":")[-1] for m in marks}


def test_stakz_marks_and_announcements(server: str, page: Any) -> None:
    rounds = lambda b, a: len(a["state"]["rounds"]) > len(b["state"]["rounds"])  # noqa: E731
    # A placement that splits a stack: the new stack and the placed tile on its top.
    split = step_where(
        "stakz",
        1,
        lambda b, a: not rounds(b, a) and len(a["state"]["stacks"]) > len(b["state"]["stacks"]),
    )
    seen = _render(page, server, "stakz", split)
    assert {"split", "placed"} <= _kinds(seen["prev"]) and {"split", "placed"} <= _kinds(
        seen["log"]
    )
    assert seen["said"] == []
    assert any("can take one more tile this turn" in tip for tip in seen["tips"])
    assert any("Colours present:" in tip for tip in seen["tips"])
    # Seat 1 draws: the new tile in its own hand is marked, and the pile colour it came from.
    drew = step_where(
        "stakz",
        1,
        lambda b, a: (
            b["to_move"] == [0] and a["state"]["pile"]["size"] < b["state"]["pile"]["size"]
        ),
    )
    seen = _render(page, server, "stakz", drew)
    assert "tile:drawn" in seen["prev"]
    assert any(m.startswith("pile-colour") and m.endswith(":drawn") for m in seen["prev"])
    # A round won: who, the others' points and totals; the new totals are marked.
    won = step_where(
        "stakz", 1, lambda b, a: rounds(b, a) and a["state"]["rounds"][-1]["winner"] is not None
    )
    before, after, log = won
    number = len(after["state"]["rounds"])
    winner = after["state"]["rounds"][-1]["winner"]
    loser = 1 - winner
    points = after["state"]["rounds"][-1]["points"][loser]
    total = after["state"]["scores"][loser]
    seen = _render(page, server, "stakz", won)
    assert seen["said"][0] == f"P{winner + 1} won round {number} by emptying their hand."
    many = f"{points} point{'' if points == 1 else 's'}"
    assert seen["said"][1] == f"P{loser + 1} scores {many}, {total} in total."
    assert "round" in _kinds(seen["prev"]) and "scored" in _kinds(seen["prev"])
    # One point reads in the singular, more in the plural.
    for points, words in ((1, "1 point"), (3, "3 points")):
        changed = json.loads(json.dumps(after))
        changed["state"]["rounds"][-1]["points"][loser] = points
        changed["state"]["scores"][loser] = points
        seen = _render(page, server, "stakz", (before, changed, log))
        assert seen["said"][1] == f"P{loser + 1} scores {words}, {points} in total."
    # The match's end (a target of 1 point ends it with the first round).
    over = step_where("stakz", 1, lambda b, a: a["terminal"], target=1)
    winners = over[1]["outcome"]["winners"]
    total = over[1]["state"]["scores"][winners[0]]
    seen = _render(page, server, "stakz", over)
    if len(winners) == 1:
        end = f"The match is over: P{winners[0] + 1} wins with the lowest total, {total}."
    else:
        names = ", ".join(f"P{w + 1}" for w in winners)
        end = f"The match is over: {names} share the win with the lowest total, {total}."
    assert seen["said"][-1] == end
    # No round is dealt after the last: the tile that ended it is marked where it went.
    assert {"placed", "round", "scored"} <= _kinds(seen["prev"])


def test_aztack_marks_and_announcements(server: str, page: Any) -> None:
    bonus = step_where(
        "aztack",
        1,
        lambda b, a: len(a["state"]["bonus_pending"]) > len(b["state"]["bonus_pending"]),
    )
    player, notation = bonus[2]
    stone, cells = notation.split("@")
    seen = _render(page, server, "aztack", bonus)
    assert len(seen["said"]) == 1
    assert seen["said"][0].startswith(f"Bonus for P{player + 1}: ")
    assert seen["said"][0].endswith(
        f" on {cells} matches colour and glyph, so one more stone may go out of the game."
    )
    assert "placed" in _kinds(seen["prev"]) and "placed" in _kinds(seen["log"])
    # Before it, the stone's tip named the place as a bonus (the player's own hand or not).
    seen = _render(page, server, "aztack", (bonus[0], bonus[0], None))
    either = {stone, "/".join(reversed(stone.split("/")))}  # a hand writes it either way round
    assert any(
        any(f"({s}). Fits on" in tip for s in either)
        and f"{cells} (colours and glyphs: a bonus)" in tip
        for tip in seen["tips"]
    )
    # The bonus settled: a stone put out of the game, or all kept.
    settled = step_where(
        "aztack",
        1,
        lambda b, a: len(a["state"]["bonus_pending"]) < len(b["state"]["bonus_pending"]),
    )
    seen = _render(page, server, "aztack", settled)
    assert seen["said"] and seen["said"][0].startswith(f"P{settled[2][0] + 1} ")
    assert _kinds(seen["prev"]) & {"discarded", "kept"}


SB_SEED = 5
"""A greedy Stack Back game with a pile in it (it ends with all of a player's sticks placed, as
greedy games now do; the pass is played in the shared blocked position)."""


def _passed() -> tuple[dict[str, Any], dict[str, Any], list[Any]]:
    """Seat 1's views around a pass, in the blocked position of the Stack Back tests."""
    state = blocked()
    player = state.to_move()[0]
    before = state.view(0)
    state.apply("pass", player)
    return before, state.view(0), list(state.log(0)[-1])


def test_stack_back_marks_and_announcements(server: str, page: Any) -> None:
    laid = step_where("stack-back", SB_SEED, lambda b, a: len(a["state"]["sticks"]) == 3)
    seen = _render(page, server, "stack-back", laid)
    assert {"placed"} <= _kinds(seen["prev"]) and {"placed"} <= _kinds(seen["log"])
    assert seen["said"] == []
    assert any(" mm, of P" in tip and "board" in tip for tip in seen["tips"])
    piled = step_where(
        "stack-back",
        SB_SEED,
        lambda b, a: (
            a["state"]["sticks"][-1:] != b["state"]["sticks"][-1:]
            and a["state"]["sticks"][-1]["level"] > 0
        ),
    )
    seen = _render(page, server, "stack-back", piled)
    assert "piled" in _kinds(seen["prev"]) and "piled" in _kinds(seen["log"])
    assert any("rests on a" in tip for tip in seen["tips"])
    passed = _passed()
    seen = _render(page, server, "stack-back", passed)
    assert seen["said"][0] == f"P{passed[2][0] + 1} passed: no stick fits."
    assert "passed" in _kinds(seen["prev"]) and "passed" in _kinds(seen["log"])
    over = step_where("stack-back", SB_SEED, lambda b, a: a["terminal"])
    seen = _render(page, server, "stack-back", over)
    winners = ", ".join(f"P{w + 1}" for w in over[1]["outcome"]["winners"])
    share = "won" if len(over[1]["outcome"]["winners"]) == 1 else "share the win"
    assert seen["said"][-1] == f"The game is over: {winners} {share}."
