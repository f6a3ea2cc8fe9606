// The verify page's sentences, in the language asked for (lang/verify-text.js holds them).
import TEXT from "./lang/verify-text.js";

/** A sentence of `code`'s language with `{name}` placeholders filled from `params`. */
export function sayIn(code) {
  const table = TEXT[code] || TEXT.en;
  return (key, params = {}) => table[key].replace(/\{(\w+)\}/g, (_, k) => String(params[k]));
}
