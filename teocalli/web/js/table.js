// The table page: one WebSocket to the server, which is the only authority. The page shows the
// state messages (board, whose turn, clock, log, result) one step at a time, at the table's pace,
// so a person can follow a bot's quick steps; it sends moves as notation with the newest step it
// knows, and explains a refused move in the server's words. It reconnects by itself.
//
// What a renderer gets and may give back (ui.prev, ui.lastLog, data-last, data-tip, announce()) is
// the "Renderer contract" of docs/web.md.
import { fitBoard, NARROW } from "./fit.js";
import { applyI18n, loadCatalogue, lookup, t, tOr } from "./i18n.js";
import { loadRenderer } from "./games/index.js";
import { announcements, sayInBanner } from "./announce.js";
import { beep, setSound, signalTurn, soundOn } from "./signals.js";
import { installTips, refreshTips } from "./tips.js";

const $ = (id) => document.getElementById(id);

const DEFAULT_PACE = 0.8; // seconds a step stays before the next one shows (table.pace overrides)
const ERROR_MS = 8000; // a refusal's message goes after this long (or at the next step)
const KEEP_EVENTS = 60; // announced events kept in the log
const MAX_BEHIND = 40; // states waiting beyond this: nobody follows that far behind, show the newest

/** Seat and token from the link: `/table/ID?seat=K#token=T` (either part may be in either place). */
export function parseLink(location) {
  const match = /\/table\/([^/?#]+)/.exec(location.pathname);
  const query = new URLSearchParams(location.search);
  const fragment = new URLSearchParams(location.hash.replace(/^#/, ""));
  const seatText = query.get("seat") ?? fragment.get("seat");
  const seat = seatText === null || seatText === "" ? null : Number(seatText);
  const token = fragment.get("token") ?? query.get("token");
  return { tableId: match ? decodeURIComponent(match[1]) : null, seat, token };
}

const link = parseLink(window.location);
const page = {
  hint: null, // the last {"type": "hint"} answer
  socket: null,
  state: null, // the "state" message shown now
  latest: null, // the newest "state" message received (shown, or waiting in the queue)
  queue: [], // state messages received, not shown yet (oldest first)
  showTimer: null,
  shownAt: 0,
  prevView: null, // the view one step before the shown one, when that is what was shown before
  arriving: false, // the next drawing is a new step: its data-last pieces arrive (CSS animation)
  renderer: null,
  starting: null,
  selected: null,
  retries: 0,
  bots: [],
  replay: null, // the replay viewer (after the end): {frames, index, renderer}
  replayCache: null, // {latest, data}: the replay as fetched for the newest state we knew
  history: null, // a log entry pressed: {step, frames}, shown in the board area
  historyAsk: 0,
  events: new Map(), // step -> sentences announced for it (kept in the log)
  errorTimer: null,
  gameTitle: "",
  closing: false,
};

function seatsInfo() {
  return (page.state ?? page.latest)?.table?.seats ?? [];
}

function playerName(player) {
  const info = seatsInfo().find((s) => s.seat === player);
  let name;
  if (info?.name) name = info.name;
  else if (info?.kind === "bot") name = t("table.bot_name", { bot: info.bot, n: player + 1 });
  else name = t("table.seat_name", { n: player + 1 });
  return player === link.seat ? t("table.you_suffix", { name }) : name;
}

function send(message) {
  if (page.socket && page.socket.readyState === WebSocket.OPEN) {
    page.socket.send(JSON.stringify(message));
    return true;
  }
  showError(t("table.not_connected"));
  return false;
}

/** Before the person does anything: show the newest state (never act on an old one). */
function catchUp() {
  leaveHistory();
  flush();
}

function act(action) {
  hideError();
  catchUp();
  if (!page.state) return;
  send({ type: "act", action, step: page.state.step });
}

// Judging a move without playing it (a renderer's ghost piece): the server answers "judged" with
// the rule's words. Resolves {legal, reason, step}, or null if it was not answered (too fast, not
// connected): the renderer asks again.
const judging = new Map(); // action -> resolvers waiting for its verdict

function judge(action) {
  return new Promise((resolve) => {
    if (!page.state || page.socket?.readyState !== WebSocket.OPEN) {
      resolve(null);
      return;
    }
    judging.set(action, [...(judging.get(action) ?? []), resolve]);
    page.socket.send(JSON.stringify({ type: "judge", action, step: page.state.step }));
  });
}

function judged(message) {
  const waiting = message ? (judging.get(message.action) ?? []) : [...judging.values()].flat();
  if (message) judging.delete(message.action);
  else judging.clear();
  const verdict = message ? { legal: Boolean(message.legal), reason: message.reason ?? null, step: message.step } : null;
  for (const resolve of waiting) resolve(verdict);
}

/** The server's words, with seats counted from 1 as people count them. */
function explain(message) {
  const text = String(message);
  const outOfTurn = /^it is not player (\d+)'s turn$/.exec(text);
  if (outOfTurn) {
    const movers = page.latest?.view?.to_move ?? [];
    return t("table.not_your_turn", { players: movers.map(playerName).join(", ") || "?" });
  }
  return text;
}

/** Show a message in the error banner: framed as a refusal unless `plain`; it goes after a few
 * seconds (or at the next step) unless `sticky`. */
function showError(message, { sticky = false, plain = false } = {}) {
  const box = $("error");
  box.textContent = plain ? String(message) : t("table.refused", { message: explain(message) });
  box.hidden = false;
  window.clearTimeout(page.errorTimer);
  page.errorTimer = sticky ? null : window.setTimeout(hideError, ERROR_MS);
}

function hideError() {
  window.clearTimeout(page.errorTimer);
  page.errorTimer = null;
  $("error").hidden = true;
  $("error").textContent = "";
}

function describe(renderer, action) {
  try {
    return renderer?.describe ? renderer.describe(action, t) : action;
  } catch {
    return action;
  }
}

/** What a renderer gets for a view nobody may act on (a replay frame, a step of the log). */
function viewUi(view, { prev = null, lastLog = null } = {}) {
  return {
    t,
    seat: link.seat,
    players: view.players,
    legal: [],
    interactive: false,
    selected: null,
    narrow: NARROW.matches,
    board: new Set(),
    prev,
    lastLog,
    act() {},
    select() {},
    playerName,
  };
}

function makeUi(state, interactive) {
  return {
    t,
    seat: state.seat ?? null,
    players: state.view.players,
    legal: interactive ? state.legal : [],
    interactive,
    selected: interactive ? page.selected : null,
    narrow: NARROW.matches, // a phone or a touch screen: renderers may lay the board out in one column
    board: new Set(),
    prev: page.prevView,
    lastLog: state.log.at(-1) ?? null,
    act,
    judge,
    select(key) {
      page.selected = key;
      renderPlay({ focusTarget: key !== null });
    },
    playerName,
  };
}

function isMyTurn(state) {
  return Boolean(state) && state.seat !== null && state.seat !== undefined && !state.view.terminal && state.legal.length > 0;
}

// --- drawing the live table -------------------------------------------------------------------
function renderTurn(state) {
  const view = state.view;
  const turn = $("turn");
  if (view.terminal) {
    turn.textContent = t("table.game_over");
    turn.classList.remove("mine");
    return;
  }
  const movers = view.to_move;
  const mine = state.seat !== null && movers.includes(state.seat);
  const names = movers.map(playerName).join(", ");
  const kind = view.decision;
  if (mine && kind === "simultaneous") turn.textContent = t("table.your_choice");
  else if (mine && kind === "race") turn.textContent = t("table.race");
  else if (mine) turn.textContent = t("table.your_turn");
  else if (kind === "simultaneous") turn.textContent = t("table.waiting_choice", { players: names });
  else turn.textContent = t("table.waiting_for", { players: names });
  turn.classList.toggle("mine", mine);
}

/** The tab's title and icon say whether it is the person's turn; a beep if they want one. */
function signal(state, before) {
  const mine = isMyTurn(state);
  const game = page.gameTitle;
  signalTurn(mine, mine ? t("table.page_title_your_turn", { game }) : t("table.page_title_game", { game }));
  document.body.dataset.myTurn = String(mine);
  if (mine && before && !isMyTurn(before)) beep();
}

function formatSeconds(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function renderClock() {
  const box = $("clock");
  // The clock is the table's, not the step's: always the newest one.
  const latest = page.latest;
  const clock = latest?.clock;
  if (!clock) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const elapsed = (performance.now() - latest.receivedAt) / 1000;
  const mode = t(`clock.mode_${clock.mode}`);
  const parts = clock.remaining.map((left, seat) => {
    const running = clock.running_for === seat;
    const shown = running ? left - elapsed : left;
    const text = t("clock.seat", { player: playerName(seat), time: formatSeconds(shown) });
    return `<span class="clock-seat${running ? " running" : ""}${shown < 10 && running ? " low" : ""}">${
      running ? "▶ " : ""
    }${escapeHtml(text)}</span>`;
  });
  box.innerHTML = `<span class="clock-mode">${escapeHtml(mode)}</span> ${parts.join(" ")}`;
}

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The log: one entry per step, each a button showing the board after that step (`pick(step)`),
 * with the events announced for it. Entries that did not change stay (the list is a live region:
 * only new entries are read out).
 */
function renderLog(list, log, renderer, { pick = null, current = null, events = null } = {}) {
  const wanted = log.map(([player, entry], i) => {
    const text = t("table.log_entry", { player: playerName(player), move: describe(renderer, entry) });
    const said = events?.get(i + 1) ?? [];
    return { entry, text, said, key: `${entry}\u0000${text}\u0000${said.join("\u0000")}` };
  });
  const children = [...list.children];
  let keep = 0;
  while (keep < children.length && keep < wanted.length && children[keep].dataset.key === wanted[keep].key) keep += 1;
  for (const child of children.slice(keep)) child.remove();
  wanted.slice(keep).forEach((want, offset) => {
    const step = keep + offset + 1;
    const item = document.createElement("li");
    item.dataset.key = want.key;
    item.dataset.step = String(step);
    item.title = want.entry;
    if (pick) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "log-step";
      button.textContent = want.text;
      button.setAttribute("aria-label", t("table.log_show", { step, entry: want.text }));
      button.addEventListener("click", () => pick(step));
      item.append(button);
    } else {
      item.textContent = want.text;
    }
    for (const sentence of want.said) {
      const event = document.createElement("p");
      event.className = "log-event";
      event.textContent = sentence;
      item.append(event);
    }
    list.append(item);
  });
  for (const item of list.children) {
    const here = current !== null && Number(item.dataset.step) === current;
    item.classList.toggle("current", here);
    item.querySelector("button")?.setAttribute("aria-current", here ? "step" : "false");
  }
  if (keep < wanted.length || children.length !== wanted.length) list.scrollTop = list.scrollHeight;
}

function renderMoves(state, ui) {
  const over = state.view.terminal;
  // After the end there is nothing to do: no moves, no hints, no box to type in.
  $("moves-section").hidden = over;
  $("skip-to-moves").hidden = over;
  $("moves-jump").hidden = over;
  const list = $("moves");
  const filter = $("move-filter").value.trim().toLowerCase();
  list.replaceChildren();
  if (!state.legal.length && !over) {
    const item = document.createElement("li");
    item.className = "hint";
    item.textContent = t(state.seat === null ? "table.spectating" : "table.no_moves");
    list.append(item);
  }
  for (const action of state.legal) {
    const words = describe(page.renderer, action);
    if (filter && !`${words} ${action}`.toLowerCase().includes(filter)) continue;
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.move = action;
    if (page.hint && page.hint.step === state.step && page.hint.action === action) button.dataset.hint = "true";
    button.textContent = words === action ? action : `${words} (${action})`;
    button.addEventListener("click", () => act(action));
    item.append(button);
    list.append(item);
  }
  // Moves the board does not offer directly (end a turn, pass, keep...) get buttons beside it.
  const bar = $("actionbar");
  bar.replaceChildren();
  for (const action of state.legal) {
    if (ui.board.has(action)) continue;
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.action = action;
    button.className = "legal";
    button.textContent = describe(page.renderer, action);
    button.addEventListener("click", () => act(action));
    bar.append(button);
  }
}

function formatPoints(points) {
  return typeof points === "number" ? String(Math.round(points * 100) / 100) : String(points);
}

/** A player's fourth cell: how their score was made, as the engine breaks it down. */
function breakdownCell(player, parts) {
  const cell = document.createElement("td");
  cell.className = "breakdown";
  if (!Array.isArray(parts) || !parts.length) return cell;
  const list = document.createElement("ul");
  list.setAttribute("aria-label", t("result.breakdown", { player: playerName(player) }));
  for (const [label, points] of parts) {
    const item = document.createElement("li");
    item.dataset.label = String(label);
    item.dataset.points = String(points);
    const count = typeof points === "number" ? points : Number(points);
    item.textContent = t("result.part", { label, points: formatPoints(points), count });
    list.append(item);
  }
  cell.append(list);
  return cell;
}

function renderResult(view) {
  const box = $("result");
  if (!view.terminal || !view.outcome) {
    box.hidden = true;
    return;
  }
  const outcome = view.outcome;
  const solo = outcome.scores.length === 1;
  const won = outcome.scores.map((_, p) =>
    Array.isArray(outcome.won) ? Boolean(outcome.won[p]) : outcome.ranks[p] === 0,
  );
  const rows = outcome.scores
    .map((score, p) => ({ p, score, rank: outcome.ranks[p] }))
    .sort((a, b) => a.rank - b.rank || a.p - b.p);
  // Reasons are the engine's own sentences: the catalogue maps each to its translation.
  const reason = lookup("reasons")?.[outcome.reason] ?? String(outcome.reason);
  box.innerHTML = "";
  const title = document.createElement("h2");
  title.textContent = t("result.title");
  const who = document.createElement("p");
  who.className = "winners";
  if (solo) {
    // One player: they won or lost; never an empty winner or a place "2 of 1".
    if (link.seat === 0) who.textContent = t(won[0] ? "result.you_won" : "result.you_lost");
    else who.textContent = t(won[0] ? "result.player_won" : "result.player_lost", { player: playerName(0) });
  } else if (!outcome.winners.length) {
    who.textContent = t("result.no_winner");
  } else {
    const winners = outcome.winners.map(playerName).join(", ");
    who.textContent = t(outcome.winners.length > 1 ? "result.winners" : "result.winner", { players: winners });
  }
  const why = document.createElement("p");
  why.textContent = t("result.reason", { reason });
  box.append(title, who, why);
  if (outcome.lower_is_better) {
    const lower = document.createElement("p");
    lower.className = "lower-is-better";
    lower.textContent = t("result.lower_is_better");
    box.append(lower);
  }
  const table = document.createElement("table");
  table.className = "scores";
  // How each score was made (the engine's breakdown, when it gives one): a fourth column.
  const breakdown = Array.isArray(outcome.breakdown) && outcome.breakdown.some((p) => p?.length) ? outcome.breakdown : null;
  const headers = ["result.place", "result.player", "result.score", ...(breakdown ? ["result.parts"] : [])];
  table.innerHTML = `<thead><tr>${headers.map((key) => `<th scope="col">${escapeHtml(t(key))}</th>`).join("")}</tr></thead>`;
  const body = document.createElement("tbody");
  for (const row of rows) {
    const tr = document.createElement("tr");
    tr.className = "player";
    tr.dataset.player = String(row.p);
    const place = solo ? t(won[0] ? "result.won" : "result.lost") : String(row.rank + 1);
    for (const cell of [place, playerName(row.p), formatPoints(row.score)]) {
      const td = document.createElement("td");
      td.textContent = cell;
      tr.append(td);
    }
    if (breakdown) tr.append(breakdownCell(row.p, breakdown[row.p]));
    body.append(tr);
  }
  table.append(body);
  box.append(table);
  box.hidden = false;
}

function renderSeats(state) {
  const list = $("seats");
  list.replaceChildren();
  const bots = new Set(state.bot_seats ?? []);
  for (const seat of state.table.seats) {
    const item = document.createElement("li");
    let status;
    if (seat.kind === "bot") status = t("table.seat_bot");
    else if (bots.has(seat.seat)) status = t("table.seat_handed", { bot: "" });
    else if (!seat.taken) status = t("table.seat_open");
    else if (seat.present === false) status = t("table.seat_away");
    else status = t("table.seat_taken");
    item.textContent = `${playerName(seat.seat)}: ${status}`;
    item.dataset.seat = String(seat.seat);
    if (seat.kind !== "bot" && seat.present === false) item.classList.add("away");
    if (!state.view.terminal && state.view.to_move.includes(seat.seat)) item.classList.add("to-move");
    list.append(item);
  }
}

/** The bot's suggestion: said in words and marked in the move list (data-hint). */
function showHint(message) {
  page.hint = message;
  const box = $("hint-text");
  if (!page.state || page.state.step !== message.step) {
    box.hidden = true;
    return;
  }
  box.textContent = t("table.hint_is", { move: describe(page.renderer, message.action) });
  box.hidden = false;
  box.dataset.action = message.action;
  renderPlay();
}

function renderControls(state) {
  const mine = state.seat !== null && state.seat !== undefined && link.token;
  const handed = mine && (state.bot_seats ?? []).includes(state.seat);
  const over = state.view.terminal;
  $("undo").disabled = !(mine && state.can_undo && !over);
  // A hint (tables with hints on: solo and practice) only when it is this person's move.
  $("hint").hidden = !(mine && state.table?.hints && state.legal?.length && !over);
  if (!page.hint || page.hint.step !== state.step) $("hint-text").hidden = true;
  $("hand-to-bot").disabled = !(mine && !handed && !over);
  $("take-back").disabled = !(mine && handed && !over);
  $("show-replay").hidden = !over;
  $("rematch").hidden = !(over && mine);
}

function renderPlay({ focusTarget = false } = {}) {
  const state = page.state;
  if (!state || !page.renderer) return;
  const board = $("board");
  const active = document.activeElement;
  const remembered = active?.closest?.("#board") ? { ...active.dataset } : null;
  // While a step of the log is shown the live board is drawn all the same (not shown): it says
  // which moves the board offers, so the buttons beside it stay what they are live.
  const interactive = state.seat !== null && state.legal.length > 0;
  const ui = makeUi(state, interactive);
  const svg = page.renderer.render(state.view, ui);
  if (page.hint && page.hint.step === state.step) {
    // the suggested move, where the board offers it (its piece or its place)
    for (const node of svg.querySelectorAll("[data-action]")) {
      if (node.dataset.action === page.hint.action) node.dataset.hint = "true";
    }
  }
  if (page.history) {
    renderHistory();
  } else {
    // A new step's pieces arrive (CSS on [data-last]); a redrawing of the same step does not.
    board.classList.toggle("arriving", page.arriving);
    board.replaceChildren(svg);
    fitBoard(svg, board);
  }
  page.arriving = false;
  refreshTips();
  document.body.dataset.renders = String(Number(document.body.dataset.renders ?? 0) + 1);
  renderMoves(state, ui);
  if (page.history) return;
  // Keep the keyboard where it was: the same piece, or the first move after a selection.
  let focus = null;
  if (focusTarget) focus = board.querySelector("[data-action]");
  else if (remembered?.select) focus = board.querySelector(`[data-select="${CSS.escape(remembered.select)}"]`);
  else if (remembered?.action) focus = board.querySelector(`[data-action="${CSS.escape(remembered.action)}"]`);
  // After a tap the page stays where the finger left it (the piece and its places in view); after
  // a key the focused piece is scrolled into view.
  focus?.focus({ preventScroll: performance.now() - lastPointerDown < 1500 });
  if (focusTarget) showChoice(board);
}

/**
 * A piece just picked up: scroll (as little as needed) so that it and the places it may go are on
 * the screen together; when they cannot all be, the piece and the places nearest to it.
 */
function showChoice(board) {
  const picked = board.querySelector("[data-select][aria-pressed='true']");
  const places = [...board.querySelectorAll("[data-action][data-for-selection]")];
  if (!picked || !places.length) return;
  const margin = 8;
  const room = window.innerHeight - 2 * margin;
  const box = picked.getBoundingClientRect();
  const rects = places.map((p) => p.getBoundingClientRect());
  rects.sort((a, b) => Math.abs(a.top - box.top) - Math.abs(b.top - box.top));
  let [top, bottom] = [box.top, box.bottom];
  for (const r of rects) {
    const [t2, b2] = [Math.min(top, r.top), Math.max(bottom, r.bottom)];
    if (b2 - t2 > room) break;
    [top, bottom] = [t2, b2];
  }
  if (top < margin) window.scrollBy(0, top - margin);
  else if (bottom > window.innerHeight - margin) window.scrollBy(0, bottom - window.innerHeight + margin);
}

let lastPointerDown = -Infinity;
window.addEventListener("pointerdown", () => {
  lastPointerDown = performance.now();
}, true);

// --- the queue: every step shown, one at a time ---------------------------------------------------
function paceOf(message) {
  const pace = message.table?.pace;
  return typeof pace === "number" && pace >= 0 ? pace : DEFAULT_PACE;
}

/** Milliseconds `next` must wait before it shows (0: now). */
function waitBefore(next) {
  const shown = page.state;
  if (!shown) return 0;
  const pace = paceOf(next);
  if (pace <= 0) return 0;
  if (next.step <= shown.step) return 0; // a step taken back, a seat that came or went
  if (shown.legal.length) return 0; // the person could act: their moves must never go stale
  return page.shownAt + pace * 1000 - performance.now();
}

function receive(message) {
  message.receivedAt = performance.now();
  page.latest = message;
  page.queue.push(message);
  document.body.dataset.latestStep = String(message.step);
  if (!page.renderer) {
    page.starting ??= start(message).then(pump);
    return;
  }
  pump();
}

function pump() {
  if (page.queue.length > MAX_BEHIND) {
    flush();
    return;
  }
  if (page.showTimer !== null || !page.renderer) return;
  while (page.queue.length) {
    // Several messages of one step (a seat came or went): only the last one matters.
    while (page.queue.length > 1 && page.queue[1].step === page.queue[0].step) page.queue.shift();
    const wait = waitBefore(page.queue[0]);
    if (wait > 0) {
      page.showTimer = window.setTimeout(() => {
        page.showTimer = null;
        pump();
      }, wait);
      break;
    }
    show(page.queue.shift());
  }
  document.body.dataset.queued = String(page.queue.length);
}

/** Show the newest state at once (the person acts: always on the newest position). */
function flush() {
  if (!page.queue.length || !page.renderer) return;
  window.clearTimeout(page.showTimer);
  page.showTimer = null;
  const newest = page.queue.at(-1);
  page.queue = [];
  show(newest);
  document.body.dataset.queued = "0";
}

function show(message) {
  const before = page.state;
  const newStep = !before || message.step !== before.step;
  const stepped = Boolean(before) && message.step === before.step + 1;
  page.state = message;
  page.shownAt = performance.now();
  if (newStep) {
    page.prevView = stepped ? before.view : null;
    page.arriving = stepped;
    page.selected = null;
    if (before) hideError();
    for (const step of page.events.keys()) if (step > message.step) page.events.delete(step);
    if (stepped) {
      const said = announcements(page.renderer, before.view, message.view, t, playerName);
      if (said.length) {
        page.events.set(message.step, said);
        while (page.events.size > KEEP_EVENTS) page.events.delete(page.events.keys().next().value);
        sayInBanner($("announce"), said);
      }
    }
  }
  renderTurn(message);
  renderClock();
  renderSeats(message);
  renderControls(message);
  renderLog($("log"), message.log, page.renderer, {
    pick: viewStep,
    current: page.history?.step ?? null,
    events: page.events,
  });
  renderResult(message.view);
  renderPlay();
  signal(message, before);
  document.body.dataset.step = String(message.step);
  document.body.dataset.status = message.view.terminal ? "over" : "playing";
  document.body.dataset.lastPlayer = String(message.log.at(-1)?.[0] ?? "");
}

async function start(message) {
  page.renderer = await loadRenderer(message.view.game);
  page.gameTitle = tOr(`games.${message.view.game}.title`, message.view.game);
  $("title").textContent = page.gameTitle;
  document.title = t("table.page_title_game", { game: page.gameTitle });
  const howto = $("howto-link");
  howto.href = `/howto/${message.view.game}`;
  howto.textContent = t("table.howto_game", { game: page.gameTitle });
  loadBots(message.view.game);
}

async function loadBots(game) {
  try {
    const games = await (await fetch("/api/games")).json();
    const info = games.find((g) => g.name === game);
    page.bots = info?.bots ?? ["greedy"];
  } catch {
    page.bots = ["greedy"];
  }
  const select = $("bot-choice");
  select.replaceChildren();
  for (const bot of page.bots) {
    const option = document.createElement("option");
    option.value = bot;
    option.textContent = tOr(`bots.${bot}`, bot);
    select.append(option);
  }
  if (page.bots.includes("greedy")) select.value = "greedy";
}

// --- a step of the log, shown in the board area ---------------------------------------------------
/** The table's replay (every frame, as this seat sees it), fetched again once the table moved on. */
async function replayData() {
  const cached = page.replayCache;
  if (cached && cached.latest === page.latest) return cached.data;
  const latest = page.latest;
  const params = new URLSearchParams();
  if (link.seat !== null && link.token) {
    params.set("seat", String(link.seat));
    params.set("token", link.token);
  }
  const response = await fetch(`/api/tables/${encodeURIComponent(link.tableId)}/replay?${params}`);
  const data = await response.json();
  if (!response.ok) {
    showError(data.error ?? t("replay.failed"));
    return null;
  }
  page.replayCache = { latest, data };
  return data;
}

/** Show the board as it was after `step` steps (pressing log entry `step`). */
async function viewStep(step) {
  const ask = ++page.historyAsk;
  const data = await replayData();
  if (!data || ask !== page.historyAsk) return;
  if (!data.frames[step]) {
    showError(t("table.history_failed"), { plain: true });
    return;
  }
  page.history = { step, frames: data.frames };
  $("board").classList.remove("arriving");
  renderPlay(); // draws the step (and keeps the moves beside the board live)
}

function renderHistory() {
  const { step, frames } = page.history;
  const frame = frames[step];
  const ui = viewUi(frame.view, { prev: frames[step - 1]?.view ?? null, lastLog: frame.log.at(-1) ?? null });
  const board = $("board");
  board.replaceChildren(page.renderer.render(frame.view, ui));
  fitBoard(board.firstElementChild, board);
  board.classList.add("history");
  $("history").hidden = false;
  $("history-text").textContent = t("table.history_viewing", { step, last: page.state.step });
  document.body.dataset.viewing = String(step);
  for (const item of $("log").children) {
    const here = Number(item.dataset.step) === step;
    item.classList.toggle("current", here);
    item.querySelector("button")?.setAttribute("aria-current", here ? "step" : "false");
  }
}

function leaveHistory() {
  if (!page.history) return;
  page.history = null;
  page.historyAsk += 1;
  $("history").hidden = true;
  $("board").classList.remove("history");
  delete document.body.dataset.viewing;
  for (const item of $("log").children) {
    item.classList.remove("current");
    item.querySelector("button")?.setAttribute("aria-current", "false");
  }
  renderPlay();
}

// --- the connection ---------------------------------------------------------------------------
function socketUrl() {
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  const params = new URLSearchParams();
  if (link.seat !== null) params.set("seat", String(link.seat));
  if (link.token) params.set("token", link.token);
  // A name given in the lobby (`?name=` on the person's own link) names the seat.
  const name = new URLSearchParams(window.location.search).get("name");
  if (name && link.seat !== null) params.set("name", name.slice(0, 40));
  const query = params.toString();
  return `${scheme}://${window.location.host}/ws/tables/${encodeURIComponent(link.tableId)}${query ? `?${query}` : ""}`;
}

function setConnection(key) {
  const box = $("connection");
  box.textContent = t(`connection.${key}`);
  box.dataset.state = key;
}

function showRematchNotice(message) {
  const box = $("rematch-notice");
  box.replaceChildren();
  const anchor = document.createElement("a");
  anchor.href = message.link ?? message.spectate;
  anchor.textContent = t(message.link ? "table.rematch_join" : "table.rematch_watch");
  box.append(`${t("table.rematch_notice")} `, anchor);
  box.hidden = false;
}

function connect() {
  setConnection("connecting");
  const socket = new WebSocket(socketUrl());
  page.socket = socket;
  socket.addEventListener("open", () => {
    page.retries = 0;
    setConnection("connected");
  });
  socket.addEventListener("message", (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    if (message.type === "state") receive(message);
    else if (message.type === "judged") judged(message);
    else if (message.type === "error" && message.code === "too_fast") judged(null);
    else if (message.type === "error") showError(message.message);
    else if (message.type === "rematch") showRematchNotice(message);
    else if (message.type === "hint") showHint(message);
    else if (message.type === "over" && page.state?.view.terminal) renderResult(page.state.view);
  });
  socket.addEventListener("close", (event) => {
    if (page.socket !== socket || page.closing) return;
    // 4xxx: the server refused us for good (unknown table, wrong token): say why, do not retry;
    // but 4408 (we fell behind) and 4429 (too many connections) are worth another try.
    const retry = event.code === 4408 || event.code === 4429;
    if (event.code >= 4000 && event.code < 5000 && !retry) {
      setConnection("refused");
      showError(event.reason || t("connection.refused"), { sticky: true });
      return;
    }
    setConnection("reconnecting");
    const delay = Math.min(10000, 500 * 2 ** page.retries);
    page.retries += 1;
    window.setTimeout(connect, delay);
  });
}

// --- replay -----------------------------------------------------------------------------------
async function openReplay() {
  const data = await replayData();
  if (!data) return;
  page.replay = { frames: data.frames, index: 0, renderer: await loadRenderer(data.game) };
  const slider = $("replay-slider");
  slider.max = String(Math.max(0, data.frames.length - 1));
  $("replay").hidden = false;
  showFrame(0);
  $("replay-next").focus();
}

function showFrame(index) {
  const replay = page.replay;
  if (!replay || !replay.frames.length) return;
  replay.index = Math.max(0, Math.min(index, replay.frames.length - 1));
  const frame = replay.frames[replay.index];
  const ui = viewUi(frame.view, {
    prev: replay.frames[replay.index - 1]?.view ?? null,
    lastLog: frame.log.at(-1) ?? null,
  });
  $("replay-board").replaceChildren(replay.renderer.render(frame.view, ui));
  fitBoard($("replay-board").firstElementChild, $("replay-board"));
  refreshTips();
  renderLog($("replay-log"), frame.log, replay.renderer, { pick: showFrame, current: replay.index });
  $("replay-slider").value = String(replay.index);
  $("replay-step").textContent = t("replay.step", {
    step: frame.step,
    last: replay.frames[replay.frames.length - 1].step,
  });
  $("replay").dataset.index = String(replay.index);
}

async function rematch() {
  const response = await fetch(`/api/tables/${encodeURIComponent(link.tableId)}/rematch`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token: link.token }),
  });
  const data = await response.json();
  if (!response.ok) {
    showError(data.error ?? t("table.rematch_failed"));
    return;
  }
  const box = $("rematch-links");
  box.replaceChildren();
  const heading = document.createElement("p");
  heading.textContent = t("table.rematch_ready");
  box.append(heading);
  for (const seat of data.seats) {
    if (!seat.link) continue;
    const anchor = document.createElement("a");
    anchor.href = seat.link;
    anchor.textContent = t("table.rematch_seat", { n: seat.seat + 1 });
    const item = document.createElement("p");
    item.append(anchor);
    box.append(item);
  }
  box.hidden = false;
}

// --- start ------------------------------------------------------------------------------------
async function main() {
  await loadCatalogue();
  applyI18n();
  installTips();
  signalTurn(false, document.title);
  if (!link.tableId) {
    showError(t("table.no_table"), { sticky: true });
    return;
  }
  $("hint").addEventListener("click", () => {
    catchUp();
    $("hint-text").textContent = t("table.hint_thinking");
    $("hint-text").hidden = false;
    send({ type: "hint" });
  });
  $("undo").addEventListener("click", () => {
    catchUp();
    send({ type: "undo" });
  });
  $("hand-to-bot").addEventListener("click", () => {
    catchUp();
    send({ type: "hand_to_bot", bot: $("bot-choice").value || "greedy" });
  });
  $("take-back").addEventListener("click", () => {
    catchUp();
    send({ type: "take_back" });
  });
  $("move-filter").addEventListener("input", () => renderPlay());
  // Enter in the box plays what was typed, in the game's notation (as at the terminal); the
  // server checks it and explains a refusal in the rule's words. The box empties and the whole
  // list comes back, whether the move is played or refused.
  $("move-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const typed = $("move-filter").value.trim();
    if (!typed) return;
    catchUp();
    const exact = page.state?.legal.find((a) => a.toLowerCase() === typed.toLowerCase());
    $("move-filter").value = "";
    renderPlay();
    act(exact ?? typed);
  });
  $("history-back").addEventListener("click", () => {
    leaveHistory();
    $("log").querySelector("li:last-child button")?.focus();
  });
  const sound = $("sound");
  sound.checked = soundOn();
  sound.addEventListener("change", () => setSound(sound.checked));
  $("show-replay").addEventListener("click", openReplay);
  $("rematch").addEventListener("click", rematch);
  $("replay-first").addEventListener("click", () => showFrame(0));
  $("replay-prev").addEventListener("click", () => showFrame(page.replay.index - 1));
  $("replay-next").addEventListener("click", () => showFrame(page.replay.index + 1));
  $("replay-last").addEventListener("click", () => showFrame(page.replay.frames.length - 1));
  $("replay-slider").addEventListener("input", (event) => showFrame(Number(event.target.value)));
  $("replay-close").addEventListener("click", () => {
    $("replay").hidden = true;
    $("show-replay").focus();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    if (page.history) leaveHistory();
    else if (page.selected !== null) {
      page.selected = null;
      renderPlay();
    }
  });
  // A phone turned sideways (or a window resized): the board is drawn again at its new scale.
  let resizing = null;
  window.addEventListener("resize", () => {
    window.clearTimeout(resizing);
    resizing = window.setTimeout(() => renderPlay(), 150);
  });
  window.setInterval(renderClock, 250);
  // Keep idle connections alive through proxies that drop silent sockets.
  window.setInterval(() => {
    if (page.socket?.readyState === WebSocket.OPEN) page.socket.send(JSON.stringify({ type: "ping" }));
  }, 25000);
  connect();
}

main();
