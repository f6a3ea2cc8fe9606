// The score sheet per hand, rebuilt from GET /log (every finished hand with its result), so
// it is right on any device. The match is the group of logged hands whose points add up to
// the scores the view shows. Between reads, each hand's result as a view brings it; this
// browser keeps its own copy (saved.js) for a device that cannot read the log.
import { saveSheet } from "./saved.js";

const sum = (rows, n) => rows.reduce((acc, r) => acc.map((v, i) => v + (r.points[i] || 0)), new Array(n).fill(0));

/** [{hand, points}] for the current match, or null when the log does not settle it. */
export function sheetFromLog(log, view) {
  const hands = Array.isArray(log?.hands) ? log.hands : [];
  const n = view.scores.length;
  const groups = new Map();
  for (const entry of hands) {
    if (!entry.result) continue;
    const match = entry.start?.match_number ?? 1;
    if (!groups.has(match)) groups.set(match, []);
    groups.get(match).push({ hand: entry.start?.hand_number ?? groups.get(match).length + 1, points: entry.result.points });
  }
  const wanted = view.scores.join();
  const matches = [...groups.values()].reverse();
  for (const rows of matches) {
    if (sum(rows, n).join() === wanted) return rows;
  }
  if (view.scores.every((s) => s === 0)) return [];
  return null;
}

/** A view's hand result on the sheet, and the hands of an earlier match (or of a hand played
 * again) off it. */
export function keepSheet(store, view) {
  const room = store.session.room;
  if (view.hand_result && ["hand_over", "match_over"].includes(view.phase)) {
    let sheet = store.sheet.filter((e) => e.hand < view.hand_number);
    sheet = [...sheet, { hand: view.hand_number, points: view.hand_result.points }];
    if (JSON.stringify(sheet) !== JSON.stringify(store.sheet)) {
      store.sheet = sheet;
      saveSheet(room, sheet);
    }
  } else if (store.sheet.some((e) => e.hand >= view.hand_number)) {
    store.sheet = store.sheet.filter((e) => e.hand < view.hand_number);
    saveSheet(room, store.sheet);
  }
  if (view.seats && view.scores.every((s) => s === 0) && view.hand_number === 1 && store.sheet.length) {
    store.sheet = [];
    saveSheet(room, []);
  }
}

/** Rebuild the sheet from the log (`getLog`: api.js's); keep this browser's own if that fails. */
export async function refreshSheet(store, getLog) {
  const s = store.session;
  if (!s?.token || !store.view) return;
  try {
    const sheet = sheetFromLog(await getLog(s.room, s.token), store.view);
    if (sheet && JSON.stringify(sheet) !== JSON.stringify(store.sheet)) {
      saveSheet(s.room, sheet);
      store.update({ sheet });
    }
  } catch {
    /* the local sheet stays */
  }
}
