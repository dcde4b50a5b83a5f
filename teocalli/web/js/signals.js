// Telling a person it is their turn when they look at another tab: the tab's title and icon
// change, and (only if they switched it on) a short beep plays. No audio file: WebAudio.

const SOUND_KEY = "teocalli.sound";

function iconUrl(svg) {
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

/** The pyramid, dark: nothing to do. */
export const ICON_IDLE = iconUrl(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">' +
    '<rect x="1" y="1" width="30" height="30" rx="6" fill="#2b2118"/>' +
    '<path d="M5 26h22L16 6z" fill="#c9b79a"/><path d="M9 20h14M12 14h8" stroke="#2b2118" stroke-width="2"/></svg>',
);

/** The pyramid on bright orange with a dot: your turn. */
export const ICON_TURN = iconUrl(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">' +
    '<rect x="1" y="1" width="30" height="30" rx="6" fill="#ff5f00"/>' +
    '<path d="M5 26h22L16 6z" fill="#fff"/><circle cx="25" cy="7" r="6" fill="#0b5cad" stroke="#fff" stroke-width="2"/></svg>',
);

/** Set the tab's title and icon. */
export function signalTurn(mine, title) {
  document.title = title;
  let link = document.querySelector('link[rel="icon"]');
  if (!link) {
    link = document.createElement("link");
    link.rel = "icon";
    document.head.append(link);
  }
  const href = mine ? ICON_TURN : ICON_IDLE;
  if (link.getAttribute("href") !== href) link.setAttribute("href", href);
  link.dataset.turn = mine ? "mine" : "other";
}

let audio = null;

/** Whether the person switched the beep on (off unless they did). */
export function soundOn() {
  try {
    return window.localStorage.getItem(SOUND_KEY) === "on";
  } catch {
    return false;
  }
}

/** Remember the choice; switching on is a press, so the audio may start now (browsers allow
 * sound only after the person interacted with the page). */
export function setSound(on) {
  try {
    window.localStorage.setItem(SOUND_KEY, on ? "on" : "off");
  } catch {
    // private mode: the choice lasts for this page only
  }
  if (on) beep();
}

/** A short two-note beep (if the person wants sound and the browser allows it). */
export function beep() {
  if (!soundOn()) return;
  const Context = window.AudioContext ?? window.webkitAudioContext;
  if (!Context) return;
  try {
    audio ??= new Context();
    if (audio.state === "suspended") audio.resume();
    const start = audio.currentTime + 0.01;
    for (const [offset, frequency] of [
      [0, 660],
      [0.12, 880],
    ]) {
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.type = "sine";
      tone.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, start + offset);
      gain.gain.exponentialRampToValueAtTime(0.2, start + offset + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + offset + 0.11);
      tone.connect(gain).connect(audio.destination);
      tone.start(start + offset);
      tone.stop(start + offset + 0.12);
    }
  } catch {
    // no sound is never an error
  }
}
