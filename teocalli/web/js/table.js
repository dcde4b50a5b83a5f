// The table page: one WebSocket to the server, which is the only authority. The page shows the
// latest state message (board, whose turn, clock, log, result), sends moves as notation with the
// step it saw, and explains a refused move in the server's words. It reconnects by itself.
import { applyI18n, loadCatalogue, lookup, t, tOr } from "./i18n.js";
import { loadRenderer } from "./games/index.js";

const $ = (id) => document.getElementById(id);

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
  socket: null,
  state: null, // the latest "state" message
  renderer: null,
  selected: null,
  lastStep: -1,
  receivedAt: 0,
  retries: 0,
  bots: [],
  replay: null, // {frames, index, renderer}
  gameTitle: "",
  closing: false,
};

function playerName(player) {
  const seats = page.state?.table?.seats ?? [];
  const info = seats.find((s) => s.seat === player);
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

function act(action) {
  hideError();
  if (!page.state) return;
  send({ type: "act", action, step: page.state.step });
}

function showError(message) {
  const box = $("error");
  box.textContent = t("table.refused", { message });
  box.hidden = false;
}

function hideError() {
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

function makeUi(state, interactive) {
  return {
    t,
    seat: state.seat ?? null,
    players: state.view.players,
    legal: interactive ? state.legal : [],
    interactive,
    selected: interactive ? page.selected : null,
    board: new Set(),
    act,
    select(key) {
      page.selected = key;
      renderPlay({ focusTarget: key !== null });
    },
    playerName,
  };
}

// --- drawing the live table -------------------------------------------------------------------
function renderTurn(state) {
  const view = state.view;
  const turn = $("turn");
  if (view.terminal) {
    turn.textContent = t("table.game_over");
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

function formatSeconds(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function renderClock() {
  const box = $("clock");
  const clock = page.state?.clock;
  if (!clock) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const elapsed = (performance.now() - page.receivedAt) / 1000;
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

function renderLog(list, log, renderer) {
  list.replaceChildren();
  for (const [player, entry] of log) {
    const item = document.createElement("li");
    item.textContent = t("table.log_entry", { player: playerName(player), move: describe(renderer, entry) });
    item.title = entry;
    list.append(item);
  }
  list.scrollTop = list.scrollHeight;
}

function renderMoves(state, ui) {
  const list = $("moves");
  const filter = $("move-filter").value.trim().toLowerCase();
  list.replaceChildren();
  if (!state.legal.length) {
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

function renderResult(view) {
  const box = $("result");
  if (!view.terminal || !view.outcome) {
    box.hidden = true;
    return;
  }
  const outcome = view.outcome;
  const rows = outcome.scores
    .map((score, p) => ({ p, score, rank: outcome.ranks[p] }))
    .sort((a, b) => a.rank - b.rank || a.p - b.p);
  const winners = outcome.winners.map(playerName).join(", ");
  // Reasons are the engine's own sentences: the catalogue maps each to its translation.
  const reason = lookup("reasons")?.[outcome.reason] ?? String(outcome.reason);
  box.innerHTML = "";
  const title = document.createElement("h2");
  title.textContent = t("result.title");
  const who = document.createElement("p");
  who.className = "winners";
  who.textContent = t(outcome.winners.length > 1 ? "result.winners" : "result.winner", { players: winners });
  const why = document.createElement("p");
  why.textContent = t("result.reason", { reason });
  const table = document.createElement("table");
  table.className = "scores";
  table.innerHTML = `<thead><tr><th scope="col">${escapeHtml(t("result.place"))}</th><th scope="col">${escapeHtml(
    t("result.player"),
  )}</th><th scope="col">${escapeHtml(t("result.score"))}</th></tr></thead>`;
  const body = document.createElement("tbody");
  for (const row of rows) {
    const tr = document.createElement("tr");
    tr.dataset.player = String(row.p);
    for (const cell of [String(row.rank + 1), playerName(row.p), String(row.score)]) {
      const td = document.createElement("td");
      td.textContent = cell;
      tr.append(td);
    }
    body.append(tr);
  }
  table.append(body);
  box.append(title, who, why, table);
  box.hidden = false;
}

function renderSeats(state) {
  const list = $("seats");
  list.replaceChildren();
  const bots = new Set(state.bot_seats ?? []);
  for (const seat of state.table.seats) {
    const item = document.createElement("li");
    let status = "";
    if (seat.kind === "bot") status = t("table.seat_bot");
    else if (bots.has(seat.seat)) status = t("table.seat_handed", { bot: "" });
    else status = seat.taken ? t("table.seat_taken") : t("table.seat_open");
    item.textContent = `${playerName(seat.seat)}: ${status}`;
    if (state.view.to_move.includes(seat.seat)) item.classList.add("to-move");
    list.append(item);
  }
}

function renderControls(state) {
  const mine = state.seat !== null && state.seat !== undefined && link.token;
  const handed = mine && (state.bot_seats ?? []).includes(state.seat);
  const over = state.view.terminal;
  $("undo").disabled = !(mine && state.can_undo && !over);
  $("hand-to-bot").disabled = !(mine && !handed && !over);
  $("take-back").disabled = !(mine && handed && !over);
  $("show-replay").hidden = !over;
  $("rematch").hidden = !(over && mine);
}

function renderPlay({ focusTarget = false } = {}) {
  const state = page.state;
  if (!state || !page.renderer) return;
  const active = document.activeElement;
  const remembered = active?.closest?.("#board") ? { ...active.dataset } : null;
  const interactive = state.seat !== null && state.legal.length > 0;
  const ui = makeUi(state, interactive);
  const svg = page.renderer.render(state.view, ui);
  $("board").replaceChildren(svg);
  document.body.dataset.renders = String(Number(document.body.dataset.renders ?? 0) + 1);
  renderMoves(state, ui);
  // Keep the keyboard where it was: the same piece, or the first move after a selection.
  let focus = null;
  if (focusTarget) focus = $("board").querySelector("[data-action]");
  else if (remembered?.select) focus = $("board").querySelector(`[data-select="${CSS.escape(remembered.select)}"]`);
  else if (remembered?.action) focus = $("board").querySelector(`[data-action="${CSS.escape(remembered.action)}"]`);
  focus?.focus();
}

async function onState(message) {
  const first = page.state === null;
  page.state = message;
  page.receivedAt = performance.now();
  if (first) {
    page.renderer = await loadRenderer(message.view.game);
    page.gameTitle = tOr(`games.${message.view.game}.title`, message.view.game);
    $("title").textContent = page.gameTitle;
    document.title = t("table.page_title_game", { game: page.gameTitle });
    const howto = $("howto-link");
    howto.href = `/howto/${message.view.game}`;
    howto.textContent = t("table.howto_game", { game: page.gameTitle });
    loadBots(message.view.game);
  }
  if (message.step !== page.lastStep) {
    page.selected = null;
    if (page.lastStep !== -1) hideError();
    page.lastStep = message.step;
  }
  renderTurn(message);
  renderClock();
  renderSeats(message);
  renderControls(message);
  renderLog($("log"), message.log, page.renderer);
  renderResult(message.view);
  renderPlay();
  document.body.dataset.step = String(message.step);
  document.body.dataset.status = message.view.terminal ? "over" : "playing";
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

// --- the connection ---------------------------------------------------------------------------
function socketUrl() {
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  const params = new URLSearchParams();
  if (link.seat !== null) params.set("seat", String(link.seat));
  if (link.token) params.set("token", link.token);
  const query = params.toString();
  return `${scheme}://${window.location.host}/ws/tables/${encodeURIComponent(link.tableId)}${query ? `?${query}` : ""}`;
}

function setConnection(key) {
  const box = $("connection");
  box.textContent = t(`connection.${key}`);
  box.dataset.state = key;
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
    if (message.type === "state") onState(message);
    else if (message.type === "error") showError(message.message);
    else if (message.type === "over" && page.state) renderResult(page.state.view);
  });
  socket.addEventListener("close", (event) => {
    if (page.socket !== socket || page.closing) return;
    // 4xxx: the server refused us for good (unknown table, wrong token): say why, do not retry;
    // but 4408 (we fell behind) and 4429 (too many connections) are worth another try.
    const retry = event.code === 4408 || event.code === 4429;
    if (event.code >= 4000 && event.code < 5000 && !retry) {
      setConnection("refused");
      showError(event.reason || t("connection.refused"));
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
  const params = new URLSearchParams();
  if (link.seat !== null && link.token) {
    params.set("seat", String(link.seat));
    params.set("token", link.token);
  }
  const response = await fetch(`/api/tables/${encodeURIComponent(link.tableId)}/replay?${params}`);
  const data = await response.json();
  if (!response.ok) {
    showError(data.error ?? t("replay.failed"));
    return;
  }
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
  const ui = {
    t,
    seat: link.seat,
    players: frame.view.players,
    legal: [],
    interactive: false,
    selected: null,
    board: new Set(),
    act() {},
    select() {},
    playerName,
  };
  $("replay-board").replaceChildren(replay.renderer.render(frame.view, ui));
  renderLog($("replay-log"), frame.log, replay.renderer);
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
  if (!link.tableId) {
    showError(t("table.no_table"));
    return;
  }
  $("undo").addEventListener("click", () => send({ type: "undo" }));
  $("hand-to-bot").addEventListener("click", () =>
    send({ type: "hand_to_bot", bot: $("bot-choice").value || "greedy" }),
  );
  $("take-back").addEventListener("click", () => send({ type: "take_back" }));
  $("move-filter").addEventListener("input", () => renderPlay());
  // Enter in the box plays what was typed, in the game's notation (as at the terminal); the
  // server checks it and explains a refusal in the rule's words.
  $("move-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const typed = $("move-filter").value.trim();
    if (!typed) return;
    const exact = page.state?.legal.find((a) => a.toLowerCase() === typed.toLowerCase());
    act(exact ?? typed);
    $("move-filter").value = "";
  });
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
    if (event.key === "Escape" && page.selected !== null) {
      page.selected = null;
      renderPlay();
    }
  });
  window.setInterval(renderClock, 250);
  // Keep idle connections alive through proxies that drop silent sockets.
  window.setInterval(() => {
    if (page.socket?.readyState === WebSocket.OPEN) page.socket.send(JSON.stringify({ type: "ping" }));
  }, 25000);
  connect();
}

main();
