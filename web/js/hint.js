// The Tip button's advice comes from the server (GET /api/rooms/{room}/hint, docs/api.md v1.1):
// the hard bot's move from this seat's view, with its reason in the page's language. When
// the server has none, the page says so: it plans no move of its own (no rules in the page).
import { getHint } from "./api.js";
import { lang } from "./i18n.js";

/** The cards of a move that the hint lights in the hand. */
function cardsOf(move) {
  if (move.type === "meld") return move.melds.flat();
  if (move.type === "layoff") return move.cards;
  if (move.type === "discard" || move.type === "swap") return [move.card];
  return [];
}

/** The hint for the store's current view, in the shape render-table.js shows. */
export async function fetchHint(store) {
  const { room, token } = store.session;
  try {
    const hint = await getHint(room, token, lang() === "en" ? "en" : "nl");
    return { key: "hintServer", params: { text: hint.reason }, cards: cardsOf(hint.move) };
  } catch {
    return { key: "hintFailed", params: {}, cards: [] };
  }
}
