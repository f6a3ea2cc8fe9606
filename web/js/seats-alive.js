// Seats that stay alive (docs/api.md v1.1): the "X left the table" banner with its countdown,
// the button that lets the computer play for X, "computer plays for X", and the turn clock.
// Everything is read from the view the server sends (away_since, stand_in, turn_deadline);
// the server decides whether a stand-in may start (409 seat_present before away_seconds).
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { namesList, seatName } from "./names.js";

const PLAYING = ["draw", "play"];

/** Seconds from now until `iso` (never below zero), by this browser's clock. */
function secondsUntil(iso, extra = 0) {
  return Math.max(0, Math.ceil((Date.parse(iso) + extra * 1000 - Date.now()) / 1000));
}

/** Learn the room's wait before a stand-in once (GET /api/rooms/{room}
 * options.away_seconds, the lobby's summary read), for the countdown. */
export async function learnRoom(store, getRoom, room) {
  const waits = store.table.awaySeconds;
  if (room in waits) return;
  try {
    const info = await getRoom(room);
    waits[room] = Number(info.options?.away_seconds ?? 60);
  } catch {
    waits[room] = 60;
  }
}

/** Redraw once a second while a countdown or a clock is on screen. */
export function keepTicking(store) {
  const view = store.view;
  const needed = store.page === "table" && view && (view.turn_deadline || (view.seats || []).some((s) => s.away_since));
  const table = store.table;
  if (needed && !table.ticker) table.ticker = setInterval(() => store.emit(), 1000);
  if (!needed && table.ticker) {
    clearInterval(table.ticker);
    table.ticker = null;
  }
}

/** The banners of seats whose owner left: countdown, then the button; or the stand-in.
 * None once the match is over (nothing is left to play for anyone: a player who went on to
 * the rematch has not "left"); a spectator, who cannot ask for a stand-in, gets one line
 * naming everyone who left, without a countdown. */
export function awayBanners(store) {
  const view = store.view;
  const s = store.session;
  if (!view || !s || s.mode === "local" || view.phase === "match_over") return [];
  const items = [];
  const watching = !s.token || view.seat === null;
  const gone = [];
  (view.seats || []).forEach((seat, i) => {
    if (i === view.seat || seat.bot) return;
    const name = seatName(view, i);
    if (seat.stand_in) {
      items.push(h("div", { class: "banner stand-in", role: "status", data: { seat: String(i) }, text: t("standInBanner", { name }) }));
      return;
    }
    if (!seat.away_since || seat.connected) return;
    if (watching) {
      gone.push(name);
      return;
    }
    const left = secondsUntil(seat.away_since, store.table.awaySeconds[s.room] ?? 60);
    const canAsk = s.token && view.seat !== null && left === 0;
    items.push(h("div", { class: "banner left-table", role: "status", data: { seat: String(i) } },
      h("span", { text: t("leftTable", { name }) }),
      " ",
      canAsk
        ? h("button", { type: "button", class: "btn", data: { action: "stand-in", seat: String(i) }, text: t("letComputerPlay", { name }) })
        : h("span", { class: "countdown", data: { seconds: String(left) }, text: t("standInIn", { n: left }) }),
    ));
  });
  if (gone.length) {
    const names = namesList(gone);
    items.push(h("div", { class: "banner left-table", role: "status", text: t(gone.length > 1 ? "leftTableMany" : "leftTable", { name: names, names }) }));
  }
  return items;
}

/** The turn clock, docked in the turn line: whose turn, and the seconds it has left. */
export function turnClock(store) {
  const view = store.view;
  if (!view?.turn_deadline || !PLAYING.includes(view.phase)) return [];
  const left = secondsUntil(view.turn_deadline);
  const mine = view.turn === view.seat;
  return [h("p", { class: ["turn-clock", mine && "mine", left <= 10 && "low"], id: "turn-clock", role: "timer", data: { seconds: String(left) },
    text: t("clockLeft", { n: left }) })];
}

