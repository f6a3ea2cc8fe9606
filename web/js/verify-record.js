// A match record (docs/api.md v1.3) checked as a whole, as `rummy verify` does
// (app/records/checks.py): every hand as verify-hand.js checks it; hands numbered 0, 1, 2,
// ... from zero scores, each from the last, the deal passing on; options and names that fit
// the variant; the match over exactly when its limit is reached.
import { same, verifyHand } from "./verify-hand.js";
import { sayIn } from "./verify-say.js";

export const RECORD_FORMAT = "rummy-record/1";
const TURN_SECONDS = [15, 600];
export const list = (values) => `[${values.join(", ")}]`; // as rummy verify writes them
const sum = (a, b) => a.map((v, i) => v + (b[i] ?? 0));

/** A record's hand in the shape of a log's hand, for verifyHand (its moves numbered 1..n). */
function logEntryOf(record, hand) {
  const deal = hand.deal || {};
  const moves = Array.isArray(hand.moves) ? hand.moves : [];
  return {
    hand: hand.number,
    commitment: typeof hand.commitment === "string" ? hand.commitment : "",
    start: {
      variant: record.variant,
      players: (record.players || []).length,
      hand_seed: hand.seed,
      hands: deal.hands,
      discard: deal.discard,
      stock: deal.stock,
      fixed_deal: null,
    },
    start_version: 0,
    end_version: moves.length,
    moves: moves.map((_, i) => ({ version: i + 1 })),
  };
}

/** Who won once `scores` stand after a hand, by the variant's end (null: not over). */
function winnersAt(ruleset, players, limit, scores) {
  const seats = (value) => scores.flatMap((s, i) => (s === value ? [i] : []));
  if (ruleset.scoring === "penalty") {
    return limit && Math.max(...scores) >= limit ? seats(Math.min(...scores)) : null;
  }
  const target = (ruleset.match_target || {})[String(players)] || 0;
  return target && Math.max(...scores) >= target ? seats(Math.max(...scores)) : null;
}

function optionProblems(record, ruleset, say) {
  const problems = [];
  const players = record.players.length;
  if (players < ruleset.min_players || players > ruleset.max_players) {
    problems.push(say("playersCount", { n: players, variant: record.variant, low: ruleset.min_players, high: ruleset.max_players }));
  }
  const limits = ruleset.penalty_limits?.length ? ruleset.penalty_limits : ruleset.penalty_limit ? [ruleset.penalty_limit] : [];
  const limit = record.options?.limit ?? null;
  if ((limit === null) !== (limits.length === 0) || (limit !== null && !limits.includes(limit))) {
    problems.push(say("limit", { limit: limit === null ? "None" : limit, variant: record.variant, allowed: limits.length ? limits.join(" or ") : "none (null)" }));
  }
  const turn = record.options?.turn_seconds ?? null;
  if (turn !== null && (turn < TURN_SECONDS[0] || turn > TURN_SECONDS[1])) problems.push(say("turnSeconds", { turn }));
  return problems;
}

/** The chain from hand to hand and where the match ends: [index or null, problem] pairs. */
function chainProblems(record, ruleset, say) {
  const hands = record.hands;
  const players = record.players.length;
  const out = [];
  const ends = hands.map((h) => sum(h.start_scores, h.result.points));
  if (record.scores.length !== players) out.push([hands.length - 1, say("scoresCount", { n: record.scores.length, players })]);
  hands.forEach((h, i) => {
    if (h.number !== i) out.push([i, say("numbered", { number: h.number, index: i })]);
  });
  if (hands.length) {
    if (hands[0].start_scores.some((v) => v !== 0)) out.push([0, say("startsAt", { scores: list(hands[0].start_scores) })]);
    if (hands[0].dealer !== players - 1) out.push([0, say("firstDealer", { seat: hands[0].dealer, last: players - 1 })]);
  }
  for (let i = 1; i < hands.length; i++) {
    if (!same(hands[i].start_scores, ends[i - 1])) {
      out.push([i, say("chainScores", { scores: list(hands[i].start_scores), ended: list(ends[i - 1]) })]);
    }
    if (hands[i].dealer !== (hands[i - 1].dealer + 1) % players) {
      out.push([i, say("chainDealer", { seat: hands[i].dealer, before: hands[i - 1].dealer })]);
    }
  }
  if (hands.length && !same(record.scores, ends[ends.length - 1])) {
    out.push([hands.length - 1, say("finalScores", { scores: list(record.scores), ended: list(ends[ends.length - 1]) })]);
  }
  const limit = record.options?.limit ?? ruleset.penalty_limit ?? null;
  const over = ends.map((end) => winnersAt(ruleset, players, limit, end));
  over.slice(0, -1).forEach((winners, i) => {
    if (winners) out.push([i + 1, say("overEarly", { hand: i })]);
  });
  const actual = over.length ? over[over.length - 1] : null;
  const stated = record.match_winner ?? null;
  if (!(stated === null ? actual === null : actual !== null && same(stated, actual))) {
    const words = (w) => (w === null ? say("stillPlaying") : say("wonBy", { seats: list(w) }));
    out.push([null, say("endMismatch", { stated: words(stated), actual: words(actual) })]);
  }
  return out;
}

function wellFormed(record) {
  const ints = (a) => Array.isArray(a) && a.every(Number.isInteger);
  return (
    Array.isArray(record.players) && Array.isArray(record.hands) && ints(record.scores) &&
    record.hands.every((h) => h && Number.isInteger(h.number) && Number.isInteger(h.dealer) &&
      ints(h.start_scores) && ints(h.result?.points))
  );
}

/**
 * Check a match record: every hand (commitment and deal, as verifyHand), then the match as
 * a whole. Returns {hands: [reports], match: {ok, problems, hands, scores, winner}}.
 */
export async function verifyRecord(record, rulesets, seen = {}, say = sayIn("en")) {
  if (!record || record.format !== RECORD_FORMAT || !wellFormed(record)) throw new Error(say("notARecord"));
  const reports = [];
  for (const hand of record.hands) {
    reports.push(await verifyHand(logEntryOf(record, hand), rulesets, seen[hand.number] || [], say));
  }
  const match = { ok: false, problems: [], hands: record.hands.length, scores: record.scores, winner: record.match_winner ?? null };
  const ruleset = rulesets[record.variant];
  if (!ruleset) {
    match.problems.push(say("unknownVariant", { variant: JSON.stringify(record.variant) }));
  } else {
    match.problems.push(...optionProblems(record, ruleset, say));
    for (const [index, problem] of chainProblems(record, ruleset, say)) {
      const report = index === null || !reports.length ? match : reports[index];
      report.problems.push(problem);
      report.ok = false;
    }
  }
  match.ok = match.problems.length === 0;
  return { hands: reports, match };
}
