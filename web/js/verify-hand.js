// One hand's check: the revealed seed against the commitments shown during the hand, the
// deal it makes against the one the log or record says was dealt, and the versions of the
// hand's moves without a gap or a repeat.
import { fromHex } from "./verify-bytes.js";
import { commitmentOf, dealFromSeed } from "./verify-deal.js";
import { sayIn } from "./verify-say.js";

export const same = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);

/** Check one hand of the log. `seen`: commitments the player noted for it. */
export async function verifyHand(entry, rulesets, seen = [], say = sayIn("en")) {
  const report = { hand: entry.hand, ok: false, commitment: null, problems: [] };
  const start = entry.start || {};
  const ruleset = rulesets[start.variant];
  if (!ruleset) {
    report.problems.push(say("unknownVariant", { variant: JSON.stringify(start.variant) }));
    return report;
  }
  let seed;
  try {
    seed = fromHex(String(start.hand_seed || ""));
  } catch {
    seed = new Uint8Array();
  }
  if (seed.length !== 32) {
    report.problems.push(say("seedHidden"));
    return report;
  }
  report.commitment = await commitmentOf(seed);
  for (const value of [...seen, ...(entry.commitment ? [entry.commitment] : [])]) {
    if (value.trim().toLowerCase() !== report.commitment) {
      report.problems.push(say("mismatch", { shown: value.trim(), commitment: report.commitment }));
    }
  }
  if (start.fixed_deal) {
    report.problems.push(say("fixedDeal"));
  } else {
    const dealt = dealFromSeed(ruleset, start.players, seed);
    dealt.hands.forEach((hand, s) => {
      if (!same(start.hands?.[s] || [], hand)) {
        report.problems.push(say("seatHand", { seat: s, cards: hand.join(" ") }));
      }
    });
    if (!same(start.discard || [], dealt.discard)) {
      report.problems.push(say("discard", { cards: dealt.discard.join(" ") }));
    }
    if (!same(start.stock || [], dealt.stock)) {
      const at = dealt.stock.findIndex((c, i) => (start.stock || [])[i] !== c);
      report.problems.push(say("stock", { at: at + 1 }));
    }
  }
  // A stand-in's start or end takes a version too (docs/api.md v1.1).
  const versions = [...(entry.moves || []), ...(entry.votes || []), ...(entry.stand_ins || [])]
    .map((m) => m.version)
    .sort((a, b) => a - b);
  const expected = Array.from({ length: entry.end_version - entry.start_version }, (_, i) => entry.start_version + 1 + i);
  if (!same(versions, expected)) {
    report.problems.push(say("versions"));
  }
  report.ok = report.problems.length === 0;
  return report;
}
