// The table's helpers: opening meter, penalty meter, "what fits where" and a hint. This is
// presentation arithmetic on what the view shows, using the rule switches GET /api/variants
// publishes; the server alone decides what is legal, and the hint is only a suggestion.
import { RANKS, cardsShort, handValue, isJoker, openingValue, rankIndex, suitOf } from "./cards.js";

/** A rank position for runs: ace is 14 when the run reaches past the king. */
function runPositions(cards, rules) {
  const ranks = cards.map((c) => (isJoker(c) ? null : rankIndex(c)));
  const nat = ranks.filter((r) => r !== null);
  const high = rules.ace_high && nat.includes(1) && nat.some((r) => r >= 11) && !nat.includes(2);
  return ranks.map((r) => (r === 1 && high ? 14 : r));
}

const codeAt = (pos) => `${RANKS[(pos - 1) % 13]}S`;

/**
 * Lay out a candidate meld the way a person would: naturals in rank order, jokers in the
 * gaps, spare jokers at the high end (low end when high is full). Returns the cards in that
 * order and its opening value, each joker valued as the card it stands for there.
 */
export function arrangeGroup(codes, rules) {
  const naturals = codes.filter((c) => !isJoker(c));
  const jokers = codes.length - naturals.length;
  if (!naturals.length) return { cards: codes, value: 0, kind: null };
  if (new Set(naturals.map((c) => c[0])).size === 1) {
    const v = openingValue(naturals[0], rules);
    return { cards: [...naturals, ...codes.filter(isJoker)], value: v * codes.length, kind: "set" };
  }
  if (!jokers) {
    // Without jokers the order does not matter to the server: keep the player's own.
    const pos = runPositions(naturals, rules);
    const order = naturals.map((c, i) => [pos[i], c]).sort((a, b) => a[0] - b[0]).map((p) => p[1]);
    return { cards: order, value: naturals.reduce((s, c) => s + openingValue(c, rules), 0), kind: "run" };
  }
  const pos = runPositions(naturals, rules);
  const pairs = naturals.map((c, i) => [pos[i], c]).sort((a, b) => a[0] - b[0]);
  const out = [];
  let spare = jokers;
  let value = 0;
  for (let i = 0; i < pairs.length; i += 1) {
    if (i > 0) {
      for (let p = pairs[i - 1][0] + 1; p < pairs[i][0] && spare > 0; p += 1) {
        out.push("JK");
        value += openingValue(codeAt(p), rules);
        spare -= 1;
      }
    }
    out.push(pairs[i][1]);
    value += openingValue(pairs[i][1], rules);
  }
  let top = pairs[pairs.length - 1][0];
  let bottom = pairs[0][0];
  const max = rules.ace_high ? 14 : 13;
  while (spare > 0) {
    if (top < max) {
      top += 1;
      out.push("JK");
      value += openingValue(codeAt(top), rules);
    } else {
      bottom -= 1;
      out.unshift("JK");
      value += openingValue(codeAt(Math.max(bottom, 1)), rules);
    }
    spare -= 1;
  }
  return { cards: out, value, kind: "run" };
}

/** The opening meter: staged melds plus the current selection. */
export function openingTotal(groups, rules) {
  return groups.filter((g) => g.length).reduce((sum, g) => sum + arrangeGroup(g, rules).value, 0);
}

/** What the hand would cost if someone went out now. */
export function penaltyTotal(hand, rules) {
  return hand.reduce((sum, c) => sum + handValue(c, rules), 0);
}

/** Where `code` could go on `meld` by its looks: {set} or {low, high}; null when nowhere. */
export function fitsMeld(code, meld, rules) {
  const stands = meld.stands_for?.length ? meld.stands_for : meld.cards;
  const naturals = stands.filter((c) => !isJoker(c));
  if (!naturals.length) return null;
  if (meld.kind === "set") {
    if (meld.cards.length >= 4) return null;
    if (isJoker(code)) return { set: true };
    if (code[0] !== naturals[0][0]) return null;
    if (rules.set_suits_distinct && meld.cards.some((c) => !isJoker(c) && c[1] === code[1])) return null;
    return { set: true };
  }
  const suit = suitOf(naturals[0]);
  const pos = runPositions(stands, rules).filter((p) => p !== null);
  const low = Math.min(...pos);
  const high = Math.max(...pos);
  const max = rules.ace_high ? 14 : 13;
  if (isJoker(code)) {
    const r = { low: low > 1, high: high < max };
    return r.low || r.high ? r : null;
  }
  if (suitOf(code) !== suit) return null;
  const r = rankIndex(code);
  const fit = { low: r === low - 1, high: r === high + 1 || (r === 1 && high === 13 && max === 14) };
  return fit.low || fit.high ? fit : null;
}

/** Whether several selected cards could go onto `meld` together, by their looks. */
export function fitsGroup(codes, meld, rules) {
  if (codes.length === 1) return Boolean(fitsMeld(codes[0], meld, rules));
  const stands = meld.stands_for?.length ? meld.stands_for : meld.cards;
  const naturals = stands.filter((c) => !isJoker(c));
  const mine = codes.filter((c) => !isJoker(c));
  const jokers = codes.length - mine.length;
  if (!naturals.length) return false;
  if (meld.kind === "set") {
    if (meld.cards.length + codes.length > 4) return false;
    if (mine.some((c) => c[0] !== naturals[0][0])) return false;
    const suits = [...meld.cards, ...mine].filter((c) => !isJoker(c)).map((c) => c[1]);
    return !rules.set_suits_distinct || new Set(suits).size === suits.length;
  }
  const suit = suitOf(naturals[0]);
  if (mine.some((c) => suitOf(c) !== suit)) return false;
  const all = runPositions([...stands, ...mine], rules);
  const held = all.slice(0, stands.length).filter((p) => p !== null);
  const added = all.slice(stands.length);
  const taken = new Set(held);
  if (added.some((p) => taken.has(p)) || new Set(added).size !== added.length) return false;
  const lo = Math.min(...held, ...added);
  const hi = Math.max(...held, ...added);
  const gaps = hi - lo + 1 - held.length - added.length;
  const max = rules.ace_high ? 14 : 13;
  return gaps <= jokers && hi - lo + 1 + (jokers - gaps) <= max && lo >= 1;
}

/** A run's joker that `code` could be swapped for (rule switch `joker_swap`). */
export function swapTarget(code, meld, rules) {
  if (!rules.joker_swap || meld.kind !== "run" || isJoker(code)) return false;
  return meld.cards.some((c, i) => isJoker(c) && meld.stands_for?.[i] === code);
}

function findMelds(hand, rules) {
  const melds = [];
  const used = new Set();
  const byRank = new Map();
  hand.forEach((c, i) => {
    if (isJoker(c)) return;
    const list = byRank.get(c[0]) || [];
    if (!list.some((j) => hand[j][1] === c[1])) list.push(i);
    byRank.set(c[0], list);
  });
  for (const idx of byRank.values()) {
    if (idx.length >= 3) {
      const take = idx.slice(0, 4);
      take.forEach((i) => used.add(i));
      melds.push(take);
    }
  }
  const bySuit = new Map();
  hand.forEach((c, i) => {
    if (isJoker(c) || used.has(i)) return;
    const list = bySuit.get(c[1]) || [];
    if (!list.some((j) => hand[j][0] === c[0])) list.push(i);
    bySuit.set(c[1], list);
  });
  for (const idx of bySuit.values()) {
    idx.sort((a, b) => rankIndex(hand[a]) - rankIndex(hand[b]));
    let run = [];
    for (const i of idx) {
      if (run.length && rankIndex(hand[i]) !== rankIndex(hand[run[run.length - 1]]) + 1) {
        if (run.length >= 3) melds.push(run);
        run = [];
      }
      run.push(i);
    }
    if (run.length >= 3) melds.push(run);
  }
  return melds.map((m) => m.map((i) => hand[i]));
}

function hasNeighbour(code, hand) {
  return hand.some((c) => c !== code && !isJoker(c) && !isJoker(code)
    && (c[0] === code[0] || (c[1] === code[1] && Math.abs(rankIndex(c) - rankIndex(code)) <= 2)));
}

/** One suggestion from the view: {key, params, cards}. Only ever a suggestion. */
export function suggest(view, rules) {
  if (!view || view.turn !== view.seat || !["draw", "play"].includes(view.phase)) {
    return { key: "hintWait", params: {}, cards: [] };
  }
  const hand = view.hand;
  const opened = view.opened?.[view.seat] ?? true;
  const minimum = rules.opening_minimum;
  const canBuild = rules.layoff_before_first_meld || opened;
  if (view.phase === "draw") {
    const top = view.discard_top;
    if (top && !isJoker(top)) {
      const withTop = findMelds([...hand, top], rules).some((m) => m.includes(top));
      const fits = canBuild && view.melds.some((m) => fitsMeld(top, m, rules));
      if (withTop || fits) return { key: "hintDrawDiscard", params: { card: cardsShort([top]) }, cards: [] };
    }
    return { key: "hintDrawStock", params: {}, cards: [] };
  }
  const melds = findMelds(hand, rules);
  const total = melds.reduce((s, m) => s + arrangeGroup(m, rules).value, 0);
  if (melds.length && (opened || !minimum || total >= minimum)) {
    const cards = minimum && !opened ? melds.flat() : melds[0];
    if (cards.length < hand.length) return { key: "hintMeld", params: { cards: cardsShort(cards) }, cards };
  }
  if (canBuild && hand.length > 1 && !(view.must_play || []).length) {
    for (const c of hand) {
      const meld = view.melds.find((m) => fitsMeld(c, m, rules));
      if (meld) return { key: "hintLayoff", params: { card: cardsShort([c]), meld: cardsShort(meld.cards) }, cards: [c] };
    }
  }
  const inMeld = new Set(melds.flat());
  const options = hand.filter((c) => !isJoker(c) && c !== view.drawn_from_discard && !inMeld.has(c));
  const pool = options.length ? options : hand.filter((c) => c !== view.drawn_from_discard);
  const score = (c) => handValue(c, rules) - (hasNeighbour(c, hand) ? 20 : 0);
  const pick = [...pool].sort((a, b) => score(b) - score(a))[0];
  return pick ? { key: "hintDiscard", params: { card: cardsShort([pick]) }, cards: [pick] } : { key: "hintWait", params: {}, cards: [] };
}
