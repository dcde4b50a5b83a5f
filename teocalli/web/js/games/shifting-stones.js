// Shifting Stones: the 3 x 3 grid of tiles, your hand of pattern cards, the discard, every
// player's scored cards. Select a card of your hand to pay with, then press a tile to flip it or
// a ⇄ handle between two tiles to swap them; press ★ on a card that matches the grid now to score
// it. Every symbol is a picture (a sun, a crescent, a fish...) on its colour, so colour is never
// the only cue; every piece explains itself in `data-tip`, and what the last step changed carries
// `data-last`.
import { actionTarget, el, root, selectTarget, text } from "../svg.js";
import { heading, headingLines, ink, mark, namer, tip } from "./common.js";

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
/** Each symbol's other face: what a flip turns a tile into. */
const OTHER = Object.fromEntries(
  DATA.tiles.flatMap(({ faces: [a, b] }) => [
    [a, b],
    [b, a],
  ]),
);
/** Cards scored to trigger the end, by number of players (solo: the whole deck). */
const TRIGGER = { 2: 10, 3: 9, 4: 8, 5: 7 };
/** A grid cell: 80 px, 104 on a phone (the grid uses the column's width); set by render. */
let CELL = 80;
const SOLO_STRIKES = 4;

/** `one` or `other` catalogue key by count (English plurals: 1 is singular, all else plural). */
function plural(t, one, other, count, params = {}) {
  return t(count === 1 ? one : other, { count, ...params });
}

function pointsWords(points, t) {
  return plural(t, "shifting.points_one", "shifting.points_other", points);
}

function symbolWords(symbol, t) {
  return t(`shifting.symbols.${symbol}`);
}

function grid(view) {
  return view.state.grid.split("/").flatMap((row) => row.trim().split(/\s+/));
}

function cardWords(id, t) {
  const card = CARDS.get(id);
  return card ? t("shifting.card_points", { id, points: pointsWords(card.points, t) }) : t("shifting.card", { id, points: "?" });
}

/** The pattern a card asks for, in words: rows top to bottom, grey squares as "any tile". */
function patternWords(info, t) {
  const rows = info.pattern.split("/").map((r) => r.trim().split(/\s+/));
  const said = rows.map((row) =>
    row.map((s) => (s === ".." ? t("shifting.any_tile") : symbolWords(s, t))).join(", "),
  );
  if (rows.length === 1) return t("shifting.pattern_row", { symbols: said[0] });
  if (rows[0].length === 1) return t("shifting.pattern_column", { symbols: said.join(", ") });
  return t("shifting.pattern_block", { height: rows.length, width: rows[0].length, rows: said.join(" / ") });
}

/** A card's tooltip: its id, its points and its pattern in words. */
function cardTip(id, t) {
  const info = CARDS.get(id);
  if (!info) return cardWords(id, t);
  return t("shifting.tip_card", { id, points: pointsWords(info.points, t), pattern: patternWords(info, t) });
}

// --- the symbols as pictures, drawn in a 100 x 100 box ----------------------------------------
function icon(symbol, x, y, size, fill, back) {
  const c = fill;
  const shapes = [];
  switch (symbol) {
    case "Su":
      shapes.push(el("circle", { cx: 50, cy: 50, r: 19, fill: c }));
      for (let i = 0; i < 8; i += 1) {
        const a = (Math.PI / 4) * i;
        shapes.push(
          el("line", {
            x1: 50 + 27 * Math.cos(a),
            y1: 50 + 27 * Math.sin(a),
            x2: 50 + 41 * Math.cos(a),
            y2: 50 + 41 * Math.sin(a),
            stroke: c,
            "stroke-width": 7,
            "stroke-linecap": "round",
          }),
        );
      }
      break;
    case "Mo":
      shapes.push(el("path", { d: "M62 12 A38 38 0 1 0 62 88 A42 42 0 0 1 62 12 Z", fill: c }));
      break;
    case "Fi":
      shapes.push(
        el("path", { d: "M10 50 Q38 20 66 50 Q38 80 10 50 Z", fill: c }),
        el("path", { d: "M62 50 L90 28 L90 72 Z", fill: c }),
        el("circle", { cx: 26, cy: 46, r: 5, fill: back }),
      );
      break;
    case "Bi":
      shapes.push(el("path", { d: "M6 40 Q28 18 50 46 Q72 18 94 40 Q72 34 50 70 Q28 34 6 40 Z", fill: c }));
      break;
    case "Ho":
      // A horseshoe, open end down.
      shapes.push(
        el("path", {
          d: "M27 88 L27 48 A23 23 0 0 1 73 48 L73 88",
          fill: "none",
          stroke: c,
          "stroke-width": 14,
        }),
        el("circle", { cx: 27, cy: 62, r: 3.5, fill: back }),
        el("circle", { cx: 73, cy: 62, r: 3.5, fill: back }),
      );
      break;
    case "Bo":
      shapes.push(
        el("path", { d: "M8 62 L92 62 L76 84 L24 84 Z", fill: c }),
        el("line", { x1: 50, y1: 10, x2: 50, y2: 62, stroke: c, "stroke-width": 5 }),
        el("path", { d: "M55 12 L55 56 L84 56 Z", fill: c }),
        el("path", { d: "M45 22 L45 56 L22 56 Z", fill: c }),
      );
      break;
    case "Se":
      shapes.push(
        el("path", { d: "M50 10 Q86 50 50 90 Q14 50 50 10 Z", fill: c }),
        el("path", { d: "M50 24 L50 76", stroke: back, "stroke-width": 5, "stroke-linecap": "round" }),
      );
      break;
    case "Tr":
      shapes.push(
        el("rect", { x: 42, y: 58, width: 16, height: 32, fill: c }),
        el("path", { d: "M50 8 L86 64 L14 64 Z", fill: c }),
      );
      break;
    default:
      break;
  }
  return el("g", { transform: `translate(${x} ${y}) scale(${size / 100})`, class: `symbol symbol-${symbol}` }, shapes);
}

/** A stone tile: its colour, its picture, and (when `letters`) its two letters in a corner. */
function stone(x, y, size, symbol, { letters = false, attrs = {} } = {}) {
  const fill = FILL[symbol] ?? "#c9c9c9";
  const g = el("g", attrs, el("rect", { x, y, width: size, height: size, rx: Math.max(3, size / 12), fill, stroke: "#222" }));
  const pad = size * (letters ? 0.2 : 0.12);
  g.append(icon(symbol, x + pad, y + pad, size - 2 * pad, ink(fill), fill));
  if (letters) {
    g.append(text(x + size * 0.16, y + size * 0.13, symbol, { fill: ink(fill), "font-size": Math.max(12, Math.round(size * 0.15)), "font-weight": "bold" }));
  }
  return g;
}

/** A pattern card: its block of symbols (grey where anything goes) and its points. */
export function card(x, y, id, scale = 1, attrs = {}) {
  const info = CARDS.get(id);
  const w = 78 * scale;
  const h = 104 * scale;
  const g = el(
    "g",
    { class: "card", "data-card": id, ...attrs },
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
        g.append(stone(left + c * cell, top + r * cell, cell - 2, symbol));
      } else {
        const inside = r < rows.length && c < rows[0].length;
        g.append(
          el("rect", {
            x: left + c * cell,
            y: top + r * cell,
            width: cell - 2,
            height: cell - 2,
            fill: inside ? "#c9c9c9" : "none",
            stroke: inside ? "#999" : "none",
          }),
        );
      }
    }
  }
  // Never under 12 px: a small card (a scored one) shows only its points (its tip says the rest).
  if (scale >= 1) g.append(text(x + w / 2, y + h - 14 * scale, `#${id} · ${info.points}★`, { "font-size": 12 * scale }));
  else if (scale >= 0.75) g.append(text(x + w / 2, y + h - 10, `#${id} · ${info.points}★`, { "font-size": 12 }));
  else g.append(text(x + w / 2, y + h - 8, `${info.points}★`, { "font-size": 12 }));
  return g;
}

// --- what the last step changed ---------------------------------------------------------------
/** Everything the last step changed, from the previous view (or, without one, the log line). */
export function lastChanges(prev, view, lastLog) {
  const s = view.state;
  const out = {
    cells: new Map(), // cell index -> "swapped" | "flipped"
    discard: false,
    scored: new Set(),
    hand: new Set(),
    deck: false,
    players: new Set(),
    strikes: false,
  };
  const entry = Array.isArray(lastLog) ? lastLog : null;
  const words = typeof entry?.[1] === "string" ? entry[1].trim().split(/\s+/) : [];
  // The log names the cells of a shift even when the two tiles show the same symbol.
  if (words[0] === "shift" && words[2]) {
    for (const cell of words[2].split("-")) out.cells.set(Number(cell) - 1, "swapped");
  } else if (words[0] === "flip" && words[2]) {
    out.cells.set(Number(words[2]) - 1, "flipped");
  }
  const usable = prev && prev.state && prev.game === view.game && prev.step + 1 === view.step;
  if (usable) {
    const p = prev.state;
    const before = grid(prev);
    const moved = grid(view)
      .map((symbol, i) => (before[i] !== symbol ? i : -1))
      .filter((i) => i >= 0);
    for (const i of moved) if (!out.cells.has(i)) out.cells.set(i, moved.length === 2 ? "swapped" : "flipped");
    const top = (list) => (list.length ? list[list.length - 1] : null);
    out.discard = p.discard.length !== s.discard.length || top(p.discard) !== top(s.discard);
    s.scored.forEach((cards, q) => {
      const had = new Set(p.scored[q] ?? []);
      for (const id of cards) if (!had.has(id)) out.scored.add(id);
    });
    if (s.hand && p.hand) {
      const had = new Set(p.hand);
      for (const id of s.hand) if (!had.has(id)) out.hand.add(id);
    }
    out.deck = p.deck !== s.deck;
    s.points.forEach((points, q) => {
      if (points !== p.points[q] || s.hand_sizes[q] !== p.hand_sizes[q] || s.scored[q].length !== p.scored[q].length) {
        out.players.add(q);
      }
    });
    out.strikes = s.strikes !== p.strikes;
  } else if (entry) {
    const [player] = entry;
    if (words[0] === "shift" || words[0] === "flip") out.discard = s.discard.at(-1) === Number(words[1]);
    if (words[0] === "score") out.scored.add(Number(words[1]));
    if (["shift", "flip", "score", "end", "skip"].includes(words[0]) && typeof player === "number") out.players.add(player);
    if (words[0] === "end" || words[0] === "skip") out.deck = true;
  }
  return out;
}

// --- drawing ------------------------------------------------------------------------------------
function board(view, ui, changes, ox, oy) {
  const { t } = ui;
  const cells = grid(view);
  const g = el("g", { class: "grid" });
  g.append(heading(ox, oy - 10, t("shifting.grid")));
  cells.forEach((symbol, i) => {
    const x = ox + (i % 3) * CELL;
    const y = oy + Math.floor(i / 3) * CELL;
    const other = OTHER[symbol];
    let node = el(
      "g",
      { class: "cell", "data-cell": i + 1 },
      stone(x + 3, y + 3, CELL - 6, symbol, { letters: true }),
      text(x + 13, y + CELL - 13, String(i + 1), { "font-size": 12, class: "level-badge" }),
    );
    if (other) {
      // The face underneath, small in the corner: what a flip would show.
      const r = 11;
      const cx = x + CELL - 17;
      const cy = y + CELL - 17;
      node.append(
        el("circle", { cx, cy, r, fill: FILL[other], stroke: "#fff", "stroke-width": 2, class: "other-face" }),
        icon(other, cx - r * 0.7, cy - r * 0.7, r * 1.4, ink(FILL[other]), FILL[other]),
      );
    }
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
    const words = other
      ? t("shifting.tip_tile", { cell: i + 1, symbol: symbolWords(symbol, t), other: symbolWords(other, t) })
      : t("shifting.tip_tile_plain", { cell: i + 1, symbol: symbolWords(symbol, t) });
    g.append(mark(tip(node, words), changes.cells.get(i)));
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
      const label = t("shifting.shift", { from: p + 1, to: q + 1, card: ui.selected });
      g.append(tip(actionTarget(handle, action, label, ui, { forSelection: true }), label));
    }
  }
  return g;
}

/** Your cards, `perRow` to a row `pitch` apart, under a heading (wrapped to `wrap` characters a
 * line on a phone: the first line at `oy - 8`, the cards under the last). Returns {g, bottom}. */
function hand(view, ui, changes, ox, oy, { perRow = Infinity, pitch = 88, wrap = 0 } = {}) {
  const { t } = ui;
  const s = view.state;
  const g = el("g", { class: "hand" });
  if (!s.hand) return { g, bottom: oy };
  const words = t("shifting.your_hand", { count: s.hand.length });
  if (wrap) {
    const lines = headingLines(ox, oy - 8, words, wrap, 17);
    g.append(lines.node);
    oy += lines.height - 17;
  } else g.append(heading(ox, oy - 8, words));
  s.hand.forEach((id, i) => {
    const x = ox + (i % perRow) * pitch;
    const y = oy + Math.floor(i / perRow) * 112;
    let node = card(x, y, id);
    const paying = ui.legal.some((a) => a.startsWith(`shift ${id} `) || a.startsWith(`flip ${id} `));
    if (paying) node = selectTarget(node, String(id), t("shifting.select", { card: cardWords(id, t) }), ui);
    g.append(mark(tip(node, cardTip(id, t)), changes.hand.has(id) && "drawn"));
    const score = `score ${id}`;
    ui.board.add(score);
    if (ui.legal.includes(score)) {
      const badge = el(
        "g",
        { class: "score-badge" },
        el("circle", { cx: x + 70, cy: y + 8, r: 14, fill: "#ffd400", stroke: "#000", "stroke-width": 2 }),
        text(x + 70, y + 8, "★", { "font-size": 16 }),
      );
      const label = t("shifting.score", { card: cardWords(id, t) });
      g.append(tip(actionTarget(badge, score, label, ui), label));
    }
  });
  const rows = Math.max(1, Math.ceil(s.hand.length / Math.min(perRow, Math.max(1, s.hand.length))));
  return { g, bottom: oy + rows * 112 };
}

/** The deck and the top of the discard pile. */
function piles(view, ui, changes, ox, oy) {
  const { t } = ui;
  const s = view.state;
  const g = el("g", { class: "piles" });
  const deckWords = plural(t, "shifting.deck_one", "shifting.deck_other", s.deck);
  const deck = heading(ox, oy - 8, deckWords);
  g.append(mark(tip(deck, t("shifting.tip_deck", { deck: deckWords })), changes.deck && "deck"));
  if (s.discard.length) {
    g.append(heading(ox, oy + 14, t("shifting.discard_top")));
    const top = s.discard[s.discard.length - 1];
    const node = card(ox, oy + 22, top, 0.8, { class: "card discard" });
    const words = t("shifting.tip_discard", { card: cardTip(top, t) });
    g.append(mark(tip(node, words), changes.discard && "discarded"));
    return { g, bottom: oy + 22 + 104 * 0.8 };
  }
  return { g, bottom: oy };
}

const MINI = 0.42;

/** Each player: a line with points and cards, then the cards they scored, face up, small. */
function players(view, ui, changes, ox, oy, { width = 800, wrap = 0 } = {}) {
  const { t } = ui;
  const s = view.state;
  const g = el("g", { class: "players" });
  let y = oy;
  const perRow = Math.floor((width - 20 - ox) / (78 * MINI + 4));
  const line = (x, yy, words, attrs) => {
    if (!wrap) return { node: heading(x, yy, words, attrs), height: 18 };
    return headingLines(x, yy, words, wrap, 17, attrs);
  };
  s.points.forEach((points, p) => {
    const scored = s.scored[p];
    const ones = scored.filter((id) => CARDS.get(id)?.points === 1).length;
    const summary = line(
      ox,
      y,
      t("shifting.player_summary", {
        player: ui.playerName(p),
        points: pointsWords(points, t),
        scored: plural(t, "shifting.scored_one", "shifting.scored_other", scored.length),
        hand: plural(t, "shifting.in_hand_one", "shifting.in_hand_other", s.hand_sizes[p]),
      }),
      { "font-size": 13 },
    );
    const lineTip = t("shifting.tip_player", {
      player: ui.playerName(p),
      ones: plural(t, "shifting.ones_one", "shifting.ones_other", ones),
    });
    g.append(mark(tip(summary.node, lineTip), changes.players.has(p) && "player"));
    y += 8 + summary.height - 18;
    scored.forEach((id, k) => {
      const x = ox + (k % perRow) * (78 * MINI + 4);
      const yy = y + Math.floor(k / perRow) * (104 * MINI + 4);
      const node = card(x, yy, id, MINI, { class: "card scored" });
      const words = t("shifting.tip_scored", { card: cardTip(id, t), player: ui.playerName(p) });
      g.append(mark(tip(node, words), changes.scored.has(id) && "scored"));
    });
    const rows = Math.ceil(scored.length / perRow);
    y += rows * (104 * MINI + 4) + 18;
  });
  if (s.strikes !== undefined) {
    const node = line(ox, y, t("shifting.strikes", { strikes: s.strikes }));
    g.append(mark(tip(node.node, t("shifting.tip_strikes")), changes.strikes && "strike"));
    y += node.height + 2;
  }
  if (s.hands) {
    // The end: every hand is shown.
    s.hands.forEach((cards, p) => {
      const node = line(ox, y, t("shifting.hand_of", { player: ui.playerName(p), cards: cards.join(", ") }), { "font-size": 12 });
      g.append(node.node);
      y += node.height + 2;
    });
  }
  return { g, bottom: y };
}

/** A phone: one column 340 px wide drawn 1:1: the grid, your cards right under it (a card and the
 * grid it pays on in view together), the deck and the discard, then the players. */
function renderNarrow(view, ui, changes) {
  const svg = root(340, 1, ui.t("shifting.board_label"));
  CELL = 104;
  svg.append(board(view, ui, changes, 14, 30));
  const cards = hand(view, ui, changes, 6, 30 + 3 * CELL + 34, { perRow: 4, pitch: 84, wrap: 36 });
  svg.append(cards.g);
  const deck = piles(view, ui, changes, 6, cards.bottom + 22);
  svg.append(deck.g);
  const people = players(view, ui, changes, 6, deck.bottom + 24, { width: 340, wrap: 36 });
  svg.append(people.g);
  svg.setAttribute("viewBox", `0 0 340 ${people.bottom + 8}`);
  return svg;
}

export function render(view, ui) {
  for (const action of ui.legal) if (!["end", "skip"].includes(action)) ui.board.add(action);
  const changes = lastChanges(ui.prev ?? null, view, ui.lastLog ?? null);
  if (ui.narrow) return renderNarrow(view, ui, changes);
  CELL = 80;
  const svg = root(800, 420, ui.t("shifting.board_label"));
  svg.append(board(view, ui, changes, 20, 40));
  const people = players(view, ui, changes, 300, 30);
  svg.append(people.g);
  // The hand, and beside it the deck and the discard pile.
  const handTop = Math.max(310, people.bottom + 24);
  svg.append(hand(view, ui, changes, 20, handTop).g);
  svg.append(piles(view, ui, changes, 640, handTop).g);
  svg.setAttribute("viewBox", `0 0 800 ${handTop + 112}`);
  return svg;
}

// --- what changes the game's course, in sentences ---------------------------------------------

/** Sentences for a reshuffle, a solo strike, the end being triggered and the game's end. */
export function announce(prev, view, t, names) {
  if (!prev?.state || !view?.state || prev.game !== view.game) return [];
  const name = namer(names, (p) =>
    t(p === view.player ? "shifting.player_you" : "shifting.player_n", { n: p + 1 }),
  );
  const p = prev.state;
  const s = view.state;
  const said = [];
  if (s.deck > p.deck) {
    said.push(plural(t, "shifting.announce_reshuffle_one", "shifting.announce_reshuffle_other", s.deck));
  }
  if (s.strikes !== undefined && s.strikes > (p.strikes ?? 0)) {
    const left = SOLO_STRIKES - 1 - s.strikes;
    if (s.strikes >= SOLO_STRIKES) said.push(t("shifting.announce_strike_out", { strikes: s.strikes }));
    else if (left === 0) said.push(t("shifting.announce_strike_last", { strikes: s.strikes }));
    else said.push(plural(t, "shifting.announce_strike_one", "shifting.announce_strike_other", left, { strikes: s.strikes }));
  }
  const trigger = TRIGGER[view.players];
  if (trigger && !view.terminal) {
    s.scored.forEach((cards, q) => {
      if (cards.length >= trigger && (p.scored[q]?.length ?? 0) < trigger) {
        said.push(t("shifting.announce_trigger", { player: name(q), count: cards.length }));
      }
    });
  }
  if (view.terminal && !prev.terminal && view.outcome) {
    const { winners, scores } = view.outcome;
    if (!winners.length && scores.length === 1) {
      said.push(t("shifting.announce_end_solo_lost"));
    } else if (!winners.length) {
      said.push(t("shifting.announce_end_none"));
    } else {
      const points = pointsWords(scores[winners[0]], t);
      if (winners.length === 1) said.push(t("shifting.announce_end_win", { player: name(winners[0]), points }));
      else said.push(t("shifting.announce_end_tie", { players: winners.map(name).join(", "), points }));
    }
  }
  return said;
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
