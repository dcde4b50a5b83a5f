// Stakz: the stacks bottom to top, the pile by colour, every hand (colours for all, symbols for
// your own). Select a tile of your hand, then press a highlighted stack; end your turn by pressing
// the pile colour you want to draw.
import { actionTarget, el, root, selectTarget, text } from "../svg.js";
import { heading, ink } from "./common.js";

export const COLOURS = { R: "#d62728", O: "#ff8c00", G: "#2ca02c", B: "#1f5fbf", P: "#7b3fa0" };
const ORDER = ["R", "O", "G", "B", "P"];
const TILE = 40;

function tileWords(tile, t) {
  return `${t(`stakz.colours.${tile[0]}`)} ${t(`stakz.symbols.${tile[1]}`)}`;
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
    text(x + 8, y + 8, tileText[0], { fill: ink(fill), "font-size": size * 0.27, "font-weight": "bold" }),
  );
}

function stacks(view, ui, ox, oy) {
  const { t } = ui;
  const s = view.state;
  const g = el("g", { class: "stacks" });
  g.append(heading(ox, oy - 12, t("stakz.stacks")));
  const tallest = Math.max(1, ...s.stacks.map((st) => st.length)) + 1;
  const base = oy + tallest * (TILE + 2);
  s.stacks.forEach((stack, k) => {
    const x = ox + k * (TILE + 16);
    g.append(text(x + TILE / 2, base + 14, String(k), { "font-size": 13 }));
    if (s.used.includes(k)) {
      g.append(text(x + TILE / 2, base + 30, t("stakz.used"), { "font-size": 10 }));
    }
    stack.forEach((tt, i) => g.append(tile(x, base - (i + 1) * (TILE + 2), tt)));
    // The place above the top tile, pressable for the selected tile when the move is legal.
    const action = ui.selected ? `${ui.selected}@${k}` : null;
    if (action && ui.legal.includes(action)) {
      const y = base - (stack.length + 1) * (TILE + 2);
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
  return { g, bottom: base + 40 };
}

function pile(view, ui, ox, oy) {
  const { t } = ui;
  const s = view.state;
  const g = el("g", { class: "pile" });
  g.append(heading(ox, oy - 8, t("stakz.pile", { count: s.pile.size })));
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
    g.append(actionTarget(node, action, t("stakz.end_draw", { colour: t(`stakz.colours.${c}`) }), ui));
  });
  return g;
}

function hands(view, ui, ox, oy) {
  const { t } = ui;
  const s = view.state;
  const g = el("g", { class: "hands" });
  let y = oy;
  s.hands.forEach((hand, player) => {
    const mine = player === ui.seat;
    const title = mine
      ? t("stakz.your_hand", { count: hand.size })
      : t("stakz.hand_of", { player: ui.playerName(player), count: hand.size });
    g.append(heading(ox, y, title));
    y += 10;
    if (hand.tiles) {
      hand.tiles.forEach((tt, i) => {
        let node = tile(ox + i * (TILE + 6), y, tt);
        if (mine && ui.legal.some((a) => a.startsWith(`${tt}@`))) {
          node = selectTarget(node, tt, t("stakz.select", { tile: tileWords(tt, t) }), ui);
        }
        g.append(node);
      });
    } else {
      // Only the backs show: their colours.
      ORDER.forEach((c, i) => {
        const fill = COLOURS[c];
        g.append(
          el("rect", { x: ox + i * 58, y, width: 50, height: 30, rx: 4, fill, stroke: "#111" }),
          text(ox + i * 58 + 25, y + 15, `${c} ${hand.colours[c] || 0}`, {
            fill: ink(fill),
            "font-size": 13,
          }),
        );
      });
    }
    y += TILE + 30;
  });
  return { g, bottom: y };
}

function scores(view, ui, ox, oy) {
  const { t } = ui;
  const s = view.state;
  const g = el("g", { class: "scores" });
  g.append(heading(ox, oy, t("stakz.round", { round: s.round, target: s.target })));
  s.scores.forEach((score, p) => {
    g.append(heading(ox, oy + 20 + p * 18, t("stakz.score_of", { player: ui.playerName(p), score }), {
      "font-size": 13,
    }));
  });
  return g;
}

export function render(view, ui) {
  for (const action of ui.legal) if (action.includes("@")) ui.board.add(action);
  const svg = root(760, 1, ui.t("stakz.board_label"));
  const top = stacks(view, ui, 20, 40);
  svg.append(top.g);
  svg.append(pile(view, ui, 20, top.bottom + 30));
  svg.append(scores(view, ui, 470, 28));
  const handsPart = hands(view, ui, 20, top.bottom + 110);
  svg.append(handsPart.g);
  const width = Math.max(760, 40 + view.state.stacks.length * (TILE + 16));
  svg.setAttribute("viewBox", `0 0 ${width} ${handsPart.bottom}`);
  return svg;
}

export function describe(action, t) {
  if (action === "end") return t("stakz.end");
  if (action.startsWith("end ")) return t("stakz.end_draw", { colour: t(`stakz.colours.${action[4]}`) });
  const match = /^(\w\w)@(\d+)$/.exec(action);
  if (match) return t("stakz.place", { tile: tileWords(match[1], t), stack: match[2] });
  return action;
}
