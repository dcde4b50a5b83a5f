// A how-to-play page: the game's rules in our own words (from the catalogue) and an example
// position drawn by the very renderer the table uses, with the legal moves marked.
import { applyI18n, loadCatalogue, lookup, t } from "./i18n.js";
import { loadRenderer } from "./games/index.js";
import { fitBoard, NARROW } from "./fit.js";

const $ = (id) => document.getElementById(id);

async function main() {
  await loadCatalogue();
  applyI18n();
  const match = /\/howto\/([a-z-]+)/.exec(window.location.pathname);
  const game = match ? match[1] : null;
  const pages = game ? lookup(`howto.pages.${game}`) : undefined;
  if (!Array.isArray(pages)) {
    $("title").textContent = t("howto.unknown");
    return;
  }
  const title = t(`games.${game}.title`);
  $("title").textContent = t("howto.title", { game: title });
  document.title = t("howto.page_title", { game: title });
  const box = $("sections");
  for (const section of pages) {
    const heading = document.createElement("h2");
    heading.textContent = section.title;
    box.append(heading);
    for (const paragraph of section.text) {
      const p = document.createElement("p");
      p.textContent = paragraph;
      box.append(p);
    }
  }
  const example = await (await fetch(`/static/examples/${game}.json`)).json();
  const renderer = await loadRenderer(game);
  const ui = {
    t,
    seat: example.seat,
    players: example.view.players,
    legal: example.legal,
    // Moves are marked as on the table, but pressing one only selects: nothing is sent anywhere.
    interactive: true,
    selected: null,
    narrow: NARROW.matches, // a phone: the board in one column, as at the table
    board: new Set(),
    act() {},
    select(key) {
      ui.selected = key;
      ui.board = new Set();
      draw();
    },
    playerName: (p) => t("table.seat_name", { n: p + 1 }),
  };
  function draw() {
    const svg = renderer.render(example.view, ui);
    $("example-board").replaceChildren(svg);
    fitBoard(svg, $("example-board")); // readable and pressable on a phone, as at the table
  }
  // Start with a piece picked up, so the page shows where it may go.
  draw();
  const first = $("example-board").querySelector("[data-select]");
  if (first) ui.select(first.dataset.select);
  const caption = $("example-caption");
  caption.textContent = `${t("howto.example")}. ${t("howto.example_caption", { players: example.view.players })}`;
  $("example").hidden = false;
  document.body.dataset.ready = "true";
}

main();
