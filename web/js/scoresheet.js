// The score sheet per hand, rebuilt from GET /log (every finished hand with its result), so
// it is right on any device. The match is the group of logged hands whose points add up to
// the scores the view shows.

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
