// What several renderers share: colours drawn with a letter beside them, and the players' labels.
import { el, text } from "../svg.js";

/** Text colour that stays readable on `fill`. */
export function ink(fill) {
  const hex = fill.replace("#", "");
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return 0.299 * r + 0.587 * g + 0.114 * b > 150 ? "#111" : "#fff";
}

/** A coloured square with a letter (or short word) on it: colour is never the only cue. */
export function chip(x, y, size, fill, label, attrs = {}) {
  return el(
    "g",
    attrs,
    el("rect", { x, y, width: size, height: size, rx: 4, fill, stroke: "#222" }),
    text(x + size / 2, y + size / 2, label, {
      fill: ink(fill),
      "font-size": Math.round(size * 0.42),
      "font-weight": "bold",
    }),
  );
}

/** A heading line of SVG text, left aligned. */
export function heading(x, y, content, attrs = {}) {
  return el("text", { x, y, class: "svg-heading", ...attrs }, content);
}

// --- what every renderer does to say what happened and to explain its pieces ------------------

/** `one` when `count` is 1, else `other`: strings say "1 stone", never "1 stones". */
export function counted(t, count, one, other, params) {
  return t(count === 1 ? one : other, params);
}

/**
 * How a game's sentences name a player: the table's `playerName` (given bare, or as `ui`'s
 * field), else `fallback`, the game's own words ("you", "player 2").
 */
export function namer(names, fallback) {
  if (typeof names === "function") return names;
  if (typeof names?.playerName === "function") return names.playerName;
  return fallback;
}

/** The sentence with its first letter in capitals. */
export function capital(words) {
  return words ? words[0].toUpperCase() + words.slice(1) : words;
}

/** Mark an element as changed by the last step (`kind` says how; true: "changed"), if it was:
 * the table page highlights every `data-last` element. */
export function mark(node, kind) {
  if (kind) node.setAttribute("data-last", kind === true ? "changed" : kind);
  return node;
}

/** Give a piece words on hover, focus and long press; focusable unless it already is (a move
 * target keeps its own role and label). */
export function tip(node, words) {
  node.setAttribute("data-tip", words);
  if (!node.hasAttribute("tabindex")) {
    node.setAttribute("tabindex", "0");
    if (!node.hasAttribute("role")) node.setAttribute("role", "img");
    if (!node.hasAttribute("aria-label")) node.setAttribute("aria-label", words);
  }
  return node;
}

// --- phones: SVG text does not wrap by itself -------------------------------------------------

/** Lines of at most `width` characters. */
export function wrap(words, width) {
  const lines = [];
  let line = "";
  for (const word of String(words).split(/\s+/)) {
    if (line && line.length + word.length + 1 > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** A heading wrapped to lines of `width` characters, `step` px apart: {node, height}. */
export function headingLines(x, y, content, width, step, attrs = {}) {
  const lines = wrap(content, width);
  const node = el(
    "text",
    { x, y, class: "svg-heading", ...attrs },
    ...lines.map((line, i) => el("tspan", { x, dy: i ? step : 0 }, line)),
  );
  return { node, height: lines.length * step };
}
