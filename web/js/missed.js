// What happened while you were away (API.md v1.1, "Seats that stay alive"): when a table
// opens, the moves of the hand in play since the version this browser last showed of it,
// from GET /api/rooms/{room}/recent?since=, listed in order until the player closes them.
import { getRecentMoves } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { describeMove } from "./names.js";

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

/** The list of missed moves, in the words of the status line, with a button to close it. */
export function missedPanel(store) {
  const moves = store.extra.missed;
  if (!moves || !store.view) return [];
  return [h("div", { class: "banner missed", id: "missed", role: "status" },
    h("strong", { text: t("missedTitle") }),
    h("ol", {}, ...moves.map((m) => h("li", { text: describeMove(store.view, m) }))),
    h("button", { type: "button", class: "btn", data: { action: "missed-close" }, text: t("missedClose") }))];
}
