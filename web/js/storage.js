// This browser's storage (localStorage): the one module that reads and writes it. Every
// key is named where it is used (`rummy.games`, `rummy.order.<room>.<seat>.<hand>`...);
// a browser that blocks storage, or holds a value that is not JSON, reads as `fallback`,
// and a write that fails (storage full or blocked) is dropped: what is kept here only
// spares the player something after a reload.

/** The string kept under `key`, or null. */
export function loadText(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function keepText(key, text) {
  try {
    localStorage.setItem(key, text);
  } catch {
    /* not kept: it lives until the page is left */
  }
}

/** The value kept under `key` as JSON, or `fallback` when there is none or it is unreadable. */
export function load(key, fallback = null) {
  try {
    return JSON.parse(localStorage.getItem(key)) ?? fallback;
  } catch {
    return fallback;
  }
}

export function keep(key, value) {
  keepText(key, JSON.stringify(value));
}

export function drop(key) {
  try {
    localStorage.removeItem(key);
  } catch {
    /* nothing to drop */
  }
}
