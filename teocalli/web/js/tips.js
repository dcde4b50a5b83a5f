// The tooltip layer: any element with data-tip="text" (a renderer marks pieces that explain
// themselves) shows its text near it on mouse hover, on keyboard focus and on a long press (touch,
// about half a second; the press then does not count as a tap). Escape, leaving, blur or a tap
// elsewhere hides it. One tip at a time, in one role="tooltip" element that the focused element
// points to with aria-describedby, so a screen reader reads the text too.

const LONG_PRESS_MS = 500;
const MOVE_TOLERANCE = 10; // px a finger may wander before a press stops counting as long
const HIDE_DELAY_MS = 120; // leaving a piece for the next one does not flicker
const GAP = 8; // px between the piece and the tip

const tips = {
  box: null,
  anchor: null, // the element whose tip shows
  how: null, // "hover" | "focus" | "press"
  hideTimer: null,
  press: null, // {timer, x, y, target}
  swallowClick: false,
};

/** The element of `node` (or an ancestor) that carries a tip, if any. */
function tipOwner(node) {
  if (!node || typeof node.closest !== "function") return null;
  const owner = node.closest("[data-tip]");
  return owner && owner.getAttribute("data-tip") ? owner : null;
}

function place(anchor) {
  const box = tips.box;
  const rect = anchor.getBoundingClientRect();
  const width = box.offsetWidth;
  const height = box.offsetHeight;
  const viewWidth = document.documentElement.clientWidth;
  const viewHeight = document.documentElement.clientHeight;
  let left = rect.left + rect.width / 2 - width / 2;
  left = Math.max(4, Math.min(left, viewWidth - width - 4));
  // Above the piece when there is room (a finger or the pointer covers what is below), else below.
  let top = rect.top - height - GAP;
  let side = "above";
  if (top < 4) {
    top = Math.min(rect.bottom + GAP, viewHeight - height - 4);
    side = "below";
  }
  box.style.left = `${Math.round(left)}px`;
  box.style.top = `${Math.round(Math.max(4, top))}px`;
  box.dataset.side = side;
}

/** Show `anchor`'s tip; `how` says what asked for it (hover, focus, press). */
export function showTip(anchor, how) {
  if (!tips.box) return;
  window.clearTimeout(tips.hideTimer);
  tips.hideTimer = null;
  tips.anchor = anchor;
  tips.how = how;
  tips.box.textContent = anchor.getAttribute("data-tip");
  tips.box.hidden = false;
  place(anchor);
}

/** Hide the tip; true if one was showing. */
export function hideTip() {
  window.clearTimeout(tips.hideTimer);
  tips.hideTimer = null;
  if (!tips.box || tips.box.hidden) {
    tips.anchor = null;
    return false;
  }
  tips.box.hidden = true;
  tips.anchor = null;
  tips.how = null;
  return true;
}

function hideSoon() {
  window.clearTimeout(tips.hideTimer);
  tips.hideTimer = window.setTimeout(hideTip, HIDE_DELAY_MS);
}

/** After the board is drawn again: a tip whose piece is gone goes too. */
export function refreshTips() {
  if (tips.anchor && !tips.anchor.isConnected) hideTip();
}

function describedBy(node, on) {
  const ids = (node.getAttribute("aria-describedby") ?? "").split(/\s+/).filter(Boolean);
  const rest = ids.filter((id) => id !== tips.box.id);
  if (on) rest.push(tips.box.id);
  if (rest.length) node.setAttribute("aria-describedby", rest.join(" "));
  else node.removeAttribute("aria-describedby");
}

function cancelPress() {
  if (tips.press) window.clearTimeout(tips.press.timer);
  tips.press = null;
}

/** Install the layer once per page: events are delegated, so boards drawn later have tips too. */
export function installTips(doc = document) {
  if (tips.box) return tips.box;
  const box = doc.createElement("div");
  box.id = "tip";
  box.className = "tip";
  box.setAttribute("role", "tooltip");
  box.hidden = true;
  doc.body.append(box);
  tips.box = box;

  // The mouse (and a pen): hover shows, leaving hides after a moment (time to reach the tip).
  doc.addEventListener("pointerover", (event) => {
    if (event.pointerType === "touch") return;
    const owner = tipOwner(event.target);
    if (owner) showTip(owner, "hover");
    else if (tips.how === "hover") hideSoon();
  });
  doc.addEventListener("pointerout", (event) => {
    if (event.pointerType === "touch" || tips.how !== "hover") return;
    const to = event.relatedTarget;
    if (to && tips.anchor && tips.anchor.contains(to)) return;
    hideSoon();
  });

  // The keyboard: focus shows (only a visible, keyboard focus: a click already showed it by
  // hover) and always links the tip for screen readers; blur hides.
  doc.addEventListener("focusin", (event) => {
    const owner = tipOwner(event.target);
    if (!owner) return;
    describedBy(event.target, true);
    let visible = true;
    try {
      visible = event.target.matches(":focus-visible");
    } catch {
      visible = true;
    }
    if (visible) showTip(owner, "focus");
  });
  doc.addEventListener("focusout", (event) => {
    if (tipOwner(event.target)) describedBy(event.target, false);
    if (tips.how === "focus") hideTip();
  });

  // Touch: a long press shows the tip and is not a tap; a tap elsewhere hides it.
  doc.addEventListener("pointerdown", (event) => {
    tips.swallowClick = false; // a long press the browser cancelled (a scroll) left no click
    if (!box.hidden && tips.anchor && !tips.anchor.contains(event.target)) {
      hideTip();
    }
    if (event.pointerType !== "touch") return;
    const owner = tipOwner(event.target);
    cancelPress();
    if (!owner) return;
    tips.press = {
      x: event.clientX,
      y: event.clientY,
      timer: window.setTimeout(() => {
        tips.press = null;
        tips.swallowClick = true;
        showTip(owner, "press");
      }, LONG_PRESS_MS),
    };
  });
  doc.addEventListener("pointermove", (event) => {
    const press = tips.press;
    if (press && Math.hypot(event.clientX - press.x, event.clientY - press.y) > MOVE_TOLERANCE) {
      cancelPress();
    }
  });
  doc.addEventListener("pointerup", cancelPress);
  doc.addEventListener("pointercancel", cancelPress);
  // The tap that ends a long press must not play the piece it explained.
  doc.addEventListener(
    "click",
    (event) => {
      if (!tips.swallowClick) return;
      tips.swallowClick = false;
      event.preventDefault();
      event.stopPropagation();
    },
    true,
  );
  doc.addEventListener("contextmenu", (event) => {
    if (tipOwner(event.target) && (tips.press || tips.how === "press")) event.preventDefault();
  });

  // Escape hides the tip first (and only that: a second Escape does what it did before).
  doc.addEventListener(
    "keydown",
    (event) => {
      if (event.key === "Escape" && hideTip()) {
        event.stopPropagation();
        event.preventDefault();
      }
    },
    true,
  );
  window.addEventListener("scroll", () => tips.anchor && place(tips.anchor), { passive: true });
  window.addEventListener("resize", () => tips.anchor && place(tips.anchor));
  return box;
}
