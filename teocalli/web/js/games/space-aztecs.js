// Space Aztecs: the eight piles (who holds which), the pile in your hands, the cards announced
// this round in time order, and every city: Aztecs, Temples and Flying Saucers (with what lies
// under them), Codex cards and the score so far. Press a pile to take it, a card of your pile to
// choose it, a victim's Aztec to capture it.
import { tOr } from "../i18n.js";
import { actionTarget, el, root, text } from "../svg.js";
import { heading, ink } from "./common.js";

const DATA = await (await fetch("/static/data/space-aztecs-cards.json")).json();
const CARDS = new Map(DATA.cards.map((c) => [c.id, c]));
const FILL = { pink: "#e75480", yellow: "#f2c200", blue: "#2f6fd0", green: "#2e8b57" };
const LETTER = { pink: "P", yellow: "Y", blue: "B", green: "G" };
const KIND_MARK = { aztec: "", temple: "⌂", saucer: "◎", codex: "✎" };
const W = 92;
const H = 50;

function cardWords(id, t) {
  const info = CARDS.get(id);
  if (!info) return id;
  if (!info.colour) {
    return t("aztecs.card_codex", { name: tOr(`aztecs.names.${id}`, info.name), time: info.time });
  }
  return t("aztecs.card", {
    name: tOr(`aztecs.names.${id}`, info.name),
    colour: t(`aztecs.colours.${info.colour}`),
    time: info.time,
    kind: t(`aztecs.kinds.${info.kind}`),
  });
}

/** A card: its set colour with the colour's letter, a mark for its kind, name, id and time. */
export function card(x, y, id, attrs = {}, extra = "") {
  const info = CARDS.get(id);
  const fill = info?.colour ? FILL[info.colour] : "#d9d2c0";
  const letter = info?.colour ? LETTER[info.colour] : "C";
  const name = info ? tOr(`aztecs.names.${id}`, info.name) : id;
  const short = name.length > 13 ? `${name.slice(0, 12)}…` : name;
  return el(
    "g",
    { class: "card", ...attrs },
    el("rect", { x, y, width: W, height: H, rx: 5, fill, stroke: "#222" }),
    text(x + 10, y + 10, letter, { fill: ink(fill), "font-size": 12, "font-weight": "bold" }),
    text(x + W - 10, y + 10, KIND_MARK[info?.kind] ?? "", { fill: ink(fill), "font-size": 13 }),
    text(x + W / 2, y + 25, short, { fill: ink(fill), "font-size": 11 }),
    text(x + W / 2, y + 40, `${id} ${info?.time ?? ""}${extra}`, { fill: ink(fill), "font-size": 9 }),
  );
}

function piles(view, ui, ox, oy) {
  const { t } = ui;
  const s = view.state;
  const g = el("g", { class: "piles" });
  g.append(heading(ox, oy - 8, t("aztecs.piles")));
  s.piles.forEach((pile, i) => {
    const x = ox + i * 62;
    const holder = pile.holder === null ? t("aztecs.free") : ui.playerName(pile.holder);
    let node = el(
      "g",
      { class: "pile" },
      el("rect", { x, y: oy, width: 54, height: 64, rx: 5, fill: "#6b4f2f", stroke: "#222" }),
      text(x + 27, oy + 20, pile.pile, { fill: "#fff", "font-size": 20, "font-weight": "bold" }),
      text(x + 27, oy + 44, t("aztecs.cards_n", { count: pile.size }), { fill: "#fff", "font-size": 10 }),
      text(x + 27, oy + 76, holder.length > 10 ? `${holder.slice(0, 9)}…` : holder, { "font-size": 10 }),
    );
    const action = `take ${pile.pile}`;
    node = actionTarget(node, action, t("aztecs.take", { pile: pile.pile, count: pile.size }), ui);
    g.append(node);
  });
  return g;
}

function yourPile(view, ui, ox, oy) {
  const { t } = ui;
  const s = view.state;
  const g = el("g", { class: "your-pile" });
  if (!s.your_pile) return { g, bottom: oy };
  g.append(heading(ox, oy - 8, t("aztecs.your_pile", { pile: s.your_pile.pile })));
  s.your_pile.cards.forEach((c, i) => {
    const x = ox + (i % 8) * (W + 6);
    const y = oy + Math.floor(i / 8) * (H + 6);
    const chosen = s.your_choice && s.your_choice.id === c.id;
    let node = card(x, y, c.id, chosen ? { class: "card selected" } : {});
    node = actionTarget(node, `choose ${c.id}`, t("aztecs.choose", { card: cardWords(c.id, t) }), ui);
    g.append(node);
  });
  const rows = Math.ceil(s.your_pile.cards.length / 8) || 1;
  return { g, bottom: oy + rows * (H + 6) + 24 };
}

function announced(view, ui, ox, oy) {
  const { t } = ui;
  const s = view.state;
  const g = el("g", { class: "announced" });
  const list = s.announced ?? (s.last_round ? s.last_round.map((id) => ({ card: id, played: true })) : []);
  if (!list.length && !s.has_chosen) return { g, bottom: oy };
  if (s.has_chosen) {
    const who = s.has_chosen.map((done, p) => `${ui.playerName(p)} ${done ? "✓" : "…"}`).join("  ");
    g.append(heading(ox, oy - 8, t("aztecs.choosing", { players: who }), { "font-size": 12 }));
    return { g, bottom: oy + 16 };
  }
  g.append(heading(ox, oy - 8, t(s.announced ? "aztecs.announced" : "aztecs.last_round")));
  list.forEach((entry, i) => {
    const x = ox + i * (W + 6);
    g.append(card(x, oy, entry.card, { opacity: entry.played ? 1 : 0.6 }));
    if (entry.player !== undefined) {
      g.append(text(x + W / 2, oy + H + 10, ui.playerName(entry.player), { "font-size": 10 }));
    }
  });
  return { g, bottom: oy + H + 34 };
}

function cities(view, ui, ox, oy) {
  const { t } = ui;
  const s = view.state;
  const g = el("g", { class: "cities" });
  let y = oy;
  const pending = s.pending?.kind === "capture" ? s.pending : null;
  s.cities.forEach((city, p) => {
    const total = city.score_now?.total ?? 0;
    g.append(heading(ox, y, t("aztecs.city_of", { player: ui.playerName(p), score: total })));
    y += 8;
    let x = ox;
    const row = [];
    for (const id of city.aztecs) row.push({ id, extra: "" });
    for (const temple of city.temples) row.push({ id: temple.temple, extra: temple.under.length ? ` +${temple.under.length}` : "" });
    for (const saucer of city.saucers) row.push({ id: saucer.saucer, extra: saucer.under.length ? ` +${saucer.under.length}` : "" });
    for (const id of city.codex) row.push({ id, extra: "" });
    if (!row.length) g.append(text(ox + 60, y + 14, t("aztecs.empty_city"), { "font-size": 11 }));
    row.forEach((entry, i) => {
      if (i && i % 8 === 0) {
        x = ox;
        y += H + 6;
      }
      let node = card(x, y, entry.id, {}, entry.extra);
      if (pending && pending.victim === p) {
        node = actionTarget(node, `capture ${entry.id}`, t("aztecs.capture", { card: cardWords(entry.id, t) }), ui);
      }
      g.append(node);
      x += W + 6;
    });
    y += (row.length ? H : 20) + 28;
  });
  return { g, bottom: y };
}

export function render(view, ui) {
  const { t } = ui;
  const s = view.state;
  for (const action of ui.legal) if (!["tuck", "keep"].includes(action)) ui.board.add(action);
  const svg = root(800, 1, t("aztecs.board_label"));
  svg.append(
    heading(20, 18, t("aztecs.status", {
      round: s.round,
      phase: t(`aztecs.phases.${s.phase}`),
      saucers: s.saucers_played,
      limit: s.saucer_limit,
      starter: ui.playerName(s.starting_player),
    }), { "font-size": 13 }),
  );
  svg.append(piles(view, ui, 20, 50));
  let y = 160;
  const mine = yourPile(view, ui, 20, y);
  svg.append(mine.g);
  y = mine.bottom;
  const told = announced(view, ui, 20, y + 6);
  svg.append(told.g);
  y = told.bottom + 10;
  if (s.pending) {
    const key = s.pending.kind === "capture" ? "aztecs.pending_capture" : "aztecs.pending_tuck";
    svg.append(heading(20, y, t(key, {
      player: ui.playerName(s.pending.player),
      victim: s.pending.victim !== undefined ? ui.playerName(s.pending.victim) : "",
      card: cardWords(s.pending.card ?? s.pending.saucer ?? "", t),
    }), { "font-size": 13 }));
    y += 24;
  }
  const towns = cities(view, ui, 20, y + 10);
  svg.append(towns.g);
  svg.setAttribute("viewBox", `0 0 800 ${towns.bottom}`);
  return svg;
}

export function describe(action, t) {
  const [verb, arg] = action.split(" ");
  if (verb === "take") return t("aztecs.take", { pile: arg, count: "" }).replace(/\s*\(\s*\)/, "");
  if (verb === "choose") return t("aztecs.choose", { card: cardWords(arg, t) });
  if (verb === "capture") return t("aztecs.capture", { card: cardWords(arg, t) });
  if (verb === "tuck") return t("aztecs.tuck");
  if (verb === "keep") return t("aztecs.keep");
  return action;
}
