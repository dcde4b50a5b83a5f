// Space Aztecs: the eight piles (who holds which), the pile in your hands, the cards announced
// this round in time order, and every city: Aztecs, Temples and Flying Saucers (with the cards
// under them drawn as strips below), Codex cards and the score so far. Press a pile to take it, a
// card of your pile to choose it, a victim's Aztec to capture it. Every card explains its rule and
// points in `data-tip`; what the last step changed carries `data-last`.
import { tOr } from "../i18n.js";
import { actionTarget, el, root, text } from "../svg.js";
import { heading, headingLines, ink, mark, namer, tip } from "./common.js";

const DATA = await (await fetch("/static/data/space-aztecs-cards.json")).json();
const CARDS = new Map(DATA.cards.map((c) => [c.id, c]));
const FILL = { pink: "#e75480", yellow: "#f2c200", blue: "#2f6fd0", green: "#2e8b57" };
const LETTER = { pink: "P", yellow: "Y", blue: "B", green: "G" };
const KIND_MARK = { aztec: "", temple: "⌂", saucer: "◎", codex: "✎" };
/** A card's width: 92 px, 106 on a phone (three to a row, its words at 12 px); set by render. */
let W = 92;
const H = 50;
const STRIP_WIDE = 13;
/** A phone (set by render): one column 340 px wide, no text under 12 px, three cards to a row. */
let narrow = false;
let STRIP = STRIP_WIDE;
const size = (px) => (narrow ? Math.max(12, px) : px);
const perRow = () => (narrow ? 3 : 8);
/** A name cut to `most` characters (fewer on a phone, where letters are larger). */
const cut = (name, most) => {
  const limit = narrow ? most - 3 : most;
  return name.length > limit ? `${name.slice(0, limit - 1)}…` : name;
};

/** `one` or `other` catalogue key by count (English plurals: 1 is singular, all else plural). */
function plural(t, one, other, count, params = {}) {
  return t(count === 1 ? one : other, { count, ...params });
}

function pointsWords(points, t) {
  return plural(t, "aztecs.points_one", "aztecs.points_other", points);
}

function cardName(id) {
  const info = CARDS.get(id);
  return info ? tOr(`aztecs.names.${id}`, info.name) : id;
}

function cardWords(id, t) {
  const info = CARDS.get(id);
  if (!info) return id;
  if (!info.colour) {
    return t("aztecs.card_codex", { name: cardName(id), time: info.time });
  }
  return t("aztecs.card", {
    name: cardName(id),
    colour: t(`aztecs.colours.${info.colour}`),
    time: info.time,
    kind: t(`aztecs.kinds.${info.kind}`),
  });
}

/** "a, b or c" for a short list. */
function orList(items, t) {
  if (items.length < 2) return items.join("");
  return t("aztecs.list_or", { head: items.slice(0, -1).join(", "), last: items[items.length - 1] });
}

/** What a card does and what it scores, in words. */
function ruleWords(id, t) {
  const info = CARDS.get(id);
  if (!info) return "";
  const colour = info.colour ? t(`aztecs.colours.${info.colour}`) : "";
  if (info.kind === "temple") return t("aztecs.rule_temple", { colour });
  if (info.kind === "saucer") return t("aztecs.rule_saucer", { colour });
  if (info.kind === "codex") {
    return t(`aztecs.codex_rules.${info.rule}`, { rate: DATA.codex_rates[info.rule] ?? "" });
  }
  let words;
  if (info.rule === "warrior") {
    const scale = DATA.warriors[info.name] ?? [];
    words = t("aztecs.rules.warrior", {
      counts: orList(scale.map((_, i) => String(i + 1)), t),
      scale: orList(scale.map(String), t),
    });
  } else {
    words = t(`aztecs.rules.${info.rule}`, {
      points: pointsWords(info.points, t),
      bonus: info.bonus ?? "",
      priest: DATA.priest_points,
    });
  }
  if (info.colour === "pink") words += ` ${t("aztecs.rule_pink", { penalty: DATA.pink_penalty })}`;
  return words;
}

/** A card's tooltip: its name, set, kind and time, then its rule and points. */
function cardTip(id, t) {
  return t("aztecs.tip_card", { card: cardWords(id, t), rule: ruleWords(id, t) });
}

/** A card: its set colour with the colour's letter, a mark for its kind, name, id and time. */
export function card(x, y, id, attrs = {}, extra = "") {
  const info = CARDS.get(id);
  const fill = info?.colour ? FILL[info.colour] : "#d9d2c0";
  const letter = info?.colour ? LETTER[info.colour] : "C";
  const name = cardName(id);
  const short = cut(name, 13);
  return el(
    "g",
    { class: "card", "data-card": id, ...attrs },
    el("rect", { x, y, width: W, height: H, rx: 5, fill, stroke: "#222" }),
    text(x + 10, y + 10, letter, { fill: ink(fill), "font-size": 12, "font-weight": "bold" }),
    text(x + W - 10, y + 10, KIND_MARK[info?.kind] ?? "", { fill: ink(fill), "font-size": 13 }),
    text(x + W / 2, y + 25, short, { fill: ink(fill), "font-size": size(11) }),
    text(x + W / 2, y + 40, `${id} ${info?.time ?? ""}${extra}`, { fill: ink(fill), "font-size": size(9) }),
  );
}

/** A card lying under a Temple or Saucer: a thin strip with its colour letter and name. */
function strip(x, y, id) {
  const info = CARDS.get(id);
  const fill = info?.colour ? FILL[info.colour] : "#d9d2c0";
  const letter = info?.colour ? LETTER[info.colour] : "C";
  const name = cardName(id);
  const short = cut(name, narrow ? 12 : 14);
  return el(
    "g",
    { class: "card under", "data-card": id },
    el("rect", { x, y, width: W - 12, height: STRIP - 1, rx: 2, fill, stroke: "#222", "stroke-width": 0.8 }),
    text(x + 7, y + STRIP / 2, letter, { fill: ink(fill), "font-size": size(8), "font-weight": "bold" }),
    text(x + (W - 12) / 2 + 4, y + STRIP / 2, short, { fill: ink(fill), "font-size": size(8) }),
  );
}

// --- what the last step changed ---------------------------------------------------------------
/** Where every card of the cities lies: "p:view", "p:temple:HOST" or "p:saucer:HOST". */
function places(view) {
  const map = new Map();
  (view.state.cities ?? []).forEach((city, p) => {
    for (const id of city.aztecs) map.set(id, { p, at: "view" });
    for (const id of city.codex) map.set(id, { p, at: "view" });
    for (const { temple, under } of city.temples) {
      map.set(temple, { p, at: "view" });
      for (const u of under) map.set(u, { p, at: "temple", host: temple });
    }
    for (const { saucer, under } of city.saucers) {
      map.set(saucer, { p, at: "view" });
      for (const u of under) map.set(u, { p, at: "saucer", host: saucer });
    }
  });
  return map;
}

const placeKey = (where) => (where ? `${where.p}:${where.at}:${where.host ?? ""}` : "");

/** The cards of the round with who played each, in playing order: `announced`, or `last_round`
 * (one card per player, by seat) from the starting player (the earliest time) clockwise. */
function roundCards(view) {
  const s = view.state;
  if (s.announced) return s.announced.map((e) => ({ player: e.player, card: e.card, time: e.time, played: e.played }));
  const n = s.last_round?.length ?? 0;
  return (s.last_round ?? [])
    .map((id, player) => ({ player, card: id, time: CARDS.get(id)?.time ?? "", played: true }))
    .sort((a, b) => ((a.player - s.starting_player + n) % n) - ((b.player - s.starting_player + n) % n));
}

/** Everything the last step changed, from the previous view (or, without one, the log line). */
export function lastChanges(prev, view, lastLog) {
  const s = view.state;
  // cards: id -> "placed" | "captured" | "tucked" | "sheltered" | "kept"
  const out = { piles: new Set(), cards: new Map(), chosen: false, choosing: false, pending: false };
  const usable = prev && prev.state && prev.game === view.game && prev.step + 1 === view.step;
  if (usable) {
    const p = prev.state;
    s.piles.forEach((pile, i) => {
      if (pile.holder !== null && pile.holder !== p.piles[i]?.holder) out.piles.add(pile.pile);
    });
    const before = places(prev);
    for (const [id, where] of places(view)) {
      if (placeKey(before.get(id)) === placeKey(where)) continue;
      let kind = "placed";
      if (where.at === "saucer") kind = "captured";
      else if (where.at === "temple") kind = before.has(where.host) ? "tucked" : "sheltered";
      out.cards.set(id, kind);
    }
    out.chosen = Boolean(s.your_choice) && s.your_choice.id !== p.your_choice?.id;
    out.choosing = Boolean(s.has_chosen) && JSON.stringify(s.has_chosen) !== JSON.stringify(p.has_chosen);
    out.pending = Boolean(s.pending) && JSON.stringify(s.pending) !== JSON.stringify(p.pending);
    return out;
  }
  const entry = Array.isArray(lastLog) ? lastLog : null;
  const words = typeof entry?.[1] === "string" ? entry[1].trim().split(/\s+/) : [];
  const player = entry?.[0];
  const mine = (e) => e.player === player;
  if (words[0] === "take" && words[1]) out.piles.add(words[1].toUpperCase());
  else if (words[0] === "capture" && words[1]) out.cards.set(words[1].toUpperCase(), "captured");
  else if (words[0] === "choose" && s.phase !== "choose") {
    // The last choice revealed the round: its cards went into the cities.
    const now = places(view);
    for (const e of roundCards(view)) {
      if (!e.played) continue;
      const at = now.get(e.card)?.at;
      out.cards.set(e.card, at === "saucer" ? "captured" : at === "temple" ? "sheltered" : "placed");
    }
  } else if (words[0] === "choose" && s.phase === "choose") {
    out.choosing = true;
    out.chosen = player === view.player && Boolean(s.your_choice);
  } else if (words[0] === "chose") out.choosing = true;
  else if (words[0] === "tuck" || words[0] === "keep") {
    const last = roundCards(view).filter(mine).at(-1);
    if (last) out.cards.set(last.card, words[0] === "tuck" ? "tucked" : "kept");
  }
  out.pending = Boolean(s.pending);
  return out;
}

// --- drawing ------------------------------------------------------------------------------------
function piles(view, ui, changes, ox, oy) {
  const { t } = ui;
  const s = view.state;
  const g = el("g", { class: "piles" });
  g.append(heading(ox, oy - 8, t("aztecs.piles")));
  const memory = new Map((s.memory ?? []).map((m) => [m.pile, m]));
  const across = narrow ? 5 : Infinity;
  s.piles.forEach((pile, i) => {
    const x = ox + (i % across) * 62;
    const y = oy + Math.floor(i / across) * 92;
    const holder = pile.holder === null ? t("aztecs.free") : ui.playerName(pile.holder);
    let node = el(
      "g",
      { class: "pile", "data-pile": pile.pile },
      el("rect", { x, y, width: 54, height: 64, rx: 5, fill: "#6b4f2f", stroke: "#222" }),
      text(x + 27, y + 20, pile.pile, { fill: "#fff", "font-size": 20, "font-weight": "bold" }),
      text(x + 27, y + 44, plural(t, "aztecs.cards_one", "aztecs.cards_other", pile.size), { fill: "#fff", "font-size": size(10) }),
      text(x + 27, y + 76, cut(holder, 10), { "font-size": size(10) }),
    );
    const action = `take ${pile.pile}`;
    node = actionTarget(node, action, t("aztecs.take", { pile: pile.pile, count: pile.size }), ui);
    let words = t(pile.holder === null ? "aztecs.tip_pile_free" : "aztecs.tip_pile_held", {
      pile: pile.pile,
      cards: plural(t, "aztecs.cards_one", "aztecs.cards_other", pile.size),
      player: holder,
    });
    const seen = memory.get(pile.pile);
    if (seen && seen.cards.length && s.your_pile?.pile !== pile.pile) {
      words += ` ${t("aztecs.tip_pile_seen", { round: seen.held_in_round, cards: seen.cards.map(cardName).join(", ") })}`;
    }
    g.append(mark(tip(node, words), changes.piles.has(pile.pile) && "taken"));
  });
  return { g, bottom: oy + Math.ceil(s.piles.length / Math.min(across, s.piles.length || 1)) * 92 };
}

function yourPile(view, ui, changes, ox, oy) {
  const { t } = ui;
  const s = view.state;
  const g = el("g", { class: "your-pile" });
  if (!s.your_pile) return { g, bottom: oy };
  g.append(heading(ox, oy - 8, t("aztecs.your_pile", { pile: s.your_pile.pile })));
  s.your_pile.cards.forEach((c, i) => {
    const x = ox + (i % perRow()) * (W + 6);
    const y = oy + Math.floor(i / perRow()) * (H + 6);
    const chosen = s.your_choice && s.your_choice.id === c.id;
    let node = card(x, y, c.id, chosen ? { class: "card selected" } : {});
    node = actionTarget(node, `choose ${c.id}`, t("aztecs.choose", { card: cardWords(c.id, t) }), ui);
    g.append(mark(tip(node, cardTip(c.id, t)), chosen && changes.chosen && "chosen"));
  });
  const rows = Math.ceil(s.your_pile.cards.length / perRow()) || 1;
  return { g, bottom: oy + rows * (H + 6) + 24 };
}

function announced(view, ui, changes, ox, oy) {
  const { t } = ui;
  const s = view.state;
  const g = el("g", { class: "announced" });
  const list = roundCards(view);
  if (!list.length && !s.has_chosen) return { g, bottom: oy };
  if (s.has_chosen) {
    const who = s.has_chosen.map((done, p) => `${ui.playerName(p)} ${done ? "✓" : "…"}`).join("  ");
    const line = narrow
      ? headingLines(ox, oy - 8, t("aztecs.choosing", { players: who }), 36, 17, { "font-size": 12 })
      : { node: heading(ox, oy - 8, t("aztecs.choosing", { players: who }), { "font-size": 12 }), height: 17 };
    g.append(mark(tip(line.node, t("aztecs.tip_choosing")), changes.choosing && "chosen"));
    return { g, bottom: oy + line.height - 1 };
  }
  g.append(heading(ox, oy - 8, t(s.announced ? "aztecs.announced" : "aztecs.last_round")));
  list.forEach((entry, i) => {
    const x = ox + (i % perRow()) * (W + 6);
    const y = oy + Math.floor(i / perRow()) * (H + 30);
    const node = card(x, y, entry.card, { opacity: entry.played ? 1 : 0.6 });
    const words = `${cardTip(entry.card, t)} ${t(entry.played ? "aztecs.tip_played_by" : "aztecs.tip_waiting", {
      player: ui.playerName(entry.player),
    })}`;
    g.append(mark(tip(node, words), changes.cards.has(entry.card) && "revealed"));
    g.append(text(x + W / 2, y + H + 10, narrow ? cut(ui.playerName(entry.player), 16) : ui.playerName(entry.player), { "font-size": size(10) }));
  });
  return { g, bottom: oy + (Math.ceil(list.length / perRow()) - 1) * (H + 30) + H + 34 };
}

function cities(view, ui, changes, ox, oy) {
  const { t } = ui;
  const s = view.state;
  const g = el("g", { class: "cities" });
  let y = oy;
  const pending = s.pending?.kind === "capture" ? s.pending : null;
  s.cities.forEach((city, p) => {
    const total = city.score_now?.total ?? 0;
    const title = t("aztecs.city_of", { player: ui.playerName(p), score: total });
    const lines = narrow ? headingLines(ox, y, title, 36, 17) : { node: heading(ox, y, title), height: 17 };
    g.append(lines.node);
    y += 8 + lines.height - 17;
    const row = [];
    for (const id of city.aztecs) row.push({ id, under: [] });
    for (const temple of city.temples) row.push({ id: temple.temple, under: temple.under, host: "temple" });
    for (const saucer of city.saucers) row.push({ id: saucer.saucer, under: saucer.under, host: "saucer" });
    for (const id of city.codex) row.push({ id, under: [] });
    if (!row.length) g.append(text(ox + 60, y + 14, t("aztecs.empty_city"), { "font-size": size(11) }));
    for (let start = 0; start < row.length; start += perRow()) {
      const line = row.slice(start, start + perRow());
      const deepest = Math.max(0, ...line.map((e) => e.under.length));
      line.forEach((entry, i) => {
        const x = ox + i * (W + 6);
        const extra = entry.under.length ? ` +${entry.under.length}` : "";
        let node = card(x, y, entry.id, {}, extra);
        if (pending && pending.victim === p) {
          node = actionTarget(node, `capture ${entry.id}`, t("aztecs.capture", { card: cardWords(entry.id, t) }), ui);
        }
        let words = cardTip(entry.id, t);
        if (entry.host) {
          const names = entry.under.map(cardName).join(", ");
          if (!entry.under.length) words += ` ${t("aztecs.tip_holds_nothing")}`;
          else if (entry.host === "temple") words += ` ${t("aztecs.tip_temple_holds", { cards: names })}`;
          else words += ` ${t("aztecs.tip_saucer_holds", { cards: names, points: pointsWords(entry.under.length, t) })}`;
        }
        g.append(mark(tip(node, words), changes.cards.get(entry.id)));
        entry.under.forEach((id, k) => {
          const under = strip(x + 6, y + H + 1 + k * STRIP, id);
          const where = t(entry.host === "temple" ? "aztecs.tip_under_temple" : "aztecs.tip_under_saucer", {
            host: cardName(entry.id),
          });
          g.append(mark(tip(under, `${cardTip(id, t)} ${where}`), changes.cards.get(id)));
        });
      });
      y += H + deepest * STRIP + 8;
    }
    y += (row.length ? 0 : 20) + 20;
  });
  return { g, bottom: y };
}

export function render(view, ui) {
  const { t } = ui;
  const s = view.state;
  const changes = lastChanges(ui.prev ?? null, view, ui.lastLog ?? null);
  for (const action of ui.legal) if (!["tuck", "keep"].includes(action)) ui.board.add(action);
  // A phone: one column 340 px wide drawn 1:1 (piles five to a row, cards three to a row).
  narrow = Boolean(ui.narrow);
  STRIP = narrow ? 16 : STRIP_WIDE;
  W = narrow ? 106 : 92;
  const width = narrow ? 340 : 800;
  const ox = narrow ? 6 : 20;
  const svg = root(width, 1, t("aztecs.board_label"));
  const statusWords = t("aztecs.status", {
    round: s.round,
    phase: t(`aztecs.phases.${s.phase}`),
    saucers: s.saucers_played,
    limit: s.saucer_limit,
    starter: ui.playerName(s.starting_player),
  });
  const status = narrow
    ? headingLines(ox, 18, statusWords, 36, 17, { "font-size": 13 })
    : { node: heading(20, 18, statusWords, { "font-size": 13 }), height: 17 };
  svg.append(tip(status.node, t("aztecs.tip_status", { limit: s.saucer_limit })));
  const heaps = piles(view, ui, changes, ox, 50 + status.height - 17);
  svg.append(heaps.g);
  let y = narrow ? heaps.bottom + 24 : 160;
  const mine = yourPile(view, ui, changes, ox, y);
  svg.append(mine.g);
  y = mine.bottom;
  const told = announced(view, ui, changes, ox, y + 6);
  svg.append(told.g);
  y = told.bottom + 10;
  if (s.pending) {
    const key = s.pending.kind === "capture" ? "aztecs.pending_capture" : "aztecs.pending_tuck";
    const words = t(key, {
      player: ui.playerName(s.pending.player),
      victim: s.pending.victim !== undefined ? ui.playerName(s.pending.victim) : "",
      card: cardWords(s.pending.card ?? s.pending.saucer ?? "", t),
    });
    const line = narrow
      ? headingLines(ox, y, words, 36, 17, { "font-size": 13 })
      : { node: heading(20, y, words, { "font-size": 13 }), height: 17 };
    svg.append(mark(line.node, changes.pending && "asked"));
    y += 24 + line.height - 17;
  }
  const towns = cities(view, ui, changes, ox, y + 10);
  svg.append(towns.g);
  svg.setAttribute("viewBox", `0 0 ${width} ${towns.bottom}`);
  return svg;
}

// --- what changes the game's course, in sentences ---------------------------------------------

/** Sentences for the round's reveal, captures, tucks, Temples sheltering, the last round, the end. */
export function announce(prev, view, t, names) {
  if (!prev?.state || !view?.state || prev.game !== view.game) return [];
  const name = namer(names, (p) =>
    t(p === view.player ? "aztecs.player_you" : "aztecs.player_n", { n: p + 1 }),
  );
  const p = prev.state;
  const s = view.state;
  const said = [];
  const revealed = p.phase === "choose" && s.phase !== "choose";
  const round = roundCards(view);
  if (revealed && round.length) {
    const cards = round
      .map((e) => t("aztecs.announce_reveal_item", { player: name(e.player), card: cardName(e.card), time: e.time }))
      .join("; ");
    said.push(t("aztecs.announce_reveal", { cards }));
  }
  const playedBy = new Map(round.map((e) => [e.card, e.player]));
  const before = places(prev);
  const sheltered = new Map();
  for (const [id, where] of places(view)) {
    const was = before.get(id);
    if (placeKey(was) === placeKey(where)) continue;
    if (where.at === "saucer") {
      const victim = was ? was.p : playedBy.get(id);
      said.push(t("aztecs.announce_capture", {
        player: name(where.p),
        card: cardName(id),
        victim: victim === undefined ? "?" : name(victim),
        saucer: t(`aztecs.colours.${CARDS.get(where.host)?.colour ?? "codex"}`),
      }));
    } else if (where.at === "temple") {
      if (before.has(where.host)) {
        said.push(t("aztecs.announce_tuck", { player: name(where.p), card: cardName(id) }));
      } else {
        sheltered.set(where.host, [where.p, (sheltered.get(where.host)?.[1] ?? 0) + 1]);
      }
    }
  }
  for (const [temple, [owner, count]] of sheltered) {
    said.push(plural(t, "aztecs.announce_shelter_one", "aztecs.announce_shelter_other", count, {
      player: name(owner),
      colour: t(`aztecs.colours.${CARDS.get(temple)?.colour ?? "codex"}`),
    }));
  }
  if (!view.terminal && p.saucers_played < s.saucer_limit && s.saucers_played >= s.saucer_limit) {
    said.push(t("aztecs.announce_last_round", { count: s.saucers_played }));
  }
  if (view.terminal && !prev.terminal && view.outcome) {
    const { winners, scores, reason } = view.outcome;
    const translated = t(`reasons.${reason}`);
    const why = translated.startsWith("reasons.") ? String(reason) : translated;
    const points = winners.length ? pointsWords(scores[winners[0]], t) : "";
    if (winners.length === 1) said.push(t("aztecs.announce_end_win", { reason: why, player: name(winners[0]), points }));
    else said.push(t("aztecs.announce_end_tie", { reason: why, players: winners.map(name).join(", "), points }));
  }
  return said;
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
