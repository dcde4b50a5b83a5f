// Stack Back: both boards seen from above, every stick drawn where it lies and shaded by its
// level (darker = higher, with the level number on it). Select a colour of your supply, then press
// one of the marks: each is a place the stick may go (its centre, a tick along its direction);
// hovering or focusing a mark shows the stick there.
import { actionTarget, el, root, selectTarget, text } from "../svg.js";
import { heading, ink } from "./common.js";

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

function sticks(view, ui) {
  const { t } = ui;
  const g = el("g", { class: "sticks" });
  const list = view.state.sticks.map((s, i) => ({ ...s, i, pose: parsePose(s.pose) }));
  list.sort((a, b) => a.level - b.level || a.i - b.i);
  for (const stick of list) {
    if (!stick.pose) continue;
    const fill = FILL[stick.pose.colour];
    const [cx, cy] = px(stick.pose.x, stick.pose.y);
    const label = t("stackback.stick", {
      colour: colourWords(stick.pose.colour, t),
      level: stick.level,
      player: ui.playerName(stick.owner),
    });
    const group = el(
      "g",
      { class: "stick", "aria-label": label, role: "img" },
      el("title", {}, label),
      stickShape(stick.pose, { fill, stroke: "#000", "stroke-width": 1 + stick.level }),
      // Shade by level: each level darkens the stick a little more.
      stickShape(stick.pose, { fill: "#000", opacity: Math.min(0.14 * stick.level, 0.6) }),
      text(cx, cy, `${stick.pose.colour}${stick.level}${stick.owner === 0 ? "●" : "■"}`, {
        fill: stick.level >= 2 ? "#fff" : ink(fill),
        "font-size": 10,
        "font-weight": "bold",
      }),
    );
    g.append(group);
  }
  return g;
}

function candidates(view, ui) {
  const { t } = ui;
  const g = el("g", { class: "candidates" });
  if (!ui.selected) return g;
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

function supplies(view, ui, ox, oy) {
  const { t } = ui;
  const s = view.state;
  const g = el("g", { class: "supply" });
  s.supply.forEach((supply, p) => {
    const mine = p === ui.seat;
    const y = oy + p * 52;
    g.append(heading(ox, y, t(mine ? "stackback.your_supply" : "stackback.supply_of", { player: ui.playerName(p) })));
    ["Y", "M", "G"].forEach((c, i) => {
      const x = ox + i * 120;
      const fill = FILL[c];
      let node = el(
        "g",
        { class: "supply-colour" },
        el("rect", { x, y: y + 8, width: LENGTH[c] * 1.4, height: 22, rx: 3, fill, stroke: "#000" }),
        text(x + (LENGTH[c] * 1.4) / 2, y + 19, `${c} × ${supply[c] ?? 0}`, { fill: ink(fill), "font-size": 12, "font-weight": "bold" }),
      );
      if (mine && ui.legal.some((a) => a.startsWith(c))) {
        node = selectTarget(node, c, t("stackback.select", { colour: colourWords(c, t), count: supply[c] }), ui);
      }
      g.append(node);
    });
  });
  return g;
}

export function render(view, ui) {
  const { t } = ui;
  const s = view.state;
  for (const action of ui.legal) if (action !== "pass") ui.board.add(action);
  const width = OX * 2 + 236 * S;
  const svg = root(width, 1, t("stackback.board_label"));
  svg.append(
    heading(OX, 20, t("stackback.status", { player: ui.playerName(s.turn), placed: s.placed_this_turn }), { "font-size": 13 }),
  );
  BOARDS.forEach(([x0, y0, x1, y1], i) => {
    const [ax, ay] = px(x0, y1);
    svg.append(
      el("rect", { x: ax, y: ay, width: (x1 - x0) * S, height: (y1 - y0) * S, fill: "#d9b98c", stroke: "#7a5a2e", "stroke-width": 2 }),
      text(ax + 14, ay + 12, i === 0 ? "A" : "B", { "font-size": 12, fill: "#5a3e1b" }),
    );
  });
  svg.append(sticks(view, ui));
  svg.append(candidates(view, ui));
  const bottom = OY + 100 * S + 24;
  svg.append(supplies(view, ui, OX, bottom));
  svg.append(heading(OX, bottom + 112, t("stackback.legend"), { "font-size": 11 }));
  svg.setAttribute("viewBox", `0 0 ${width} ${bottom + 124}`);
  return svg;
}

export function describe(action, t) {
  if (action === "pass") return t("stackback.pass");
  return poseWords(action, t);
}
