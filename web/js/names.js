// People-facing names for seats (1-based, as people count) and moves.
import { cardsShort } from "./cards.js";
import { t, table } from "./i18n.js";

// Local play: the names typed in the lobby for every seat. The server only knows the
// first one (it calls the others "Player 2"...), so this browser keeps them.
let localNames = [];

export function useLocalNames(names) {
  localNames = Array.isArray(names) ? names : [];
}

export function seatName(view, seat) {
  const info = view?.seats?.[seat];
  const name = info?.name;
  // The server names every bot after its level ("Medium bot"): three of those at one table
  // cannot be told apart, so each bot seat gets its own name in the page's language.
  if (info?.bot && (!name || /^(easy|medium|hard) bot$/i.test(name))) {
    const names = table("botNames");
    return names[seat % names.length];
  }
  // The server's placeholder names ("Player 2") are shown in the page's language.
  const placeholder = /^(Player|Speler) (\d+)$/.exec(name || "");
  if ((!name || placeholder) && localNames[seat]) return localNames[seat];
  if (!name || placeholder) return t("defaultName", { n: placeholder ? placeholder[2] : seat + 1 });
  return name;
}

export function seatNames(view, seats) {
  return seats.map((s) => seatName(view, s)).join(", ");
}

/** The last move in words, from the view's `last_move`. */
export function describeMove(view, last) {
  if (!last) return "";
  const name = seat => seatName(view, seat);
  const m = last.move || {};
  switch (m.type) {
    case "draw":
      return m.source === "discard" && m.card
        ? t("lastDrawDiscard", { name: name(last.seat), card: cardsShort([m.card]) })
        : m.source === "discard"
          ? t("lastDrawDiscard", { name: name(last.seat), card: "" }).replace("  ", " ")
          : t("lastDrawStock", { name: name(last.seat) });
    case "meld":
      return t("lastMeld", { name: name(last.seat), cards: (m.melds || []).map(cardsShort).join(" · ") });
    case "layoff":
      return t("lastLayoff", { name: name(last.seat), cards: cardsShort(m.cards || []) });
    case "swap":
      return t("lastSwap", { name: name(last.seat), card: cardsShort([m.card]) });
    case "discard":
      return t("lastDiscard", { name: name(last.seat), card: cardsShort([m.card]) });
    default:
      return "";
  }
}
