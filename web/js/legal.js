// What this seat may do now, read from the view's `legal` (docs/api.md v1.1), plus the meters'
// sums. Nothing here judges a move: the server lists the targets and decides every move.
import { handValue } from "./cards.js";

const NONE = { draw: [], discard: [], layoffs: [], swaps: [], melds: [], must_play: [], opening: null };
// docs/api.md: `legal.melds` lists at most 64 melds; a full list may leave out the one selected.
const MELDS_CAP = 64;

/** The view's `legal`, or an empty one when it is not this seat's move. */
export const legalOf = (view) => ({ ...NONE, ...(view?.legal || {}) });

/** Two lists of card codes hold the same cards (in any order). */
export function sameCards(a, b) {
  if (a.length !== b.length) return false;
  const x = [...a].sort();
  const y = [...b].sort();
  return x.every((c, i) => c === y[i]);
}

/** Before rummy51's opening: the single melds the hand holds, with their opening values
 * as rules/ counts them (`legal.opening.melds`, [{cards, value}]); [] otherwise. */
export const openingMelds = (legal) => (legal.opening && !legal.opening.opened ? legal.opening.melds || [] : []);

/** The melds a selection is checked against: before the opening every single meld the hand
 * holds (the opening may take several), afterwards `legal.melds`. */
const candidates = (legal) => (legal.opening?.melds && !legal.opening.opened ? openingMelds(legal).map((m) => m.cards) : legal.melds);

/** The listed meld holding exactly `codes`, in the server's order; else null. */
export const legalMeld = (legal, codes) => (codes.length ? candidates(legal).find((m) => sameCards(m, codes)) || null : null);

/** Whether `codes` may go out as a meld: listed, or possibly cut off a full list. */
export const isMeld = (legal, codes) => Boolean(legalMeld(legal, codes)) || (codes.length >= 3 && candidates(legal).length >= MELDS_CAP);

/** The lay-offs `legal` lists for one card: [{meld, end}] ("low" | "high" | null). */
export const layoffsOf = (legal, code) => legal.layoffs.filter((l) => l.card === code);

/** The melds every card of `codes` may be laid off onto, by id. */
export function layoffMelds(legal, codes) {
  if (!codes.length) return new Set();
  const per = codes.map((c) => new Set(layoffsOf(legal, c).map((l) => l.meld)));
  return new Set([...per[0]].filter((id) => per.every((ids) => ids.has(id))));
}

/** The melds whose joker `code` may be swapped in for. */
export const swapMelds = (legal, code) => new Set(legal.swaps.filter((s) => s.card === code).map((s) => s.meld));

/** The opening meter: the staged melds plus the selection, each counted with the value
 * rules/ gives it once it is one of the hand's melds. */
export function openingTotal(legal, groups) {
  const melds = openingMelds(legal);
  return groups.reduce((sum, g) => sum + (melds.find((m) => sameCards(m.cards, g))?.value ?? 0), 0);
}

/** What the hand would cost if someone went out now (the variant's `card_values`). */
export const penaltyTotal = (hand, rules) => hand.reduce((sum, c) => sum + handValue(c, rules), 0);
