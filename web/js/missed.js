// What happened while you were away (API.md v1.1, "Seats that stay alive"): when a table
// opens, the moves of the hand in play since the version this browser last showed of it,
// from GET /api/rooms/{room}/recent?since=, told in a few sentences until the player closes them.
import { getRecentMoves } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { cardsShort } from "./cards.js";
import { namesList, seatName } from "./names.js";

const key = (room) => `rummy:seen:${room}`;
const opened = new Set(); // rooms whose first view this page has had

function lastShown(room) {
  try {
    return JSON.parse(localStorage.getItem(key(room)));
  } catch {
    return null;
  }
}

/** Every view of a seat passes here: the first one of a page asks what was missed. */
export function noteView(store, view) {
  const s = store.session;
  if (!s || !view || s.mode === "watch" || s.mode === "local" || view.seat === null) return;
  if (!opened.has(s.room)) {
    opened.add(s.room);
    const before = lastShown(s.room);
    if (before && before.hand === view.hand_number && before.version < view.version) {
      getRecentMoves(s.room, s.token, before.version)
        .then((recent) => {
          if (recent.moves.length && recent.hand_number === view.hand_number) {
            store.extra.missed = recent.moves;
            store.emit();
          }
        })
        .catch(() => {}); // a list to read, not a step to play: without it the table still works
    }
  }
  try {
    localStorage.setItem(key(s.room), JSON.stringify({ version: view.version, hand: view.hand_number }));
  } catch {
    // A browser without storage just never lists what it missed.
  }
}

/** The turns in `moves` by seat, in order of play: a turn begins with its draw (the first
 * move may end a turn begun before the player left). */
function turnsBySeat(moves) {
  const turns = new Map();
  moves.forEach((m, i) => {
    if (i === 0 || m.move?.type === "draw") turns.set(m.seat, (turns.get(m.seat) || 0) + 1);
  });
  return turns;
}

/** "While you were away" in a few sentences: who played how many turns (your own turns
 * played by the computer named as such), each card taken from the discard pile, each meld
 * laid down, and whether you are up. */
export function awaySummary(view, moves) {
  const turns = turnsBySeat(moves);
  const n = [...turns.values()].reduce((a, b) => a + b, 0);
  const who = [...turns.keys()].map((seat) => (seat === view.seat ? t("missedForYou") : seatName(view, seat)));
  const names = namesList(who);
  const lines = n ? [t("missedTurns", { n, names })] : [];
  for (const m of moves) {
    const name = m.seat === view.seat ? t("missedForYou") : seatName(view, m.seat);
    if (m.move?.type === "draw" && m.move.source === "discard") {
      lines.push(t("missedPickup", { name, card: cardsShort(m.card ? [m.card] : []) }));
    } else if (m.move?.type === "meld") {
      lines.push(t("missedMeld", { name, cards: (m.move.melds || []).map((g) => cardsShort(g)).join(" · ") }));
    }
  }
  if (view.turn === view.seat && ["draw", "play"].includes(view.phase)) lines.push(t("missedYourTurn"));
  return lines.map((line) => line.charAt(0).toUpperCase() + line.slice(1));
}

/** The summary of what was missed, with a button to close it; it sits above the table. */
export function missedPanel(store) {
  const moves = store.extra.missed;
  if (!moves || !store.view) return [];
  const lines = awaySummary(store.view, moves);
  return [h("div", { class: "banner missed", id: "missed", role: "status" },
    h("strong", { class: "missed-title", text: t("missedTitle") }),
    ...lines.map((line) => h("p", { class: "missed-line", text: line })),
    h("button", { type: "button", class: "btn small", data: { action: "missed-close" }, text: t("missedClose") }))];
}
