// The language in use and the one lookup function; the strings live in lang/<code>.js and
// lang/rules-<code>.js, and only the language in use is ever fetched (`loadLang`).
import { keepText, loadText } from "./storage.js";

const CODES = ["nl", "en"];
const LANGS = {}; // code -> its strings, once loaded
const KEY = "rummy.lang";

/** The browser's language: Dutch for any nl*, English for everything else. */
function browserLang() {
  const prefs = navigator.languages?.length ? navigator.languages : [navigator.language || ""];
  return String(prefs[0] || "").toLowerCase().startsWith("nl") ? "nl" : "en";
}

// A choice made with the switch wins over the browser's language.
let current = CODES.includes(loadText(KEY)) ? loadText(KEY) : browserLang();

export function lang() {
  return current;
}

/** Use `code`; `remember` keeps it as the player's choice over the browser's language. */
export function setLang(code, remember = true) {
  current = CODES.includes(code) ? code : "nl";
  if (remember) keepText(KEY, current);
  document.documentElement.lang = current;
}

/** Fetch the strings of the language in use (once); call before drawing in it. */
export async function loadLang() {
  const code = current;
  if (LANGS[code]) return;
  const [strings, rules] = await Promise.all([import(`./lang/${code}.js`), import(`./lang/rules-${code}.js`)]);
  LANGS[code] = { ...strings.default, rules: rules.default };
}

/** The string `key` with `{name}` placeholders filled from `params` (`n` picks the plural). */
export function t(key, params = {}) {
  // A count of one takes the singular form `<key>_one` where the language has one.
  const one = "n" in params && new Intl.PluralRules(current).select(Number(params.n)) === "one";
  const strings = LANGS[current] || {};
  const text = (one && strings[`${key}_one`]) || (strings[key] ?? key);
  if (typeof text !== "string") return text;
  return text.replace(/\{(\w+)\}/g, (_, k) => (k in params ? String(params[k]) : `{${k}}`));
}

/** A nested table of strings (suits, ranks, rules). */
export function table(key) {
  return (LANGS[current] || {})[key] ?? {};
}

/**
 * The server's error in plain words: our own sentence for known codes. The server's message
 * is English, so only an English page falls back on it; a Dutch page says its own sentence.
 */
export function errorText(error) {
  if (!error) return t("errorGeneric");
  if (error.code === "network") return t("errorNetwork");
  const own = (LANGS[current] || {})[`err_${error.code}`];
  return own || (current === "en" && error.message) || t("errorGeneric");
}
