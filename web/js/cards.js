// Card codes as the API writes them ("7H", "TD", "JK"): names, colours, sort orders and the
// card element. Presentation only: values come from GET /api/variants, legality from the view.
import { t, table } from "./i18n.js";

export const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"];
export const SUITS = ["S", "H", "C", "D"];
const SUIT_SYMBOL = { C: "♣", D: "♦", H: "♥", S: "♠" };
const RANK_LABEL = { T: "10" };

export const isJoker = (code) => code === "JK";
export const rankOf = (code) => (isJoker(code) ? null : code[0]);
export const suitOf = (code) => (isJoker(code) ? null : code[1]);
/** 1 for an ace, 13 for a king. */
export const rankIndex = (code) => RANKS.indexOf(code[0]) + 1;

export function isRed(code) {
  const s = suitOf(code);
  return s === "H" || s === "D";
}

/** "7♠, schoppen zeven" / "7♠, seven of spades": what the card shows, then its spoken
 * name, so a voice-control user can say what they see (WCAG 2.5.3, label in name). */
export function cardLabel(code) {
  if (!code) return "";
  return isJoker(code) ? cardName(code) : `${cardShort(code)}, ${cardName(code)}`;
}

/** "schoppen zeven" / "seven of spades": the card's spoken name. */
export function cardName(code) {
  if (!code) return "";
  if (isJoker(code)) return t("joker");
  return t("cardName", { suit: table("suits")[code[1]], rank: table("ranks")[code[0]] });
}

/** Short visible form: "7♠", "10♥", "🃏". */
export function cardShort(code) {
  if (isJoker(code)) return "Joker";
  return `${RANK_LABEL[code[0]] ?? code[0]}${SUIT_SYMBOL[code[1]]}`;
}

export const cardsShort = (codes) => codes.map(cardShort).join(" ");

/** What a card left in hand costs when someone goes out: the variant's `card_values`
 * (GET /api/variants); 0 until the variants have arrived. */
export function handValue(code, rules) {
  return rules?.card_values?.[isJoker(code) ? "JK" : code[0]] ?? 0;
}

const suitOrder = (code) => (isJoker(code) ? 9 : SUITS.indexOf(code[1]));
const rankOrder = (code) => (isJoker(code) ? 99 : rankIndex(code));

export function compareBySuit(a, b) {
  return suitOrder(a) - suitOrder(b) || rankOrder(a) - rankOrder(b);
}

export function compareByRank(a, b) {
  return rankOrder(a) - rankOrder(b) || suitOrder(a) - suitOrder(b);
}

function face(code) {
  const frag = document.createDocumentFragment();
  if (isJoker(code)) {
    const star = document.createElement("span");
    star.className = "card-joker";
    star.setAttribute("aria-hidden", "true");
    star.textContent = "★";
    const word = document.createElement("span");
    word.className = "card-joker-word";
    word.textContent = "JOKER";
    frag.append(star, word);
    return frag;
  }
  const corner = document.createElement("span");
  corner.className = "card-corner";
  const rank = document.createElement("span");
  rank.className = "card-rank";
  rank.textContent = RANK_LABEL[code[0]] ?? code[0];
  const suit = document.createElement("span");
  suit.className = "card-suit";
  suit.textContent = SUIT_SYMBOL[code[1]];
  corner.append(rank, suit);
  const pip = document.createElement("span");
  pip.className = "card-pip";
  pip.setAttribute("aria-hidden", "true"); // the corner says it already
  pip.textContent = SUIT_SYMBOL[code[1]];
  frag.append(corner, pip);
  return frag;
}

/**
 * A face-up card. `tag` is "button" for cards the player can act on, else "div".
 * Extra attributes (data-*, aria-*) come in `attrs`.
 */
export function renderCard(code, { tag = "div", attrs = {}, classes = [] } = {}) {
  const el = document.createElement(tag);
  if (tag === "button") el.type = "button";
  el.className = ["card", isJoker(code) ? "joker" : isRed(code) ? "red" : "black", ...classes].join(" ");
  el.dataset.suit = suitOf(code) ?? "J";
  el.setAttribute("aria-label", cardLabel(code));
  if (tag !== "button") el.setAttribute("role", "img");
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== undefined && v !== null && v !== false) el.setAttribute(k, v === true ? "" : v);
  }
  el.append(face(code));
  return el;
}

export function renderBack({ small = false, label } = {}) {
  const el = document.createElement("div");
  el.className = small ? "card back small" : "card back";
  if (label) {
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", label);
  } else {
    el.setAttribute("aria-hidden", "true");
  }
  return el;
}
