// Statistics kept in this browser (localStorage), as cardgames.io keeps them: per variant and
// mode, the hands and matches played and won and the best hand. A hand counts once, when
// its result first reaches this browser; the seat is this browser's own (in local play the
// seat whose view it is, so a device shared by two counts the hands of whoever holds it).
import { keep, load } from "./storage.js";

const KEY = "rummy.stats";
const SEEN_MAX = 400; // rooms' hands already counted, newest kept

const readAll = () => ({ rows: {}, seen: [], ...load(KEY, {}) });

const blank = () => ({ hands: 0, handsWon: 0, matches: 0, matchesWon: 0, best: null });

/**
 * Count the hand (and the match) `view` ends, once. `penalty`: the variant scores penalty
 * points (the lower the better), so the best hand is the fewest taken; otherwise the most
 * points won in one hand.
 */
export function recordHand(room, mode, view, penalty) {
  const result = view?.hand_result;
  if (!result || view.seat === null || view.seat === undefined || mode === "watch") return;
  const all = readAll();
  const key = `${room}:${view.hand_number}`;
  if (all.seen.includes(key)) return;
  all.seen = [...all.seen, key].slice(-SEEN_MAX);
  const name = `${view.variant}:${mode}`;
  const row = { ...blank(), ...(all.rows[name] || {}) };
  const points = result.points?.[view.seat] ?? 0;
  row.hands += 1;
  if (result.winner === view.seat) row.handsWon += 1;
  if (penalty) row.best = row.best === null ? points : Math.min(row.best, points);
  else if (result.winner === view.seat) row.best = Math.max(row.best ?? 0, points);
  if (view.phase === "match_over") {
    row.matches += 1;
    if ((view.match_winner || []).includes(view.seat)) row.matchesWon += 1;
  }
  all.rows[name] = row;
  keep(KEY, all);
}

/** [{variant, mode, hands, handsWon, matches, matchesWon, best}], most hands first. */
export function statsRows() {
  return Object.entries(readAll().rows)
    .map(([name, row]) => {
      const [variant, mode] = name.split(":");
      return { variant, mode, ...blank(), ...row };
    })
    .sort((a, b) => b.hands - a.hands);
}

/** Forget every figure (the hands already counted stay counted). */
export function resetStats() {
  const all = readAll();
  keep(KEY, { rows: {}, seen: all.seen });
}
