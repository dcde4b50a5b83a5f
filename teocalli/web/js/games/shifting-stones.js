// Shifting Stones: the 3 x 3 grid of tiles, your hand of pattern cards, the discard, scored cards.
// Select a card of your hand to pay with, then press a tile to flip it or a ⇄ handle between two
// tiles to swap them; press ★ on a card that matches the grid now to score it.
import { actionTarget, el, root, selectTarget, text } from "../svg.js";
import { chip, heading } from "./common.js";

const DATA = await (await fetch("/static/data/shifting-stones-cards.json")).json();
const CARDS = new Map(DATA.cards.map((c) => [c.id, c]));
const FILL = {
  Su: "#f2c200",
  Mo: "#222222",
  Fi: "#f07f1a",
  Bi: "#c8102e",
  Ho: "#7b3fa0",
  Bo: "#19a7a7",
  Se: "#efe3c2",
  Tr: "#2e7d32",
};
const CELL = 80;

function symbolWords(symbol, t) {
  return t(`shifting.symbols.${symbol}`);
}

function grid(view) {
  return view.state.grid.split("/").flatMap((row) => row.trim().split(/\s+/));
}

function cardWords(id, t) {
  const card = CARDS.get(id);
  return t("shifting.card", { id, points: card ? card.points : "?" });
}

/** A pattern card: its block of symbols (grey where anything goes) and its points. */
export function card(x, y, id, scale = 1, attrs = {}) {
  const info = CARDS.get(id);
  const w = 78 * scale;
  const h = 104 * scale;
  const g = el(
    "g",
    { class: "card", ...attrs },
    el("rect", { x, y, width: w, height: h, rx: 6 * scale, fill: "#fffdf5", stroke: "#333" }),
  );
  if (!info) return g;
  const rows = info.pattern.split("/").map((r) => r.trim().split(/\s+/));
  const cell = 22 * scale;
  const left = x + (w - 3 * cell) / 2;
  const top = y + 8 * scale;
  for (let r = 0; r < 3; r += 1) {
    for (let c = 0; c < 3; c += 1) {
      const symbol = rows[r]?.[c];
      if (symbol && symbol !== "..") {
        g.append(chip(left + c * cell, top + r * cell, cell - 2, FILL[symbol], symbol));
      } else {
        g.append(
          el("rect", {
            x: left + c * cell,
            y: top + r * cell,
            width: cell - 2,
            height: cell - 2,
            fill: r < rows.length && c < rows[0].length ? "#c9c9c9" : "none",
            stroke: r < rows.length && c < rows[0].length ? "#999" : "none",
          }),
        );
      }
    }
  }
  g.append(
    text(x + w / 2, y + h - 14 * scale, `#${id} · ${info.points}★`, { "font-size": 12 * scale }),
  );
  return g;
}

function board(view, ui, ox, oy) {
  const { t } = ui;
  const cells = grid(view);
  const g = el("g", { class: "grid" });
  g.append(heading(ox, oy - 10, t("shifting.grid")));
  cells.forEach((symbol, i) => {
    const x = ox + (i % 3) * CELL;
    const y = oy + Math.floor(i / 3) * CELL;
    let node = el(
      "g",
      { class: "cell" },
      chip(x + 3, y + 3, CELL - 6, FILL[symbol], symbol),
      text(x + 12, y + CELL - 12, String(i + 1), { "font-size": 11, class: "level-badge" }),
    );
    const flip = ui.selected ? `flip ${ui.selected} ${i + 1}` : null;
    if (flip && ui.legal.includes(flip)) {
      node = actionTarget(
        node,
        flip,
        t("shifting.flip", { cell: i + 1, symbol: symbolWords(symbol, t), card: ui.selected }),
        ui,
        { forSelection: true },
      );
    }
    g.append(node);
  });
  // Handles between neighbours, drawn last so they sit on top of the tiles.
  if (ui.selected) {
    const pairs = [];
    for (let i = 0; i < 9; i += 1) {
      if (i % 3 < 2) pairs.push([i, i + 1]);
      if (i < 6) pairs.push([i, i + 3]);
    }
    for (const [p, q] of pairs) {
      const action = `shift ${ui.selected} ${p + 1}-${q + 1}`;
      if (!ui.legal.includes(action)) continue;
      const cx = ox + (((p % 3) + (q % 3)) / 2) * CELL + CELL / 2;
      const cy = oy + ((Math.floor(p / 3) + Math.floor(q / 3)) / 2) * CELL + CELL / 2;
      const handle = el(
        "g",
        { class: "handle" },
        el("circle", { cx, cy, r: 13, fill: "#fff", stroke: "#000", "stroke-width": 2 }),
        text(cx, cy, q - p === 1 ? "⇄" : "⇅", { "font-size": 16, "font-weight": "bold" }),
      );
      g.append(
        actionTarget(handle, action, t("shifting.shift", { from: p + 1, to: q + 1, card: ui.selected }), ui, {
          forSelection: true,
        }),
      );
    }
  }
  return g;
}

function hand(view, ui, ox, oy) {
  const { t } = ui;
  const s = view.state;
  const g = el("g", { class: "hand" });
  if (!s.hand) return g;
  g.append(heading(ox, oy - 8, t("shifting.your_hand", { count: s.hand.length })));
  s.hand.forEach((id, i) => {
    const x = ox + i * 88;
    let node = card(x, oy, id);
    const paying = ui.legal.some((a) => a.startsWith(`shift ${id} `) || a.startsWith(`flip ${id} `));
    if (paying) node = selectTarget(node, String(id), t("shifting.select", { card: cardWords(id, t) }), ui);
    g.append(node);
    const score = `score ${id}`;
    ui.board.add(score);
    if (ui.legal.includes(score)) {
      const badge = el(
        "g",
        { class: "score-badge" },
        el("circle", { cx: x + 70, cy: oy + 8, r: 14, fill: "#ffd400", stroke: "#000", "stroke-width": 2 }),
        text(x + 70, oy + 8, "★", { "font-size": 16 }),
      );
      g.append(actionTarget(badge, score, t("shifting.score", { card: cardWords(id, t) }), ui));
    }
  });
  return g;
}

function table(view, ui, ox, oy) {
  const { t } = ui;
  const s = view.state;
  const g = el("g", { class: "info" });
  g.append(heading(ox, oy, t("shifting.deck", { count: s.deck })));
  if (s.discard.length) {
    g.append(heading(ox, oy + 24, t("shifting.discard_top")));
    g.append(card(ox, oy + 32, s.discard[s.discard.length - 1], 0.8));
  }
  let y = oy + 140;
  s.points.forEach((points, p) => {
    const size = s.hand_sizes[p];
    g.append(
      heading(ox, y, t("shifting.player_line", { player: ui.playerName(p), points, cards: size, scored: s.scored[p].length }), {
        "font-size": 13,
      }),
    );
    y += 20;
  });
  if (s.strikes !== undefined) g.append(heading(ox, y, t("shifting.strikes", { strikes: s.strikes })));
  if (s.hands) {
    // The end: every hand is shown.
    s.hands.forEach((cards, p) => {
      y += 22;
      g.append(heading(ox, y, t("shifting.hand_of", { player: ui.playerName(p), cards: cards.join(", ") }), { "font-size": 12 }));
    });
  }
  return g;
}

export function render(view, ui) {
  for (const action of ui.legal) if (!["end", "skip"].includes(action)) ui.board.add(action);
  const svg = root(800, 420, ui.t("shifting.board_label"));
  svg.append(board(view, ui, 20, 40));
  svg.append(table(view, ui, 300, 30));
  svg.append(hand(view, ui, 20, 300));
  return svg;
}

export function describe(action, t) {
  const parts = action.split(" ");
  if (action === "end") return t("shifting.end");
  if (action === "skip") return t("shifting.skip");
  if (parts[0] === "score") return t("shifting.score", { card: cardWords(Number(parts[1]), t) });
  if (parts[0] === "flip") return t("shifting.flip", { cell: parts[2], symbol: "", card: parts[1] });
  if (parts[0] === "shift") {
    const [from, to] = parts[2].split("-");
    return t("shifting.shift", { from, to, card: parts[1] });
  }
  return action;
}
