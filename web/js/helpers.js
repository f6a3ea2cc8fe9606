// The table's helpers: opening meter, penalty meter, "what fits where" and a hint. This is
// presentation arithmetic on what the view shows; the server alone decides what is legal,
// and the hint is only ever a suggestion.
import { cardsShort, handValue, isJoker, openingValue, rankIndex, suitOf } from "./cards.js";

const aceHigh = (variant) => variant === "rummy51";

/** A rank position for runs: ace is 14 when the run reaches past the king. */
function runPositions(naturals, variant) {
  const ranks = naturals.map(rankIndex);
  const hasAce = ranks.includes(1);
  const high = aceHigh(variant) && hasAce && ranks.some((r) => r >= 11) && !ranks.includes(2);
  return ranks.map((r) => (r === 1 && high ? 14 : r));
}

function valueAt(pos) {
  return pos === 14 ? 10 : openingValue(`${"A23456789TJQK"[pos - 1]}S`);
}

/**
 * Lay out a candidate meld the way a person would: naturals in rank order, jokers in the
 * gaps, spare jokers at the high end (low end when high is full). Returns the cards in that
 * order and its opening value, with each joker valued as the card it stands for.
 */
export function arrangeGroup(codes, variant) {
  const naturals = codes.filter((c) => !isJoker(c));
  const jokers = codes.length - naturals.length;
  if (!naturals.length) return { cards: codes, value: 0, kind: null };
  const ranks = new Set(naturals.map((c) => c[0]));
  if (ranks.size === 1) {
    const v = openingValue(naturals[0]);
    return { cards: [...naturals, ...codes.filter(isJoker)], value: v * codes.length, kind: "set" };
  }
  const pos = runPositions(naturals, variant);
  const pairs = naturals.map((c, i) => [pos[i], c]).sort((a, b) => a[0] - b[0]);
  const out = [];
  let spare = jokers;
  let value = 0;
  for (let i = 0; i < pairs.length; i += 1) {
    if (i > 0) {
      for (let p = pairs[i - 1][0] + 1; p < pairs[i][0] && spare > 0; p += 1) {
        out.push("JK");
        value += valueAt(p);
        spare -= 1;
      }
    }
    out.push(pairs[i][1]);
    value += valueAt(pairs[i][0]);
  }
  let top = pairs[pairs.length - 1][0];
  let bottom = pairs[0][0];
  const max = aceHigh(variant) ? 14 : 13;
  while (spare > 0) {
    if (top < max) {
      top += 1;
      out.push("JK");
      value += valueAt(top);
    } else {
      bottom -= 1;
      out.unshift("JK");
      value += valueAt(Math.max(bottom, 1));
    }
    spare -= 1;
  }
  return { cards: out, value, kind: "run" };
}

/** The opening meter: staged melds plus the current selection, against 51. */
export function openingTotal(groups, variant) {
  return groups.filter((g) => g.length).reduce((sum, g) => sum + arrangeGroup(g, variant).value, 0);
}

/** What the hand would cost if someone went out now. */
export function penaltyTotal(hand, variant) {
  return hand.reduce((sum, c) => sum + handValue(c, variant), 0);
}

/** Where `code` could go on `meld` by its looks: {low, high, set}. */
export function fitsMeld(code, meld, variant) {
  const stands = meld.stands_for?.length ? meld.stands_for : meld.cards;
  const naturals = stands.filter((c) => !isJoker(c));
  if (!naturals.length) return null;
  if (meld.kind === "set") {
    if (meld.cards.length >= 4) return null;
    if (isJoker(code)) return { set: true };
    if (code[0] !== naturals[0][0]) return null;
    if (variant === "rummy51" && naturals.some((c) => c[1] === code[1])) return null;
    return { set: true };
  }
  const suit = suitOf(naturals[0]);
  const pos = runPositions(stands, variant);
  const low = Math.min(...pos);
  const high = Math.max(...pos);
  const max = aceHigh(variant) ? 14 : 13;
  if (isJoker(code)) {
    const r = { low: low > 1, high: high < max };
    return r.low || r.high ? r : null;
  }
  if (suitOf(code) !== suit) return null;
  const r = rankIndex(code);
  const fit = { low: r === low - 1, high: r === high + 1 || (r === 1 && high === 13 && max === 14) };
  return fit.low || fit.high ? fit : null;
}

/** rummy51: the meld's joker that `code` could be swapped for, if any. */
export function swapTarget(code, meld) {
  if (meld.kind !== "run" || isJoker(code)) return false;
  return meld.cards.some((c, i) => isJoker(c) && meld.stands_for?.[i] === code);
}

function findMelds(hand, variant) {
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
  return hand.some(
    (c) => c !== code && !isJoker(c) && (c[0] === code[0] || (c[1] === code[1] && Math.abs(rankIndex(c) - rankIndex(code)) <= 2)),
  );
}

/** One suggestion from the view: {key, params, cards}. Only a suggestion. */
export function suggest(view) {
  if (!view || view.turn !== view.seat || !["draw", "play"].includes(view.phase)) {
    return { key: "hintWait", params: {}, cards: [] };
  }
  const hand = view.hand;
  const variant = view.variant;
  const opened = view.opened?.[view.seat] ?? true;
  const canBuild = variant !== "rummy51" || opened;
  if (view.phase === "draw") {
    const top = view.discard_top;
    if (top && !isJoker(top)) {
      const withTop = findMelds([...hand, top], variant).some((m) => m.includes(top));
      const fits = canBuild && view.melds.some((m) => fitsMeld(top, m, variant));
      if (withTop || fits) return { key: "hintDrawDiscard", params: { card: cardsShort([top]) }, cards: [] };
    }
    return { key: "hintDrawStock", params: {}, cards: [] };
  }
  const melds = findMelds(hand, variant);
  const total = melds.reduce((s, m) => s + arrangeGroup(m, variant).value, 0);
  if (melds.length && (opened || variant !== "rummy51" || total >= 51)) {
    const cards = variant === "rummy51" && !opened ? melds.flat() : melds[0];
    if (cards.length < hand.length) {
      return { key: "hintMeld", params: { cards: cardsShort(cards) }, cards };
    }
  }
  if (canBuild && hand.length > 1) {
    for (const c of hand) {
      const meld = view.melds.find((m) => fitsMeld(c, m, variant));
      if (meld && !(view.must_play || []).length) {
        return { key: "hintLayoff", params: { card: cardsShort([c]), meld: cardsShort(meld.cards) }, cards: [c] };
      }
    }
  }
  const inMeld = new Set(melds.flat());
  const options = hand.filter((c) => !isJoker(c) && c !== view.drawn_from_discard && !inMeld.has(c));
  const pool = options.length ? options : hand.filter((c) => c !== view.drawn_from_discard);
  const score = (c) => handValue(c, variant) - (hasNeighbour(c, hand) ? 20 : 0);
  const pick = [...pool].sort((a, b) => score(b) - score(a))[0];
  return pick ? { key: "hintDiscard", params: { card: cardsShort([pick]) }, cards: [pick] } : { key: "hintWait", params: {}, cards: [] };
}
