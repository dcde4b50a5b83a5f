// Small helpers the five renderers share: building SVG, and turning a piece of the board into a
// focusable button that plays a move (click, Enter or Space), so every board is keyboard-usable.
const NS = "http://www.w3.org/2000/svg";

/** An SVG element with attributes and children (strings become text nodes). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value !== undefined && value !== null && value !== false) node.setAttribute(name, value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === "string" || typeof child === "number" ? String(child) : child);
  }
  return node;
}

/** A root <svg> with a viewBox and an accessible name. */
export function root(width, height, label) {
  return el("svg", {
    viewBox: `0 0 ${width} ${height}`,
    width: "100%",
    role: "group",
    "aria-label": label,
    class: "board",
    preserveAspectRatio: "xMidYMin meet",
  });
}

/** A <text> centred on (x, y). */
export function text(x, y, content, attrs = {}) {
  return el(
    "text",
    { x, y, "text-anchor": "middle", "dominant-baseline": "central", ...attrs },
    content,
  );
}

function pressable(node, label, onPress) {
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", label);
  node.append(el("title", {}, label));
  // A name must contain the visible text (voice control says what it sees, WCAG 2.5.3): the letters
  // drawn on the piece follow its words. After the renderer has drawn the rest of the piece.
  queueMicrotask(() => {
    // Joined as assistive technology reads them: text after text, nothing between.
    const shown = [...node.querySelectorAll("text")].map((t) => t.textContent.trim()).join("");
    if (shown && !label.includes(shown)) node.setAttribute("aria-label", `${label} — ${shown}`);
  });
  node.addEventListener("click", (event) => {
    event.preventDefault();
    onPress();
  });
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      onPress();
    }
  });
  return node;
}

/**
 * Make `node` play `action` when pressed, if it is legal for this viewer now; records that the
 * action is reachable on the board (the table lists the others as buttons beside the board).
 * `forSelection` marks a move shown only because a piece is selected.
 */
export function actionTarget(node, action, label, ui, { forSelection = false } = {}) {
  ui.board.add(action);
  if (!ui.interactive || !ui.legal.includes(action)) return node;
  node.classList.add("legal");
  node.dataset.action = action;
  // A move that appeared because a piece was picked up (tests and styles tell them apart).
  if (forSelection) node.dataset.forSelection = "true";
  return pressable(node, label, () => ui.act(action));
}

/** Make `node` select `key` (a piece to move next); pressing the selected piece clears it. */
export function selectTarget(node, key, label, ui) {
  if (!ui.interactive) return node;
  node.classList.add("selectable");
  node.dataset.select = key;
  if (ui.selected === key) {
    node.classList.add("selected");
    node.setAttribute("aria-pressed", "true");
  } else {
    node.setAttribute("aria-pressed", "false");
  }
  return pressable(node, label, () => ui.select(ui.selected === key ? null : key));
}

/** The seat's display number (seats are 0-based on the wire, people count from 1). */
export function seatNumber(seat) {
  return seat + 1;
}
