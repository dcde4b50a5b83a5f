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

function capital(words) {
  return words ? words[0].toUpperCase() + words.slice(1) : words;
}

/** Names seats as the table does when it says how, else "Seat N". */
function nameOf(playerName, t) {
  return (p) => (playerName ? playerName(p) : t("table.seat_name", { n: p + 1 }));
}

/** Mark an element as changed by the last step (`kind` says how), if it was. */
function mark(node, kind) {
  if (kind) node.setAttribute("data-last", kind);
  return node;
}

/** Give a piece words on hover and focus; focusable unless it already is (a move target). */
function tip(node, words) {
  node.setAttribute("data-tip", words);
  if (!node.hasAttribute("tabindex")) {
    node.setAttribute("tabindex", "0");
    if (!node.hasAttribute("role")) node.setAttribute("role", "img");
    if (!node.hasAttribute("aria-label")) node.setAttribute("aria-label", words);
  }
  return node;
}

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

function sticks(view, ui, change) {
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

function supplies(view, ui, ox, oy, change) {
  const { t } = ui;
  const s = view.state;
  const g = el("g", { class: "supply" });
  s.supply.forEach((supply, p) => {
    const mine = p === ui.seat;
    const y = oy + p * 52;
    const who = { player: ui.playerName(p) };
    const label = heading(ox, y, t(mine ? "stackback.your_supply" : "stackback.supply_of", who), {
      class: "svg-heading supply-label",
    });
    // On a pass (or a stick that slipped) the player's label is what changed: a framed row
    // (under the supply's colours, which keep their own tips) that says so.
    const labelKind = change.labels.get(p);
    if (labelKind) {
      const words = t(labelKind === "fumbled" ? "stackback.tip_fumbled" : "stackback.tip_passed", who);
      const frame = el("rect", {
        x: ox - 6,
        y: y - 14,
        // The row's three colours, or the label if longer (about 7.6 px a character at 13 px).
        width: Math.max(3 * 120 + 4, label.textContent.length * 7.6 + 12),
        height: 50,
        rx: 6,
        fill: "transparent",
        stroke: "#000",
        "stroke-width": 3,
      });
      g.append(mark(tip(el("g", { class: "last-move supply-row" }, frame, label), words), labelKind));
    } else {
      g.append(label);
    }
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
      const count = supply[c] ?? 0;
      const params = { player: ui.playerName(p), colour: colourWords(c, t), count, length: LENGTH[c] };
      const words = count === 1 ? t("stackback.tip_supply_one", params) : t("stackback.tip_supply_other", params);
      g.append(mark(tip(node, words), change.supply.get(p) === c ? "placed" : null));
    });
  });
  return g;
}

@@RENDER@@
/**
 * Sentences for what changed the game's course between `prev` and `view` (one step apart): a pass
 * (who; and after piles, how many), a stick that slipped, one more turn without a stick ending the
 * game, the end. `playerName` (optional) names a seat as the table does.
 */
export function announce(prev, view, t, playerName) {
  if (!prev?.state || !view?.state) return [];
  const name = nameOf(playerName, t);
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
