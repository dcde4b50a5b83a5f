"""The table's side of the renderer contract (docs/web.md, "Renderer contract") and the queue that
shows every step, checked with a stand-in renderer and a WebSocket the test sits in the middle of.

The stand-in wraps the real Stakz renderer: it records what `render` was given (ui.prev,
ui.lastLog), adds a piece with a `data-tip`, and announces a sentence for every step, so the
tooltip layer, the banner and the log's events are checked whatever the real renderers say.
Verdicts never rest on the wall clock: the pacing test runs the page on Playwright's paused clock.
"""

from __future__ import annotations

import itertools
import json
import re
from typing import Any

from .test_legible_table import (
    create,
    open_table,
    play_first_listed_move,
    play_until_the_bot_steps,
    seat_link,
)

STAND_IN = """
import * as real from "/static/js/games/stakz.js?real";
export const describe = real.describe;
window.__renders = [];
export function render(view, ui) {
  window.__renders.push({
    step: view.step, prev: ui.prev ? ui.prev.step : null, lastLog: ui.lastLog,
    interactive: ui.interactive,
  });
  const svg = real.render(view, ui);
  const probe = document.createElementNS("http://www.w3.org/2000/svg", "rect");
  const attrs = { id: "tip-probe", x: 2, y: 2, width: 60, height: 24, fill: "#888", tabindex: "0",
    "data-tip": `Probe at step ${view.step}` };
  for (const [name, value] of Object.entries(attrs)) probe.setAttribute(name, value);
  svg.append(probe);
  return svg;
}
export function announce(prev, view, t, playerName) {
  return [`Probe event: step ${prev.step} to ${view.step} (${playerName(0)})`];
}
"""

RECORD_STEPS = """
window.__shown = [];
document.addEventListener("DOMContentLoaded", () => {
  new MutationObserver(() => {
    const step = document.body.dataset.step;
    const last = window.__shown.at(-1);
    if (step !== undefined && (!last || last.step !== Number(step))) {
      window.__shown.push({ step: Number(step), at: performance.now(),
        mine: document.body.dataset.myTurn === "true" });
    }
  }).observe(document.body, { attributes: true, attributeFilter: ["data-step", "data-my-turn"] });
});
"""


def _stand_in(page: Any) -> None:
    page.route(
        re.compile(r"/static/js/games/stakz\.js$"),
        lambda route: route.fulfill(status=200, content_type="text/javascript", body=STAND_IN),
    )


def test_tips_announcements_and_what_a_renderer_is_given(server: str, page: Any) -> None:
    _stand_in(page)
    created = create(server, "stakz", ["human", "greedy"], pace=0.2)
    open_table(page, server, seat_link(created, 0))
    page.wait_for_function("document.body.dataset.myTurn === 'true'")  # nothing moves now
    step = int(page.evaluate("document.body.dataset.step"))
    tip = page.locator("#tip")

    # Hover shows the tip near the piece; leaving hides it.
    page.hover("#tip-probe")
    page.wait_for_selector("#tip:not([hidden])")
    assert tip.inner_text() == f"Probe at step {step}"
    assert tip.get_attribute("role") == "tooltip"
    probe_box, tip_box = page.locator("#tip-probe").bounding_box(), tip.bounding_box()
    assert abs(tip_box["y"] + tip_box["height"] - probe_box["y"]) < 60 or (
        abs(tip_box["y"] - probe_box["y"] - probe_box["height"]) < 60
    )
    page.mouse.move(1200, 880)
    page.wait_for_selector("#tip", state="hidden")

    # Keyboard focus shows it and links it for screen readers; Escape hides it, focus stays.
    page.focus("#tip-probe")
    page.wait_for_function(
        "document.getElementById('tip-probe').getAttribute('aria-describedby') === 'tip'"
    )
    page.keyboard.press("Tab")
    page.keyboard.press("Shift+Tab")
    page.wait_for_function("document.activeElement.id === 'tip-probe'")
    page.wait_for_selector("#tip:not([hidden])")
    page.keyboard.press("Escape")
    page.wait_for_selector("#tip", state="hidden")
    assert page.evaluate("document.activeElement.id") == "tip-probe"
    page.keyboard.press("Tab")
    assert page.get_attribute("#tip-probe", "aria-describedby") is None

    # A long press (touch) shows it and is not a tap; a tap elsewhere hides it.
    page.evaluate(
        """() => {
        const probe = document.getElementById('tip-probe');
        window.__clicks = 0;
        probe.addEventListener('click', () => { window.__clicks += 1; });
        const r = probe.getBoundingClientRect();
        window.__touch = { pointerType: 'touch', bubbles: true, isPrimary: true, pointerId: 7,
          clientX: r.x + 5, clientY: r.y + 5 };
        probe.dispatchEvent(new PointerEvent('pointerdown', window.__touch));
    }"""
    )
    page.wait_for_selector("#tip:not([hidden])")
    page.evaluate(
        """() => {
        const probe = document.getElementById('tip-probe');
        probe.dispatchEvent(new PointerEvent('pointerup', window.__touch));
        probe.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    }"""
    )
    assert page.evaluate("window.__clicks") == 0
    page.evaluate(
        "() => document.body.dispatchEvent(new PointerEvent('pointerdown', window.__touch))"
    )
    page.wait_for_selector("#tip", state="hidden")
    page.evaluate(
        """() => {
        const probe = document.getElementById('tip-probe');
        probe.dispatchEvent(new PointerEvent('pointerdown', window.__touch));
        probe.dispatchEvent(new PointerEvent('pointerup', window.__touch));
        probe.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    }"""
    )
    assert page.evaluate("window.__clicks") == 1  # a short tap is a tap

    # A step: the banner over the board says the renderer's sentence, the log keeps it.
    play_first_listed_move(page)
    said = f"Probe event: step {step} to {step + 1} (Seat 1 (you))"
    page.wait_for_function(
        "(said) => [...document.querySelectorAll('#announce .announce-item')]"
        ".some((p) => p.textContent === said)",
        arg=said,
    )
    assert page.get_attribute("#announce", "aria-live") == "polite"
    assert page.inner_text(f"#log li[data-step='{step + 1}'] .log-event") == said
    # The bot's step is announced too.
    play_until_the_bot_steps(page)
    bot_step = int(page.evaluate("document.body.dataset.step"))
    assert page.inner_text(f"#log li[data-step='{bot_step}'] .log-event").startswith(
        f"Probe event: step {bot_step - 1} to {bot_step}"
    )

    # What render() was given: prev exactly one step back (or null), the last log entry.
    renders = page.evaluate("window.__renders")
    stepped = [r for r in renders if r["prev"] is not None]
    assert len(stepped) >= 2
    assert all(r["prev"] == r["step"] - 1 for r in stepped)
    log = page.evaluate("[...document.querySelectorAll('#log li')].map((li) => li.title)")
    last = renders[-1]  # the log may already hold a newer step than the last drawing (the queue)
    assert last["lastLog"][1] == log[last["step"] - 1] and last["lastLog"][0] in (0, 1)
    # A step of the log is drawn with its own previous frame and last entry, not interactive.
    page.locator("#log li[data-step='1'] button").click()
    page.wait_for_selector("body[data-viewing='1']")
    frame = page.evaluate("window.__renders.filter((r) => r.step === 1 && !r.interactive).at(-1)")
    assert frame["prev"] == 0 and frame["lastLog"][1] == log[0]


def _middle(
    page: Any, pace: float, limit: int | None = None
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Sit in the WebSocket: state messages reach the page with `table.pace` set to `pace` (only
    the first `limit`, if given: the rest are held back); returns (state messages passed on,
    messages the page sent), both growing."""
    received: list[dict[str, Any]] = []
    sent: list[dict[str, Any]] = []

    def handler(ws: Any) -> None:
        server = ws.connect_to_server()

        def down(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") == "state":
                if limit is not None and len(received) >= limit:
                    return
                data["table"]["pace"] = pace
                received.append(data)
            ws.send(json.dumps(data))

        def up(message: str | bytes) -> None:
            sent.append(json.loads(message))
            server.send(message)

        server.on_message(down)
        ws.on_message(up)

    page.route_web_socket(re.compile(r"/ws/tables/"), handler)
    return received, sent


def test_quick_steps_are_shown_one_by_one_at_the_tables_pace(server: str, page: Any) -> None:
    pace = 0.4
    # At most 16 states reach the page: a burst it shows one by one, never so far behind that it
    # would skip to the newest.
    received, _sent = _middle(page, pace, limit=16)
    page.add_init_script(RECORD_STEPS)
    # The page's clock is Playwright's: once paused, it moves only when the test moves it, so the
    # times recorded (performance.now) are exact whatever the machine's load.
    page.clock.install()
    # The server lets its bots play at once; the page must still show each step for `pace`.
    created = create(server, "stakz", ["human", "greedy"], pace=0.0, options={"target": 3})
    open_table(page, server, seat_link(created, 0))
    page.wait_for_selector("#hand-to-bot:not([disabled])")
    page.click("#hand-to-bot")
    start = int(page.evaluate("document.body.dataset.step"))
    page.clock.pause_at(int(page.evaluate("Date.now()")) + 1)
    page.wait_for_function("Number(document.body.dataset.queued) > 0", timeout=60000)
    later = "(n) => window.__shown.filter((s) => s.step > n).length"
    for _tick in range(2000):
        if page.evaluate(later, start) >= 8:
            break
        page.clock.run_for(10)
    shown = page.evaluate("window.__shown")
    steps = [s["step"] for s in shown]
    # Every state received was shown, in order (several of one step count once).
    arrived: list[int] = []
    for message in received:
        if not arrived or arrived[-1] != message["step"]:
            arrived.append(message["step"])
    assert steps == arrived[: len(steps)]
    assert len(received) > len(shown) or steps[-1] == arrived[-1]
    # Each step the person could not act on stayed the pace, to the 10 ms tick of the clock.
    after_start = [s for s in shown if s["step"] > start]
    assert len(after_start) >= 8, shown
    for before, after in itertools.pairwise(after_start):
        if not before["mine"]:
            assert after["at"] - before["at"] >= pace * 1000, (before, after)


def test_acting_jumps_to_the_newest_state_and_is_never_delayed(server: str, page: Any) -> None:
    # A pace far longer than the test waits: any delay of the person's own step would show.
    received, sent = _middle(page, 30.0)
    created = create(server, "aztack", ["human", "greedy"], pace=0.0)
    open_table(page, server, seat_link(created, 0))
    page.wait_for_function("document.body.dataset.myTurn !== undefined")
    if page.evaluate("document.body.dataset.myTurn") == "true":
        step = page.evaluate("document.body.dataset.step")
        page.locator("#moves li button").first.click()
        page.wait_for_function(
            "(s) => document.body.dataset.step !== s", arg=step, timeout=10000
        )  # at once, not after the pace
    # The bot's answer waits in the queue behind the step on show, up to the person's turn.
    page.wait_for_function("Number(document.body.dataset.queued) > 0", timeout=20000)
    while not received[-1]["legal"]:
        page.wait_for_function(
            "(s) => Number(document.body.dataset.latestStep) > s", arg=received[-1]["step"]
        )
    newest = received[-1]
    assert int(page.evaluate("document.body.dataset.step")) < newest["step"]
    assert page.evaluate("document.body.dataset.myTurn") == "false"
    # Typing a move acts on the newest state: the page shows it first and sends its step.
    page.fill("#move-filter", newest["legal"][0])
    page.press("#move-filter", "Enter")
    page.wait_for_function(
        "(s) => Number(document.body.dataset.step) >= s", arg=newest["step"], timeout=5000
    )
    acts = [m for m in sent if m.get("type") == "act"]
    assert acts[-1] == {"type": "act", "action": newest["legal"][0], "step": newest["step"]}
    page.wait_for_function(
        "(s) => Number(document.body.dataset.step) === s + 1", arg=newest["step"], timeout=10000
    )
    assert page.is_hidden("#error")
    # The box emptied and the whole list is back (a refused typed move leaves no empty list).
    assert page.input_value("#move-filter") == ""
