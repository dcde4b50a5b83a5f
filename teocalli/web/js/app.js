// The lobby: create a table (game, options, seats as people or bots, an optional clock) and get a
// share link per person; see the open and running tables and watch one.
import { applyI18n, loadCatalogue, t, tOr } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const lobby = { games: [], seats: [] };

function gameTitle(game) {
  return tOr(`games.${game.name}.title`, game.title);
}

function currentGame() {
  return lobby.games.find((g) => g.name === $("game").value);
}

function optionField(option, game) {
  const wrap = document.createElement("p");
  const id = `option-${option.name}`;
  const label = document.createElement("label");
  label.htmlFor = id;
  label.textContent = tOr(`games.${game.name}.options.${option.name}`, option.help);
  let input;
  if (typeof option.default === "boolean") {
    input = document.createElement("input");
    input.type = "checkbox";
    input.checked = option.default;
    wrap.append(input, " ", label);
  } else if (option.choices) {
    input = document.createElement("select");
    for (const choice of option.choices) {
      const item = document.createElement("option");
      item.value = JSON.stringify(choice);
      item.textContent = tOr(`games.${game.name}.choices.${option.name}.${choice}`, String(choice));
      input.append(item);
    }
    input.value = JSON.stringify(option.default);
    wrap.append(label, " ", input);
  } else if (typeof option.default === "number") {
    input = document.createElement("input");
    input.type = "number";
    input.value = String(option.default);
    if (option.minimum !== null && option.minimum !== undefined) input.min = String(option.minimum);
    if (option.maximum !== null && option.maximum !== undefined) input.max = String(option.maximum);
    input.step = Number.isInteger(option.default) ? "1" : "any";
    wrap.append(label, " ", input);
  } else {
    input = document.createElement("input");
    input.type = "text";
    input.value = String(option.default ?? "");
    wrap.append(label, " ", input);
  }
  input.id = id;
  input.dataset.option = option.name;
  input.dataset.kind = typeof option.default;
  return wrap;
}

function readOptions() {
  const options = {};
  for (const input of $("options").querySelectorAll("[data-option]")) {
    const name = input.dataset.option;
    if (input.type === "checkbox") options[name] = input.checked;
    else if (input.tagName === "SELECT") options[name] = JSON.parse(input.value);
    else if (input.dataset.kind === "number") options[name] = Number(input.value);
    else options[name] = input.value;
  }
  return options;
}

function renderSeats() {
  const game = currentGame();
  const list = $("seats");
  list.replaceChildren();
  lobby.seats.forEach((seat, index) => {
    const item = document.createElement("li");
    const kindId = `seat-${index}-kind`;
    const label = document.createElement("label");
    label.htmlFor = kindId;
    label.textContent = t("lobby.seat_n", { n: index + 1 });
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
      renderSeats();
    });
    item.append(label, " ", kind);
    if (seat.kind === "bot") {
      const botId = `seat-${index}-bot`;
      const botLabel = document.createElement("label");
      botLabel.htmlFor = botId;
      botLabel.textContent = t("lobby.strength");
      const bot = document.createElement("select");
      bot.id = botId;
      bot.className = "seat-bot";
      for (const name of game.bots) {
        const option = document.createElement("option");
        option.value = name;
        option.textContent = tOr(`bots.${name}`, name);
        bot.append(option);
      }
      bot.value = game.bots.includes(seat.bot) ? seat.bot : game.bots[game.bots.length - 1];
      seat.bot = bot.value;
      bot.addEventListener("change", () => {
        seat.bot = bot.value;
      });
      item.append(" ", botLabel, " ", bot);
    }
    list.append(item);
  });
  $("add-seat").disabled = lobby.seats.length >= game.max_players;
  $("remove-seat").disabled = lobby.seats.length <= game.min_players;
  $("seat-range").textContent = t("lobby.seat_range", { min: game.min_players, max: game.max_players });
}

function selectGame() {
  const game = currentGame();
  const box = $("options");
  for (const node of [...box.children]) if (node.tagName !== "LEGEND") node.remove();
  // The player count is the number of seats, so the "players" option is not asked for.
  const options = game.options.filter((o) => o.name !== "players");
  for (const option of options) box.append(optionField(option, game));
  if (!options.length) {
    const none = document.createElement("p");
    none.className = "hint";
    none.textContent = t("lobby.no_options");
    box.append(none);
  }
  lobby.seats = [{ kind: "human" }];
  while (lobby.seats.length < game.default_players) lobby.seats.push({ kind: "bot", bot: "greedy" });
  renderSeats();
  $("howto").href = `/howto/${game.name}`;
  $("howto").textContent = t("lobby.howto_game", { game: gameTitle(game) });
}

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
  const body = {
    game: game.name,
    options: readOptions(),
    seats: lobby.seats.map((s) => (s.kind === "bot" ? { kind: "bot", bot: s.bot } : { kind: "human" })),
    clock: mode ? { mode, seconds: Number($("clock-seconds").value) } : null,
    bot_delay: Number($("bot-delay").value),
  };
  const errorBox = $("create-error");
  errorBox.hidden = true;
  let response;
  let data;
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
      seat.link,
      t("lobby.copy_seat", { n: seat.seat + 1 }),
    );
  }
  addLink(list, t("lobby.spectate"), data.spectate, t("lobby.copy_spectate"));
  $("created").hidden = false;
  $("created").dataset.table = data.id;
  list.querySelector("a")?.focus();
  refreshTables();
}

async function refreshTables() {
  let tables = [];
  try {
    tables = await (await fetch("/api/tables")).json();
  } catch {
    return;
  }
  const body = $("tables").querySelector("tbody");
  body.replaceChildren();
  const shown = tables.filter((table) => ["open", "running", "damaged"].includes(table.status));
  $("tables-empty").hidden = shown.length > 0;
  for (const table of shown) {
    const row = document.createElement("tr");
    const game = lobby.games.find((g) => g.name === table.game);
    const seats = table.seats
      .map((s) => {
        if (s.kind === "bot") return t("lobby.seat_is_bot", { n: s.seat + 1, bot: tOr(`bots.${s.bot}`, s.bot) });
        return t(s.taken ? "lobby.seat_is_taken" : "lobby.seat_is_open", { n: s.seat + 1 });
      })
      .join(", ");
    const status = t(`lobby.status_${table.status}`, { reason: table.damaged ?? "" });
    const cells = [game ? gameTitle(game) : (table.game ?? ""), status, seats];
    for (const text of cells) {
      const td = document.createElement("td");
      td.textContent = text;
      row.append(td);
    }
    const watch = document.createElement("td");
    if (table.status !== "damaged") {
      const anchor = document.createElement("a");
      anchor.href = `/table/${encodeURIComponent(table.id)}`;
      anchor.textContent = t("lobby.watch");
      watch.append(anchor);
    }
    row.append(watch);
    body.append(row);
  }
}

async function main() {
  await loadCatalogue();
  applyI18n();
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
    lobby.seats.push({ kind: "bot", bot: "greedy" });
    renderSeats();
  });
  $("remove-seat").addEventListener("click", () => {
    lobby.seats.pop();
    renderSeats();
  });
  $("create-form").addEventListener("submit", createTable);
  $("refresh").addEventListener("click", refreshTables);
  refreshTables();
  window.setInterval(refreshTables, 5000);
  document.body.dataset.ready = "true";
}

main();
