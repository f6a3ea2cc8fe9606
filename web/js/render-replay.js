// The replay panel, the same for a room's hands (from the hand end) and for a record file's
// (the replay page): the table at the current step beside the list of moves to jump to, the
// current one marked, the hand's result at its end, and the controls: start, previous,
// play or pause at a chosen pace, next, end (the keys: replay.js `replayKey`). On a phone it
// fills the screen, the list under the table.
import { renderCard } from "./cards.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { moveWords, seatName } from "./names.js";
import { resultLine } from "./render-end.js";
import { reviewNote } from "./render-review.js";
import { SPEEDS, turnsOf } from "./replay.js";

// The card's code rides along, as in the hand, so a test can read the table of each step.
const tinyCard = (code) => renderCard(code, { classes: ["tiny"], attrs: { "data-card": code } });

/** Names as the table shows them, or as the record file has them. */
const namer = (store, r) => (r.names ? { seats: r.names.map((name) => ({ name })) } : store.view);

/** The hands of the match, one button each, the one shown pressed and marked. */
function handChooser(r) {
  if (!r.hands || r.hands.length < 2) return null;
  return h("div", { class: "row replay-hands-choice", role: "group", "aria-label": t("replayHands") },
    r.hands.map((n, i) => h("button", {
      type: "button", class: "btn small", data: { action: "replay-hand", hand: String(n) },
      "aria-pressed": n === r.hand ? "true" : "false", text: t("replayHand", { n: i + 1 }),
    })));
}

/** Who scored what at the hand's end: "Anna goes out!" and each seat's points. */
function resultBox(store, r, view) {
  const result = r.steps.at(-1)?.result;
  if (!result) return null;
  const penalty = store.rules(r.steps.at(-1).variant).scoring === "penalty";
  const points = result.points.map((n, seat) => t(penalty ? "penaltyFor" : "pointsFor", { name: seatName(view, seat), n }));
  return h("div", { class: "replay-result", id: "replay-result", role: "status" },
    h("strong", { text: resultLine(view, result) }), " ", points.join(" · "));
}

function board(store, r, view) {
  const step = r.steps[r.index];
  const last = r.steps.length - 1;
  return h("div", { class: "replay-board" },
    h("p", { class: "replay-step", text: r.index === 0 ? t("replayStart") : t("replayStep", { i: r.index, n: last }) }),
    step.text ? h("p", { class: "replay-text", text: step.text }) : null,
    // Opened from the hand review: its decision is the move after this step.
    r.focus?.index === r.index ? h("p", { class: "replay-focus", text: reviewNote(view, r.focus) }) : null,
    r.index === last ? resultBox(store, r, view) : null,
    h("div", { class: "replay-hands" }, step.hands.map((cards, seat) => h("div", { class: ["replay-hand", r.focus?.seat === seat && "reviewed", step.seat === seat && r.index > 0 && "moved"], data: { seat: String(seat) } },
      h("strong", { text: seatName(view, seat) }),
      h("div", { class: "mini-row" }, cards.map(tinyCard))))),
    h("div", { class: "replay-melds" }, step.melds.map((m) => h("div", { class: "mini-row meld-mini" }, m.map(tinyCard)))),
    step.discard ? h("p", { class: "replay-discard" }, t("discardPile"), ": ", tinyCard(step.discard)) : null,
  );
}

/** Every move, by turn, to jump to; the current one marked (`aria-current`). */
function moveList(r, view) {
  const items = turnsOf(r.steps).map((turn, k) => h("li", { class: "replay-turn" },
    h("span", { class: "replay-who", text: `${k + 1}. ${seatName(view, turn.seat)}` }),
    turn.steps.map((i) => h("button", {
      type: "button", class: "replay-move", data: { action: "replay-go", step: String(i) },
      "aria-current": i === r.index ? "step" : null,
      text: moveWords(r.steps[i].move || {}, r.steps[i - 1]?.discard ?? null, "short"),
    }))));
  return h("nav", { class: "replay-moves", "aria-label": t("replayMoves") }, h("ol", {}, items));
}

function controls(r) {
  const last = r.steps.length - 1;
  const btn = (action, label, text, disabled, extra = {}) => h("button", {
    type: "button", class: ["btn", extra.primary && "primary"], data: { action }, disabled, title: label,
    "aria-label": text === label ? null : label, ...extra.attrs, text,
  });
  return h("div", { class: "replay-controls" },
    h("div", { class: "row" },
      btn("replay-first", t("replayFirst"), "|◀", r.index === 0),
      btn("replay-prev", t("replayPrev"), t("replayPrev"), r.index === 0),
      btn("replay-play", r.playing ? t("replayPause") : t("replayPlay"), r.playing ? t("replayPause") : t("replayPlay"), false, { attrs: { "aria-pressed": r.playing ? "true" : "false" } }),
      btn("replay-next", t("replayNext"), t("replayNext"), r.index >= last, { primary: true }),
      btn("replay-last", t("replayLast"), "▶|", r.index >= last),
      h("label", { class: "replay-speed" }, h("span", { text: t("replaySpeed") }),
        h("select", { id: "replay-speed", data: { replaySpeed: "1" } },
          SPEEDS.map((ms) => h("option", { value: String(ms), selected: ms === r.speed, text: t("replaySpeedN", { n: 1000 / ms }) }))))),
    h("p", { class: "replay-keys muted", text: t("replayKeys") }));
}

/** The replay dialog over the page (a room's or a file's). */
export function replayPanel(store) {
  const r = store.replay;
  const view = namer(store, r);
  const n = r.hands ? r.hands.indexOf(r.hand) + 1 : 0;
  return h("div", { class: "modal replay-modal", role: "dialog", "aria-modal": "true", "aria-labelledby": "replay-title", id: "replay", tabindex: "-1" },
    h("div", { class: "modal-body replay-body" },
      h("div", { class: "replay-head" },
        h("h2", { id: "replay-title", text: n > 0 ? t("replayTitleHand", { n }) : t("replay") }),
        h("button", { type: "button", class: "btn", data: { action: "replay-close" }, text: t("replayClose") })),
      handChooser(r),
      h("div", { class: "replay-main" }, board(store, r, view), moveList(r, view)),
      controls(r)),
  );
}
