// The hand review on the hand-end screen (review.js loads it): one button, then the three
// decisions the hard bot thinks cost the most, each with a way into the replay at its moment.
import { h } from "./dom.js";
import { errorText, lang, t } from "./i18n.js";
import { moveWords, seatName } from "./names.js";
import { reviewSeats } from "./review.js";

// The server's reason comes in every language; the page's may have changed since it asked.
const reasonOf = (d) => d.reasons?.[lang()] ?? d.reason;

// "about 12 points, ± 4": the estimate with its uncertainty (the review's `spread`); an
// estimate above the hand's stake was `capped` to it: "all 6 points at stake".
const costText = (cost, spread = 0, capped = false) => {
  if (capped) return t("reviewCostAll", { n: Math.round(cost) });
  if (cost < 1) return t("reviewCostSmall");
  const text = t("reviewCost", { n: Math.round(cost) });
  return spread >= 1 ? `${text}, ± ${Math.round(spread)}` : text;
};

function decisionItem(d, rank) {
  return h("li", { class: "decision", data: { version: String(d.version), cost: String(d.cost) } },
    h("p", { class: "decision-head" },
      h("strong", { class: "decision-cost", text: costText(d.cost, d.spread, d.capped) }),
      d.step >= 0
        ? h("button", { type: "button", class: "btn small", data: { action: "review-show", version: String(d.version) }, "aria-label": t("reviewShowLabel", { n: rank }), text: t("reviewShow") })
        : null),
    h("dl", { class: "decision-moves" },
      h("dt", { text: t("reviewYou") }), h("dd", { class: "did", text: moveWords(d.move, d.pile) }),
      h("dt", { text: t("reviewBetter") }), h("dd", { class: "better", text: moveWords(d.better, d.pile) })),
    h("p", { class: "decision-reason", text: t("reviewWhy", { text: reasonOf(d) }) }),
  );
}

function retry(seat) {
  return h("button", { type: "button", class: "btn small", data: { action: "review", seat: String(seat) }, text: t("reviewRetry") });
}

function body(r) {
  switch (r.status) {
    case "ready":
      return r.shown.length
        ? h("ol", { class: "decisions" }, r.shown.map((d, i) => decisionItem(d, i + 1)))
        : h("p", { class: "review-none", text: t("reviewNone") });
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

/** The open review: whose hand (local play holds several), then its costliest decisions. */
export function renderReview(store) {
  const r = store.review;
  if (!r) return null;
  const view = store.view;
  const seats = reviewSeats(store);
  const several = seats.length > 1;
  return h("section", { class: "review", id: "review", "aria-labelledby": "review-title", data: { status: r.status, seat: String(r.seat) } },
    h("h3", { id: "review-title", text: several ? t("reviewTitleOf", { name: seatName(view, r.seat) }) : t("reviewTitle") }),
    several
      ? h("div", { class: "review-seats", role: "group", "aria-label": t("reviewWhose") }, seats.map((seat) =>
          h("button", { type: "button", class: "btn small", data: { action: "review", seat: String(seat) }, "aria-pressed": seat === r.seat ? "true" : "false", text: seatName(view, seat) })))
      : null,
    body(r),
  );
}

/** The line the replay shows on a reviewed decision's step. */
export function reviewNote(view, focus) {
  const d = focus.decision;
  return t("reviewHere", { name: seatName(view, focus.seat), did: moveWords(d.move, d.pile), better: moveWords(d.better, d.pile) });
}
