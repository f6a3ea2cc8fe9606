// The hand's commitment and its deal, re-made from the revealed seed by the published method
// and not by the engine, so that a rigged shuffle in the engine cannot vouch for itself.
//
// The method (rules/shuffle.py): commitment = SHA-256("shake256-fisher-yates-v1:" + seed);
// the deal reads SHAKE-256("rummy/shuffle/v1" + seed + "deal") as 8-byte big-endian words
// w[0..n) and shuffles the sorted pack: for i from n-1 down to 1, swap cards[i] with
// cards[w[n-1-i] mod (i+1)]. Seat by seat, each takes hand_size cards; the next card
// starts the discard pile and the rest is the stock, top first.
import { ascii, concat, toHex } from "./verify-bytes.js";
import { shake256 } from "./verify-shake256.js";

export const SHUFFLE_METHOD = "shake256-fisher-yates-v1";
const RANKS = "A23456789TJQK";
const SUITS = "CDHS";

/** SHA-256 hex of the method name, ":" and the seed (the browser's own SHA-256). */
export async function commitmentOf(seed) {
  const digest = await crypto.subtle.digest("SHA-256", concat(ascii(SHUFFLE_METHOD + ":"), seed));
  return toHex(new Uint8Array(digest));
}

/** The variant's pack in the engine's order: clubs A-K, diamonds, hearts, spades, jokers. */
export function sortedPack(ruleset) {
  const pack = [];
  for (const suit of SUITS) {
    for (const rank of RANKS) {
      for (let d = 0; d < ruleset.decks; d++) pack.push(rank + suit);
    }
  }
  for (let j = 0; j < ruleset.jokers; j++) pack.push("JK");
  return pack;
}

export function shuffled(cards, seed, label) {
  const out = cards.slice();
  const n = out.length;
  const stream = shake256(concat(ascii("rummy/shuffle/v1"), seed, label), 8 * n);
  for (let i = n - 1; i > 0; i--) {
    const k = n - 1 - i;
    let word = 0n;
    for (let b = 0; b < 8; b++) word = (word << 8n) | BigInt(stream[8 * k + b]);
    const j = Number(word % BigInt(i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

export function dealFromSeed(ruleset, players, seed) {
  const order = shuffled(sortedPack(ruleset), seed, ascii("deal"));
  const size = ruleset.hand_size[String(players)];
  const hands = [];
  for (let s = 0; s < players; s++) hands.push(order.slice(s * size, (s + 1) * size));
  const rest = order.slice(players * size);
  return { hands, discard: rest.slice(0, 1), stock: rest.slice(1) };
}
