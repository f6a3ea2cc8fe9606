// The language in use and the one lookup function; the strings live in lang/<code>.js.
import nl from "./lang/nl.js";
import en from "./lang/en.js";
import rulesNl from "./lang/rules-nl.js";
import rulesEn from "./lang/rules-en.js";

const LANGS = { nl: { ...nl, rules: rulesNl }, en: { ...en, rules: rulesEn } };
const KEY = "rummy.lang";

/** The browser's language: Dutch for any nl*, English for everything else. */
function browserLang() {
  const prefs = navigator.languages?.length ? navigator.languages : [navigator.language || ""];
  return String(prefs[0] || "").toLowerCase().startsWith("nl") ? "nl" : "en";
}

// A choice made with the switch wins over the browser's language.
let current = LANGS[localStorage.getItem(KEY)] ? localStorage.getItem(KEY) : browserLang();

export function lang() {
  return current;
}

/** Use `code`; `remember` keeps it as the player's choice over the browser's language. */
export function setLang(code, remember = true) {
  current = LANGS[code] ? code : "nl";
  if (remember) localStorage.setItem(KEY, current);
  document.documentElement.lang = current;
}

/** The string `key` with `{name}` placeholders filled from `params` (`n` picks the plural). */
export function t(key, params = {}) {
  // A count of one takes the singular form `<key>_one` where the language has one.
  const one = "n" in params && new Intl.PluralRules(current).select(Number(params.n)) === "one";
  const text = (one && LANGS[current][`${key}_one`]) || (LANGS[current][key] ?? LANGS.nl[key] ?? key);
  if (typeof text !== "string") return text;
  return text.replace(/\{(\w+)\}/g, (_, k) => (k in params ? String(params[k]) : `{${k}}`));
}

/** A nested table of strings (suits, ranks, rules). */
export function table(key) {
  return LANGS[current][key] ?? LANGS.nl[key];
}

/**
 * The server's error in plain words: our own sentence for known codes. The server's message
 * is English, so only an English page falls back on it; a Dutch page says its own sentence.
 */
export function errorText(error) {
  if (!error) return t("errorGeneric");
  if (error.code === "network") return t("errorNetwork");
  const own = LANGS[current][`err_${error.code}`];
  return own || (current === "en" && error.message) || t("errorGeneric");
}
