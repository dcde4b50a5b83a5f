"""Stack Back by hand in a real browser (issue 16): a stick dragged from the supply onto the wood
and turned to an angle no candidate has, judged by the server while it moves (the ghost's
data-judged), played on the drop; a touch drag; a ghost the rules refuse shows their words and
dropping it plays nothing. Every verdict is a Playwright wait, never a sleep."""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

from teocalli.games.stack_back.components import HALF_LENGTHS, HALF_WIDTH, SPEC

from .play import create_table

SCREENS = Path("/tmp/teocalli-screens")
POSE = re.compile(r"^([YMG])(-?[\d.]+),(-?[\d.]+)@([\d.]+)$")
HALF = dict(zip(SPEC.keys, HALF_LENGTHS, strict=True))
"""Per colour letter, half a stick's length (mm)."""

TO_SCREEN = """([x, y]) => {
  const layer = document.querySelector('#board .boards-layer');
  const point = new DOMPoint(20 + x * 3.4, 40 + (100 - y) * 3.4);
  return [point.matrixTransform(layer.getScreenCTM())].map((p) => [p.x, p.y])[0];
}"""
"""Millimetres on the boards (the engine's) to the page's pixels (the renderer's own scale)."""


def _placed(page: Any) -> list[tuple[str, float, float, float]]:
    """The poses played so far, from the log (each entry's title is its notation)."""
    out = []
    for title in page.eval_on_selector_all("#log li", "items => items.map((i) => i.title)"):
        match = POSE.match(title or "")
        if match:
            out.append((match[1], float(match[2]), float(match[3]), float(match[4])))
    return out


def _to_stick(spot: tuple[float, float], colour: str, x: float, y: float, angle: float) -> float:
    """How far `spot` lies from the footprint of a stick of `colour` centred at (x, y) turned
    `angle` degrees: from its axis segment, less its half-width."""
    ux, uy = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    along = max(-HALF[colour], min(HALF[colour], (spot[0] - x) * ux + (spot[1] - y) * uy))
    return math.dist(spot, (x + along * ux, y + along * uy)) - HALF_WIDTH


def _free_spot(
    page: Any, colour: str, xs: tuple[float, ...] = (40, 60, 176, 196)
) -> tuple[float, float]:
    """A spot on the wood where a stick of `colour` turned any way touches no stick played yet:
    its circumscribed circle clear of every stick's footprint (the distance to the stick's
    axis, less its half-width), not merely of the stick's own circle, which leaves no room on a
    board a long stick crosses (a yellow stick along y in the middle of board A did)."""
    placed = _placed(page)
    best, room = _best_spot(colour, placed, xs)
    assert room > 4, f"no free spot left among {xs} x (30, 50, 70): {placed}"
    return best


def _best_spot(
    colour: str, placed: list[tuple[str, float, float, float]], xs: tuple[float, ...]
) -> tuple[tuple[float, float], float]:
    """`_free_spot`'s choice among the spots (x of `xs`, y 30, 50, 70) and its room (mm)."""
    reach = math.hypot(HALF[colour], HALF_WIDTH)

    def room(spot: tuple[float, float]) -> float:
        return min((_to_stick(spot, c, x, y, a) - reach for c, x, y, a in placed), default=99.0)

    best = max(((x, y) for x in xs for y in (30, 50, 70)), key=room)
    return best, room(best)


def test_a_free_spot_is_found_beside_a_long_stick() -> None:
    """The spot finder of the tests below, on the position a run once met (the opponent's
    yellow stick along y in the middle of board A): a green stick has room at (78, 30), whose
    circle stays 47 mm from the yellow's axis, though the two sticks' circles overlap."""
    spot, room = _best_spot("G", [("Y", 28.0, 56.0, 90.0)], (22, 25, 35, 45, 65, 78))
    assert spot[0] == 78 and room > 25
    assert _best_spot("G", [("Y", 78.0, 50.0, 90.0)], (78,))[1] < 0  # on it: no room


def _my_turn(page: Any) -> int:
    page.wait_for_selector("body[data-my-turn='true'] #board [data-drag='Y']")
    return int(page.evaluate("document.body.dataset.step"))


def _open_table(page: Any, server: str) -> None:
    link = create_table(page, server, "stack-back", ["human", "greedy"], {})
    page.goto(f"{server}{link}")
    page.wait_for_selector("#board svg")


def _sent_frames(page: Any) -> list[dict[str, Any]]:
    """Every message the page sends on its WebSockets, as it sends them."""
    import json

    frames: list[dict[str, Any]] = []

    def watch(ws: Any) -> None:
        ws.on("framesent", lambda payload: frames.append(json.loads(payload)))

    page.on("websocket", watch)
    return frames


def test_a_stick_dragged_and_turned_by_mouse_is_judged_and_played(server: str, page: Any) -> None:
    sent = _sent_frames(page)
    _open_table(page, server)
    before = _my_turn(page)
    x, y = _free_spot(page, "Y")
    start = page.locator("#board [data-drag='Y']").bounding_box()
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    target = page.evaluate(TO_SCREEN, [x, y])
    page.mouse.move(target[0], target[1], steps=12)
    ghost = page.locator("#board .ghost")
    page.wait_for_selector("#board .ghost[data-judged]:not([data-judged='none'])")
    # Turn it while it is held: the wheel by 5 degrees a notch, Shift+[ by 1 degree.
    for _ in range(7):
        page.mouse.wheel(0, -100)
    page.wait_for_function(
        "() => document.querySelector('#board .ghost').dataset.pose.endsWith('@35.0')"
    )
    page.keyboard.press("Shift+BracketLeft")
    page.keyboard.press("Shift+BracketLeft")
    page.wait_for_function(
        "() => document.querySelector('#board .ghost').dataset.pose.endsWith('@37.0')"
    )
    page.wait_for_selector("#board .ghost[data-judged='legal']")
    pose = ghost.get_attribute("data-pose")
    assert pose and pose.startswith("Y") and pose.endswith("@37.0")
    # No candidate the bots offer is turned 37 degrees: this pose is one only a hand finds.
    page.screenshot(path=str(SCREENS / "sb-hand-desktop-legal.png"))
    assert "the rules let it stay" in page.get_attribute("#board .ghost-reason", "aria-label") or ""
    page.mouse.up()
    page.wait_for_function("(step) => Number(document.body.dataset.step) > step", arg=before)
    page.wait_for_selector(f"#log li[title='{pose}']")
    assert any(f.get("type") == "judge" for f in sent)
    assert [f["action"] for f in sent if f.get("type") == "act"] == [pose]
    page.screenshot(path=str(SCREENS / "sb-hand-desktop-placed.png"))

    # A yellow across that yellow, alone under it: the rules refuse it, in their words.
    step = _my_turn(page)
    _, px, py, _ = next(
        p for p in _placed(page) if f"{p[0]}{p[1]:.1f},{p[2]:.1f}@{p[3]:.1f}" == pose
    )
    start = page.locator("#board [data-drag='Y']").bounding_box()
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    target = page.evaluate(TO_SCREEN, [px, py])
    page.mouse.move(target[0], target[1], steps=12)
    page.keyboard.press("BracketRight")  # -5 degrees: across the one below, not along it
    page.keyboard.press("BracketRight")
    page.wait_for_selector("#board .ghost[data-judged='illegal']")
    refused = ghost.get_attribute("data-pose")
    reason = page.get_attribute("#board .ghost-reason", "aria-label") or ""
    assert "not here:" in reason and len(reason) > len("not here:") + 10, reason
    page.screenshot(path=str(SCREENS / "sb-hand-desktop-illegal.png"))
    page.mouse.up()
    # Dropped: it stays in hand, red. Nothing was played: a later judge request is sent after
    # where an act would have been, and no act is among what was sent.
    judges = sum(1 for f in sent if f.get("type") == "judge")
    page.keyboard.press("ArrowUp")
    page.wait_for_function(
        "(pose) => document.querySelector('#board .ghost').dataset.pose !== pose", arg=refused
    )
    page.wait_for_selector(
        "#board .ghost[data-judged='legal'], #board .ghost[data-judged='illegal']"
    )
    assert sum(1 for f in sent if f.get("type") == "judge") > judges
    assert [f["action"] for f in sent if f.get("type") == "act"] == [pose]
    assert page.evaluate("document.body.dataset.step") == str(step)
    page.keyboard.press("Escape")  # put back
    page.wait_for_selector("#board .ghost[display='none']", state="attached")


def test_a_stick_dragged_by_touch_is_played(server: str, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(60000)
    try:
        _open_table(page, server)
        before = _my_turn(page)
        page.locator("#board").scroll_into_view_if_needed()
        page.evaluate("document.querySelector('#board .supply').scrollIntoView({block: 'end'})")
        x, y = _free_spot(page, "G", xs=(22, 25, 35, 45, 65, 78))  # board A: on a phone's screen
        start = page.locator("#board [data-drag='G']").bounding_box()
        sx, sy = start["x"] + start["width"] / 2, start["y"] + start["height"] / 2
        # A finger holds the stick 12 mm above itself (where it can be seen).
        tx, ty = page.evaluate(TO_SCREEN, [x, y - 12])
        cdp = context.new_cdp_session(page)

        def touch(kind: str, points: list[tuple[float, float]]) -> None:
            cdp.send(
                "Input.dispatchTouchEvent",
                {
                    "type": kind,
                    "touchPoints": [
                        {"x": px, "y": py, "id": i} for i, (px, py) in enumerate(points)
                    ],
                },
            )

        touch("touchStart", [(sx, sy)])
        for i in range(1, 13):
            touch("touchMove", [(sx + (tx - sx) * i / 12, sy + (ty - sy) * i / 12)])
        page.wait_for_selector("#board .ghost[data-judged='legal']")
        assert (page.get_attribute("#board .ghost", "data-pose") or "").endswith("@0.0")
        # A second finger beside the first, turned 30 degrees about it, turns the stick as much.
        touch("touchStart", [(tx, ty), (tx + 60, ty)])
        turned = (tx + 60 * math.cos(math.pi / 6), ty - 60 * math.sin(math.pi / 6))
        touch("touchMove", [(tx, ty), turned])
        page.wait_for_function(
            """() => {
                const pose = document.querySelector('#board .ghost').dataset.pose;
                const angle = Number(pose.split('@')[1]);
                return angle > 29 && angle < 31;
            }"""
        )
        touch("touchMove", [(tx, ty)])  # the second finger lifts: the stick is still held
        page.wait_for_selector("#board .ghost[data-judged='legal']")
        page.screenshot(path=str(SCREENS / "sb-hand-phone-legal.png"))
        pose = page.get_attribute("#board .ghost", "data-pose")
        assert pose and pose.startswith("G")
        touch("touchEnd", [])
        page.wait_for_function("(step) => Number(document.body.dataset.step) > step", arg=before)
        page.wait_for_selector(f"#log li[title='{pose}']", state="attached")
        page.screenshot(path=str(SCREENS / "sb-hand-phone-placed.png"), full_page=True)
    finally:
        context.close()
    assert not errors, errors


LAYOUT = """async ([view]) => {
  const i18n = await import('/static/js/i18n.js');
  await i18n.loadCatalogue();
  const module = await import('/static/js/games/stack-back.js');
  const ui = { t: i18n.t, seat: 0, players: view.players, legal: [], interactive: false,
    selected: null, board: new Set(), act() {}, select() {}, playerName: (p) => `P${p + 1}` };
  const svg = module.render(view, ui);
  svg.style.width = '900px';
  svg.style.background = '#fff';
  document.body.replaceChildren(svg);
  const box = (e) => e.getBoundingClientRect();
  const area = box(svg.querySelector('.boards-area'));
  const inside = (r) => r.left >= area.left - 0.5 && r.right <= area.right + 0.5
    && r.top >= area.top - 0.5 && r.bottom <= area.bottom + 0.5;
  const apart = (r) => r.bottom <= area.top || r.top >= area.bottom;
  return {
    sticks: [...svg.querySelectorAll('.stick')].map((e) => inside(box(e))),
    words: [...svg.querySelectorAll('.svg-heading, .supply-colour')].map((e) => apart(box(e))),
    levels: [...svg.querySelectorAll('.stick text')].map((e) => e.textContent),
  };
}"""


def test_sticks_stay_in_the_boards_area_shaded_by_level(server: str, page: Any) -> None:
    """A board with piles two high: every stick inside the boards' own area, no heading or supply
    in it, and each stick's label (colour, level, owner) drawn on it."""
    import teocalli
    from teocalli.agents import make_agent

    game = teocalli.load("stack-back")
    state = game.new_state(1)
    bots = [make_agent("greedy", game, 1 + p) for p in range(2)]
    view = state.view(0)
    while not state.is_terminal():
        player = state.to_move()[0]
        state.apply(bots[player].act(state, player), player)
        view = state.view(0)
        if max(s["level"] for s in view["state"]["sticks"]) >= 2:
            break
    assert max(s["level"] for s in view["state"]["sticks"]) >= 2
    page.goto(f"{server}/howto/stack-back")
    page.wait_for_selector("body[data-ready='true']")
    seen = page.evaluate(LAYOUT, [view])
    assert seen["sticks"] and all(seen["sticks"])
    assert seen["words"] and all(seen["words"])
    assert any(label[1] == "2" for label in seen["levels"])
    page.screenshot(path=str(SCREENS / "sb-hand-levels.png"))


def test_a_stick_taken_moved_turned_and_placed_by_keys(server: str, page: Any) -> None:
    _open_table(page, server)
    before = _my_turn(page)
    page.locator("#board [data-drag='M']").focus()
    page.keyboard.press("ArrowRight")  # takes a mauve in hand, at the bots' first place for one
    ghost = page.locator("#board .ghost")
    page.wait_for_selector("#board .ghost:not([display='none'])[data-judged='legal']")
    first = ghost.get_attribute("data-pose") or ""
    assert first.startswith("M") and ghost.evaluate("(g) => g === document.activeElement")
    page.keyboard.press("Shift+ArrowUp")  # 5 mm up, and back
    page.wait_for_function(
        "(pose) => document.querySelector('#board .ghost').dataset.pose !== pose", arg=first
    )
    page.keyboard.press("Shift+ArrowDown")
    page.keyboard.press("Shift+KeyQ")  # 1 degree: a pose no candidate has
    page.wait_for_selector(
        "#board .ghost[data-judged='legal'], #board .ghost[data-judged='illegal']"
    )
    if ghost.get_attribute("data-judged") == "illegal":
        page.keyboard.press("Shift+KeyE")
        page.wait_for_selector("#board .ghost[data-judged='legal']")
    pose = ghost.get_attribute("data-pose") or ""
    page.keyboard.press("Enter")
    page.wait_for_function("(step) => Number(document.body.dataset.step) > step", arg=before)
    page.wait_for_selector(f"#log li[title='{pose}']", state="attached")
