// The announcement strip "where the eye is": a strip of its own just above the board (in the page's
// flow, with a fixed height: it never covers the board and never moves it) that shows the
// sentences a renderer's announce() gives for a step that changed the game's course (a level
// completed, a card scored, a city raided...), the newest first, bright for a few seconds and then
// quiet until the next one. It is also an aria-live="polite" region, so a screen reader says them
// without moving the focus.

const SHOW_MS = 5000;
const MOST = 3; // sentences kept; older ones leave first (the strip shows the newest)

/** Show `sentences` in `box` (the #announce element) for a few seconds each. The box stays in the
 * page even when empty (CSS hides it): a live region must exist before what it announces. */
export function sayInBanner(box, sentences) {
  for (const sentence of sentences) {
    // The same sentence again (two passes in a row): the one on screen stays a little longer.
    const same = [...box.children].find((item) => item.textContent === sentence);
    if (same) same.remove();
    const item = document.createElement("p");
    item.className = "announce-item";
    item.textContent = sentence;
    box.append(item);
    window.setTimeout(() => item.classList.add("quiet"), SHOW_MS);
  }
  while (box.childElementCount > MOST) box.firstElementChild.remove();
}

/** The sentences a renderer announces for the step from `prev` to `view` (none if it has no
 * announce(), or if it fails: a renderer's bug must never stop the table). `playerName(p)` names
 * a seat as the table does. */
export function announcements(renderer, prev, view, t, playerName) {
  if (!renderer || typeof renderer.announce !== "function" || !prev) return [];
  try {
    const said = renderer.announce(prev, view, t, playerName);
    return Array.isArray(said) ? said.filter((s) => typeof s === "string" && s.trim()) : [];
  } catch (err) {
    console.warn("announce failed", err);
    return [];
  }
}
