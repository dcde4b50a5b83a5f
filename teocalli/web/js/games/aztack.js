// Aztack: the pyramid seen from above (every cell's top half, its level, the top stones' outlines),
// then a small map per level, then the hands. Select one of your stones, then press a highlighted
// place on the pyramid; after a bonus, press a stone of your hand to discard it.
// What the last step changed carries `data-last` (the stone placed, the hand that passed...), and
// cells and stones explain themselves in `data-tip` (their halves in words, where a stone fits).
import { actionTarget, el, root, selectTarget, text } from "../svg.js";
import { capital, counted, heading, headingLines, ink, mark, namer, tip } from "./common.js";

export const COLOURS = { G: "#2e8b57", O: "#f28c28", Y: "#a8a8a8", B: "#3b6fd8", R: "#8b1e3f" };
export const GLYPHS = { f: "✿", w: "≈", d: "Ψ", t: "▲" };
/** A cell of the pyramid: 56 px, 52 on a phone (six across a 340 px column); set by render. */
let CELL = 56;
const COLUMNS = "abcdef";
const TIP_PLACES = 6; // places named in a stone's tip before "and N more"

function cellXY(cell) {
  return [COLUMNS.indexOf(cell[0]), Number(cell[1]) - 1];
}

function cellName(i) {
  return `${COLUMNS[i % 6]}${Math.floor(i / 6) + 1}`;
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

/** Names seats as the table does when it says how, else "Seat N". */

/** Index in the pyramid of the stone whose half shows on each cell (the newest covering it). */
function topStones(s) {
  const topOf = new Map();
  s.pyramid.forEach((entry, index) => entry.cells.forEach((c) => topOf.set(c, index)));
  return topOf;
}

/** How halves a, b lying on halves x, y match: "cg" (a bonus), "c", "g" or null. */
function matchKind(a, b, x, y) {
  const colours = a[0] === x[0] && b[0] === y[0];
  const glyphs = a[1] === x[1] && b[1] === y[1];
  if (colours && glyphs) return "cg";
  if (colours) return "c";
  if (glyphs) return "g";
  return null;
}

/**
 * Every place `stone` fits on the pyramid as it stands (the rules' geometry: two adjacent cells of
 * one height on two different stones, both halves matching by colour or both by glyph), as
 * [{cells: "a1-b1", kinds: Set of "c" | "g" | "cg"}].
 */
export function fits(stone, s) {
  const topOf = topStones(s);
  const [a, b] = stone.split("/");
  const out = [];
  for (let i = 0; i < 24; i += 1) {
    const neighbours = [];
    if (i % 6 < 5) neighbours.push(i + 1);
    if (i < 18) neighbours.push(i + 6);
    for (const j of neighbours) {
      const [ci, cj] = [cellName(i), cellName(j)];
      if (s.heights[i] < 1 || s.heights[i] !== s.heights[j]) continue;
      if (topOf.get(ci) === topOf.get(cj)) continue;
      const kinds = new Set();
      for (const kind of [matchKind(a, b, s.tops[i], s.tops[j]), matchKind(b, a, s.tops[i], s.tops[j])]) {
        if (kind) kinds.add(kind);
      }
      if (kinds.size) out.push({ cells: `${ci}-${cj}`, kinds });
    }
  }
  return out;
}

function fitsWords(stone, s, t) {
  const places = fits(stone, s);
  if (!places.length) return t("aztack.tip_fits_none");
  const named = places.slice(0, TIP_PLACES).map(({ cells, kinds }) => {
    const how = ["cg", "c", "g"].filter((k) => kinds.has(k)).map((k) => t(`aztack.match.${k}`));
    return t("aztack.tip_place", { cells, how: how.join(", ") });
  });
  const more = places.length - named.length;
  const list = named.join("; ") + (more > 0 ? `; ${t("aztack.tip_more", { count: more })}` : "");
  return t("aztack.tip_fits", { places: list });
}

function stoneTip(stone, s, t) {
  return `${capital(t("aztack.tip_stone", { stone: stoneWords(stone, t), code: stone }))} ${fitsWords(stone, s, t)}`;
}

/** Where a placement notation puts its stone: {stone, cells: [c1, c2]} or null. */
function parsePlacement(notation) {
  const match = /^(\w\w\/\w\w)@(\w\d)-(\w\d)/.exec(notation ?? "");
  return match ? { stone: match[1], cells: [match[2], match[3]] } : null;
}

/**
 * What the last step changed: {placed: Set of pyramid indices, hands: Map player -> kind,
 * discarded: bool}. From the previous view when the table has it (any player's step, bots
 * included), else from the last log entry's notation; a caller that knows neither (the how-to
 * page) gets the newest placed stone.
 */
function lastChange(view, ui) {
  const s = view.state;
  const change = { placed: new Set(), hands: new Map(), discarded: false };
  const prev = ui.prev?.state;
  if (prev && Array.isArray(prev.pyramid)) {
    for (let i = prev.pyramid.length; i < s.pyramid.length; i += 1) change.placed.add(i);
    s.hands.forEach((hand, p) => {
      const before = prev.hands[p]?.length ?? hand.length;
      if (hand.length < before) change.hands.set(p, "placed");
    });
    if (s.discarded.length > prev.discarded.length) {
      change.discarded = true;
      for (const p of change.hands.keys()) {
        if (prev.bonus_pending.includes(p)) change.hands.set(p, "discarded");
      }
    }
    for (const p of prev.bonus_pending) {
      if (!s.bonus_pending.includes(p) && !change.hands.has(p)) change.hands.set(p, "kept");
    }
    const nothing = !change.placed.size && !change.discarded && !change.hands.size;
    if (nothing && prev.turn !== null && prev.turn !== undefined && view.step > ui.prev.step) {
      change.hands.set(prev.turn, "passed");
    }
    return change;
  }
  const log = ui.lastLog;
  if (Array.isArray(log) && log.length >= 2) {
    const [player, notation] = log;
    const placement = parsePlacement(notation);
    if (placement) {
      const want = [...placement.cells].sort().join();
      for (let i = s.pyramid.length - 1; i >= 12; i -= 1) {
        if ([...s.pyramid[i].cells].sort().join() === want) {
          change.placed.add(i);
          break;
        }
      }
      change.hands.set(player, "placed");
    } else if (notation.startsWith("discard ")) {
      change.discarded = true;
      change.hands.set(player, "discarded");
    } else if (notation === "keep") change.hands.set(player, "kept");
    else if (notation === "pass") change.hands.set(player, "passed");
    return change;
  }
  if (!("prev" in ui) && !("lastLog" in ui) && s.pyramid.length > 12) {
    change.placed.add(s.pyramid.length - 1);
  }
  return change;
}

function half(x, y, size, halfText, attrs = {}) {
  const fill = COLOURS[halfText[0]];
  // Never under 12 px of text (the board is drawn at 1:1 or larger on a phone).
  return el(
    "g",
    attrs,
    el("rect", { x, y, width: size, height: size, fill, stroke: "#222", "stroke-width": 1 }),
    text(x + size / 2, y + size / 2, `${halfText[0]}${GLYPHS[halfText[1]]}`, {
      fill: ink(fill),
      "font-size": Math.max(12, Math.round(size * 0.36)),
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

function pyramid(view, ui, ox, oy, change) {
  const { t } = ui;
  const s = view.state;
  const g = el("g", { class: "pyramid" });
  // On a phone the heading starts at the column's edge (it is as wide as the column).
  g.append(heading(ui.narrow ? 6 : ox, oy - 10, t("aztack.pyramid")));
  const topOf = topStones(s);
  const placedCells = new Map();
  for (const index of change.placed) {
    for (const c of s.pyramid[index].cells) placedCells.set(c, index);
  }
  for (let i = 0; i < 24; i += 1) {
    const x = ox + (i % 6) * CELL;
    const y = oy + Math.floor(i / 6) * CELL;
    const top = s.tops[i];
    const level = s.heights[i];
    const name = cellName(i);
    const entry = s.pyramid[topOf.get(name)];
    const cell = half(x, y, CELL, top, {
      class: "cell",
      "data-pyramid-cell": name,
      "aria-label": t("aztack.cell", { cell: name, level, half: halfWords(top, t) }),
    });
    const words = [capital(t("aztack.cell", { cell: name, level, half: halfWords(top, t) }))];
    if (entry) {
      words.push(t("aztack.tip_cell_stone", { stone: stoneWords(entry.stone, t), cells: entry.cells.join("-") }));
    }
    if (placedCells.has(name)) words.push(t("aztack.tip_last"));
    tip(cell, `${words.join(". ")}.`);
    mark(cell, placedCells.has(name) ? "placed" : null);
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
        "pointer-events": "none",
      }),
      text(x + CELL - 9, y + 9, String(level), { class: "level-badge", "font-size": 12, "pointer-events": "none" }),
    );
  }
  // Outline the stone that lies on top of each cell (the newest stone covering it); the stone the
  // last step placed gets a thick black-and-yellow rim.
  for (const index of new Set(topOf.values())) {
    const entry = s.pyramid[index];
    if (!entry.cells.every((c) => topOf.get(c) === index)) continue;
    const [[x1, y1], [x2, y2]] = entry.cells.map(cellXY);
    const last = change.placed.has(index);
    const box = {
      x: ox + Math.min(x1, x2) * CELL + 1,
      y: oy + Math.min(y1, y2) * CELL + 1,
      width: (Math.abs(x1 - x2) + 1) * CELL - 2,
      height: (Math.abs(y1 - y2) + 1) * CELL - 2,
      fill: "none",
      rx: 5,
      "pointer-events": "none",
    };
    if (last) {
      g.append(
        el("rect", { ...box, stroke: "#000", "stroke-width": 7, "data-last": "placed" }),
        el("rect", { ...box, stroke: "#ffd400", "stroke-width": 4, class: "last-move", "data-last": "placed" }),
      );
    } else {
      g.append(el("rect", { ...box, stroke: "#000", "stroke-width": 2.5 }));
    }
  }
  for (let x = 0; x < 6; x += 1) {
    g.append(text(ox + x * CELL + CELL / 2, oy + 4 * CELL + 12, COLUMNS[x], { "font-size": 12 }));
  }
  for (let y = 0; y < 4; y += 1) {
    g.append(text(ox - 10, oy + y * CELL + CELL / 2, String(y + 1), { "font-size": 12 }));
  }
  return g;
}

/**
 * Ghost stones over the pyramid for the selected stone's legal placements. Each placement is its own
 * target: the two orientations of a stone on one pair of cells split the pair's area in two (each
 * half shows the stone the way it would lie), so no press is ambiguous and each is 56 x 56.
 */
/** The open chooser: which cell's placements are offered as buttons ("step|stone|cell"). */
let chooser = null;

/** The selected stone's placements: [{action, stone, from, to, declared}], in a stable order. */
function placements(ui) {
  const out = [];
  for (const action of ui.legal) {
    const match = /^(\w\w\/\w\w)@(\w\d)-(\w\d)(=\w+)?$/.exec(action);
    if (!match || stoneKey(match[1]) !== ui.selected) continue;
    out.push({ action, stone: match[1], from: match[2], to: match[3], declared: match[4]?.slice(1) ?? null });
  }
  return out.sort((p, q) => (p.action < q.action ? -1 : p.action > q.action ? 1 : 0));
}

/** The words of one placement (the declared match, if any, said too). */
function placementWords(p, t) {
  const declared = p.declared ? ` (${t(`aztack.match.${p.declared}`)})` : "";
  return t("aztack.place", { stone: stoneWords(p.stone, t), from: p.from, to: p.to }) + declared;
}

/** A small stone as it would lie: two halves of `mini` px, left-right or top-bottom. */
function miniStone(p, cx, cy, mini) {
  const [a, b] = p.stone.split("/");
  const [x1, y1] = cellXY(p.from);
  const [x2, y2] = cellXY(p.to);
  const across = y1 === y2;
  // The half on the left (or top) cell first.
  const [h1, h2] = (across ? x1 < x2 : y1 < y2) ? [a, b] : [b, a];
  return across
    ? [half(cx - mini, cy - mini / 2, mini, h1), half(cx, cy - mini / 2, mini, h2)]
    : [half(cx - mini / 2, cy - mini, mini, h1), half(cx - mini / 2, cy, mini, h2)];
}

function chooserKey(view, ui, cell) {
  return `${view.step}|${ui.selected}|${cell}`;
}

/**
 * Where the selected stone may go, one target per cell, never overlapping: a cell only one
 * placement covers plays it when pressed (its small stone drawn as it would lie); a cell several
 * placements cover (orientations, neighbours, declared matches) opens a chooser of 44 px buttons,
 * one per placement (chooserPanel). Every placement is one distinct target.
 */
function targets(view, ui, ox, oy) {
  const g = el("g", { class: "targets" });
  const { t } = ui;
  const cover = new Map();
  for (const p of placements(ui)) {
    for (const cell of [p.from, p.to]) {
      if (!cover.has(cell)) cover.set(cell, []);
      cover.get(cell).push(p);
    }
  }
  for (const [cell, list] of cover) {
    const [cx0, cy0] = cellXY(cell);
    const box = { x: ox + cx0 * CELL + 2, y: oy + cy0 * CELL + 2, width: CELL - 4, height: CELL - 4 };
    const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2];
    const open = chooser === chooserKey(view, ui, cell);
    const frame = el("rect", {
      ...box,
      rx: 6,
      fill: list.length > 1 || open ? "rgba(255, 255, 255, 0.9)" : "rgba(255, 255, 255, 0.72)",
      stroke: "#000",
      "stroke-width": open ? 5 : 3,
    });
    if (list.length === 1) {
      const p = list[0];
      const node = el("g", { class: "ghost placement", "data-cell": cell }, frame, ...miniStone(p, cx, cy, CELL * 0.36));
      const label = placementWords(p, t);
      node.setAttribute("data-tip", label);
      g.append(actionTarget(node, p.action, label, ui, { forSelection: true }));
      continue;
    }
    // How many placements the cell's chooser offers, and a caret: open it (▾) or close it (▴).
    const count = text(cx, cy, `${list.length}× ${open ? "▴" : "▾"}`, { "font-size": 16, "font-weight": "bold" });
    const label = t(open ? "aztack.choose_close" : "aztack.choose_open", { cell, count: list.length });
    const node = el(
      "g",
      {
        class: "ghost chooser-cell",
        "data-choose": cell,
        tabindex: "0",
        role: "button",
        "aria-expanded": String(open),
        "aria-label": label,
        "data-tip": label,
      },
      frame,
      count,
    );
    const press = () => {
      chooser = open ? null : chooserKey(view, ui, cell);
      ui.select(ui.selected); // drawn again with (or without) the chooser
    };
    node.addEventListener("click", (event) => {
      event.preventDefault();
      press();
    });
    node.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        press();
      }
    });
    g.append(node);
  }
  return g;
}

/**
 * An outline over the two cells `p` would cover on the pyramid (origin `px`, `py`), hidden until
 * its chooser button is hovered, focused or touched: the choice is seen on the board, not only in
 * the button's words. A thick black frame with a white dashed one inside (a shape, not a colour).
 */
function previewOutline(p, px, py) {
  const [[x1, y1], [x2, y2]] = [p.from, p.to].map(cellXY);
  const box = {
    x: px + Math.min(x1, x2) * CELL + 3,
    y: py + Math.min(y1, y2) * CELL + 3,
    width: (Math.abs(x1 - x2) + 1) * CELL - 6,
    height: (Math.abs(y1 - y2) + 1) * CELL - 6,
    rx: 6,
    fill: "none",
  };
  return el(
    "g",
    { class: "chooser-preview", "data-preview-for": p.action, display: "none", "pointer-events": "none" },
    el("rect", { ...box, stroke: "#000", "stroke-width": 8 }),
    el("rect", { ...box, stroke: "#fff", "stroke-width": 3.5, "stroke-dasharray": "8 5" }),
  );
}

/** Show (or hide) a chooser placement on the pyramid: its outline, `data-preview` on its two
 * cells and `data-previewing` on its button (drawn with a solid frame). */
function showPreview(node, p, outline, on) {
  const svg = node.ownerSVGElement;
  if (!svg) return;
  for (const other of svg.querySelectorAll(".chooser-preview")) other.setAttribute("display", "none");
  for (const cell of svg.querySelectorAll(".cell[data-preview]")) cell.removeAttribute("data-preview");
  for (const button of svg.querySelectorAll("[data-previewing]")) button.removeAttribute("data-previewing");
  if (!on) return;
  node.setAttribute("data-previewing", "true");
  outline.setAttribute("display", "inline");
  for (const name of [p.from, p.to]) {
    svg.querySelector(`.cell[data-pyramid-cell="${name}"]`)?.setAttribute("data-preview", p.action);
  }
}

/** The open chooser under the pyramid: a heading and one 44 px button per placement over the
 * chosen cell (its small stone as it would lie, its cells, the declared match); hovering,
 * focusing or touching a button outlines its two cells on the pyramid (origin `px`, `py`).
 * {g, height}. */
function chooserPanel(view, ui, ox, oy, width, px = 24, py = 34) {
  const g = el("g", { class: "chooser" });
  if (!chooser || !ui.selected) return { g, height: 0 };
  const cell = chooser.split("|")[2];
  if (chooser !== chooserKey(view, ui, cell)) return { g, height: 0 };
  const { t } = ui;
  const list = placements(ui).filter((p) => p.from === cell || p.to === cell);
  if (list.length < 2) return { g, height: 0 };
  g.append(heading(ox, oy + 4, t("aztack.choose_title", { cell })));
  const outlines = el("g", { class: "chooser-previews" });
  let [x, y] = [ox, oy + 14];
  for (const p of list) {
    const words = `${p.from}–${p.to}${p.declared ? ` ${t(`aztack.match_short.${p.declared}`)}` : ""}`;
    const w = 52 + words.length * 7.5;
    if (x + w > ox + width) [x, y] = [ox, y + 50];
    const node = el(
      "g",
      { class: "ghost placement chooser-option" },
      el("rect", { x, y, width: w, height: 44, rx: 6, fill: "#fff", stroke: "#000", "stroke-width": 2 }),
      ...miniStone(p, x + 24, y + 22, 18),
      el("text", { x: x + 46, y: y + 22, "dominant-baseline": "central", "font-size": 13 }, words),
    );
    const label = placementWords(p, t);
    node.setAttribute("data-tip", label);
    const outline = previewOutline(p, px, py);
    outlines.append(outline);
    const show = (on) => () => showPreview(node, p, outline, on);
    node.addEventListener("focus", show(true));
    node.addEventListener("blur", show(false));
    node.addEventListener("pointerenter", show(true));
    node.addEventListener("pointerdown", show(true)); // a finger on it: seen before it lifts
    node.addEventListener("pointerleave", () => {
      if (document.activeElement !== node) showPreview(node, p, outline, false);
    });
    g.append(actionTarget(node, p.action, label, ui, { forSelection: true }));
    x += w + 6;
  }
  g.append(outlines); // over the pyramid and its targets
  return { g, height: y + 50 - oy };
}

function levels(view, ui, ox, oy, width = 330) {
  const { t } = ui;
  const g = el("g", { class: "levels" });
  const size = 18;
  const perLine = Math.max(1, Math.floor((width + 16) / (6 * size + 16)));
  const byLevel = new Map();
  for (const entry of view.state.pyramid) {
    if (!byLevel.has(entry.level)) byLevel.set(entry.level, []);
    byLevel.get(entry.level).push(entry);
  }
  let x = ox;
  let y = oy;
  let column = 0;
  for (const [level, entries] of [...byLevel.entries()].sort((p, q) => p[0] - q[0])) {
    if (column === perLine) {
      column = 0;
      x = ox;
      y += 4 * size + 28;
    }
    column += 1;
    g.append(heading(x, y - 6, t("aztack.level", { level }), { "font-size": 12 }));
    g.append(
      el("rect", { x, y: y, width: 6 * size, height: 4 * size, fill: "#f4efe4", stroke: "#999" }),
    );
    for (const entry of entries) {
      const [h1, h2] = entry.stone.split("/");
      entry.cells.forEach((c, i) => {
        const [cx, cy] = cellXY(c);
        const fill = COLOURS[(i === 0 ? h1 : h2)[0]];
        g.append(
          el("rect", {
            x: x + cx * size,
            y: y + cy * size,
            width: size,
            height: size,
            fill,
            stroke: "#000",
          }),
          text(x + cx * size + size / 2, y + cy * size + size / 2, (i === 0 ? h1 : h2)[0], {
            fill: ink(fill),
            "font-size": 12,
          }),
        );
      });
    }
    x += 6 * size + 16;
  }
  g.dataset.bottom = String(byLevel.size ? y + 4 * size : oy);
  return g;
}

function hands(view, ui, ox, oy, change) {
  const { t } = ui;
  const s = view.state;
  const g = el("g", { class: "hands" });
  const size = 30; // a stone 60 x 30, its hit area 66 x 44 (rows 44 apart)
  const perRow = ui.narrow ? 5 : 6;
  const placing = ui.legal.some((a) => a.includes("@"));
  let y = oy;
  s.hands.forEach((hand, player) => {
    const mine = player === ui.seat && !view.terminal; // no "press" hints once it is over
    const params = { player: ui.playerName(player), count: hand.length };
    const label = mine
      ? counted(t, hand.length, "aztack.your_hand_one", "aztack.your_hand", params)
      : counted(t, hand.length, "aztack.hand_of_one", "aztack.hand_of", params);
    // On a phone the label wraps to the column's width (it never runs off the board).
    const title = ui.narrow
      ? headingLines(ox, y - 6, label, 36, 17, { class: "svg-heading hand-label" })
      : { node: heading(ox, y - 6, label, { class: "svg-heading hand-label" }), height: 17 };
    g.append(mark(title.node, change.hands.get(player)));
    y += title.height - 17;
    const pitch = ui.narrow ? 2 * size + 6 : 2 * size + 10;
    hand.forEach((stone, i) => {
      const x = ox + (i % perRow) * pitch;
      const yy = y + Math.floor(i / perRow) * (size + 14);
      let node = domino(x, yy, size, stone);
      if (mine) {
        node.append(
          el("rect", { class: "hit", x: x - 3, y: yy - 7, width: 2 * size + 6, height: size + 14, fill: "transparent" }),
        );
      }
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
          } else if (placing) {
            // It fits nowhere now: dimmed and struck through (not colour alone).
            node.classList.add("cannot");
            node.append(
              el("line", { x1: x + 4, y1: yy + size - 4, x2: x + 2 * size - 4, y2: yy + 4, stroke: "#000", "stroke-width": 3, "stroke-linecap": "round" }),
            );
          }
        }
      }
      g.append(tip(node, stoneTip(stone, s, t)));
    });
    y += Math.max(1, Math.ceil(hand.length / perRow)) * (size + 14) + 26;
  });
  if (s.discarded.length) {
    const count = s.discarded.length;
    const words = counted(t, count, "aztack.discarded_one", "aztack.discarded", { count });
    const out = heading(ox, y - 6, words, { "font-size": 12 });
    tip(out, t("aztack.tip_discarded", { stones: s.discarded.map((st) => `${st} (${stoneWords(st, t)})`).join(", ") }));
    g.append(mark(out, change.discarded ? "discarded" : null));
    y += 6;
  }
  return { g, bottom: y };
}

export function render(view, ui) {
  const s = view.state;
  // Placements are reached on the board (select a stone, press a place), whatever is selected.
  for (const action of ui.legal) if (action.includes("@")) ui.board.add(action);
  const change = lastChange(view, ui);
  // A phone (ui.narrow): one column 340 wide, drawn 1:1: the pyramid, the hands, then the levels.
  const narrow = Boolean(ui.narrow);
  CELL = narrow ? 52 : 56;
  const width = narrow ? 340 : 720;
  const svg = root(width, 1, ui.t("aztack.board_label"));
  svg.append(pyramid(view, ui, 24, 34, change));
  if (ui.selected) svg.append(targets(view, ui, 24, 34));
  let bottom;
  const bonus = s.bonus_pending && s.bonus_pending.length
    ? ui.t("aztack.bonus_pending", { players: s.bonus_pending.map((p) => ui.playerName(p)).join(", ") })
    : null;
  // The chooser of the placements over one cell, right under the pyramid (the hands move down).
  const panel = chooserPanel(view, ui, narrow ? 8 : 24, 34 + 4 * CELL + 28, narrow ? width - 16 : 350, 24, 34);
  svg.append(panel.g);
  if (narrow) {
    let y = 34 + 4 * CELL + 50 + panel.height;
    if (bonus) {
      const lines = headingLines(8, y - 4, bonus, 36, 17);
      svg.append(lines.node);
      y += 7 + lines.height;
    }
    const handsPart = hands(view, ui, 8, y, change);
    svg.append(handsPart.g);
    const levelsPart = levels(view, ui, 8, handsPart.bottom + 16, width - 16);
    svg.append(levelsPart);
    bottom = Number(levelsPart.dataset.bottom) + 10;
  } else {
    svg.append(levels(view, ui, 390, 48));
    const handsPart = hands(view, ui, 24, 34 + 4 * CELL + 50 + panel.height, change);
    svg.append(handsPart.g);
    bottom = handsPart.bottom;
  }
  if (bonus && !narrow) svg.append(heading(390, 160, bonus));
  svg.setAttribute("viewBox", `0 0 ${width} ${bottom}`);
  return svg;
}

/**
 * Sentences for what changed the game's course between `prev` and `view` (one step apart): a
 * bonus (which stone, where, and that its placer may put a stone out), its discard or keep, a pass,
 * the end. `playerName` (optional) names a seat as the table does.
 */
export function announce(prev, view, t, playerName) {
  if (!prev?.state || !view?.state) return [];
  const name = namer(playerName, (p) => t("table.seat_name", { n: p + 1 }));
  const s = view.state;
  const before = prev.state;
  const out = [];
  const fresh = s.pyramid.slice(before.pyramid.length);
  for (const p of s.bonus_pending) {
    if (before.bonus_pending.includes(p)) continue;
    const entry = fresh.find((e) => {
      const [a, b] = e.stone.split("/");
      const under = e.cells.map((c) => {
        const [x, y] = cellXY(c);
        return before.tops[y * 6 + x];
      });
      return matchKind(a, b, under[0], under[1]) === "cg";
    }) ?? fresh[fresh.length - 1];
    out.push(
      t("aztack.announce_bonus", {
        player: name(p),
        stone: entry ? stoneWords(entry.stone, t) : "",
        cells: entry ? entry.cells.join("-") : "",
      }),
    );
  }
  for (const p of before.bonus_pending) {
    if (s.bonus_pending.includes(p)) continue;
    const gone = s.discarded.filter((st) => !before.discarded.includes(st));
    if (gone.length) {
      const stone = gone.map((st) => stoneWords(st, t)).join(", ");
      out.push(t("aztack.announce_discard", { player: name(p), stone }));
    } else if ((s.hands[p]?.length ?? 0) === (before.hands[p]?.length ?? 0)) {
      out.push(t("aztack.announce_keep", { player: name(p) }));
    }
  }
  const unchanged =
    !fresh.length && s.discarded.length === before.discarded.length && !out.length && !view.terminal;
  if (unchanged && before.turn !== null && before.turn !== undefined && view.step > prev.step) {
    out.push(t("aztack.announce_pass", { player: name(before.turn) }));
  }
  if (view.terminal && !prev.terminal && view.outcome) {
    const winners = view.outcome.winners.map(name).join(", ");
    out.push(
      view.outcome.winners.length === 1
        ? t("aztack.announce_won_one", { players: winners })
        : t("aztack.announce_won_other", { players: winners }),
    );
  }
  return out;
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
