// The lobby: choose a game by its picture, set only the options that apply to it, fill the seats
// with people or bots (levels named for people, the technical bot beside), and create the table:
// a share link per person. The list of tables shows who sits where, lets anyone take a free seat
// of a table that allows it, and pages through the tables 50 at a time.
import { applyI18n, loadCatalogue, t, tOr } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const PAGE_SIZE = 50;
const NAME_KEY = "teocalli.name";
const SHOWN_STATUSES = ["open", "running", "damaged"];

/** Games where everyone sees everything: the search bot there is `mcts`; elsewhere `ismcts`,
 * which searches only what its seat may know (the server refuses `mcts` on hidden information).
 * The catalogue's `information` field, when the server sends one, wins over this list. */
const PERFECT_INFORMATION = new Set(["aztack", "stack-back"]);

/** Bot levels, weakest first; the search levels think about `seconds` a move (server cap: 5). */
const LEVELS = [
  { level: "beginner", bot: "random" },
  { level: "casual", bot: "greedy" },
  { level: "strong", search: true, seconds: 1 },
  { level: "expert", search: true, seconds: 3 },
];
const DEFAULT_LEVEL = "casual";

/** Options that only mean something in some settings (`o`: the options, `n`: the seats). A
 * field that does not apply is hidden and not sent, so the game's default stands. */
const APPLIES = {
  aztack: { declare: (o) => o.speed === true },
  "shifting-stones": { solo_skip_strikes: (o, n) => n === 1, round_limit: (o, n) => n >= 2 },
  "space-aztecs": { removed_set: (o, n) => n <= 4 },
  "stack-back": {
    steadiness_0: (o) => o.dexterity === true,
    steadiness_1: (o) => o.dexterity === true,
  },
};

const lobby = {
  games: [],
  seats: [], // {kind: "human"} or {kind: "bot", level}
  pagesWanted: 1,
  listSignature: null,
  refreshing: 0,
};

// --- games, bots and names -------------------------------------------------------------------
function gameTitle(game) {
  return tOr(`games.${game.name}.title`, game.title);
}

function currentGame() {
  return lobby.games.find((g) => g.name === $("game").value) ?? lobby.games[0];
}

function playersText(min, max) {
  if (min === max) return min === 1 ? t("lobby.players_one") : t("lobby.players_exact", { n: min });
  return t("lobby.players_range", { min, max });
}

function searchBot(game) {
  if (typeof game.information === "string") return game.information === "perfect" ? "mcts" : "ismcts";
  return PERFECT_INFORMATION.has(game.name) ? "mcts" : "ismcts";
}

/** The levels this game's bots offer: {level, value (the bot spec sent), label}. */
function levelsFor(game) {
  const out = [];
  for (const entry of LEVELS) {
    const bot = entry.search ? searchBot(game) : entry.bot;
    if (!game.bots.includes(bot)) continue;
    const value = entry.search ? `${bot}:time=${entry.seconds}` : bot;
    const level = t(`bots.levels.${entry.level}`);
    const label = entry.search
      ? t("bots.level_choice_timed", { level, technical: bot, seconds: entry.seconds })
      : t("bots.level_choice", { level, technical: bot });
    out.push({ level: entry.level, value, label });
  }
  return out;
}

/** A bot spec as the tables list shows it: "Casual bot (greedy)", "Strong bot (ismcts)". */
function describeBot(spec) {
  const [technical, rest = ""] = String(spec ?? "").split(":");
  const time = Number(/(?:^|,)\s*time\s*=\s*([\d.]+)/.exec(rest)?.[1] ?? 0);
  let level = LEVELS.find((entry) => entry.bot === technical)?.level;
  if (technical === "mcts" || technical === "ismcts") level = time >= 2 ? "expert" : "strong";
  if (!level) return String(spec ?? "");
  return t("bots.level_bot", { level: t(`bots.levels.${level}`), technical });
}

function playerName() {
  return $("player-name").value.trim();
}

/** A seat link with the person's name in its query (the table page sends it with the socket). */
function withName(link, name) {
  if (!name) return link;
  const url = new URL(link, window.location.href);
  url.searchParams.set("name", name);
  return `${url.pathname}${url.search}${url.hash}`;
}

// --- the game chooser ------------------------------------------------------------------------
function gameCard(game) {
  const id = `game-card-${game.name}`;
  const label = document.createElement("label");
  label.className = "game-card";
  label.htmlFor = id;
  label.dataset.game = game.name;
  const radio = document.createElement("input");
  radio.type = "radio";
  radio.name = "game-choice";
  radio.id = id;
  radio.value = game.name;
  radio.setAttribute("aria-labelledby", `${id}-title`);
  radio.setAttribute("aria-describedby", `${id}-pitch ${id}-players`);
  radio.addEventListener("change", () => {
    if (!radio.checked) return;
    $("game").value = game.name;
    selectGame();
  });
  const picture = document.createElement("img");
  picture.className = "game-picture";
  picture.src = `/static/img/${game.name}.svg`;
  picture.alt = "";
  picture.width = 96;
  picture.height = 72;
  const text = document.createElement("span");
  text.className = "game-card-text";
  const title = document.createElement("strong");
  title.className = "game-card-title";
  title.id = `${id}-title`;
  title.textContent = gameTitle(game);
  const pitch = document.createElement("span");
  pitch.className = "game-pitch";
  pitch.id = `${id}-pitch`;
  pitch.textContent = tOr(`lobby.pitch.${game.name}`, "");
  const players = document.createElement("span");
  players.className = "game-players";
  players.id = `${id}-players`;
  players.textContent = playersText(game.min_players, game.max_players);
  text.append(title, pitch, players);
  const mark = document.createElement("span");
  mark.className = "chosen-mark";
  mark.setAttribute("aria-hidden", "true"); // the radio button says it is checked
  mark.textContent = "✓";
  label.append(radio, picture, text, mark);
  return label;
}

// --- options ----------------------------------------------------------------------------------
function optionField(option, game) {
  const wrap = document.createElement("div");
  wrap.className = "option";
  wrap.dataset.for = option.name;
  const id = `option-${option.name}`;
  const help = tOr(`games.${game.name}.options.${option.name}`, option.help ?? "");
  const short = tOr(`lobby.option.${game.name}.${option.name}`, "");
  const label = document.createElement("label");
  label.htmlFor = id;
  label.textContent = short || help || option.name;
  const hints = [];
  if (short && help) hints.push(help);
  let input;
  if (typeof option.default === "boolean") {
    input = document.createElement("input");
    input.type = "checkbox";
    input.checked = option.default;
    wrap.classList.add("check");
    wrap.append(input, label);
  } else if (option.choices) {
    input = document.createElement("select");
    for (const choice of option.choices) {
      const item = document.createElement("option");
      item.value = JSON.stringify(choice);
      item.textContent = tOr(`games.${game.name}.choices.${option.name}.${choice}`, String(choice));
      input.append(item);
    }
    input.value = JSON.stringify(option.default);
    wrap.append(label, input);
  } else if (typeof option.default === "number") {
    input = document.createElement("input");
    input.type = "number";
    input.value = String(option.default);
    const hasMin = option.minimum !== null && option.minimum !== undefined;
    const hasMax = option.maximum !== null && option.maximum !== undefined;
    if (hasMin) input.min = String(option.minimum);
    if (hasMax) input.max = String(option.maximum);
    if (hasMin && hasMax) hints.push(t("lobby.option_range", { min: option.minimum, max: option.maximum }));
    input.step = Number.isInteger(option.default) ? "1" : "any";
    wrap.append(label, input);
  } else {
    input = document.createElement("input");
    input.type = "text";
    input.value = String(option.default ?? "");
    wrap.append(label, input);
  }
  input.id = id;
  input.dataset.option = option.name;
  input.dataset.kind = typeof option.default;
  input.addEventListener("change", applyRelevance);
  if (hints.length) {
    const hint = document.createElement("p");
    hint.className = "hint";
    hint.id = `${id}-help`;
    for (const line of hints) {
      const span = document.createElement("span");
      span.className = "hint-line";
      span.textContent = line;
      hint.append(span);
    }
    input.setAttribute("aria-describedby", hint.id);
    wrap.append(hint);
  }
  return wrap;
}

function readValue(input) {
  if (input.type === "checkbox") return input.checked;
  if (input.tagName === "SELECT") return JSON.parse(input.value);
  if (input.dataset.kind === "number") return Number(input.value);
  return input.value;
}

function allOptions() {
  const options = {};
  for (const input of $("options").querySelectorAll("[data-option]")) {
    options[input.dataset.option] = readValue(input);
  }
  return options;
}

/** The options to send: those shown (that apply to the game in this setting). */
function readOptions() {
  const options = {};
  for (const input of $("options").querySelectorAll("[data-option]")) {
    if (input.closest(".option")?.hidden) continue;
    options[input.dataset.option] = readValue(input);
  }
  return options;
}

function racing() {
  return allOptions().speed === true;
}

/** Show only the fields that mean something now: dependent options, the clock's seconds, and
 * the bots' reaction time (only races wait it). */
function applyRelevance() {
  const game = currentGame();
  if (!game) return;
  const options = allOptions();
  let shown = 0;
  for (const wrap of $("options").querySelectorAll(".option")) {
    const rule = APPLIES[game.name]?.[wrap.dataset.for];
    wrap.hidden = rule ? !rule(options, lobby.seats.length) : false;
    if (!wrap.hidden) shown += 1;
  }
  $("no-options").hidden = shown > 0;
  $("clock-seconds-field").hidden = !$("clock-mode").value;
  $("bot-delay-field").hidden = !racing();
  $("create-summary").textContent = t("lobby.create_bar_hint", {
    game: gameTitle(game),
    players: playersText(lobby.seats.length, lobby.seats.length),
  });
}

// --- seats ------------------------------------------------------------------------------------
function creatorSeat() {
  return lobby.seats.findIndex((seat) => seat.kind === "human");
}

function renderSeats() {
  const game = currentGame();
  const levels = levelsFor(game);
  const list = $("seats");
  const focused = document.activeElement?.id;
  list.replaceChildren();
  const mine = creatorSeat();
  lobby.seats.forEach((seat, index) => {
    const item = document.createElement("li");
    item.className = "seat-row";
    const kindId = `seat-${index}-kind`;
    const label = document.createElement("label");
    label.htmlFor = kindId;
    label.className = "seat-label";
    label.textContent = t(index === mine ? "lobby.seat_you" : "lobby.seat_n", { n: index + 1 });
    const kind = document.createElement("select");
    kind.id = kindId;
    kind.className = "seat-kind";
    for (const value of ["human", "bot"]) {
      const option = document.createElement("option");
      option.value = value;
      option.textContent = t(`lobby.kind_${value}`);
      kind.append(option);
    }
    kind.value = seat.kind;
    kind.addEventListener("change", () => {
      seat.kind = kind.value;
      seat.level ??= DEFAULT_LEVEL;
      renderSeats();
    });
    item.append(label, kind);
    if (seat.kind === "bot") {
      const botId = `seat-${index}-bot`;
      const botLabel = document.createElement("label");
      botLabel.htmlFor = botId;
      botLabel.className = "seat-level-label";
      botLabel.textContent = t("lobby.level");
      const bot = document.createElement("select");
      bot.id = botId;
      bot.className = "seat-bot";
      for (const entry of levels) {
        const option = document.createElement("option");
        option.value = entry.value;
        option.textContent = entry.label;
        option.dataset.level = entry.level;
        bot.append(option);
      }
      const chosen =
        levels.find((entry) => entry.level === seat.level) ??
        levels.find((entry) => entry.level === DEFAULT_LEVEL) ??
        levels[0];
      bot.value = chosen.value;
      seat.level = chosen.level;
      bot.addEventListener("change", () => {
        seat.level = bot.selectedOptions[0]?.dataset.level ?? DEFAULT_LEVEL;
      });
      item.append(botLabel, bot);
    }
    list.append(item);
  });
  $("add-seat").disabled = lobby.seats.length >= game.max_players;
  $("remove-seat").disabled = lobby.seats.length <= game.min_players;
  $("seat-range").textContent =
    game.min_players === game.max_players
      ? t("lobby.seat_exact", { players: playersText(game.min_players, game.max_players) })
      : t("lobby.seat_range", { min: game.min_players, max: game.max_players });
  if (focused && !document.activeElement?.id && $(focused)) $(focused).focus();
  applyRelevance();
}

function seatSpec(seat) {
  if (seat.kind !== "bot") return { kind: "human" };
  const levels = levelsFor(currentGame());
  const entry = levels.find((e) => e.level === seat.level) ?? levels[0];
  return { kind: "bot", bot: entry.value };
}

// --- choosing a game --------------------------------------------------------------------------
function selectGame() {
  const game = currentGame();
  const radio = $(`game-card-${game.name}`);
  if (radio && !radio.checked) radio.checked = true;
  for (const card of $("game-cards").querySelectorAll(".game-card")) {
    card.classList.toggle("chosen", card.dataset.game === game.name);
  }
  const box = $("options");
  for (const node of [...box.children]) if (node.tagName !== "LEGEND") node.remove();
  // The player count is the number of seats, so the "players" option is not asked for.
  const options = game.options.filter((o) => o.name !== "players");
  for (const option of options) box.append(optionField(option, game));
  const none = document.createElement("p");
  none.className = "hint";
  none.id = "no-options";
  none.textContent = t("lobby.no_options");
  box.append(none);
  lobby.seats = [{ kind: "human" }];
  while (lobby.seats.length < game.default_players) lobby.seats.push({ kind: "bot", level: DEFAULT_LEVEL });
  renderSeats();
  $("howto").href = `/howto/${game.name}`;
  $("howto").textContent = t("lobby.howto_game", { game: gameTitle(game) });
}

// --- creating a table -------------------------------------------------------------------------
function absolute(path) {
  return new URL(path, window.location.href).href;
}

function addLink(list, text, href, copyLabel) {
  const item = document.createElement("li");
  const anchor = document.createElement("a");
  anchor.href = href;
  anchor.textContent = text;
  const field = document.createElement("input");
  field.type = "text";
  field.readOnly = true;
  field.value = absolute(href);
  field.setAttribute("aria-label", copyLabel);
  field.addEventListener("focus", () => field.select());
  const copy = document.createElement("button");
  copy.type = "button";
  copy.textContent = t("lobby.copy");
  copy.setAttribute("aria-label", copyLabel);
  copy.addEventListener("click", async () => {
    field.select();
    try {
      await navigator.clipboard.writeText(field.value);
      copy.textContent = t("lobby.copied");
    } catch {
      copy.textContent = t("lobby.copy_by_hand");
    }
  });
  item.append(anchor, " ", field, " ", copy);
  list.append(item);
}

async function createTable(event) {
  event.preventDefault();
  const game = currentGame();
  const mode = $("clock-mode").value;
  const name = playerName();
  const mine = creatorSeat();
  const body = {
    game: game.name,
    options: readOptions(),
    seats: lobby.seats.map((seat, index) => {
      const spec = seatSpec(seat);
      return index === mine && name ? { ...spec, name } : spec;
    }),
    clock: mode ? { mode, seconds: Number($("clock-seconds").value) } : null,
    bot_delay: Number($("bot-delay").value),
    open_seats: $("open-seats").checked,
  };
  const errorBox = $("create-error");
  errorBox.hidden = true;
  let response;
  let data;
  $("create").disabled = true;
  try {
    response = await fetch("/api/tables", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    data = await response.json();
  } catch {
    errorBox.textContent = t("lobby.server_unreachable");
    errorBox.hidden = false;
    return;
  } finally {
    $("create").disabled = false;
  }
  if (!response.ok) {
    errorBox.textContent = t("lobby.create_failed", { message: data.error ?? response.status });
    errorBox.hidden = false;
    return;
  }
  const list = $("links");
  list.replaceChildren();
  for (const seat of data.seats) {
    if (!seat.link) continue;
    addLink(
      list,
      t("lobby.play_seat", { n: seat.seat + 1 }),
      seat.seat === mine ? withName(seat.link, name) : seat.link,
      t("lobby.copy_seat", { n: seat.seat + 1 }),
    );
  }
  addLink(list, t("lobby.spectate"), data.spectate, t("lobby.copy_spectate"));
  $("created").hidden = false;
  $("created").dataset.table = data.id;
  list.querySelector("a")?.focus();
  refreshTables();
}

// --- the tables list --------------------------------------------------------------------------
function nextLink(response) {
  const header = response.headers.get("Link") ?? "";
  for (const part of header.split(",")) {
    const match = /<([^>]+)>\s*;\s*rel="?next"?/.exec(part);
    if (match) return match[1];
  }
  return null;
}

/** The pages of tables the person has asked for (the first, plus one per "More tables"). */
async function fetchTables() {
  const tables = [];
  let url = `/api/tables?limit=${PAGE_SIZE}&offset=0`;
  let total = 0;
  let next = null;
  for (let page = 0; page < lobby.pagesWanted && url; page += 1) {
    const response = await fetch(url);
    if (!response.ok) throw new Error(String(response.status));
    const items = await response.json();
    tables.push(...items);
    total = Number(response.headers.get("X-Total-Count") ?? tables.length);
    next = nextLink(response);
    url = next;
  }
  return { tables, total, next };
}

function seatEntry(table, seat, gameName) {
  const item = document.createElement("li");
  item.className = `seat-entry seat-${seat.kind}`;
  const n = seat.seat + 1;
  const text = document.createElement("span");
  if (seat.kind === "bot") {
    text.textContent = t("lobby.seat_bot", { n, bot: describeBot(seat.bot) });
    item.append(text);
    return item;
  }
  if (!seat.taken) {
    item.classList.add("free");
    text.textContent = t("lobby.seat_free", { n });
    item.append(text);
    if (table.open_seats && table.status !== "damaged") {
      const take = document.createElement("button");
      take.type = "button";
      take.className = "take-seat";
      take.dataset.table = table.id;
      take.dataset.seat = String(seat.seat);
      take.dataset.focusKey = `take-${table.id}-${seat.seat}`;
      take.textContent = t("lobby.take_seat", { n });
      take.setAttribute("aria-label", t("lobby.take_seat_label", { n, game: gameName, id: table.id }));
      take.addEventListener("click", () => claimSeat(table, seat.seat, take));
      item.append(" ", take);
    }
    return item;
  }
  const name = seat.name ? seat.name : null;
  if (seat.handed_to) {
    text.textContent = t("lobby.seat_handed", { n, name: name ?? t("lobby.kind_human") });
  } else {
    text.textContent = name ? t("lobby.seat_person", { n, name }) : t("lobby.seat_person_unnamed", { n });
  }
  item.append(text);
  if (typeof seat.present === "boolean") {
    const presence = document.createElement("span");
    presence.className = `presence ${seat.present ? "here" : "away"}`;
    presence.textContent = t(seat.present ? "lobby.seat_here" : "lobby.seat_away");
    item.append(" ", presence);
  }
  return item;
}

function tableRow(table) {
  const row = document.createElement("tr");
  row.dataset.table = table.id;
  row.dataset.status = table.status;
  if (table.status === "damaged") row.classList.add("damaged");
  const game = lobby.games.find((g) => g.name === table.game);
  const title = game ? gameTitle(game) : (table.game ?? "");
  const labels = ["lobby.col_game", "lobby.col_status", "lobby.col_seats", "lobby.col_actions"].map((k) => t(k));

  const gameCell = document.createElement("td");
  gameCell.dataset.label = labels[0];
  if (game) {
    const picture = document.createElement("img");
    picture.src = `/static/img/${game.name}.svg`;
    picture.alt = "";
    picture.width = 32;
    picture.height = 24;
    picture.className = "table-picture";
    gameCell.append(picture);
  }
  gameCell.append(title || t("lobby.table_id", { id: table.id }));

  const statusCell = document.createElement("td");
  statusCell.dataset.label = labels[1];
  statusCell.className = `status status-${table.status}`;
  if (table.status === "damaged") {
    const mark = document.createElement("strong");
    mark.className = "damaged-mark";
    mark.textContent = "⚠";
    mark.setAttribute("aria-hidden", "true");
    statusCell.append(mark, " ");
  }
  statusCell.append(t(`lobby.status_${table.status}`, { reason: table.damaged ?? "" }));

  const seatsCell = document.createElement("td");
  seatsCell.dataset.label = labels[2];
  const seats = document.createElement("ul");
  seats.className = "seat-summary";
  for (const seat of table.seats ?? []) seats.append(seatEntry(table, seat, title));
  seatsCell.append(seats);

  const actions = document.createElement("td");
  actions.dataset.label = labels[3];
  if (table.status !== "damaged") {
    const anchor = document.createElement("a");
    anchor.href = `/table/${encodeURIComponent(table.id)}`;
    anchor.textContent = t("lobby.watch");
    anchor.dataset.focusKey = `watch-${table.id}`;
    actions.append(anchor);
  }
  row.append(gameCell, statusCell, seatsCell, actions);
  return row;
}

async function refreshTables() {
  const ticket = ++lobby.refreshing;
  let result;
  try {
    result = await fetchTables();
  } catch {
    return;
  }
  if (ticket !== lobby.refreshing) return; // a newer refresh is under way
  const shown = result.tables.filter((table) => SHOWN_STATUSES.includes(table.status));
  const signature = JSON.stringify([shown, result.total, result.next]);
  if (signature === lobby.listSignature) return; // nothing changed: keep focus and scroll alone
  lobby.listSignature = signature;
  const focusKey = document.activeElement?.dataset?.focusKey;
  const body = $("tables").querySelector("tbody");
  body.replaceChildren(...shown.map(tableRow));
  $("tables").hidden = shown.length === 0;
  $("tables-empty").hidden = shown.length > 0;
  $("tables-count").hidden = shown.length === 0;
  $("tables-count").textContent = t("lobby.showing", { shown: result.tables.length, total: result.total });
  $("more-tables").hidden = !result.next;
  if (focusKey) body.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`)?.focus();
}

async function moreTables() {
  const before = $("tables").querySelectorAll("tbody tr").length;
  lobby.pagesWanted += 1;
  await refreshTables();
  // Carry on where the new rows start, so keyboard users are not sent back to the top.
  const first = $("tables").querySelectorAll("tbody tr")[before];
  first?.querySelector("a, button")?.focus();
}

async function claimSeat(table, seat, button) {
  const errorBox = $("tables-error");
  errorBox.hidden = true;
  const n = seat + 1;
  const name = playerName();
  button.disabled = true;
  button.textContent = t("lobby.taking_seat", { n });
  let response;
  let data = {};
  try {
    response = await fetch(
      `/api/tables/${encodeURIComponent(table.id)}/seats/${encodeURIComponent(seat)}/claim`,
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(name ? { name } : {}),
      },
    );
    data = await response.json().catch(() => ({}));
  } catch {
    errorBox.textContent = t("lobby.server_unreachable");
    errorBox.hidden = false;
    button.disabled = false;
    button.textContent = t("lobby.take_seat", { n });
    return;
  }
  if (response.ok && data.link) {
    window.location.assign(withName(data.link, name));
    return;
  }
  errorBox.textContent =
    data.code === "seat_taken"
      ? t("lobby.seat_taken_already", { n })
      : t("lobby.claim_failed", { message: data.error ?? response.status });
  errorBox.hidden = false;
  lobby.listSignature = null;
  await refreshTables();
}

// --- start ------------------------------------------------------------------------------------
function rememberName() {
  const field = $("player-name");
  try {
    field.value = window.localStorage.getItem(NAME_KEY) ?? "";
  } catch {
    // storage refused (private mode): the name is simply not remembered
  }
  field.addEventListener("input", () => {
    try {
      window.localStorage.setItem(NAME_KEY, playerName());
    } catch {
      // as above
    }
  });
}

async function main() {
  await loadCatalogue();
  applyI18n();
  rememberName();
  try {
    lobby.games = await (await fetch("/api/games")).json();
  } catch {
    $("create-error").textContent = t("lobby.server_unreachable");
    $("create-error").hidden = false;
    return;
  }
  const select = $("game");
  for (const game of lobby.games) {
    const option = document.createElement("option");
    option.value = game.name;
    option.textContent = gameTitle(game);
    select.append(option);
    $("game-cards").append(gameCard(game));
    const item = document.createElement("li");
    const anchor = document.createElement("a");
    anchor.href = `/howto/${game.name}`;
    anchor.textContent = t("lobby.howto_game", { game: gameTitle(game) });
    item.append(anchor);
    $("howtos").append(item);
  }
  select.addEventListener("change", selectGame);
  selectGame();
  $("add-seat").addEventListener("click", () => {
    lobby.seats.push({ kind: "bot", level: DEFAULT_LEVEL });
    renderSeats();
  });
  $("remove-seat").addEventListener("click", () => {
    lobby.seats.pop();
    renderSeats();
  });
  $("clock-mode").addEventListener("change", applyRelevance);
  $("create-form").addEventListener("submit", createTable);
  $("refresh").addEventListener("click", () => {
    lobby.listSignature = null;
    refreshTables();
  });
  $("more-tables").addEventListener("click", moreTables);
  await refreshTables();
  window.setInterval(refreshTables, 5000);
  document.body.dataset.ready = "true";
}

main();
