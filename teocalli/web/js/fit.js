// A board on a phone or a touch screen: drawn big enough to read and to tap (the table, its
// replay and the how-to pages share it).
// --- phones and touch screens: a board big enough to read and to tap ----------------------------
export const NARROW = window.matchMedia("(max-width: 800px), (pointer: coarse)");
const MIN_TEXT = 12; // CSS px: no text smaller
const MIN_TARGET = 44; // CSS px: every control that picks or plays a move, at least this square
const MAX_SCALE = 2.2;

/**
 * On a narrow or touch screen, draw the board at a scale where its smallest text is 12 px (and at
 * least as wide as its box); the box scrolls sideways when the board is wider. A target still
 * smaller than 44 px gets an invisible hit area that size (a transparent rect inside it).
 */
export function fitBoard(svg, box) {
  if (!svg || !box) return;
  svg.style.width = "";
  svg.style.maxWidth = "";
  if (!NARROW.matches) return;
  const viewBox = svg.viewBox?.baseVal;
  if (!viewBox || !viewBox.width) return;
  let smallest = Infinity;
  for (const node of svg.querySelectorAll("text")) {
    if (!node.textContent.trim()) continue;
    const size = parseFloat(getComputedStyle(node).fontSize);
    if (size > 0) smallest = Math.min(smallest, size);
  }
  const room = Math.max(1, box.clientWidth - 4);
  let scale = room / viewBox.width;
  if (Number.isFinite(smallest)) scale = Math.max(scale, Math.min(MAX_SCALE, MIN_TEXT / smallest + 0.001));
  svg.style.width = `${Math.ceil(viewBox.width * scale)}px`;
  svg.style.maxWidth = "none";
  box.classList.toggle("scrolls", viewBox.width * scale > room + 1);
  const unit = MIN_TARGET / scale + 0.5; // 44 CSS px in the board's units (and a little spare)
  for (const node of svg.querySelectorAll("[data-action], [data-select]")) {
    if (node.tagName !== "g" || node.querySelector(":scope > rect.hit")) continue;
    const b = node.getBBox();
    if (b.width >= unit && b.height >= unit) continue;
    const width = Math.max(b.width, unit);
    const height = Math.max(b.height, unit);
    const hit = document.createElementNS("http://www.w3.org/2000/svg", "rect");
    hit.setAttribute("class", "hit");
    hit.setAttribute("x", String(b.x + b.width / 2 - width / 2));
    hit.setAttribute("y", String(b.y + b.height / 2 - height / 2));
    hit.setAttribute("width", String(width));
    hit.setAttribute("height", String(height));
    hit.setAttribute("fill", "transparent");
    node.append(hit);
  }
}
