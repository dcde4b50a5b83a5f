// Stakz: the stacks bottom to top, the pile by colour, every hand (colours for all, symbols for
// your own). Select a tile of your hand, then press a highlighted stack; end your turn by pressing
// the pile colour you want to draw.
// What the last step changed carries `data-last` (the tile placed, a split's new stack, a drawn
// tile, the pile colour drawn from, the totals after a round), and tiles, stacks, hands and the
// pile explain themselves in `data-tip` (colour and symbol in words, a stack's rules).
import { actionTarget, el, root, selectTarget, text } from "../svg.js";
import { capital, counted, heading, headingLines, ink, mark, namer, tip } from "./common.js";

export const COLOURS = { R: "#d62728", O: "#ff8c00", G: "#2ca02c", B: "#1f5fbf", P: "#7b3fa0" };
const ORDER = ["R", "O", "G", "B", "P"];
const TILE = 40;

function tileWords(tile, t) {
  return `${t(`stakz.colours.${tile[0]}`)} ${t(`stakz.symbols.${tile[1]}`)}`;
}

function colourWords(letter, t) {
  return t(`stakz.colours.${letter}`);
}

/** Names seats as the table does when it says how, else "Seat N". */

/** A thick black-and-yellow rim around a box the last step changed (shape, not colour alone). */
function rim(x, y, width, height, kind, pad = 3) {
  const box = {
    x: x - pad,
    y: y - pad,
    width: width + 2 * pad,
    height: height + 2 * pad,
    rx: 4 + pad,
    fill: "none",
    "pointer-events": "none",
  };
  return el(
    "g",
    { class: "last-move", "data-last": kind },
    el("rect", { ...box, stroke: "#000", "stroke-width": 6 }),
    el("rect", { ...box, stroke: "#ffd400", "stroke-width": 3 }),
  );
}

/** The symbol as a shape, so a tile reads without its colour. */
function symbol(cx, cy, r, kind, fill) {
  const attrs = { fill, stroke: "none" };
  switch (kind) {
    case "c":
      return el("circle", { cx, cy, r, ...attrs });
    case "t":
      return el("polygon", {
        points: `${cx},${cy - r} ${cx + r},${cy + r * 0.8} ${cx - r},${cy + r * 0.8}`,
        ...attrs,
      });
    case "s":
      return el("rect", { x: cx - r * 0.8, y: cy - r * 0.8, width: r * 1.6, height: r * 1.6, ...attrs });
    case "x": {
      const points = [];
      for (let i = 0; i < 10; i += 1) {
        const radius = i % 2 ? r * 0.45 : r;
        const angle = (Math.PI / 5) * i - Math.PI / 2;
        points.push(`${cx + radius * Math.cos(angle)},${cy + radius * Math.sin(angle)}`);
      }
      return el("polygon", { points: points.join(" "), ...attrs });
    }
    default: {
      const d = `M${cx},${cy + r} C${cx - r * 1.6},${cy - r * 0.2} ${cx - r * 0.6},${cy - r * 1.4} ${cx},${cy - r * 0.4} C${cx + r * 0.6},${cy - r * 1.4} ${cx + r * 1.6},${cy - r * 0.2} ${cx},${cy + r} Z`;
      return el("path", { d, ...attrs });
    }
  }
}

export function tile(x, y, tileText, size = TILE, attrs = {}) {
  const fill = COLOURS[tileText[0]];
  return el(
    "g",
    { class: "tile", ...attrs },
    el("rect", { x, y, width: size, height: size, rx: 5, fill, stroke: "#111" }),
    symbol(x + size / 2, y + size / 2 + 2, size * 0.28, tileText[1], ink(fill)),
    text(x + 8, y + 8, tileText[0], { fill: ink(fill), "font-size": Math.max(12, size * 0.27), "font-weight": "bold" }),
  );
}

/** Tiles as a multiset: text -> count. */
function counts(tiles) {
  const out = new Map();
  for (const tt of tiles ?? []) out.set(tt, (out.get(tt) ?? 0) + 1);
  return out;
}

/**
 * What the last step changed, from the previous view when the table has it (any player's step,
 * bots included), else from the last log entry's notation: {tops: Map stack -> kind of its top
 * tile, split: Set of new stacks, shrunk: Set of stacks a split left, drawn: Map tile -> count in
 * the viewer's hand, pile: Set of colours, backs: Map player -> Map colour -> kind, hands: Map
 * player -> kind, scores: Set of players, round: bool}.
 */
function lastChange(view, ui) {
  const s = view.state;
  const change = {
    tops: new Map(),
    split: new Set(),
    shrunk: new Set(),
    drawn: new Map(),
    pile: new Set(),
    backs: new Map(),
    hands: new Map(),
    scores: new Set(),
    round: false,
  };
  const back = (p, c, kind) => {
    if (!change.backs.has(p)) change.backs.set(p, new Map());
    change.backs.get(p).set(c, kind);
  };
  const prev = ui.prev?.state;
  if (prev && Array.isArray(prev.stacks)) {
    if ((prev.rounds?.length ?? 0) !== (s.rounds?.length ?? 0)) {
      change.round = true;
      s.scores.forEach((score, p) => {
        if (score !== prev.scores[p]) change.scores.add(p);
      });
      // A new round was dealt: nothing on the table continues the last one. At the match's end
      // no round is dealt, and the last tile placed stays where it went.
      if (!view.terminal) return change;
    }
    s.stacks.forEach((stack, k) => {
      const before = prev.stacks[k];
      if (!before) {
        change.split.add(k);
        change.tops.set(k, "placed");
      } else if (stack.length === before.length + 1 && before.every((tt, i) => stack[i] === tt)) {
        change.tops.set(k, "placed");
      } else if (stack.length !== before.length) {
        change.shrunk.add(k);
      }
    });
    s.hands.forEach((hand, p) => {
      const was = prev.hands[p];
      if (!was) return;
      if (hand.size !== was.size) change.hands.set(p, hand.size > was.size ? "drawn" : "placed");
      for (const c of ORDER) {
        const [now, then] = [hand.colours[c] ?? 0, was.colours[c] ?? 0];
        if (now !== then) back(p, c, now > then ? "drawn" : "placed");
      }
      if (hand.tiles && was.tiles) {
        const old = counts(was.tiles);
        for (const [tt, n] of counts(hand.tiles)) {
          if (n > (old.get(tt) ?? 0)) change.drawn.set(tt, n - (old.get(tt) ?? 0));
        }
      }
    });
    for (const c of ORDER) {
      if ((s.pile.colours[c] ?? 0) !== (prev.pile.colours[c] ?? 0)) change.pile.add(c);
    }
    const quiet = !change.tops.size && !change.pile.size && !change.hands.size;
    // An `end` on an empty pile changes nothing on the board but whose turn it is.
    if (quiet && view.step > ui.prev.step) {
      const ender = ui.prev.to_move?.[0];
      if (ender !== undefined) change.hands.set(ender, "ended");
    }
    return change;
  }
  const log = ui.lastLog;
  if (Array.isArray(log) && log.length >= 2) {
    const [player, notation] = log;
    const placed = /^(\w\w)@(\d+)$/.exec(notation ?? "");
    const drew = /^end ([ROGBP])$/.exec(notation ?? "");
    if (placed) {
      const [, tt, k] = placed;
      const stack = s.stacks[Number(k)];
      const last = s.stacks.length - 1;
      if (stack && stack[stack.length - 1] === tt) change.tops.set(Number(k), "placed");
      else if (last > 1 && s.stacks[last][s.stacks[last].length - 1] === tt) {
        change.split.add(last);
        change.tops.set(last, "placed");
        change.shrunk.add(Number(k));
      } else {
        change.round = true; // the tile emptied a hand: the round ended and the next was dealt
      }
      if (!change.round) change.hands.set(player, "placed");
    } else if (drew) {
      change.pile.add(drew[1]);
      change.hands.set(player, "drawn");
      if (!s.hands[player]?.tiles) back(player, drew[1], "drawn");
    } else if (notation === "end") change.hands.set(player, "ended");
  }
  return change;
}

/**
 * The stacks `tileText` may go on now: a top of its colour or symbol, not used this turn (when it
 * is the viewer's turn), not a third tile of its colour.
 */
function fitsStacks(tileText, view) {
  const s = view.state;
  const myTurn = view.to_move?.includes(view.player);
  const out = [];
  s.stacks.forEach((stack, k) => {
    if (myTurn && s.used.includes(k)) return;
    const top = stack[stack.length - 1];
    if (!top || (top[0] !== tileText[0] && top[1] !== tileText[1])) return;
    if (stack.filter((tt) => tt[0] === tileText[0]).length >= 2) return;
    out.push(k);
  });
  return out;
}

/** A stack's rules in words: this turn, its colours, what splits it and what it cannot take. */
function stackWords(stack, k, s, t) {
  const parts = [];
  const top = stack[stack.length - 1];
  parts.push(
    stack.length === 1
      ? t("stakz.tip_stack_one", { stack: k, top: tileWords(top, t) })
      : t("stakz.tip_stack_other", { stack: k, count: stack.length, top: tileWords(top, t) }),
  );
  parts.push(t(s.used.includes(k) ? "stakz.tip_used" : "stakz.tip_open"));
  const byColour = ORDER.map((c) => [c, stack.filter((tt) => tt[0] === c).length]);
  const present = byColour.filter(([, n]) => n > 0).map(([c, n]) => `${colourWords(c, t)} ${n}`);
  parts.push(t("stakz.tip_colours", { colours: present.join(", ") }));
  const missing = byColour.filter(([, n]) => n === 0).map(([c]) => colourWords(c, t));
  if (missing.length === 1) parts.push(t("stakz.tip_missing_one", { colour: missing[0] }));
  else if (missing.length > 1) parts.push(t("stakz.tip_missing_other", { colours: missing.join(", ") }));
  const full = byColour.filter(([, n]) => n >= 2).map(([c]) => colourWords(c, t));
  if (full.length === 1) parts.push(t("stakz.tip_full", { colours: full[0] }));
  else if (full.length > 1) parts.push(t("stakz.tip_full_other", { colours: full.join(", ") }));
  return parts.join(" ");
}

const STRIP = 18; // a phone's stack: each tile under the top one a 16 px strip (colour letter, symbol)

/** A tile under the top of a stack on a phone: a strip with its colour letter and symbol. */
function strip(x, y, tileText) {
  const fill = COLOURS[tileText[0]];
  return el(
    "g",
    { class: "tile strip" },
    el("rect", { x, y, width: TILE, height: STRIP - 2, rx: 3, fill, stroke: "#111" }),
    text(x + 9, y + (STRIP - 2) / 2, tileText[0], { fill: ink(fill), "font-size": 12, "font-weight": "bold" }),
    symbol(x + TILE - 11, y + (STRIP - 2) / 2, 5.5, tileText[1], ink(fill)),
  );
}

/** The stacks in rows of `perRow` (a phone: 6 to a row), each row as tall as its tallest stack;
 * `compact` (a phone) draws the tiles under each top as strips, so the stacks stay short. */
function stacks(view, ui, ox, oy, change, perRow = Infinity, compact = false) {
  const { t } = ui;
  const s = view.state;
  const g = el("g", { class: "stacks" });
  g.append(heading(ox, oy - 12, t("stakz.stacks")));
  // Where tile i of a stack of n tiles begins (its top edge), above the row's base.
  const rise = (i, n) => (compact && i < n - 1 ? (i + 1) * STRIP : (compact ? (n - 1) * STRIP : i * (TILE + 2)) + TILE + 2);
  const rowBases = [];
  let rowTop = oy;
  for (let start = 0; start < Math.max(1, s.stacks.length); start += perRow) {
    const row = s.stacks.slice(start, start + perRow);
    const tallest = Math.max(1, ...row.map((st) => st.length));
    rowBases.push(rowTop + rise(tallest - 1, tallest) + TILE + 2); // and room for a tile on top
    rowTop = rowBases.at(-1) + 44;
  }
  s.stacks.forEach((stack, k) => {
    const x = ox + (k % perRow) * (TILE + 16);
    const base = rowBases[Math.floor(k / perRow)];
    const about = stackWords(stack, k, s, t);
    const split = change.split.has(k) || change.shrunk.has(k) ? "split" : null;
    const number = text(x + TILE / 2, base + 14, String(k), { "font-size": 13, class: "stack-number" });
    g.append(mark(tip(number, about), split));
    if (s.used.includes(k)) {
      g.append(text(x + TILE / 2, base + 30, t("stakz.used"), { "font-size": 12 }));
    }
    stack.forEach((tt, i) => {
      const y = base - rise(i, stack.length);
      const top = i === stack.length - 1;
      const kind = top && change.tops.has(k) ? change.tops.get(k) : change.split.has(k) ? "split" : null;
      const words = [
        capital(t("stakz.tip_in_stack", { tile: tileWords(tt, t), position: i + 1, count: stack.length, stack: k })),
      ];
      if (kind === "placed") words.push(t("stakz.tip_last_placed"));
      words.push(about);
      g.append(mark(tip(compact && !top ? strip(x, y, tt) : tile(x, y, tt), words.join(" ")), kind));
      if (kind === "placed") g.append(rim(x, y, TILE, TILE, "placed"));
    });
    // A split's new stack: one rim around all of it.
    if (change.split.has(k) && stack.length > 1) {
      const h = rise(stack.length - 1, stack.length) - 2;
      g.append(rim(x, base - rise(stack.length - 1, stack.length), TILE, h, "split", 7));
    }
    // The place above the top tile, pressable for the selected tile when the move is legal.
    const action = ui.selected ? `${ui.selected}@${k}` : null;
    if (action && ui.legal.includes(action)) {
      const y = base - rise(stack.length - 1, stack.length) - TILE - 2;
      const ghost = el(
        "g",
        { class: "ghost" },
        tile(x, y, ui.selected),
      );
      g.append(
        actionTarget(ghost, action, t("stakz.place", { tile: tileWords(ui.selected, t), stack: k }), ui, {
          forSelection: true,
        }),
      );
    }
  });
  return { g, bottom: rowBases.at(-1) + 40 };
}

/** The pile by colour under its heading (wrapped to `wrap` characters a line on a phone, the
 * first line at `oy - 8` and the colours under the last). Returns {g, bottom}. */
function pile(view, ui, ox, oy, change, wrap = 0) {
  const { t } = ui;
  const s = view.state;
  const g = el("g", { class: "pile" });
  const [pileOne, pileMany] = view.terminal ? ["stakz.pile_left_one", "stakz.pile_left"] : ["stakz.pile_one", "stakz.pile"];
  const words = counted(t, s.pile.size, pileOne, pileMany, { count: s.pile.size });
  if (wrap) {
    const lines = headingLines(ox, oy - 8, words, wrap, 17);
    g.append(lines.node);
    oy += lines.height - 17;
  } else g.append(heading(ox, oy - 8, words));
  ORDER.forEach((c, i) => {
    const x = ox + i * 58;
    const fill = COLOURS[c];
    const count = s.pile.colours[c] || 0;
    const node = el(
      "g",
      { class: "pile-colour" },
      el("rect", { x, y: oy, width: 50, height: 40, rx: 6, fill, stroke: "#111" }),
      text(x + 25, oy + 20, `${c} ${count}`, { fill: ink(fill), "font-size": 15, "font-weight": "bold" }),
    );
    const action = `end ${c}`;
    const target = actionTarget(node, action, t("stakz.end_draw", { colour: colourWords(c, t) }), ui);
    const words = count === 1
      ? t("stakz.tip_pile_one", { colour: colourWords(c, t) })
      : t("stakz.tip_pile_other", { colour: colourWords(c, t), count });
    g.append(mark(tip(target, words), change.pile.has(c) ? "drawn" : null));
    if (change.pile.has(c)) g.append(rim(x, oy, 50, 40, "drawn"));
  });
  return { g, bottom: oy + 40 };
}

/** The hands (those `which` keeps), tiles `perRow` to a row and headings wrapped to `wrap`
 * characters on a phone. */
function hands(view, ui, ox, oy, change, { perRow = Infinity, wrap = 0, which = () => true } = {}) {
  const { t } = ui;
  const s = view.state;
  const g = el("g", { class: "hands" });
  let y = oy;
  s.hands.forEach((hand, player) => {
    if (!which(player)) return;
    const mine = player === ui.seat && !view.terminal; // no "press" hints once it is over
    const params = { player: ui.playerName(player), count: hand.size };
    const title = mine
      ? counted(t, hand.size, "stakz.your_hand_one", "stakz.your_hand", params)
      : counted(t, hand.size, "stakz.hand_of_one", "stakz.hand_of", params);
    const label = wrap
      ? headingLines(ox, y, title, wrap, 17, { class: "svg-heading hand-label" })
      : { node: heading(ox, y, title, { class: "svg-heading hand-label" }), height: 17 };
    g.append(mark(label.node, change.hands.get(player)));
    y += 10 + label.height - 17;
    if (hand.tiles) {
      const drawn = mine ? new Map(change.drawn) : new Map();
      const yTop = y;
      hand.tiles.forEach((tt, i) => {
        const x = ox + (i % perRow) * (TILE + 6);
        const y = yTop + Math.floor(i / perRow) * (TILE + 6);
        let node = tile(x, y, tt);
        if (mine && ui.legal.some((a) => a.startsWith(`${tt}@`))) {
          node = selectTarget(node, tt, t("stakz.select", { tile: tileWords(tt, t) }), ui);
        }
        const words = [capital(tileWords(tt, t))];
        // The newest copy of a drawn tile is the one marked (tiles are listed sorted).
        const isNew = (drawn.get(tt) ?? 0) > 0 && !hand.tiles.slice(i + 1).includes(tt);
        if (isNew) {
          drawn.set(tt, drawn.get(tt) - 1);
          words.push(t("stakz.tip_drawn"));
        }
        if (mine && !view.terminal) {
          const fit = fitsStacks(tt, view);
          words.push(fit.length ? t("stakz.tip_fits", { stacks: fit.join(", ") }) : t("stakz.tip_fits_none"));
        }
        g.append(mark(tip(node, words.join(". ") + "."), isNew ? "drawn" : null));
        if (isNew) g.append(rim(x, y, TILE, TILE, "drawn"));
      });
      y += Math.max(0, Math.ceil(hand.tiles.length / perRow) - 1) * (TILE + 6);
    } else {
      // Only the backs show: their colours.
      const marks = change.backs.get(player) ?? new Map();
      ORDER.forEach((c, i) => {
        const fill = COLOURS[c];
        const count = hand.colours[c] || 0;
        const words = count === 1
          ? t("stakz.tip_back_one", { player: ui.playerName(player), colour: colourWords(c, t) })
          : t("stakz.tip_back_other", { player: ui.playerName(player), colour: colourWords(c, t), count });
        const node = el(
          "g",
          { class: "hand-colour" },
          el("rect", { x: ox + i * 58, y, width: 50, height: 30, rx: 4, fill, stroke: "#111" }),
          text(ox + i * 58 + 25, y + 15, `${c} ${count}`, {
            fill: ink(fill),
            "font-size": 13,
          }),
        );
        g.append(mark(tip(node, words), marks.get(c)));
        if (marks.has(c)) g.append(rim(ox + i * 58, y, 50, 30, marks.get(c)));
      });
    }
    y += TILE + 30;
  });
  return { g, bottom: y };
}

/** The round and the totals, right-aligned at `right` so long names stay inside the board. */
function scores(view, ui, right, oy, change, anchor = "end") {
  const { t } = ui;
  const s = view.state;
  const g = el("g", { class: "scores" });
  const round = counted(t, s.target, "stakz.round_one", "stakz.round", { round: s.round, target: s.target });
  // On a phone (left-aligned) the round line wraps to the column and the scores follow it.
  const lines = anchor === "start" ? headingLines(right, oy, round, 36, 17, { "font-size": 13 }) : null;
  g.append(mark(lines ? lines.node : heading(right, oy, round, { "text-anchor": anchor, "font-size": 13 }), change.round ? "round" : null));
  if (lines) oy += lines.height - 17;
  s.scores.forEach((score, p) => {
    const line = counted(t, score, "stakz.score_of_one", "stakz.score_of", { player: ui.playerName(p), score });
    g.append(
      mark(
        heading(right, oy + 20 + p * 18, line, { "font-size": 13, "text-anchor": anchor }),
        change.scores.has(p) ? "scored" : null,
      ),
    );
  });
  g.dataset.bottom = String(oy + 20 + s.scores.length * 18);
  return g;
}

/** A phone: one column 340 px wide drawn 1:1: the scores, the stacks six to a row, your hand
 * right under them (a tile and the stacks it goes on in view together), the pile, the others. */
function renderNarrow(view, ui, change) {
  const svg = root(340, 1, ui.t("stakz.board_label"));
  const s = view.state;
  const totals = scores(view, ui, 6, 16, change, "start");
  svg.append(totals);
  let y = Number(totals.dataset.bottom) + 24;
  const top = stacks(view, ui, 6, y, change, 6, true);
  svg.append(top.g);
  const options = { perRow: 7, wrap: 36 };
  const own = hands(view, ui, 6, top.bottom + 8, change, { ...options, which: (p) => p === ui.seat });
  svg.append(own.g);
  const heap = pile(view, ui, 6, own.bottom + 14, change, 36);
  svg.append(heap.g);
  const others = hands(view, ui, 6, heap.bottom + 30, change, { ...options, which: (p) => p !== ui.seat });
  svg.append(others.g);
  svg.setAttribute("viewBox", `0 0 340 ${others.bottom}`);
  return svg;
}

export function render(view, ui) {
  for (const action of ui.legal) if (action.includes("@")) ui.board.add(action);
  const change = lastChange(view, ui);
  if (ui.narrow) return renderNarrow(view, ui, change);
  const svg = root(760, 1, ui.t("stakz.board_label"));
  const top = stacks(view, ui, 20, 40, change);
  svg.append(top.g);
  svg.append(pile(view, ui, 20, top.bottom + 30, change).g);
  const width = Math.max(760, 40 + view.state.stacks.length * (TILE + 16));
  svg.append(scores(view, ui, width - 12, 28, change));
  const handsPart = hands(view, ui, 20, top.bottom + 110, change);
  svg.append(handsPart.g);
  svg.setAttribute("viewBox", `0 0 ${width} ${handsPart.bottom}`);
  return svg;
}

/**
 * Sentences for what changed the match's course between `prev` and `view` (one step apart): a
 * round won (who, every other player's points, the totals) or stuck, and the match's end.
 * `playerName` (optional) names a seat as the table does.
 */
export function announce(prev, view, t, playerName) {
  if (!prev?.state || !view?.state) return [];
  const name = namer(playerName, (p) => t("table.seat_name", { n: p + 1 }));
  const s = view.state;
  const out = [];
  const done = prev.state.rounds?.length ?? 0;
  (s.rounds ?? []).slice(done).forEach((round, i) => {
    const number = done + i + 1;
    if (round.winner === null || round.winner === undefined) {
      out.push(t("stakz.announce_stuck", { round: number }));
    } else {
      out.push(t("stakz.announce_round_won", { player: name(round.winner), round: number }));
    }
    round.points.forEach((points, p) => {
      if (p === round.winner) return;
      const params = { player: name(p), points, total: s.scores[p] };
      out.push(points === 1 ? t("stakz.announce_points_one", params) : t("stakz.announce_points_other", params));
    });
  });
  if (view.terminal && !prev.terminal && view.outcome) {
    const winners = view.outcome.winners;
    const params = { players: winners.map(name).join(", "), score: s.scores[winners[0]] };
    out.push(
      winners.length === 1 ? t("stakz.announce_match_one", params) : t("stakz.announce_match_other", params),
    );
  }
  return out;
}

export function describe(action, t) {
  if (action === "end") return t("stakz.end");
  if (action.startsWith("end ")) return t("stakz.end_draw", { colour: t(`stakz.colours.${action[4]}`) });
  const match = /^(\w\w)@(\d+)$/.exec(action);
  if (match) return t("stakz.place", { tile: tileWords(match[1], t), stack: match[2] });
  return action;
}
