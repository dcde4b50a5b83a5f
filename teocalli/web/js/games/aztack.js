// Aztack: the pyramid seen from above (every cell's top half, its level, the top stones' outlines),
// then a small map per level, then the hands. Select one of your stones, then press a highlighted
// place on the pyramid; after a bonus, press a stone of your hand to discard it.
import { actionTarget, el, root, selectTarget, text } from "../svg.js";
import { heading, ink } from "./common.js";

export const COLOURS = { G: "#2e8b57", O: "#f28c28", Y: "#a8a8a8", B: "#3b6fd8", R: "#8b1e3f" };
export const GLYPHS = { f: "✿", w: "≈", d: "Ψ", t: "▲" };
const CELL = 56;
const COLUMNS = "abcdef";

function cellXY(cell) {
  return [COLUMNS.indexOf(cell[0]), Number(cell[1]) - 1];
}

/** Words for a half such as "Gf": "green flower". */
function halfWords(half, t) {
  return `${t(`aztack.colours.${half[0]}`)} ${t(`aztack.glyphs.${half[1]}`)}`;
}

function stoneWords(stone, t) {
  const [a, b] = stone.split("/");
  return `${halfWords(a, t)} / ${halfWords(b, t)}`;
}

/** The same stone whichever way round it is written. */
function stoneKey(stone) {
  return stone.split("/").sort().join("/");
}

function half(x, y, size, halfText, attrs = {}) {
  const fill = COLOURS[halfText[0]];
  return el(
    "g",
    attrs,
    el("rect", { x, y, width: size, height: size, fill, stroke: "#222", "stroke-width": 1 }),
    text(x + size / 2, y + size / 2, `${halfText[0]}${GLYPHS[halfText[1]]}`, {
      fill: ink(fill),
      "font-size": Math.round(size * 0.36),
      "font-weight": "bold",
    }),
  );
}

/** A stone drawn horizontally at (x, y), each half `size` wide. */
function domino(x, y, size, stone, attrs = {}) {
  const [a, b] = stone.split("/");
  return el(
    "g",
    { class: "stone", ...attrs },
    half(x, y, size, a),
    half(x + size, y, size, b),
    el("rect", {
      x,
      y,
      width: 2 * size,
      height: size,
      fill: "none",
      stroke: "#000",
      "stroke-width": 2,
      rx: 3,
    }),
  );
}

function pyramid(view, ui, ox, oy) {
  const { t } = ui;
  const s = view.state;
  const g = el("g", { class: "pyramid" });
  g.append(heading(ox, oy - 10, t("aztack.pyramid")));
  for (let i = 0; i < 24; i += 1) {
    const x = ox + (i % 6) * CELL;
    const y = oy + Math.floor(i / 6) * CELL;
    const top = s.tops[i];
    const level = s.heights[i];
    const cellName = `${COLUMNS[i % 6]}${Math.floor(i / 6) + 1}`;
    const cell = half(x, y, CELL, top, {
      "aria-label": t("aztack.cell", { cell: cellName, level, half: halfWords(top, t) }),
    });
    g.append(cell);
    // The level: a number in the corner and a darker rim the higher the cell stands.
    g.append(
      el("rect", {
        x: x + 2,
        y: y + 2,
        width: CELL - 4,
        height: CELL - 4,
        fill: "none",
        stroke: "#000",
        "stroke-opacity": Math.min(0.15 * level, 0.9),
        "stroke-width": 2 * level,
      }),
      text(x + CELL - 9, y + 9, String(level), { class: "level-badge", "font-size": 11 }),
    );
  }
  // Outline the stone that lies on top of each cell (the newest stone covering it).
  const topOf = new Map();
  s.pyramid.forEach((entry, index) => entry.cells.forEach((c) => topOf.set(c, index)));
  for (const index of new Set(topOf.values())) {
    const entry = s.pyramid[index];
    if (!entry.cells.every((c) => topOf.get(c) === index)) continue;
    const [[x1, y1], [x2, y2]] = entry.cells.map(cellXY);
    // The newest stone, once a player has placed one (the first 12 are the base).
    const last = s.pyramid.length > 12 && index === s.pyramid.length - 1;
    g.append(
      el("rect", {
        x: ox + Math.min(x1, x2) * CELL + 1,
        y: oy + Math.min(y1, y2) * CELL + 1,
        width: (Math.abs(x1 - x2) + 1) * CELL - 2,
        height: (Math.abs(y1 - y2) + 1) * CELL - 2,
        fill: "none",
        stroke: last ? "#ffd400" : "#000",
        "stroke-width": last ? 4 : 2.5,
        rx: 5,
        class: last ? "last-move" : null,
      }),
    );
  }
  for (let x = 0; x < 6; x += 1) {
    g.append(text(ox + x * CELL + CELL / 2, oy + 4 * CELL + 12, COLUMNS[x], { "font-size": 12 }));
  }
  for (let y = 0; y < 4; y += 1) {
    g.append(text(ox - 10, oy + y * CELL + CELL / 2, String(y + 1), { "font-size": 12 }));
  }
  return g;
}

/** Ghost stones over the pyramid for the selected stone's legal placements. */
function targets(view, ui, ox, oy) {
  const g = el("g", { class: "targets" });
  const byCells = new Map();
  for (const action of ui.legal) {
    const match = /^(\w\w\/\w\w)@(\w\d)-(\w\d)(=\w+)?$/.exec(action);
    if (!match || stoneKey(match[1]) !== ui.selected) continue;
    const cells = `${match[2]}-${match[3]}`;
    if (!byCells.has(cells)) byCells.set(cells, []);
    byCells.get(cells).push(match);
  }
  for (const group of byCells.values()) {
    group.forEach((match, k) => {
      const [action, stone, c1, c2] = match;
      const [x1, y1] = cellXY(c1);
      const [x2, y2] = cellXY(c2);
      const inset = 6 + k * 10;
      const size = CELL - 2 * inset;
      const [a, b] = stone.split("/");
      const left = ox + Math.min(x1, x2) * CELL + inset;
      const top = oy + Math.min(y1, y2) * CELL + inset;
      const node = el(
        "g",
        { class: "ghost" },
        // The whole domino's area answers the pointer, gap between the halves included.
        el("rect", {
          x: left,
          y: top,
          width: (Math.abs(x1 - x2) + 1) * CELL - 2 * inset,
          height: (Math.abs(y1 - y2) + 1) * CELL - 2 * inset,
          fill: "transparent",
          stroke: "#000",
          "stroke-width": 3,
        }),
        half(ox + x1 * CELL + inset, oy + y1 * CELL + inset, size, a),
        half(ox + x2 * CELL + inset, oy + y2 * CELL + inset, size, b),
      );
      const label = ui.t("aztack.place", { stone: stoneWords(stone, ui.t), from: c1, to: c2 });
      g.append(actionTarget(node, action, label, ui, { forSelection: true }));
    });
  }
  return g;
}

function levels(view, ui, ox, oy) {
  const { t } = ui;
  const g = el("g", { class: "levels" });
  const size = 14;
  const byLevel = new Map();
  for (const entry of view.state.pyramid) {
    if (!byLevel.has(entry.level)) byLevel.set(entry.level, []);
    byLevel.get(entry.level).push(entry);
  }
  let x = ox;
  for (const [level, entries] of [...byLevel.entries()].sort((p, q) => p[0] - q[0])) {
    g.append(heading(x, oy - 6, t("aztack.level", { level }), { "font-size": 12 }));
    g.append(
      el("rect", { x, y: oy, width: 6 * size, height: 4 * size, fill: "#f4efe4", stroke: "#999" }),
    );
    for (const entry of entries) {
      const [h1, h2] = entry.stone.split("/");
      entry.cells.forEach((c, i) => {
        const [cx, cy] = cellXY(c);
        const fill = COLOURS[(i === 0 ? h1 : h2)[0]];
        g.append(
          el("rect", {
            x: x + cx * size,
            y: oy + cy * size,
            width: size,
            height: size,
            fill,
            stroke: "#000",
          }),
          text(x + cx * size + size / 2, oy + cy * size + size / 2, (i === 0 ? h1 : h2)[0], {
            fill: ink(fill),
            "font-size": 9,
          }),
        );
      });
    }
    x += 6 * size + 16;
  }
  return g;
}

function hands(view, ui, ox, oy) {
  const { t } = ui;
  const s = view.state;
  const g = el("g", { class: "hands" });
  const size = 26;
  const perRow = 6;
  let y = oy;
  s.hands.forEach((hand, player) => {
    const mine = player === ui.seat;
    const label = mine
      ? t("aztack.your_hand", { count: hand.length })
      : t("aztack.hand_of", { player: ui.playerName(player), count: hand.length });
    g.append(heading(ox, y - 6, label));
    hand.forEach((stone, i) => {
      const x = ox + (i % perRow) * (2 * size + 10);
      const yy = y + Math.floor(i / perRow) * (size + 10);
      let node = domino(x, yy, size, stone);
      if (mine) {
        const discard = `discard ${stone}`;
        const key = stoneKey(stone);
        if (ui.legal.includes(discard)) {
          node = actionTarget(node, discard, t("aztack.discard", { stone: stoneWords(stone, t) }), ui);
        } else {
          ui.board.add(discard);
          const canPlace = ui.legal.some((a) => a.includes("@") && stoneKey(a.split("@")[0]) === key);
          if (canPlace) {
            node = selectTarget(node, key, t("aztack.select", { stone: stoneWords(stone, t) }), ui);
          }
        }
      }
      g.append(node);
    });
    y += Math.max(1, Math.ceil(hand.length / perRow)) * (size + 10) + 26;
  });
  if (s.discarded.length) {
    g.append(
      heading(ox, y - 6, t("aztack.discarded", { count: s.discarded.length }), { "font-size": 12 }),
    );
    y += 6;
  }
  return { g, bottom: y };
}

export function render(view, ui) {
  const s = view.state;
  // Placements are reached on the board (select a stone, press a place), whatever is selected.
  for (const action of ui.legal) if (action.includes("@")) ui.board.add(action);
  const svg = root(720, 1, ui.t("aztack.board_label"));
  svg.append(pyramid(view, ui, 24, 34));
  if (ui.selected) svg.append(targets(view, ui, 24, 34));
  svg.append(levels(view, ui, 390, 48));
  const handsPart = hands(view, ui, 24, 34 + 4 * CELL + 50);
  svg.append(handsPart.g);
  if (s.bonus_pending && s.bonus_pending.length) {
    const names = s.bonus_pending.map((p) => ui.playerName(p)).join(", ");
    svg.append(heading(390, 160, ui.t("aztack.bonus_pending", { players: names })));
  }
  svg.setAttribute("viewBox", `0 0 720 ${handsPart.bottom}`);
  return svg;
}

/** Words for an action in the move list and the buttons beside the board. */
export function describe(action, t) {
  if (action === "pass") return t("aztack.pass");
  if (action === "keep") return t("aztack.keep");
  if (action.startsWith("discard ")) {
    return t("aztack.discard", { stone: stoneWords(action.slice(8), t) });
  }
  const match = /^(\w\w\/\w\w)@(\w\d)-(\w\d)/.exec(action);
  if (match) return t("aztack.place", { stone: stoneWords(match[1], t), from: match[2], to: match[3] });
  return action;
}

