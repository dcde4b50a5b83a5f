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
