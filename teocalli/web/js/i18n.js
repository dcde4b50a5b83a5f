// The string catalogue: every player-facing word comes from i18n/<lang>.json through t(), so the
// table can be translated by adding one file. Missing keys show as the key itself (easy to spot).
let catalogue = {};

/** Load the catalogue for the page's language (English first; others when their file exists). */
export async function loadCatalogue(lang = "en") {
  const response = await fetch(`/static/i18n/${lang}.json`);
  catalogue = await response.json();
  document.documentElement.lang = lang;
  return catalogue;
}

/** Look a dotted key up; undefined if absent (callers that have a fallback use this). */
export function lookup(key) {
  let node = catalogue;
  for (const part of key.split(".")) {
    if (node === undefined || node === null || typeof node !== "object") return undefined;
    node = node[part];
  }
  return node;
}

const pluralRules = new Map();

/**
 * The key to read for a count: `params.count` (or `params.n`) picks `key_one`, `key_other`...
 * (the language's plural forms) when the catalogue has that form; else `key` itself, which is
 * always there (the "other" form), so a form may be added only where a language needs it.
 */
function pluralKey(key, params) {
  const count = params.count ?? params.n;
  if (typeof count !== "number") return key;
  const lang = document.documentElement.lang || "en";
  if (!pluralRules.has(lang)) pluralRules.set(lang, new Intl.PluralRules(lang));
  const form = `${key}_${pluralRules.get(lang).select(count)}`;
  return typeof lookup(form) === "string" ? form : key;
}

/** The catalogue's text for `key` with {name} placeholders filled from `params` (plural forms:
 * see pluralKey). */
export function t(key, params = {}) {
  const text = lookup(pluralKey(key, params));
  if (typeof text !== "string") return key;
  return text.replace(/\{(\w+)\}/g, (whole, name) =>
    params[name] === undefined ? whole : String(params[name]),
  );
}

/** Like t() but falls back to `fallback` (e.g. the server's own words) when the key is absent. */
export function tOr(key, fallback, params = {}) {
  return typeof lookup(key) === "string" ? t(key, params) : fallback;
}

/** Fill static markup: data-i18n sets text, data-i18n-<attr> sets that attribute. */
export function applyI18n(root = document) {
  for (const node of root.querySelectorAll("*")) {
    for (const attr of node.getAttributeNames()) {
      if (attr === "data-i18n") node.textContent = t(node.getAttribute(attr));
      else if (attr.startsWith("data-i18n-")) {
        node.setAttribute(attr.slice("data-i18n-".length), t(node.getAttribute(attr)));
      }
    }
  }
}
