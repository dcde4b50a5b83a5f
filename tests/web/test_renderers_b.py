"""The Shifting Stones and Space Aztecs boards in a real browser: what the last step changed carries
`data-last`, pieces explain themselves in `data-tip` (a Space Aztecs card with its rule and points,
a Shifting Stones tile with what a flip makes of it, a card with its pattern in words), and
`announce(prev, view, t)` words the events that change a game's course.

Two kinds of check: a table against the greedy bot, played by pressing the board, where the bot's
step (Space Aztecs: the round's reveal) must be marked on the board the page draws; and the
renderer modules themselves, fed views the engine wrote one step apart (seeded games of greedy
bots), whose marks and sentences are exact."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import teocalli

from .renderers import create_against_greedy, open_table, step_where

DATA = json.loads(
    (Path(teocalli.__file__).parent / "web" / "data" / "space-aztecs-cards.json").read_text()
)
CARDS = {c["id"]: c for c in DATA["cards"]}

MY_TURN = "document.querySelector('#turn.mine') !== null"
STEP = "document.body.dataset.step"


def _press(page: Any, selector: str) -> str:
    """Press the first element matching `selector` and wait for the next step to show."""
    step = page.evaluate(STEP)
    page.locator(selector).first.click()
    page.wait_for_function(
        f"(s) => {STEP} !== s || !document.getElementById('error').hidden", arg=step
    )
    assert page.is_hidden("#error"), page.inner_text("#error")
    new: str = page.evaluate(STEP)
    return new


def _tips(page: Any, selector: str = "#board [data-tip]") -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = page.eval_on_selector_all(
        selector,
        """n => n.map(e => ({tip: e.dataset.tip, card: e.dataset.card ?? null,
            tabindex: e.getAttribute('tabindex')}))""",
    )
    return found


def _marks(page: Any) -> set[str]:
    return set(page.eval_on_selector_all("#board [data-last]", "n => n.map(e => e.dataset.last)"))


def _aztecs_card_tip_has_its_points(card_id: str, tip: str) -> bool:
    card = CARDS[card_id]
    if card["kind"] == "temple":
        return "0 points" in tip
    if card["kind"] == "saucer":
        return "1 point per card under it" in tip
    if card["kind"] == "codex":
        return f"+{DATA['codex_rates'][card['rule']]} points" in tip
    if card["rule"] == "warrior":
        scale = DATA["warriors"][card["name"]]
        return " or ".join([", ".join(map(str, scale[:-1])), str(scale[-1])]) + " points" in tip
    if card["rule"] == "priest":
        return "0 points alone" in tip and f"{DATA['priest_points']} points" in tip
    unit = "point" if card["points"] == 1 else "points"
    return f"{card['points']} {unit}" in tip


def test_shifting_stones_table_marks_the_bots_step_and_explains_its_pieces(
    server: str, page: Any
) -> None:
    open_table(page, server, create_against_greedy(server, "shifting-stones"))
    page.wait_for_function(MY_TURN)
    tips = _tips(page)
    assert tips and all(t["tip"].strip() for t in tips)
    assert all(t["tabindex"] == "0" for t in tips), "every piece with words is reachable by Tab"
    cells = [t["tip"] for t in _tips(page, "#board .cell[data-tip]")]
    assert len(cells) == 9 and all("A flip turns it into" in tip for tip in cells)
    hand = [t["tip"] for t in _tips(page, "#board .hand .card[data-tip]")]
    assert hand and all("Pattern" in tip and "point" in tip for tip in hand)
    # The symbols are pictures: each tile shows its face and, small, the face a flip would show.
    assert page.locator("#board .cell .symbol").count() == 18
    # My turn: pay with a card to flip a tile (the flip is marked), then end it.
    page.locator("#board [data-select]").first.click()
    page.wait_for_selector("#board [data-action^='flip '][data-for-selection]")
    _press(page, "#board [data-action^='flip ']")
    assert "flipped" in _marks(page) and "discarded" in _marks(page)
    assert page.locator("#board .cell[data-last='flipped']").count() == 1
    mine = _press(page, "#actionbar button[data-action='end']")
    assert "drawn" in _marks(page), "the card drawn into my hand is marked"
    # The bot's first step shows marked on the board.
    page.wait_for_function(
        """(mine) => document.body.dataset.step !== mine
            && document.querySelector('#board [data-last]') !== null""",
        arg=mine,
    )
    kinds = _marks(page)
    assert kinds <= {
        "swapped",
        "flipped",
        "discarded",
        "scored",
        "drawn",
        "deck",
        "player",
        "strike",
    }
    assert kinds & {"swapped", "flipped", "scored", "deck"}, kinds


def test_space_aztecs_table_marks_the_round_and_explains_every_card(server: str, page: Any) -> None:
    open_table(page, server, create_against_greedy(server, "space-aztecs", removed_set="pink"))
    page.wait_for_selector("#board [data-action^='take ']")
    _press(page, "#board [data-action^='take ']")
    assert "taken" in _marks(page)
    page.wait_for_selector("#board [data-action^='choose ']")
    # Every card of my pile says its rule and its points.
    cards = _tips(page, "#board .your-pile .card[data-tip]")
    assert cards and all(c["card"] for c in cards)
    for c in cards:
        assert _aztecs_card_tip_has_its_points(c["card"], c["tip"]), c
    piles = [t["tip"] for t in _tips(page, "#board .pile[data-tip]")]
    assert len(piles) == 8 and all(tip.startswith("Pile ") for tip in piles)
    _press(page, "#board [data-action^='choose ']")
    # The round resolves (the bot chooses too): its cards are in the cities, marked.
    page.wait_for_function(
        """document.querySelector('#board .announced .card') !== null
            && document.querySelector('#board .cities [data-last]') !== null"""
    )
    assert _marks(page) & {"placed", "captured", "sheltered", "revealed", "taken"}
    tips = _tips(page)
    assert all(t["tabindex"] == "0" for t in tips)
    city = [c for c in _tips(page, "#board .cities .card[data-tip]") if c["card"]]
    assert city
    for c in city:
        assert _aztecs_card_tip_has_its_points(c["card"], c["tip"]), c


# --- the modules themselves, on views the engine wrote ----------------------------------------


RENDER = """async ([game, prev, view, log]) => {
  const i18n = await import('/static/js/i18n.js');
  await i18n.loadCatalogue();
  const module = await import(`/static/js/games/${game}.js`);
  const name = (p) => `P${p + 1}`;
  const ui = (extra) => ({ t: i18n.t, seat: 0, players: view.players, legal: [], interactive: false,
    selected: null, board: new Set(), act() {}, select() {}, playerName: name, ...extra });
  const marks = (svg) => [...svg.querySelectorAll('[data-last]')].map(
    (e) => `${e.dataset.card ?? e.dataset.cell ?? e.dataset.pile ?? e.tagName}:${e.dataset.last}`);
  const fromPrev = module.render(view, ui({ prev, lastLog: log }));
  const fromLog = module.render(view, ui({ prev: null, lastLog: log }));
  return {
    prev: marks(fromPrev),
    log: marks(fromLog),
    said: module.announce(prev, view, i18n.t, name),
    plain: module.announce(prev, view, i18n.t),
    tips: [...fromPrev.querySelectorAll('[data-tip]')].map((e) => e.dataset.tip),
  };
}"""


def _render(page: Any, server: str, game: str, step: tuple[Any, Any, Any]) -> dict[str, Any]:
    if not page.url.startswith(server):
        page.goto(f"{server}/howto/{game}")
        page.wait_for_selector("body[data-ready='true']")
    result: dict[str, Any] = page.evaluate(RENDER, [game, *step])
    return result


def test_shifting_stones_marks_and_announcements(server: str, page: Any) -> None:
    game = "shifting-stones"
    # A swap: both cells and the card paid, from the previous view and from the log line alone.
    shift = step_where(
        game,
        1,
        lambda b, a: (
            b["state"]["grid"] != a["state"]["grid"]
            and len(a["state"]["discard"]) > len(b["state"]["discard"])
            and sum(
                x != y
                for x, y in zip(b["state"]["grid"].split(), a["state"]["grid"].split(), strict=True)
            )
            == 2
        ),
    )
    seen = _render(page, server, game, shift)
    _, _, log = shift
    assert log[1].startswith("shift ")
    cells = set(log[1].split()[2].split("-"))
    for marks in (seen["prev"], seen["log"]):
        assert {m.split(":")[0] for m in marks if m.endswith(":swapped")} == cells
        assert f"{log[1].split()[1]}:discarded" in marks
    assert seen["said"] == []
    # A card scored: shown face up among the scorer's cards, marked.
    scored = step_where(game, 1, lambda b, a: a["state"]["scored"] != b["state"]["scored"])
    seen = _render(page, server, game, scored)
    card = scored[2][1].split()[1]
    assert f"{card}:scored" in seen["prev"] and f"{card}:scored" in seen["log"]
    assert any(tip.startswith("Scored by P") and f"Card {card}," in tip for tip in seen["tips"])
    # Seat 1 ends its turn: the cards drawn into its hand are marked.
    drew = step_where(
        game,
        1,
        lambda b, a: b["to_move"] == [0] and len(a["state"]["hand"]) > len(b["state"]["hand"]),
    )
    seen = _render(page, server, game, drew)
    new = set(drew[1]["state"]["hand"]) - set(drew[0]["state"]["hand"])
    assert {m.split(":")[0] for m in seen["prev"] if m.endswith(":drawn")} == {str(c) for c in new}
    # The discard pile shuffled into a new deck (the solo deck of 16 runs out soon).
    reshuffle = step_where(game, 1, lambda b, a: a["state"]["deck"] > b["state"]["deck"], players=1)
    seen = _render(page, server, game, reshuffle)
    deck = reshuffle[1]["state"]["deck"]
    assert seen["said"][0] == (
        f"The deck ran out: the discard pile was shuffled into a new deck of {deck} cards."
    )
    # The end triggered, and the game's end with the winner's points.
    over = step_where(game, 1, lambda b, a: a["terminal"])
    seen = _render(page, server, game, over)
    scores = over[1]["outcome"]["scores"]
    winner = over[1]["outcome"]["winners"][0]
    assert seen["said"][-1] == f"Game over: P{winner + 1} wins with {scores[winner]:g} points."
    assert seen["plain"][-1].startswith("Game over: Player ")
    trigger = step_where(
        game,
        1,
        lambda b, a: any(
            len(x) >= 10 > len(y)
            for x, y in zip(a["state"]["scored"], b["state"]["scored"], strict=True)
        ),
    )
    seen = _render(page, server, game, trigger)
    assert any(s.endswith("has scored 10 cards: this round is the last.") for s in seen["said"])
    # Solo: each strike, with what is left; the fourth loses.
    strikes = lambda k: lambda b, a: a["state"]["strikes"] == k and b["state"]["strikes"] == k - 1  # noqa: E731
    seen = _render(page, server, game, step_where(game, 1, strikes(1), players=1))
    assert seen["said"] == [
        "Strike 1 of 4: the turn ended without a card scored. You can afford 2 more."
    ]
    assert any(m.endswith(":strike") for m in seen["prev"])
    seen = _render(page, server, game, step_where(game, 1, strikes(2), players=1))
    assert seen["said"][-1].endswith("You can afford 1 more.")
    seen = _render(page, server, game, step_where(game, 1, strikes(3), players=1))
    assert seen["said"][-1].endswith("The next strike loses the game.")
    seen = _render(page, server, game, step_where(game, 1, strikes(4), players=1))
    assert seen["said"][-2:] == [
        "Strike 4 of 4: the solo game is lost.",
        "Game over: the solo game is lost.",
    ]


def _places(view: dict[str, Any]) -> dict[str, str]:
    out = {}
    for p, city in enumerate(view["state"]["cities"]):
        for c in city["aztecs"] + city["codex"]:
            out[c] = f"{p}:view"
        for t in city["temples"]:
            out[t["temple"]] = f"{p}:view"
            out.update(dict.fromkeys(t["under"], f"{p}:temple"))
        for s in city["saucers"]:
            out[s["saucer"]] = f"{p}:view"
            out.update(dict.fromkeys(s["under"], f"{p}:saucer"))
    return out


def test_space_aztecs_marks_and_announcements(server: str, page: Any) -> None:
    game = "space-aztecs"
    options = {"players": 3}
    # A pile taken.
    took = step_where(
        game,
        2,
        lambda b, a: a["state"]["phase"] == "pick" and b["state"]["phase"] == "pick",
        **options,
    )
    seen = _render(page, server, game, took)
    pile = took[2][1].split()[1]
    assert f"{pile}:taken" in seen["prev"] and f"{pile}:taken" in seen["log"]
    # The round's reveal: the cards in playing order, each marked where it went.
    revealed = step_where(
        game,
        2,
        lambda b, a: b["state"]["phase"] == "choose" and a["state"]["phase"] != "choose",
        **options,
    )
    seen = _render(page, server, game, revealed)
    assert seen["said"][0].startswith("The cards are revealed, in playing order: P")
    after = revealed[1]["state"]
    cards = after.get("last_round") or [e["card"] for e in after["announced"]]
    for card in cards:
        assert f"{card}:revealed" in seen["prev"]
        assert any(m.startswith(f"{card}:") and not m.endswith(":revealed") for m in seen["prev"])

    # A capture: who took what from whom, and the captured card marked under the Saucer.
    def captured(b: dict[str, Any], a: dict[str, Any]) -> bool:
        before, now = _places(b), _places(a)
        return any(
            w.endswith(":saucer") and before.get(c, "").endswith(":view") for c, w in now.items()
        )

    capture = step_where(game, 2, captured, **options)
    seen = _render(page, server, game, capture)
    before, now = _places(capture[0]), _places(capture[1])
    taken = [
        c for c, w in now.items() if w.endswith(":saucer") and before.get(c, "").endswith(":view")
    ]
    for card in taken:
        assert f"{card}:captured" in seen["prev"]
        name, colour = CARDS[card]["name"], CARDS[card]["colour"]
        thief, victim = int(now[card][0]), int(before[card][0])
        sentence = f"P{thief + 1}'s {colour} Flying Saucer captures {name} from P{victim + 1}."
        assert sentence in seen["said"]
    # The world's end.
    over = step_where(game, 2, lambda b, a: a["terminal"], **options)
    seen = _render(page, server, game, over)
    assert seen["said"][-1].startswith("The world ends (")
    winner = over[1]["outcome"]["winners"][0]
    points = over[1]["outcome"]["scores"][winner]
    assert seen["said"][-1].endswith(f"P{winner + 1} wins with {points:g} points.")
    # Every card of the cities explains itself, points included.
    assert all(tip.strip() for tip in seen["tips"])
    for city in over[1]["state"]["cities"]:
        for card in city["aztecs"] + city["codex"]:
            words = CARDS[card]["name"]
            assert any(
                tip.startswith(words) and _aztecs_card_tip_has_its_points(card, tip)
                for tip in seen["tips"]
            ), card
