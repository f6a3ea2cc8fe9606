// People-facing names for seats (1-based, as people count) and moves.
import { cardsShort } from "./cards.js";
import { t, table } from "./i18n.js";
import { store } from "./store.js";

// Local play: the names typed in the lobby for every seat. The server only knows the
// first one (it calls the others "Player 2"...), so this browser keeps them (store.table).
export function useLocalNames(names) {
  store.table.localNames = Array.isArray(names) ? names : [];
}

export function seatName(view, seat) {
  const info = view?.seats?.[seat];
  const name = info?.name;
  // The server names each bot seat (app/rooms/setup.py BOT_SEAT_NAMES), the same name on
  // the table, in the record and the replay. Rooms made before it named every bot after its
  // level ("Medium bot"): those seats get their own name here, on the table only.
  if (info?.bot && (!name || /^(easy|medium|hard) bot$/i.test(name))) {
    const names = table("botNames");
    return names[seat % names.length];
  }
  // The server's placeholder names ("Player 2") are shown in the page's language.
  const placeholder = /^(Player|Speler) (\d+)$/.exec(name || "");
  const localNames = store.table.localNames;
  if ((!name || placeholder) && localNames[seat]) return localNames[seat];
  if (!name || placeholder) return t("defaultName", { n: placeholder ? placeholder[2] : seat + 1 });
  return name;
}

export function seatNames(view, seats) {
  return seats.map((s) => seatName(view, s)).join(", ");
}

/** "Anna", "Anna and Bob", "Anna, Bob and Carl". */
export function namesList(names) {
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} ${t("and")} ${names.at(-1)}` : names[0] || "";
}

/** A move in words; `prefix` picks the phrasing: "last" ("Anna discarded 7♥.") or "do" ("discard 7♥"). */
function wordsFor(prefix, m, params) {
  const cards = (codes) => cardsShort(codes || []);
  switch (m.type) {
    case "draw":
      if (m.source !== "discard") return t(`${prefix}DrawStock`, params);
      if (m.card) return t(`${prefix}DrawDiscard`, { ...params, card: cards([m.card]) });
      return t(`${prefix}DrawDiscard`, { ...params, card: "" }).replace("  ", " ").trim();
    case "meld":
      return t(`${prefix}Meld`, { ...params, cards: (m.melds || []).map(cards).join(" · ") });
    case "layoff":
      return t(`${prefix}Layoff`, { ...params, cards: cards(m.cards) });
    case "swap":
      return t(`${prefix}Swap`, { ...params, card: cards([m.card]) });
    case "discard":
      return t(`${prefix}Discard`, { ...params, card: cards([m.card]) });
    default:
      return "";
  }
}

/** The last move in words, from the view's `last_move`. */
export function describeMove(view, last) {
  if (!last) return "";
  return wordsFor("last", last.move || {}, { name: seatName(view, last.seat) });
}

/**
 * A move without a name, as the hand review lists it ("discard 7♥"). A draw from the
 * discard pile does not say which card it took: `pile` is the top card at that moment.
 */
export function moveWords(move, pile = null, prefix = "do") {
  const named = move.type === "draw" && move.source === "discard" && !move.card && pile ? { ...move, card: pile } : move;
  return wordsFor(prefix, named || {}, {});
}
