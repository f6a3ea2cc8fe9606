// Step through a finished hand from GET /log: the deal, then one step per move. This only
// moves cards where the log says they went; it never judges a move.
import { isJoker, rankIndex } from "./cards.js";
import { describeMove } from "./names.js";
import { t } from "./i18n.js";

function removeCards(hand, cards) {
  for (const c of cards) {
    const i = hand.indexOf(c);
    if (i >= 0) hand.splice(i, 1);
  }
}

function handsOf(log) {
  if (Array.isArray(log)) return log;
  return log?.hands ?? log?.log ?? [];
}

/** The logged hand numbered `number` (the log's `hand`, 0 first); the last one when null. */
function handOf(log, number = null) {
  const hands = handsOf(log);
  if (number === null) return hands[hands.length - 1];
  return hands.find((x) => x.hand === number);
}

/**
 * The replay step that shows the table just before the move logged at `version`: step 0
 * is the deal and step i follows the i-th move, so it is that move's place in the list
 * (votes and stand-ins take versions too, so the version itself cannot be counted on).
 * -1 when hand `number` has no such move.
 */
export function stepBefore(log, number, version) {
  return (handOf(log, number)?.moves || []).findIndex((entry) => entry.version === version);
}

/** One step per move of hand `number` (the last hand when null), the deal first. */
export function buildReplay(log, view, number = null) {
  const logged = handOf(log, number);
  if (!logged) return [];
  // `start` is the hand as dealt: hands, stock (top first), discard (top last).
  const deal = logged.start || logged.deal || {};
  const state = {
    hands: (deal.hands || []).map((x) => [...x]),
    stock: [...(deal.stock || [])],
    discard: [...(deal.discard || [])],
    melds: [],
  };
  const snap = (text) => ({
    text,
    hands: state.hands.map((x) => [...x]),
    melds: state.melds.map((m) => [...m.cards]),
    discard: state.discard[state.discard.length - 1] || null,
  });
  const steps = [snap(t("replayStart"))];
  for (const entry of logged.moves || []) {
    const seat = entry.seat;
    const move = entry.move || entry;
    const hand = state.hands[seat] || [];
    if (move.type === "draw") {
      const card = move.source === "discard" ? state.discard.pop() : move.card || state.stock.shift();
      if (card) hand.push(card);
    } else if (move.type === "meld") {
      for (const cards of move.melds || []) {
        removeCards(hand, cards);
        state.melds.push({ id: `m${state.melds.length + 1}`, cards: [...cards] });
      }
    } else if (move.type === "layoff") {
      removeCards(hand, move.cards || []);
      const meld = state.melds.find((m) => m.id === move.meld);
      if (meld) {
        const first = meld.cards.find((c) => !isJoker(c));
        const below = move.end === "low" || (move.end !== "high" && first && !isJoker(move.cards[0])
          && first[1] === move.cards[0][1] && rankIndex(move.cards[0]) < rankIndex(first));
        meld.cards = below ? [...move.cards, ...meld.cards] : [...meld.cards, ...move.cards];
      }
    } else if (move.type === "swap") {
      const meld = state.melds.find((m) => m.id === move.meld);
      const at = meld ? meld.cards.indexOf("JK") : -1;
      if (at >= 0) {
        meld.cards[at] = move.card;
        removeCards(hand, [move.card]);
        hand.push("JK");
      }
    } else if (move.type === "discard") {
      removeCards(hand, [move.card]);
      state.discard.push(move.card);
    }
    steps.push(snap(describeMove(view, { seat, move })));
  }
  return steps;
}
