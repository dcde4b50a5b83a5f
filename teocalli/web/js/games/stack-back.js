// Stack Back: both boards seen from above, every stick drawn where it lies and shaded by its
// level (darker = higher, with the level number on it, and a shadow as deep as its level). The
// boards have an area of their own (between the headings and the supplies): no stick covers
// those. A stick is placed by hand: drag a colour of your supply onto the boards and turn it
// (the ghost's handle, two fingers, the mouse wheel, or the keys), the ghost says whether the
// rules let it stay there (the server judges it: green outline, or red with the rule's words
// under the boards) and dropping it plays it if they do. Or select a colour, then press one of
// the marks: each is a place the bots' search offers (its centre, a tick along its direction);
// the list of moves beside the board offers the same.
// What the last step changed carries `data-last` (the stick just laid or piled, the supply it came
// from; on a pass, the player's supply label), and sticks and supplies explain themselves in
// `data-tip` (colour, length, level, what a stick rests on and may still carry).
import { actionTarget, el, root, selectTarget, text } from "../svg.js";
import { hideTip } from "../tips.js";
import { capital, heading, headingLines, ink, mark, namer, tip, wrap } from "./common.js";

const FILL = { Y: "#e8c31c", M: "#b784a7", G: "#4caf50" };
const LENGTH = { Y: 72, M: 54, G: 36 };
const WIDTH = 6;
const S = 3.4; // pixels per millimetre
const OX = 20;
const OY = 40;
const BOARDS = [
  [0, 0, 100, 100],
  [136, 0, 236, 100],
];

function parsePose(pose) {
  const match = /^([YMG])(-?[\d.]+),(-?[\d.]+)@([\d.]+)$/.exec(pose);
  if (!match) return null;
  return { colour: match[1], x: Number(match[2]), y: Number(match[3]), angle: Number(match[4]) };
}

/** Millimetres (y up, as the engine measures) to SVG pixels (y down). */
function px(x, y) {
  return [OX + x * S, OY + (100 - y) * S];
}

function stickShape(pose, attrs = {}) {
  const [cx, cy] = px(pose.x, pose.y);
  const w = LENGTH[pose.colour] * S;
  const h = WIDTH * S;
  return el("rect", {
    x: cx - w / 2,
    y: cy - h / 2,
    width: w,
    height: h,
    rx: 2,
    transform: `rotate(${-pose.angle} ${cx} ${cy})`,
    ...attrs,
  });
}

function colourWords(letter, t) {
  return t(`stackback.colours.${letter}`);
}

/** Names seats as the table does when it says how, else "Seat N". */

/**
 * What the last step changed: {sticks: Set of indices, supply: Map player -> colour, labels: Map
 * player -> kind}. From the previous view when the table has it (any player's step, bots
 * included), else from the last log entry's notation.
 */
function lastChange(view, ui) {
  const s = view.state;
  const change = { sticks: new Set(), supply: new Map(), labels: new Map() };
  const prev = ui.prev?.state;
  if (prev && Array.isArray(prev.sticks)) {
    for (let i = prev.sticks.length; i < s.sticks.length; i += 1) {
      change.sticks.add(i);
      const pose = parsePose(s.sticks[i].pose);
      if (pose) change.supply.set(s.sticks[i].owner, pose.colour);
    }
    if (!change.sticks.size && view.step > ui.prev.step) {
      const player = prev.turn;
      const fumbled = (s.fumbles?.[player] ?? 0) > (prev.fumbles?.[player] ?? 0);
      change.labels.set(player, fumbled ? "fumbled" : "passed");
    }
    return change;
  }
  const log = ui.lastLog;
  if (Array.isArray(log) && log.length >= 2) {
    const [player, notation] = log;
    if (notation === "pass") {
      change.labels.set(player, "passed");
      return change;
    }
    let index = -1;
    for (let i = s.sticks.length - 1; i >= 0 && index < 0; i -= 1) {
      if (s.sticks[i].pose === notation) index = i;
    }
    // A steadiness-disturbed stick lies a little off what was played: the newest of that player.
    if (index < 0 && s.sticks.length && s.sticks[s.sticks.length - 1].owner === player) {
      index = s.sticks.length - 1;
    }
    if (index >= 0) {
      change.sticks.add(index);
      change.supply.set(player, parsePose(s.sticks[index].pose)?.colour);
    }
  }
  return change;
}

/** Where a stick on the wood lies: on board A, on board B, or across the gap on both. */
function woodWords(pose, t) {
  const half = (LENGTH[pose.colour] / 2) * Math.abs(Math.cos((pose.angle * Math.PI) / 180));
  const [left, right] = [pose.x - half, pose.x + half];
  if (left < BOARDS[0][2] && right > BOARDS[1][0]) return t("stackback.tip_across");
  return t("stackback.tip_on_board", { board: pose.x < (BOARDS[0][2] + BOARDS[1][0]) / 2 ? "A" : "B" });
}

/** A stick in words: colour, length, owner, level, what it rests on, carries and may still carry. */
function stickWords(index, view, ui) {
  const { t } = ui;
  const all = view.state.sticks;
  const stick = all[index];
  const pose = parsePose(stick.pose);
  const parts = [
    capital(
      t("stackback.tip_stick", {
        colour: colourWords(pose.colour, t),
        length: LENGTH[pose.colour],
        player: ui.playerName(stick.owner),
        level: stick.level,
      }),
    ),
  ];
  const supports = (stick.supports ?? []).map((i) => all[i]).filter(Boolean);
  if (stick.level === 0 || supports.length < 2) parts.push(woodWords(pose, t));
  else {
    const [a, b] = supports.map((st) => colourWords(parsePose(st.pose)?.colour, t));
    parts.push(t("stackback.tip_rests_on", { a, b, level: stick.level - 1 }));
  }
  const carried = all.filter((st) => (st.supports ?? []).includes(index)).map((st) => parsePose(st.pose)?.colour);
  if (carried.length) {
    parts.push(t("stackback.tip_carries", { colours: carried.map((c) => colourWords(c, t)).join(", ") }));
  }
  const free = ["Y", "M", "G"].filter((c) => c !== pose.colour && !carried.includes(c));
  parts.push(
    free.length
      ? t("stackback.tip_can_carry", { colours: free.map((c) => colourWords(c, t)).join(", ") })
      : t("stackback.tip_can_carry_none"),
  );
  return parts.join(" ");
}

function poseWords(action, t) {
  const pose = parsePose(action);
  if (!pose) return action;
  return t("stackback.place", {
    colour: colourWords(pose.colour, t),
    x: pose.x,
    y: pose.y,
    angle: pose.angle,
  });
}

/** Whether the point (mm) lies on the stick at `pose`, or within `margin` mm of it. */
function covers(pose, x, y, margin) {
  const rad = (pose.angle * Math.PI) / 180;
  const [dx, dy] = [x - pose.x, y - pose.y];
  const along = Math.abs(dx * Math.cos(rad) + dy * Math.sin(rad));
  const across = Math.abs(-dx * Math.sin(rad) + dy * Math.cos(rad));
  return along <= LENGTH[pose.colour] / 2 + margin && across <= WIDTH / 2 + margin;
}

/** Where a stick's label goes: along it, at the first place no stick drawn later covers (the
 * centre if none is free), so every level number stays readable. */
function labelPoint(stick, later) {
  const rad = (stick.pose.angle * Math.PI) / 180;
  const length = LENGTH[stick.pose.colour];
  for (const f of [0, 0.22, -0.22, 0.36, -0.36]) {
    const [x, y] = [stick.pose.x + f * length * Math.cos(rad), stick.pose.y + f * length * Math.sin(rad)];
    if (!later.some((other) => covers(other.pose, x, y, 3.5))) return px(x, y);
  }
  return px(stick.pose.x, stick.pose.y);
}

function sticks(view, ui, change, labelSize = 11, declutter = false) {
  const { t } = ui;
  const g = el("g", { class: "sticks" });
  const list = view.state.sticks.map((s, i) => ({ ...s, i, pose: parsePose(s.pose) }));
  list.sort((a, b) => a.level - b.level || a.i - b.i);
  // Where each label goes; with `declutter` (a phone's view of both boards, labels large for the
  // sticks) a label that would overlap one drawn higher is left out (the stick keeps its colour,
  // its length and its tip; zoom to a board to read them all).
  const points = list.map((stick, n) => (stick.pose ? labelPoint(stick, list.slice(n + 1).filter((o) => o.pose)) : null));
  const shown = new Set();
  const boxes = [];
  for (let n = list.length - 1; n >= 0; n -= 1) {
    if (!points[n]) continue;
    const [x, y] = points[n];
    const [w, h] = [labelSize * 2.2, labelSize * 1.1];
    if (declutter && boxes.some(([bx, by]) => Math.abs(bx - x) < w && Math.abs(by - y) < h)) continue;
    boxes.push([x, y]);
    shown.add(n);
  }
  for (const [n, stick] of list.entries()) {
    if (!stick.pose) continue;
    const fill = FILL[stick.pose.colour];
    const [cx, cy] = points[n];
    const label = t("stackback.stick", {
      colour: colourWords(stick.pose.colour, t),
      level: stick.level,
      player: ui.playerName(stick.owner),
    });
    const group = el(
      "g",
      { class: "stick", "aria-label": label, role: "img" },
      el("title", {}, label),
      // A shadow as deep as the level: what lies higher casts it on what it rests on.
      stick.level > 0
        ? stickShape(
            { ...stick.pose, x: stick.pose.x + (1.1 * stick.level) / S * 3, y: stick.pose.y - (1.1 * stick.level) / S * 3 },
            { fill: "#000", opacity: 0.35, class: "stick-shadow" },
          )
        : null,
      stickShape(stick.pose, { fill, stroke: "#000", "stroke-width": 1 + stick.level }),
      // Shade by level: each level darkens the stick a little more.
      stickShape(stick.pose, { fill: "#000", opacity: Math.min(0.14 * stick.level, 0.6) }),
      !shown.has(n) ? null : text(cx, cy, `${stick.pose.colour}${stick.level}${stick.owner === 0 ? "●" : "■"}`, {
        fill: stick.level >= 2 ? "#fff" : ink(fill),
        stroke: stick.level >= 2 ? "#000" : ink(fill) === "#fff" ? "#000" : "#fff",
        "stroke-width": (2.5 * labelSize) / 11,
        "paint-order": "stroke",
        "font-size": labelSize,
        "font-weight": "bold",
      }),
    );
    const kind = change.sticks.has(stick.i) ? (stick.level > 0 ? "piled" : "placed") : null;
    const words = stickWords(stick.i, view, ui);
    g.append(mark(tip(group, kind ? `${words} ${t("stackback.tip_last")}` : words), kind));
  }
  // The stick the last step laid: a thick black-and-yellow rim drawn over the others (a shape,
  // not a colour alone).
  for (const stick of list) {
    if (!stick.pose || !change.sticks.has(stick.i)) continue;
    const kind = stick.level > 0 ? "piled" : "placed";
    g.append(
      el(
        "g",
        { class: "last-move", "data-last": kind, "pointer-events": "none" },
        stickShape(stick.pose, { fill: "none", stroke: "#000", "stroke-width": 7 }),
        stickShape(stick.pose, { fill: "none", stroke: "#ffd400", "stroke-width": 3.5 }),
      ),
    );
  }
  return g;
}

function candidates(view, ui) {
  const { t } = ui;
  const g = el("g", { class: "candidates" });
  // On a phone the marks would lie too close to be hit: the stick in hand visits them instead.
  if (!ui.selected || ui.narrow) return g;
  for (const action of ui.legal) {
    const pose = parsePose(action);
    if (!pose || pose.colour !== ui.selected) continue;
    const [cx, cy] = px(pose.x, pose.y);
    const rad = (pose.angle * Math.PI) / 180;
    const dx = Math.cos(rad) * 9;
    const dy = -Math.sin(rad) * 9;
    const mark = el(
      "g",
      { class: "candidate" },
      stickShape(pose, { class: "ghost-stick", fill: FILL[pose.colour], stroke: "#000" }),
      el("line", { x1: cx - dx, y1: cy - dy, x2: cx + dx, y2: cy + dy, stroke: "#000", "stroke-width": 2 }),
      el("circle", { cx: cx + dx * 0.6, cy: cy + dy * 0.6, r: 5, fill: "#fff", stroke: "#000", "stroke-width": 1.5 }),
    );
    g.append(actionTarget(mark, action, poseWords(action, t), ui, { forSelection: true }));
  }
  return g;
}

/** The supplies of `players` (all by default) from `oy` down. On a phone (`narrow`) each colour
 * is a 44 px high button, three to a 360 px row, under a label wrapped to the width.
 * Returns {g, height}. */
function supplies(view, ui, ox, oy, change, narrow = false, players = null) {
  const { t } = ui;
  const s = view.state;
  const g = el("g", { class: "supply" });
  let y = oy;
  s.supply.forEach((supply, p) => {
    if (players && !players.includes(p)) return;
    const mine = p === ui.seat;
    const who = { player: ui.playerName(p) };
    const own = narrow ? "stackback.your_supply_tap" : ui.interactive ? "stackback.your_supply_drag" : "stackback.your_supply";
    const words = t(mine ? own : "stackback.supply_of", who);
    const { node: label, height: labelHeight } = narrow
      ? headingLines(ox, y, words, 36, 17, { class: "svg-heading supply-label" })
      : { node: heading(ox, y, words, { class: "svg-heading supply-label" }), height: 17 };
    const [pitch, boxHeight] = narrow ? [110, 44] : [120, 22];
    const boxTop = y + labelHeight - 9;
    // On a pass (or a stick that slipped) the player's label is what changed: a framed row
    // (under the supply's colours, which keep their own tips) that says so.
    const labelKind = change.labels.get(p);
    if (labelKind) {
      const said = t(labelKind === "fumbled" ? "stackback.tip_fumbled" : "stackback.tip_passed", who);
      const frame = el("rect", {
        x: ox - 4,
        y: y - 14,
        // The row's three colours, or the label if longer (about 7.6 px a character at 13 px).
        width: narrow ? 3 * pitch : Math.max(3 * pitch + 4, label.textContent.length * 7.6 + 12),
        height: boxTop - y + boxHeight + 20,
        rx: 6,
        fill: "transparent",
        stroke: "#000",
        "stroke-width": 3,
      });
      g.append(mark(tip(el("g", { class: "last-move supply-row" }, frame, label), said), labelKind));
    } else {
      g.append(label);
    }
    ["Y", "M", "G"].forEach((c, i) => {
      const x = ox + i * pitch;
      const fill = FILL[c];
      const boxWidth = narrow ? pitch - 8 : LENGTH[c] * 1.4;
      let node = el(
        "g",
        { class: "supply-colour" },
        el("rect", { x, y: boxTop, width: boxWidth, height: boxHeight, rx: 3, fill, stroke: "#000" }),
        text(x + boxWidth / 2, boxTop + boxHeight / 2, `${c} × ${supply[c] ?? 0}`, {
          fill: ink(fill),
          "font-size": narrow ? 15 : 12,
          "font-weight": "bold",
        }),
      );
      if (mine && ui.legal.some((a) => a.startsWith(c))) {
        node = selectTarget(node, c, t("stackback.select", { colour: colourWords(c, t), count: supply[c] }), ui);
      }
      if (mine && ui.interactive && (supply[c] ?? 0) > 0) {
        // Drag it onto the boards (any pose: the server judges it), or press it to see the marks.
        node.dataset.drag = c;
        node.setAttribute("style", "cursor:grab;touch-action:none");
        node.addEventListener("pointerdown", (event) => {
          if (drag || (event.pointerType === "mouse" && event.button !== 0)) return;
          if (event.pointerType !== "mouse") event.preventDefault();
          drag = { kind: "supply", colour: c, pointerId: event.pointerId, sx: event.clientX, sy: event.clientY };
          Object.assign(drag, { x: event.clientX, y: event.clientY, started: false });
          drag.lift = event.pointerType === "touch";
        });
      }
      const count = supply[c] ?? 0;
      const params = { player: ui.playerName(p), colour: colourWords(c, t), count, length: LENGTH[c] };
      const tipWords = count === 1 ? t("stackback.tip_supply_one", params) : t("stackback.tip_supply_other", params);
      g.append(mark(tip(node, tipWords), change.supply.get(p) === c ? "placed" : null));
    });
    y = boxTop + boxHeight + (narrow ? 30 : 22);
  });
  return { g, height: y - oy };
}

// --- a stick in hand ------------------------------------------------------------------------------
const SNAP_MM = 6;
const SNAP_DEG = 10;
const JUDGE_MS = 60; // at most one judge request this often (the server answers about 20 a second)
const JUDGE_LOST_MS = 2000; // an unanswered request after this long: ask again
const DRAG_PX = 6; // a press that moves less than this is a press, not a drag
const BAND = 122; // the lines under the boards: place / put back, snapping, the ghost's verdict
const WRAP = 44; // characters a line of the verdict (read on a phone without scrolling sideways)
const TOUCH_LIFT = 12; // mm: a stick dragged by a finger is held above it, where it can be seen
const SNAP_KEY = "teocalli.stackback.snap";

/** The stick in hand: {step, colour, x, y, angle (raw), verdict: {action, legal, reason}, asked}. */
let hand = null;
/** The board the person plays on now: {svg, layer, ghost, band parts, view, ui}. */
let live = null;
/** A pointer pressed on a supply colour, the ghost or its handle (and a second finger). */
let drag = null;
let snapOn = false;
let lastAsked = 0;
let judgeTimer = null;
let swallowClickUntil = 0;
let ghostFocused = false;
try {
  snapOn = window.localStorage?.getItem(SNAP_KEY) === "1";
} catch {
  snapOn = false;
}

function tenths(value) {
  return (Math.round(value * 10) / 10).toFixed(1);
}

function foldAngle(angle) {
  const a10 = ((Math.round(angle * 10) % 1800) + 1800) % 1800;
  return a10 / 10;
}

function notation(pose) {
  return `${pose.colour}${tenths(pose.x)},${tenths(pose.y)}@${tenths(foldAngle(pose.angle))}`;
}

/** The pose shown: the hand's, or with snapping on the nearest candidate within 6 mm and 10°. */
function shownPose() {
  const pose = { colour: hand.colour, x: hand.x, y: hand.y, angle: foldAngle(hand.angle) };
  if (!snapOn || !live) return pose;
  let best = null;
  let bestScore = Infinity;
  for (const action of live.ui.legal) {
    const c = parsePose(action);
    if (!c || c.colour !== pose.colour) continue;
    const d = Math.hypot(c.x - pose.x, c.y - pose.y);
    const turn = Math.abs(c.angle - pose.angle) % 180;
    const da = Math.min(turn, 180 - turn);
    if (d > SNAP_MM || da > SNAP_DEG) continue;
    const score = d / SNAP_MM + da / SNAP_DEG;
    if (score < bestScore) [best, bestScore] = [c, score];
  }
  return best ?? pose;
}

function onBoard() {
  return Boolean(live && live.svg.isConnected && live.ui.interactive);
}

function handHere() {
  return Boolean(hand && onBoard() && hand.step === live.view.step);
}

/** A client point in millimetres on the boards (y up, as the engine measures). */
function toMm(clientX, clientY) {
  const matrix = live.layer.getScreenCTM();
  if (!matrix) return [hand?.x ?? 50, hand?.y ?? 50];
  const point = new DOMPoint(clientX, clientY).matrixTransform(matrix.inverse());
  return [(point.x - OX) / S, 100 - (point.y - OY) / S];
}

function insideArea(clientX, clientY) {
  const box = live.area.getBoundingClientRect();
  return clientX >= box.left && clientX <= box.right && clientY >= box.top && clientY <= box.bottom;
}

function takeInHand(colour, x, y, angle) {
  hand = { step: live.view.step, colour, x, y, angle, verdict: null, asked: null, dropWanted: false };
}

/** The hand moved or turned: keep it near the boards, redraw the ghost, ask the server. */
function moved() {
  hand.x = Math.max(-30, Math.min(266, hand.x));
  hand.y = Math.max(-30, Math.min(130, hand.y));
  hand.angle = ((hand.angle % 360) + 360) % 360;
  hand.dropWanted = false;
  drawHand();
  ask();
}

/** Ask the server to judge the pose shown (the newest only, at most every JUDGE_MS). */
function ask() {
  if (!handHere()) return;
  const action = notation(shownPose());
  if (hand.verdict?.action !== action && live.ui.legal.includes(action)) {
    hand.verdict = { action, legal: true, reason: "" }; // one of the bots' places: legal as listed
    drawHand();
  }
  if (typeof live.ui.judge !== "function") return;
  if (hand.verdict?.action === action) {
    settleDrop();
    return;
  }
  if (hand.asked && performance.now() - hand.asked.at < JUDGE_LOST_MS) return; // then ask again
  const wait = lastAsked + JUDGE_MS - performance.now();
  if (wait > 0) {
    judgeTimer ??= window.setTimeout(() => {
      judgeTimer = null;
      ask();
    }, wait);
    return;
  }
  lastAsked = performance.now();
  const mine = hand;
  mine.asked = { action, at: lastAsked };
  live.ui.judge(action).then((verdict) => {
    if (hand !== mine) return;
    if (mine.asked?.action === action) mine.asked = null;
    if (!verdict) lastAsked = performance.now() + 150; // refused as too fast: wait a little
    else if (verdict.step === undefined || verdict.step === mine.step) {
      mine.verdict = { action, legal: verdict.legal, reason: verdict.reason };
    }
    drawHand();
    ask();
  });
}

/** Play the stick in hand if the rules let it stay; else it stays, red, with their words. */
function drop() {
  if (!handHere()) return;
  const action = notation(shownPose());
  if (typeof live.ui.judge !== "function") {
    live.ui.act(action); // no judging here: the server decides (and explains a refusal)
    return;
  }
  hand.dropWanted = true;
  if (hand.verdict?.action === action) settleDrop();
  else {
    drawHand();
    ask();
  }
}

function settleDrop() {
  if (!hand?.dropWanted || !handHere()) return;
  const action = notation(shownPose());
  if (hand.verdict?.action !== action) return;
  hand.dropWanted = false;
  if (hand.verdict.legal) {
    hand.sent = action;
    drawHand();
    live.ui.act(action);
  } else {
    drawHand();
  }
}

function putBack() {
  hand = null;
  drag = null;
  drawHand();
  // On a phone the stick in hand is the selected colour: put back, nothing is selected.
  if (live?.ui.narrow && live.ui.selected) live.ui.select(null);
}

/** The bots' places for a stick of `colour` (the spots a phone's stick in hand visits). */
function spotsOf(colour) {
  return (live?.ui.legal ?? []).map(parsePose).filter((p) => p && p.colour === colour);
}

/** Bring the stick in hand to the bots' next (+1) or previous (-1) place for its colour. */
function visitSpot(by) {
  if (!handHere()) return;
  const spots = spotsOf(hand.colour);
  if (!spots.length) return;
  hand.spot = (((hand.spot ?? -1) + by) % spots.length + spots.length) % spots.length;
  const spot = spots[hand.spot];
  Object.assign(hand, { x: spot.x, y: spot.y, angle: spot.angle });
  const view = live.bounds;
  if (zoom !== "all" && (spot.x < view[0] || spot.x > view[2])) {
    zoom = spot.x < BOARDS[1][0] - 18 ? "A" : "B";
    live.ui.select(live.ui.selected); // drawn again at the new zoom, the hand kept
    return;
  }
  moved();
}

function turnBy(degrees) {
  if (!handHere()) return;
  hand.angle += degrees;
  moved();
}

function reasonWords(reason) {
  return String(reason ?? "").replace(/^position: [^:]*: /, "");
}

function poseShort(pose, t) {
  return t("stackback.hand_pose", {
    colour: colourWords(pose.colour, t),
    x: tenths(pose.x),
    y: tenths(pose.y),
    angle: tenths(foldAngle(pose.angle)),
  });
}

/** Redraw the ghost and the line under the boards from `hand` (in place: no new board). */
function drawHand() {
  if (!live) return;
  const { t } = live.ui;
  const { ghost, body, arm, handle, sign, reason, place, cancel } = live;
  const here = handHere();
  live.area.style.touchAction = here ? "none" : "";
  ghost.setAttribute("display", here ? "inline" : "none");
  place.setAttribute("display", here ? "inline" : "none");
  cancel.setAttribute("display", here ? "inline" : "none");
  for (const node of live.handOnly ?? []) node.setAttribute("display", here ? "inline" : "none");
  if (live.spotText) {
    const spots = here ? spotsOf(hand.colour) : [];
    const at = here ? spots.findIndex((p) => notation(p) === notation(shownPose())) : -1;
    live.spotText.textContent =
      at >= 0 ? t("stackback.hand_spot", { n: at + 1, count: spots.length }) : t("stackback.hand_spots", { count: spots.length });
  }
  let words;
  let judged = "none";
  if (!here) {
    ghost.removeAttribute("data-judged");
    ghost.removeAttribute("data-pose");
    words = t(live.wrap ? "stackback.hand_hint_tap" : "stackback.hand_hint");
  } else {
    const pose = shownPose();
    const action = notation(pose);
    const verdict = hand.verdict?.action === action ? hand.verdict : null;
    judged = hand.sent === action ? "sent" : verdict ? (verdict.legal ? "legal" : "illegal") : "pending";
    const [cx, cy] = px(pose.x, pose.y);
    const w = LENGTH[pose.colour] * S;
    const h = WIDTH * S;
    const turn = `rotate(${-pose.angle} ${cx} ${cy})`;
    const stroke = { legal: "#0b7a26", illegal: "#c00000", pending: "#333", sent: "#333" }[judged];
    Object.entries({ x: cx - w / 2, y: cy - h / 2, width: w, height: h, transform: turn, stroke }).forEach(
      ([k, v]) => body.setAttribute(k, v),
    );
    body.setAttribute("fill", FILL[pose.colour]);
    body.setAttribute("stroke-dasharray", judged === "illegal" ? "8 5" : judged === "pending" ? "3 3" : "none");
    // The handle at the end of the stick that keeps it inside the boards' area.
    const [x0, y0, x1, y1] = live.bounds;
    const extra = live.handleReach ?? 10 * S; // from the stick's end to the handle's centre
    const out = (end) => {
      const rad = (pose.angle * Math.PI) / 180;
      const [hx, hy] = [pose.x + end * Math.cos(rad) * (w / 2 + extra) / S, pose.y + end * Math.sin(rad) * (w / 2 + extra) / S];
      return hx < x0 + 3 || hx > x1 - 3 || hy < y0 + 3 || hy > y1 - 3;
    };
    const reach = (out(1) && !out(-1) ? -1 : 1) * (w / 2 + extra);
    arm.setAttribute("x1", cx + Math.sign(reach) * (w / 2));
    arm.setAttribute("x2", cx + reach);
    arm.setAttribute("y1", cy);
    arm.setAttribute("y2", cy);
    arm.setAttribute("transform", turn);
    handle.setAttribute("cx", cx + reach);
    handle.setAttribute("cy", cy);
    handle.setAttribute("transform", turn);
    sign.setAttribute("x", cx);
    sign.setAttribute("y", cy);
    sign.textContent = { legal: "✓", illegal: "✗", pending: "…", sent: "…" }[judged];
    sign.setAttribute("fill", stroke);
    ghost.dataset.judged = judged;
    ghost.dataset.pose = action;
    const said = poseShort(pose, t);
    if (judged === "legal") words = t("stackback.hand_legal", { pose: said });
    else if (judged === "illegal") words = t("stackback.hand_illegal", { pose: said, reason: reasonWords(verdict.reason) });
    else if (judged === "sent") words = t("stackback.hand_sent", { pose: said });
    else words = t("stackback.hand_judging", { pose: said });
    ghost.setAttribute("aria-label", `${words} ${t("stackback.hand_keys")}`);
    place.setAttribute("aria-disabled", String(judged !== "legal"));
    place.setAttribute("opacity", judged === "legal" ? 1 : 0.45);
  }
  reason.dataset.judged = judged;
  reason.replaceChildren(
    ...wrap(words, live.wrap ?? WRAP).slice(0, 4).map((line, i) => el("tspan", { x: reason.getAttribute("x"), dy: i ? 19 : 0 }, line)),
  );
  reason.setAttribute("aria-label", words);
}

/** A pressable SVG button of the band (pointer or keyboard). */
function bandButton(x, y, width, label, cls, onPress, height = 26) {
  const node = el(
    "g",
    { class: `hand-button ${cls}`, tabindex: "0", role: "button", "aria-label": label, style: "cursor:pointer" },
    el("rect", { x, y, width, height, rx: 5, fill: "#fff", stroke: "#000", "stroke-width": 1.5 }),
    text(x + width / 2, y + height / 2, label, { "font-size": height > 30 ? 15 : 14 }),
  );
  node.addEventListener("click", (event) => {
    event.preventDefault();
    onPress();
  });
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      event.stopPropagation();
      onPress();
    }
  });
  return node;
}

function snapToggle(x, y, t, tall = false) {
  const box = el("rect", { x, y: y - 9, width: 18, height: 18, rx: 3, fill: "#fff", stroke: "#000", "stroke-width": 1.5 });
  // On a phone the whole line is the switch: 44 px high.
  const room = tall ? el("rect", { x: x - 4, y: y - 22, width: 240, height: 44, fill: "transparent" }) : null;
  const tick = text(x + 9, y, "✓", { "font-size": 16, "font-weight": "bold", display: snapOn ? "inline" : "none" });
  const node = el(
    "g",
    {
      class: "snap-toggle",
      tabindex: "0",
      role: "checkbox",
      "aria-checked": String(snapOn),
      "data-checked": String(snapOn),
      style: "cursor:pointer",
    },
    room,
    box,
    tick,
    el("text", { x: x + 26, y, "dominant-baseline": "central", "font-size": 14 }, t("stackback.snap")),
  );
  const toggle = () => {
    snapOn = !snapOn;
    try {
      window.localStorage?.setItem(SNAP_KEY, snapOn ? "1" : "0");
    } catch {
      // no storage: the choice lasts for this page
    }
    node.setAttribute("aria-checked", String(snapOn));
    node.dataset.checked = String(snapOn);
    tick.setAttribute("display", snapOn ? "inline" : "none");
    if (handHere()) moved();
  };
  node.addEventListener("click", (event) => {
    event.preventDefault();
    toggle();
  });
  node.addEventListener("keydown", (event) => {
    if (event.key === " " || event.key === "Enter") {
      event.preventDefault();
      event.stopPropagation();
      toggle();
    }
  });
  return node;
}

/** The ghost: the stick in hand, its turning handle and its verdict sign (hidden when empty). */
function ghostNode(t) {
  const body = el("rect", { class: "ghost-body", rx: 2, "fill-opacity": 0.6, "stroke-width": 3.5 });
  const arm = el("line", { class: "ghost-arm", stroke: "#000", "stroke-width": 2, "pointer-events": "none" });
  const handle = el("circle", {
    class: "ghost-handle",
    r: 11,
    fill: "#fff",
    stroke: "#000",
    "stroke-width": 2,
    style: "cursor:grab;touch-action:none",
  });
  handle.append(el("title", {}, t("stackback.hand_handle")));
  const sign = text(0, 0, "", {
    "font-size": 22,
    "font-weight": "bold",
    stroke: "#fff",
    "stroke-width": 3,
    "paint-order": "stroke",
    "pointer-events": "none",
    class: "ghost-sign",
  });
  const ghost = el(
    "g",
    { class: "ghost", tabindex: "0", role: "group", display: "none", style: "cursor:move;touch-action:none" },
    body,
    arm,
    handle,
    sign,
  );
  ghost.addEventListener("focus", () => {
    ghostFocused = true;
  });
  ghost.addEventListener("blur", () => {
    ghostFocused = false;
  });
  ghost.addEventListener("pointerdown", (event) => {
    if (!handHere() || drag || (event.pointerType === "mouse" && event.button !== 0)) return;
    event.preventDefault();
    const [mx, my] = toMm(event.clientX, event.clientY);
    if (event.target === handle) {
      const pointer = (Math.atan2(my - hand.y, mx - hand.x) * 180) / Math.PI;
      drag = { kind: "handle", pointerId: event.pointerId, sx: event.clientX, sy: event.clientY, started: false };
      drag.offset = pointer - hand.angle;
    } else {
      drag = { kind: "ghost", pointerId: event.pointerId, sx: event.clientX, sy: event.clientY, started: false };
      [drag.dx, drag.dy] = [hand.x - mx, hand.y - my];
    }
    drag.x = event.clientX;
    drag.y = event.clientY;
    ghost.focus({ preventScroll: true });
  });
  return { ghost, body, arm, handle, sign };
}

function pointerAngle(a, b) {
  return (Math.atan2(-(b.y - a.y), b.x - a.x) * 180) / Math.PI;
}

function twist() {
  const now = pointerAngle(drag, drag.second);
  hand.angle = drag.second.angle + now - drag.second.base;
}

function onPointerMove(event) {
  if (!drag || !onBoard()) return;
  if (drag.second && event.pointerId === drag.second.pointerId) {
    Object.assign(drag.second, { x: event.clientX, y: event.clientY });
    if (handHere()) {
      drag.started = true;
      twist();
      moved();
    }
    return;
  }
  if (event.pointerId !== drag.pointerId) return;
  drag.x = event.clientX;
  drag.y = event.clientY;
  if (!drag.started) {
    if (Math.hypot(drag.x - drag.sx, drag.y - drag.sy) < DRAG_PX) return;
    drag.started = true;
    if (drag.kind === "supply") {
      takeInHand(drag.colour, 0, 0, 0);
      [drag.dx, drag.dy] = [0, drag.lift ? TOUCH_LIFT : 0];
    }
  }
  hideTip(); // no tip of what the stick passes over
  if (!handHere()) return;
  const [mx, my] = toMm(drag.x, drag.y);
  if (drag.kind === "handle") hand.angle = (Math.atan2(my - hand.y, mx - hand.x) * 180) / Math.PI - drag.offset;
  else {
    hand.x = mx + drag.dx;
    hand.y = my + drag.dy;
  }
  if (drag.second) twist();
  moved();
}

/** A second finger on the boards while the first holds the stick: the two turn it. */
function onAreaPointerDown(event) {
  if (!drag && handHere() && !live.ghost.contains(event.target)) {
    // A finger on the wood beside the stick: a tap brings the stick's centre there, a slide moves
    // it as far as the finger goes (the finger never hides it).
    if (event.pointerType === "mouse" && event.button !== 0) return;
    event.preventDefault();
    const [mx, my] = toMm(event.clientX, event.clientY);
    drag = { kind: "slide", pointerId: event.pointerId, sx: event.clientX, sy: event.clientY, started: false };
    Object.assign(drag, { x: event.clientX, y: event.clientY, dx: hand.x - mx, dy: hand.y - my });
    return;
  }
  if (!drag || drag.second || event.pointerId === drag.pointerId || !handHere()) return;
  event.preventDefault();
  drag.second = { pointerId: event.pointerId, x: event.clientX, y: event.clientY };
  drag.second.base = pointerAngle(drag, drag.second);
  drag.second.angle = hand.angle;
}

function onPointerUp(event) {
  if (!drag) return;
  if (drag.second && event.pointerId === drag.second.pointerId) {
    drag.second = null;
    return;
  }
  if (event.pointerId !== drag.pointerId) return;
  const done = drag;
  drag = null;
  if (!onBoard()) return;
  if (!done.started) {
    if (done.kind === "ghost" && event.type === "pointerup") drop(); // a tap on the ghost plays it
    if (done.kind === "slide" && event.type === "pointerup" && handHere()) {
      [hand.x, hand.y] = toMm(event.clientX, event.clientY); // a tap on the wood: the stick goes there
      moved();
    }
    return;
  }
  swallowClickUntil = performance.now() + 500; // the click that ends a drag selects nothing
  if (event.type !== "pointerup" || done.kind === "handle" || done.kind === "slide") return;
  if (!insideArea(event.clientX, event.clientY)) putBack(); // dropped off the boards: put back
  else drop();
}

function onClick(event) {
  if (performance.now() < swallowClickUntil) {
    swallowClickUntil = 0;
    event.preventDefault();
    event.stopPropagation();
  }
}

function onWheel(event) {
  if (!handHere()) return;
  event.preventDefault();
  const delta = event.deltaY || event.deltaX;
  if (!delta) return;
  hand.angle += (delta < 0 ? 1 : -1) * (event.shiftKey ? 1 : 5);
  moved();
}

const TURNS = { BracketLeft: 1, KeyQ: 1, BracketRight: -1, KeyE: -1 };
const MOVES = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };

/** Keys on the boards: arrows move the stick in hand (Shift: 5 mm), [ ] or Q E turn it 5°
 * (Shift: 1°), Enter plays it, Escape puts it back. An arrow or turning key on a colour of your
 * supply takes a stick of it in hand. */
function onKey(event) {
  if (!onBoard() || event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target !== document.body && !live.svg.contains(target)) return;
  const turn = TURNS[event.code];
  const move = MOVES[event.key];
  if (!handHere()) {
    const colour = target.closest?.("[data-drag]")?.dataset.drag;
    if (!colour || (!turn && !move)) return;
    const first = live.ui.legal.map(parsePose).find((p) => p && p.colour === colour);
    takeInHand(colour, first?.x ?? 30, first?.y ?? 50, first?.angle ?? 0);
    event.preventDefault();
    event.stopPropagation();
    moved();
    ghostFocused = true;
    live.ghost.focus({ preventScroll: true }); // shown now: it can take the keys
    return;
  }
  if (turn) hand.angle += turn * (event.shiftKey ? 1 : 5);
  else if (move) {
    const step = event.shiftKey ? 5 : 1;
    hand.x += move[0] * step;
    hand.y += move[1] * step;
  } else if (event.key === "Enter" && (target === live.ghost || target === document.body)) {
    event.preventDefault();
    event.stopPropagation();
    drop();
    return;
  } else if (event.key === "Escape") {
    event.preventDefault();
    event.stopPropagation();
    putBack();
    return;
  } else return;
  event.preventDefault();
  event.stopPropagation();
  moved();
}

if (typeof window !== "undefined") {
  window.addEventListener("pointermove", onPointerMove);
  window.addEventListener("pointerup", onPointerUp);
  window.addEventListener("pointercancel", onPointerUp);
  window.addEventListener("click", onClick, true);
  window.addEventListener("keydown", onKey, true);
  // A finger dragging a stick does not scroll the page.
  window.addEventListener(
    "touchmove",
    (event) => {
      if (drag && onBoard()) event.preventDefault();
    },
    { passive: false },
  );
}

/** The boards' area in millimetres: the region and a margin, grown to hold every stick. */
function areaBounds(view) {
  let [x0, y0, x1, y1] = [-8, -8, 244, 108];
  for (const stick of view.state.sticks) {
    const pose = parsePose(stick.pose);
    if (!pose) continue;
    const rad = (pose.angle * Math.PI) / 180;
    const half = LENGTH[pose.colour] / 2;
    const ex = Math.abs(Math.cos(rad)) * half + Math.abs(Math.sin(rad)) * (WIDTH / 2) + 3;
    const ey = Math.abs(Math.sin(rad)) * half + Math.abs(Math.cos(rad)) * (WIDTH / 2) + 3;
    [x0, x1] = [Math.min(x0, pose.x - ex), Math.max(x1, pose.x + ex)];
    [y0, y1] = [Math.min(y0, pose.y - ey), Math.max(y1, pose.y + ey)];
  }
  return [Math.max(x0, -80), Math.max(y0, -80), Math.min(x1, 316), Math.min(y1, 180)];
}

// --- a phone: one column 360 px wide, drawn 1:1 ----------------------------------------------------
const NW = 340; // the column's width (fits a 360 px screen beside the page's margins)
const NX = 4;
/** What the boards' area shows on a phone: both boards, or one of them at twice the scale. */
let zoom = "all";

/** The stick in hand's two rows of buttons under your supply (place, turn; the bots' places,
 * pass), with the gap between them and a margin under them, in CSS px. */
const HAND_ROWS = 104;

/** The screen's height in units of the drawing, less where the drawing starts on the page (the
 * table's header and turn line above the board's box): the drawing is as wide as the box, a
 * little more than 1 CSS px a unit on a 390 px phone. Before the first render, a usual guess. */
function screenLeft() {
  const screen = typeof window !== "undefined" && window.innerHeight > 0 ? window.innerHeight : 844;
  const node = typeof document !== "undefined" ? document.getElementById("board") : null;
  if (!node) return screen - 130;
  const style = getComputedStyle(node);
  const inner = node.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const top = node.getBoundingClientRect().top + window.scrollY + parseFloat(style.paddingTop);
  return (screen - top) / (inner > 0 ? inner / NW : 1);
}

/**
 * The view `[x0, y0, x1, y1]` (mm) widened, if need be, so that drawn `width` units wide it is
 * no taller than `room` units (what the screen leaves beside the status and zoom buttons above
 * it, your supply and the hand's buttons under it): zoomed on one board (or with sticks far off
 * the wood) the area would grow past the screen, and moving a stick or pressing Place would
 * scroll the board away.
 */
function capped([x0, y0, x1, y1], width, room) {
  const cap = Math.max(220, room);
  const wanted = ((y1 - y0) * width) / cap; // mm wide for the cap's height
  if (wanted <= x1 - x0) return [x0, y0, x1, y1];
  const extra = (wanted - (x1 - x0)) / 2;
  return [x0 - extra, y0, x1 + extra, y1];
}

function zoomView([x0, y0, x1, y1]) {
  const mid = (BOARDS[0][2] + BOARDS[1][0]) / 2;
  if (zoom === "A") return [x0, y0, mid, y1];
  if (zoom === "B") return [mid, y0, x1, y1];
  return [x0, y0, x1, y1];
}

/** A 44 px button drawn on the board (pressed state shown by a thick frame and aria-pressed). */
function tallButton(x, y, width, label, cls, onPress, pressed = null) {
  const node = bandButton(x, y, width, label, cls, onPress, 44);
  if (pressed !== null) {
    node.setAttribute("aria-pressed", String(pressed));
    if (pressed) {
      const frame = node.querySelector("rect");
      frame.setAttribute("stroke-width", 4);
      frame.setAttribute("fill", "#ffe9a8");
    }
  }
  return node;
}

/**
 * Stack Back on a phone: the status, three zoom buttons (both boards, A, B), the boards' area at
 * the width (no taller than the screen leaves: see capped), then (for a seat) your supply, each
 * colour a 44 px button, so the boards and your sticks are seen together at every zoom; the stick
 * in hand's buttons: place, put back, turn 15° either way, the bots' previous and next places,
 * pass when the rules offer it, snapping and the verdict; then the other supplies. Press a colour: a stick of it is taken in hand at the
 * bots' first place for it; tap the wood to bring it there, slide a finger on the wood to move
 * it, turn it, then press Place (or tap the stick). Text is 12 px or more at every zoom.
 */
function renderNarrow(view, ui, bounds) {
  const { t } = ui;
  const s = view.state;
  const svg = root(NW, 1, t("stackback.board_label"));
  svg.setAttribute("style", "user-select:none;-webkit-user-select:none");
  const status = headingLines(
    NX,
    16,
    view.terminal
      ? t("stackback.status_over")
      : t(s.placed_this_turn === 1 ? "stackback.status_one" : "stackback.status", {
          player: ui.playerName(s.turn),
          placed: s.placed_this_turn,
        }),
    36,
    18,
  );
  svg.append(status.node);
  let y = 16 + status.height;
  const onTable = typeof ui.judge === "function"; // the live table (a step of the log has no zoom)
  if (onTable) {
    const again = () => ui.select(ui.selected);
    const choose = (which) => () => {
      zoom = which;
      again();
    };
    svg.append(
      tallButton(NX, y, 124, t("stackback.zoom_all"), "zoom-button", choose("all"), zoom === "all"),
      tallButton(NX + 132, y, 96, t("stackback.zoom_a"), "zoom-button", choose("A"), zoom === "A"),
      tallButton(NX + 236, y, 96, t("stackback.zoom_b"), "zoom-button", choose("B"), zoom === "B"),
    );
    y += 52;
  } else zoom = "all";
  const areaWidth = NW - 2 * NX;
  // Your supply is built first (at 0, moved under the area below): its height, with the hand's
  // buttons and the page above, is what the area must leave on the screen.
  const change = lastChange(view, ui);
  const mySeat = ui.seat !== null && ui.seat !== undefined && ui.seat >= 0 && ui.seat < s.supply.length;
  const mine = mySeat ? supplies(view, ui, NX + 4, 0, change, true, [ui.seat]) : null;
  const below = 6 + (mine ? 14 + mine.height - 22 : 0) + (ui.interactive ? HAND_ROWS : 0);
  const shown = capped(zoomView(bounds), areaWidth, screenLeft() - y - below);
  const [vx, vy] = px(shown[0], shown[3]);
  const [vw, vh] = [(shown[2] - shown[0]) * S, (shown[3] - shown[1]) * S];
  const k = areaWidth / vw; // CSS px per unit of the boards' drawing
  const areaHeight = vh * k;
  const area = el("svg", {
    class: "boards-area",
    x: NX,
    y,
    width: areaWidth,
    height: areaHeight,
    viewBox: `${vx} ${vy} ${vw} ${vh}`,
    overflow: "hidden",
  });
  const layer = el("g", { class: "boards-layer" });
  area.append(layer);
  // The margin's colour under the whole view (wider than the boards' area when capped).
  const [x0, y0, x1, y1] = [Math.min(bounds[0], shown[0]), bounds[1], Math.max(bounds[2], shown[2]), bounds[3]];
  const [ax, ay] = px(x0, y1);
  layer.append(el("rect", { x: ax, y: ay, width: (x1 - x0) * S, height: (y1 - y0) * S, fill: "#f4ecdf", stroke: "#b8a584" }));
  const label = 12.5 / k; // 12 px and a little on the screen
  BOARDS.forEach(([bx0, by0, bx1, by1], i) => {
    const [bx, by] = px(bx0, by1);
    layer.append(
      el("rect", { x: bx, y: by, width: (bx1 - bx0) * S, height: (by1 - by0) * S, fill: "#d9b98c", stroke: "#7a5a2e", "stroke-width": 2 }),
      text(bx + label, by + label, i === 0 ? "A" : "B", { "font-size": label, fill: "#5a3e1b" }),
    );
  });
  layer.append(sticks(view, ui, change, label, zoom === "all"));
  svg.append(area);
  y += areaHeight + 6;
  // Your supply right under the boards: the hand and the board stay in view together (zoomed too).
  let others = s.supply.map((_, p) => p);
  if (mine) {
    mine.g.classList.add("my-supply");
    mine.g.setAttribute("transform", `translate(0 ${y + 14})`);
    svg.append(mine.g);
    y += 14 + mine.height - 22; // the next row 8 px under the colours
    others = others.filter((p) => p !== ui.seat);
  }
  const seated = ui.seat !== null && ui.seat !== undefined && !view.terminal;
  if (ui.interactive) {
    const parts = ghostNode(t);
    parts.handle.setAttribute("r", 22 / k); // a 44 px handle
    parts.sign.setAttribute("font-size", 26 / k);
    parts.sign.setAttribute("stroke-width", 3 / k);
    layer.append(parts.ghost);
    const place = tallButton(NX, y, 90, t("stackback.hand_place"), "ghost-place", () => {
      if (handHere() && hand.verdict?.action === notation(shownPose())) drop();
    });
    const cancel = tallButton(NX + 96, y, 100, t("stackback.hand_put_back"), "ghost-cancel", putBack);
    const left = tallButton(NX + 202, y, 62, "⟲ 15°", "ghost-turn-left", () => turnBy(15));
    const right = tallButton(NX + 270, y, 62, "⟳ 15°", "ghost-turn-right", () => turnBy(-15));
    left.setAttribute("aria-label", t("stackback.hand_turn_left"));
    right.setAttribute("aria-label", t("stackback.hand_turn_right"));
    const previous = tallButton(NX, y + 50, 52, "◀", "ghost-previous", () => visitSpot(-1));
    const next = tallButton(NX + 174, y + 50, 52, "▶", "ghost-next", () => visitSpot(1));
    previous.setAttribute("aria-label", t("stackback.hand_previous"));
    next.setAttribute("aria-label", t("stackback.hand_next"));
    const spotText = text(NX + 113, y + 72, "", { "font-size": 12, class: "ghost-spot" });
    svg.append(place, cancel, left, right, previous, spotText, next);
    if (ui.legal.includes("pass")) {
      const pass = el(
        "g",
        { class: "pass-button" },
        el("rect", { x: NX + 236, y: y + 50, width: 96, height: 44, rx: 5, fill: "#fff", stroke: "#000", "stroke-width": 2 }),
        text(NX + 284, y + 72, t("stackback.pass_short"), { "font-size": 15, "font-weight": "bold" }),
      );
      svg.append(actionTarget(pass, "pass", t("stackback.pass"), ui));
    }
    const reason = el("text", { class: "ghost-reason", x: NX, y: y + 170, "font-size": 15, "aria-live": "polite" });
    svg.append(snapToggle(NX + 4, y + 122, t, true), reason);
    area.addEventListener("pointerdown", onAreaPointerDown);
    area.addEventListener("wheel", onWheel, { passive: false });
    if (hand && hand.step !== view.step) hand = null;
    if (!ui.selected && hand?.selected) hand = null; // the colour put back
    if (ui.selected && !(hand && hand.colour === ui.selected)) {
      const first = ui.legal.map(parsePose).find((p) => p && p.colour === ui.selected);
      const mid = [(shown[0] + shown[2]) / 2, (shown[1] + shown[3]) / 2];
      hand = { step: view.step, colour: ui.selected, verdict: null, asked: null, dropWanted: false, selected: true };
      Object.assign(hand, first ? { x: first.x, y: first.y, angle: first.angle, spot: 0 } : { x: mid[0], y: mid[1], angle: 0 });
    }
    live = { svg, area, layer, view, ui, reason, place, cancel, bounds: shown, ...parts };
    Object.assign(live, {
      handOnly: [left, right, previous, next, spotText],
      spotText,
      wrap: 36,
      handleReach: Math.max(10 * S, 26 / k),
    });
    drawHand();
    // Judged once the board is on the page (a pose of the bots' list is known legal at once).
    queueMicrotask(() => {
      if (handHere()) moved();
    });
    y += 170 + 4 * 19;
  } else if (seated) y += 170 + 4 * 19;
  y += 14;
  const supplyRows = supplies(view, ui, NX + 4, y, change, true, others);
  svg.append(supplyRows.g);
  y += supplyRows.height;
  const legend = headingLines(NX + 4, y, t("stackback.legend"), 36, 17);
  svg.append(legend.node);
  svg.setAttribute("viewBox", `0 0 ${NW} ${y + legend.height}`);
  return svg;
}

export function render(view, ui) {
  const { t } = ui;
  const s = view.state;
  for (const action of ui.legal) if (action !== "pass") ui.board.add(action);
  if (ui.narrow) return renderNarrow(view, ui, areaBounds(view));
  const [x0, y0, x1, y1] = areaBounds(view);
  const [ax, ay] = px(x0, y1);
  const [aw, ah] = [(x1 - x0) * S, (y1 - y0) * S];
  const width = Math.max(OX * 2 + 236 * S, aw);
  const top = 34;
  const svg = root(width, 1, t("stackback.board_label"));
  svg.setAttribute("style", "user-select:none;-webkit-user-select:none");
  svg.append(
    heading(
      OX,
      20,
      view.terminal
        ? t("stackback.status_over")
        : t(s.placed_this_turn === 1 ? "stackback.status_one" : "stackback.status", {
            player: ui.playerName(s.turn),
            placed: s.placed_this_turn,
          }),
      { "font-size": 13 },
    ),
  );
  // The boards' own area: what lies on them is drawn inside it and never over the words.
  const area = el("svg", {
    class: "boards-area",
    x: (width - aw) / 2,
    y: top,
    width: aw,
    height: ah,
    viewBox: `${ax} ${ay} ${aw} ${ah}`,
    overflow: "hidden",
  });
  const layer = el("g", { class: "boards-layer" });
  area.append(layer);
  layer.append(el("rect", { x: ax, y: ay, width: aw, height: ah, fill: "#f4ecdf", stroke: "#b8a584" }));
  BOARDS.forEach(([bx0, by0, bx1, by1], i) => {
    const [bx, by] = px(bx0, by1);
    layer.append(
      el("rect", { x: bx, y: by, width: (bx1 - bx0) * S, height: (by1 - by0) * S, fill: "#d9b98c", stroke: "#7a5a2e", "stroke-width": 2 }),
      text(bx + 14, by + 12, i === 0 ? "A" : "B", { "font-size": 12, fill: "#5a3e1b" }),
    );
  });
  const change = lastChange(view, ui);
  layer.append(sticks(view, ui, change));
  layer.append(candidates(view, ui));
  svg.append(area);
  let bottom = top + ah + 24;
  if (ui.interactive) {
    // The stick in hand: the ghost on the boards, and under them its verdict and what to do.
    const parts = ghostNode(t);
    layer.append(parts.ghost);
    const bandTop = top + ah + 6;
    const reason = el("text", { class: "ghost-reason", x: OX, y: bandTop + 50, "font-size": 16, "aria-live": "polite" });
    const place = bandButton(OX, bandTop + 6, 100, t("stackback.hand_place"), "ghost-place", () => {
      if (handHere() && hand.verdict?.action === notation(shownPose())) drop();
    });
    const cancel = bandButton(OX + 110, bandTop + 6, 110, t("stackback.hand_put_back"), "ghost-cancel", putBack);
    svg.append(place, cancel, snapToggle(OX + 240, bandTop + 19, t), reason);
    area.addEventListener("pointerdown", onAreaPointerDown);
    area.addEventListener("wheel", onWheel, { passive: false });
    if (hand && hand.step !== view.step) hand = null;
    live = { svg, area, layer, view, ui, reason, place, cancel, bounds: [x0, y0, x1, y1], ...parts };
    drawHand();
    if (handHere() && ghostFocused) window.requestAnimationFrame(() => live?.ghost.isConnected && live.ghost.focus());
  }
  // A seat keeps the room of the stick in hand on every turn: the supplies do not jump about.
  if (ui.interactive || (ui.seat !== null && ui.seat !== undefined && !view.terminal)) bottom = top + ah + 6 + BAND + 18;
  svg.append(supplies(view, ui, OX, bottom, change).g);
  svg.append(heading(OX, bottom + 112, t("stackback.legend"), { "font-size": 11 }));
  svg.setAttribute("viewBox", `0 0 ${width} ${bottom + 124}`);
  return svg;
}

/**
 * Sentences for what changed the game's course between `prev` and `view` (one step apart): a pass
 * (who; and after piles, how many), a stick that slipped, one more turn without a stick ending the
 * game, the end. `playerName` (optional) names a seat as the table does.
 */
export function announce(prev, view, t, playerName) {
  if (!prev?.state || !view?.state) return [];
  const name = namer(playerName, (p) => t("table.seat_name", { n: p + 1 }));
  const [s, before] = [view.state, prev.state];
  const out = [];
  if (s.sticks.length === before.sticks.length && view.step > prev.step) {
    const p = before.turn;
    const params = { player: name(p), count: before.placed_this_turn };
    if ((s.fumbles?.[p] ?? 0) > (before.fumbles?.[p] ?? 0)) out.push(t("stackback.announce_fumble", params));
    else if (before.placed_this_turn === 0) out.push(t("stackback.announce_pass", params));
    else if (before.placed_this_turn === 1) out.push(t("stackback.announce_pass_after_one", params));
    else out.push(t("stackback.announce_pass_after_other", params));
    if (!view.terminal && s.idle_turns > (before.idle_turns ?? 0) && s.idle_turns >= 1) {
      out.push(t("stackback.announce_idle"));
    }
  }
  if (view.terminal && !prev.terminal && view.outcome) {
    const winners = view.outcome.winners.map(name).join(", ");
    out.push(
      view.outcome.winners.length === 1
        ? t("stackback.announce_won_one", { players: winners })
        : t("stackback.announce_won_other", { players: winners }),
    );
  }
  return out;
}

export function describe(action, t) {
  if (action === "pass") return t("stackback.pass");
  return poseWords(action, t);
}
