// What happened while you were away (docs/api.md v1.1, "Seats that stay alive"): when a table
// opens, the moves of the hand in play since the version this browser last showed of it,
// from GET /api/rooms/{room}/recent?since=, told in a few sentences until the player closes
// them or the hand is over. Your own turns are told apart: the computer's (a stand-in, from
// the hand's stand-in entries; the turn timer, from your seat's count of timeouts) and yours
// played on another device.
import { getRecentMoves } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { cardsShort } from "./cards.js";
import { namesList, seatName } from "./names.js";
import { keep, load } from "./storage.js";

const key = (room) => `rummy:seen:${room}`;


/** Every view of a seat passes here: the first one of a page asks what was missed. */
export function noteView(store, view) {
  const s = store.session;
  // The summary is about the hand in play it was opened in: once that is over, the hand's
  // end says what happened, and the next hand (or a new match) has its own story.
  const playing = ["draw", "play"].includes(view?.phase);
  const table = store.table;
  if (table.missed && (!playing || table.missed.hand !== view.hand_number)) table.missed = null;
  if (!s || !view || s.mode === "watch" || s.mode === "local" || view.seat === null) return;
  const timeouts = view.seats?.[view.seat]?.timeouts ?? 0;
  if (!table.opened.has(s.room)) {
    table.opened.add(s.room);
    const before = load(key(s.room));
    if (before && before.hand === view.hand_number && before.version < view.version) {
      getRecentMoves(s.room, s.token, before.version)
        .then((recent) => {
          if (recent.moves.length && recent.hand_number === view.hand_number) {
            const timed = Math.max(0, timeouts - (before.timeouts ?? timeouts));
            table.missed = { hand: view.hand_number, moves: recent.moves, standIns: recent.stand_ins || [], timed };
            store.emit();
          }
        })
        .catch(() => {}); // a list to read, not a step to play: without it the table still works
    }
  }
  // A browser without storage just never lists what it missed.
  keep(key(s.room), { version: view.version, hand: view.hand_number, timeouts });
}

/** Whether the computer stood in for `seat` at `version`: the last stand-in entry before it
 * says; with none, the first one does (an end means it had begun in an earlier hand). */
function standingIn(standIns, seat, version) {
  const mine = standIns.filter((e) => e.seat === seat).sort((a, b) => a.version - b.version);
  const before = mine.filter((e) => e.version < version).at(-1);
  if (before) return Boolean(before.stand_in);
  return mine.length > 0 && !mine[0].stand_in;
}

/** Who played each move: another seat's number, or for your own "computer" or "you". A turn
 * begins with its draw (the first move may end a turn begun before the player left); the
 * turn timer's turns (`timed`) are the first of your own turns the stand-in did not play. */
function actors(view, missed) {
  let timed = missed.timed || 0;
  let current = null;
  return missed.moves.map((m, i) => {
    if (i === 0 || m.move?.type === "draw") {
      if (m.seat !== view.seat) current = m.seat;
      else if (standingIn(missed.standIns || [], m.seat, m.version)) current = "computer";
      else if (timed > 0) {
        timed -= 1;
        current = "computer";
      } else current = "you";
    }
    return { move: m, actor: current, first: i === 0 || m.move?.type === "draw" };
  });
}

/** Who played, in words; `subject`: as a sentence's subject (Dutch "jij", not "jou"). */
function actorName(view, actor, subject = false) {
  if (actor === "computer") return t("missedForYou");
  if (actor !== "you") return seatName(view, actor);
  const key = subject ? "missedYouElsewhereSubject" : "missedYouElsewhere";
  const own = t(key);
  return own === key ? t("missedYouElsewhere") : own; // English has one form for both
}

/** "While you were away" in a few sentences: who played how many turns (your own turns
 * told apart: played by the computer for you, or by you on another device), each card taken
 * from the discard pile, each meld laid down, and whether you are up. */
export function awaySummary(view, missed) {
  const played = actors(view, missed);
  const turns = played.filter((p) => p.first);
  const who = [...new Set(turns.map((p) => p.actor))].map((actor) => actorName(view, actor));
  const lines = turns.length ? [t("missedTurns", { n: turns.length, names: namesList(who) })] : [];
  for (const { move: m, actor } of played) {
    const name = actorName(view, actor, true);
    const card = m.move?.card; // a discard pickup names its card in the move (v1.3)
    if (m.move?.type === "draw" && m.move.source === "discard") {
      lines.push(t("missedPickup", { name, card: cardsShort(card ? [card] : []) }));
    } else if (m.move?.type === "meld") {
      lines.push(t("missedMeld", { name, cards: (m.move.melds || []).map((g) => cardsShort(g)).join(" · ") }));
    }
  }
  if (view.turn === view.seat && ["draw", "play"].includes(view.phase)) lines.push(t("missedYourTurn"));
  return lines.map((line) => line.charAt(0).toUpperCase() + line.slice(1));
}

/** The summary of what was missed, with a button to close it; it sits above the table. */
export function missedPanel(store) {
  const missed = store.table.missed;
  if (!missed || !store.view || missed.hand !== store.view.hand_number) return [];
  const lines = awaySummary(store.view, missed);
  return [h("div", { class: "banner missed", id: "missed", role: "status" },
    h("strong", { class: "missed-title", text: t("missedTitle") }),
    ...lines.map((line) => h("p", { class: "missed-line", text: line })),
    h("button", { type: "button", class: "btn small", data: { action: "missed-close" }, text: t("missedClose") }))];
}
