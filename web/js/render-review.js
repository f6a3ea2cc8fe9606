// The hand review on the hand-end screen (review.js loads it): one button, then the three
// decisions the hard bot thinks cost the most, each with a way into the replay at its moment.
import { h } from "./dom.js";
import { errorText, lang, t } from "./i18n.js";
import { moveWords, seatName } from "./names.js";
import { reviewSeats } from "./review.js";

// The server's reason comes in every language; the page's may have changed since it asked.
const reasonOf = (d) => d.reasons?.[lang()] ?? d.reason;

/** `text` as a sentence: one full stop at its end, never two. */
export const sentence = (text) => (/[.!?…]$/.test(text) ? text : `${text}.`);

// A cost is the change in the seat's net result of the hand the better move was worth
// (GET /review's `cost`, with `spread` its uncertainty): "cost about 12 points, ± 4". In a
// hand the seat won nothing cost it anything: the better move "could have won 12 more".
const costText = (cost, spread, won) => {
  if (cost < 1) return t(won ? "reviewCostWonSmall" : "reviewCostSmall");
  const text = t(won ? "reviewCostWon" : "reviewCost", { n: Math.round(cost) });
  return spread >= 1 ? `${text}, ± ${Math.round(spread)}` : text;
};

/** The hand's net result for the reviewed seat (the currency of every cost), and how it
 * is counted: points in most variants, penalty points in rummy51. */
function netLine(store, r) {
  if (r.net === null || r.net === undefined) return null;
  const view = store.view;
  const many = (view?.scores?.length || 2) > 2;
  const penalty = store.rules(view?.variant).scoring === "penalty";
  const how = t(`reviewNet${penalty ? "Penalty" : "Score"}${many ? "Many" : ""}`);
  const n = Math.round(r.net);
  return h("p", { class: "review-net", id: "review-net" },
    h("strong", { text: t("reviewNet", { net: n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0", how }) }), " ",
    t("reviewEstimate"));
}

function decisionItem(d, rank, won) {
  return h("li", { class: "decision", data: { version: String(d.version), cost: String(d.cost) } },
    h("p", { class: "decision-head" },
      h("strong", { class: "decision-cost", text: costText(d.cost, d.spread || 0, won) }),
      d.step >= 0
        ? h("button", { type: "button", class: "btn small", data: { action: "review-show", version: String(d.version) }, "aria-label": t("reviewShowLabel", { n: rank }), text: t("reviewShow") })
        : null),
    h("dl", { class: "decision-moves" },
      h("dt", { text: t("reviewYou") }), h("dd", { class: "did", text: moveWords(d.move, d.pile) }),
      h("dt", { text: t("reviewBetter") }), h("dd", { class: "better", text: moveWords(d.better, d.pile) })),
    h("p", { class: "decision-reason", text: sentence(t("reviewWhy", { text: reasonOf(d) })) }),
  );
}

function retry(seat) {
  return h("button", { type: "button", class: "btn small", data: { action: "review", seat: String(seat) }, text: t("reviewRetry") });
}

function body(store, r) {
  switch (r.status) {
    case "ready":
      return [netLine(store, r), r.shown.length
        ? h("ol", { class: "decisions" }, r.shown.map((d, i) => decisionItem(d, i + 1, r.won)))
        : h("p", { class: "review-none", text: t("reviewNone") })];
    case "slow":
      return h("p", { class: "review-note", role: "status" }, t("reviewSlow"), " ", retry(r.seat));
    case "error":
      // A network failure says so; any other refusal is just "not available".
      return h("p", { class: "review-note", role: "alert" },
        r.error?.code === "network" ? errorText(r.error) : t("reviewFailed"), " ", retry(r.seat));
    default:
      return h("p", { class: "review-note", role: "status", text: t("reviewWait") });
  }
}

/** "Review my hand" for the votes row: it opens the panel, or closes it when open. */
export function reviewButton(store) {
  const seats = reviewSeats(store);
  if (!seats.length) return null;
  const open = Boolean(store.review);
  const seat = seats.includes(store.session.seat) ? store.session.seat : seats[0];
  return h("button", {
    type: "button", class: "btn", id: "review-open", "aria-expanded": open ? "true" : "false", "aria-controls": "review",
    data: { action: "review-toggle", seat: String(seat) }, text: t("reviewOpen"),
  });
}

/** The review's heading: "costliest decisions", or in a hand the seat won (where nothing
 * cost it a point) where it could have won more. */
function title(view, r, several) {
  const key = r.won ? "reviewTitleWon" : "reviewTitle";
  return several ? t(`${key}Of`, { name: seatName(view, r.seat) }) : t(key);
}

/** The open review: whose hand (local play holds several), then its costliest decisions. */
export function renderReview(store) {
  const r = store.review;
  if (!r) return null;
  const view = store.view;
  const seats = reviewSeats(store);
  const several = seats.length > 1;
  return h("section", { class: "review", id: "review", "aria-labelledby": "review-title", data: { status: r.status, seat: String(r.seat), won: r.won ? "true" : "false" } },
    h("h3", { id: "review-title", text: title(view, r, several) }),
    several
      ? h("div", { class: "review-seats", role: "group", "aria-label": t("reviewWhose") }, seats.map((seat) =>
          h("button", { type: "button", class: "btn small", data: { action: "review", seat: String(seat) }, "aria-pressed": seat === r.seat ? "true" : "false", text: seatName(view, seat) })))
      : null,
    body(store, r),
  );
}

/** The line the replay shows on a reviewed decision's step. */
export function reviewNote(view, focus) {
  const d = focus.decision;
  return t("reviewHere", { name: seatName(view, focus.seat), did: moveWords(d.move, d.pile), better: moveWords(d.better, d.pile) });
}
