// The end of a hand: every hand revealed, the points explained, the score sheet, the votes,
// the match winner; and the compact score sheet shown beside the table.
import { cardName, handValue, renderCard } from "./cards.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { seatName, seatNames } from "./names.js";
import { matchEndReason } from "./match-length.js";
import { renderReview, reviewButton } from "./render-review.js";

/** Rows of [hand, points per seat, running totals]; an "earlier" row covers hands this browser missed. */
function sheetRows(store, view) {
  const n = view.scores.length;
  const rows = [];
  const running = new Array(n).fill(0);
  for (const entry of store.sheet) {
    entry.points.forEach((p, i) => { running[i] += p; });
    rows.push({ label: String(entry.hand), points: entry.points, totals: [...running] });
  }
  const missing = view.scores.map((s, i) => s - running[i]);
  if (missing.some((m) => m !== 0)) {
    rows.unshift({ label: "…", points: missing, totals: missing });
    rows.forEach((r, k) => { if (k > 0) r.totals = r.totals.map((v, i) => v + missing[i]); });
  }
  return rows;
}

export function renderScores(store, view, extra = null) {
  const n = view.scores.length;
  // The room's penalty limit; a room that chose none plays to the variant's.
  const limit = view.limit ?? store.rules(view.variant).penalty_limit;
  const rows = sheetRows(store, view);
  const head = h("tr", {}, h("th", { scope: "col", text: t("sheetHand") }),
    Array.from({ length: n }, (_, i) => h("th", { scope: "col", text: seatName(view, i) })));
  const body = rows.map((r) => h("tr", {},
    h("th", { scope: "row", text: r.label }),
    r.points.map((p, i) => h("td", {}, h("span", { class: "pts", text: p ? `+${p}` : "0" }), " ", h("span", { class: "run", text: String(r.totals[i]) })))));
  const total = h("tr", { class: "total" }, h("th", { scope: "row", text: t("sheetTotal") }),
    view.scores.map((s) => h("td", { text: String(s) })));
  return h("section", { class: "scores", id: "scores" },
    h("h2", { text: `${t("sheet")} · ${t("handNo", { n: view.hand_number })}` }),
    h("table", { class: "sheet" }, h("thead", {}, head), h("tbody", {}, body, total)),
    limit ? h("p", { class: "match-limit", id: "match-limit", text: t("matchLimit", { n: limit }) }) : null,
    extra,
  );
}

export function resultLine(view, r) {
  if (r.reason === "out" && r.winner !== null && r.winner !== undefined) {
    return t(r.rummy ? "wonRummy" : "wonHand", { name: seatName(view, r.winner) });
  }
  return r.reason === "stalemate" ? t("stalemate") : t("drawHand");
}

function explanation(view, r, rules) {
  if (r.reason !== "out" || r.winner === null || r.winner === undefined) return null;
  const name = seatName(view, r.winner);
  const extra = r.rummy ? ` ${t(rules.scoring === "penalty" ? "explainRummyPenalty" : "explainRummyDouble", { n: rules.going_rummy_penalty })}` : "";
  if (rules.scoring === "penalty") return t("explainPenalty", { name }) + extra;
  return t("explainWinner", { name, n: r.points[r.winner] }) + extra;
}

/** Who gains what: the winner the others' cards; a loser's cards go to the winner (or,
 * in a penalty game, count against the loser). */
function gains(view, r, seat, sum, rules) {
  const out = r.reason === "out" && r.winner !== null && r.winner !== undefined;
  if (rules.scoring === "penalty") return t("handPenalty", { n: r.points[seat] });
  if (out && seat !== r.winner) return t("handGivesTo", { n: sum, name: seatName(view, r.winner) });
  return t("handGains", { n: r.points[seat] });
}

function revealed(view, r, seat, rules) {
  const cards = r.hands?.[seat] || [];
  const sum = cards.reduce((s, c) => s + handValue(c, rules), 0);
  return h("div", { class: ["reveal", r.winner === seat && "winner"], data: { seat: String(seat) } },
    h("h3", {}, seatName(view, seat), " ",
      h("span", { class: "points", data: { points: String(r.points[seat]) }, text: gains(view, r, seat, sum, rules) })),
    cards.length
      ? h("div", { class: "reveal-cards", "aria-label": `${t("cardsLeft")}: ${cards.map(cardName).join(", ")}` },
          cards.map((c) => h("span", { class: "valued" }, renderCard(c, { classes: ["small"] }), h("span", { class: "val", text: String(handValue(c, rules)) }))),
          h("span", { class: "sum", text: `= ${sum}` }))
      : h("p", { class: "muted", text: t("noCards") }),
  );
}

function voteBlock(view, kind, label, store, primary = true) {
  const humans = (view.seats || []).map((s, i) => (s.bot ? -1 : i)).filter((i) => i >= 0);
  const agreed = view.votes?.[kind] || [];
  const waiting = humans.filter((i) => !agreed.includes(i));
  const mine = agreed.includes(view.seat) && store.session.mode !== "local";
  return h("div", { class: "vote", data: { vote: kind } },
    h("button", { type: "button", class: ["btn", primary && "primary"], data: { action: "vote", vote: kind }, disabled: mine, "aria-pressed": mine ? "true" : "false", text: label }),
    agreed.length ? h("p", { class: "agreed", text: t("agreed", { names: seatNames(view, agreed) }) }) : null,
    agreed.length && waiting.length ? h("p", { class: "waiting", text: t("waitingVotes", { names: seatNames(view, waiting) }) }) : null,
  );
}

/** "Restart the match" (the new_match vote, which restarts it at 0 once everyone agrees):
 * in the score sheet while the match is on, from the first hand's end (before that there is
 * nothing to restart) or once someone asked for it. Never beside "Next hand" or "Rematch",
 * where players pressed it for either. */
export function renderNewMatch(store, view) {
  const asked = (view.votes?.new_match || []).length > 0;
  const started = view.hand_number > 1 || view.phase === "hand_over" || view.scores.some((s) => s !== 0);
  if (!asked && !started) return null;
  return h("section", { class: "new-match" }, voteBlock(view, "new_match", t("newMatch"), store, false));
}

/** The fairness check opens in a new tab; the seat token rides in the fragment, never to a server log. */
function verifyLink(store, view) {
  const token = store.session && store.session.token;
  if (!token) return null;
  const params = new URLSearchParams({ room: view.room, seat: token });
  return h("a", { class: "btn", id: "verify-link", href: `/web/verify.html#${params}`, target: "_blank", rel: "noopener", text: t("verifyDeal") });
}

/** The match is over: "Rematch", or once another seat asked, who did and one button to
 * take this seat in the new room (docs/api.md v1.2 rematch). */
function rematchBlock(store, view) {
  const asked = store.table.rematch;
  if (!asked || asked.from !== view.room) {
    return h("button", { type: "button", class: "btn primary", id: "rematch", data: { action: "rematch" }, text: t("rematch") });
  }
  const by = asked.seat === view.seat ? null : asked.name;
  return h("div", { class: "rematch-offer", id: "rematch-offer" },
    by ? h("p", { text: t("rematchWanted", { name: by }) }) : null,
    h("button", { type: "button", class: "btn primary", id: "rematch", data: { action: "rematch" }, text: by ? t("rematchTakeSeat") : t("rematch") }));
}

/** A challenge's room: the comparison with the friends who play the same deals. */
function challengeLink(store) {
  const id = store.table.challenge;
  return id ? h("a", { class: "btn", id: "challenge-link", href: `/c/${id}`, text: t("challengeCompare") }) : null;
}

export function renderHandEnd(store) {
  const view = store.view;
  const r = view.hand_result;
  const over = view.phase === "match_over";
  const rules = store.rules(view.variant);
  return h("section", { class: "hand-end", id: "hand-end", "aria-labelledby": "hand-end-title" },
    h("h2", { id: "hand-end-title", text: over ? t("matchOver") : t("handOver", { n: view.hand_number }) }),
    over && view.match_winner
      ? h("p", { class: "match-winner", id: "match-winner", text: t("matchWinner", { names: seatNames(view, view.match_winner) }) })
      : null,
    over ? h("p", { class: "match-reason", id: "match-reason", text: matchEndReason(view, rules) }) : null,
    r ? h("p", { class: "result", id: "hand-result", text: resultLine(view, r) }) : null,
    r && explanation(view, r, rules) ? h("p", { class: "explain", text: explanation(view, r, rules) }) : null,
    r ? h("div", { class: "reveals" }, view.scores.map((_, i) => revealed(view, r, i, rules))) : null,
    // A spectator (no seat) has no vote, no log and no seat token to verify with.
    view.seat === null ? null : h("div", { class: "votes" },
      over ? null : voteBlock(view, "next_hand", t("nextHand"), store),
      over ? rematchBlock(store, view) : null,
      // At the match's end "Rematch" is the way on; a restart here only if someone asked.
      over && view.votes?.new_match?.length ? voteBlock(view, "new_match", t("newMatch"), store, false) : null,
      challengeLink(store),
      h("button", { type: "button", class: "btn", data: { action: "replay" }, text: t("replay") }),
      reviewButton(store),
      verifyLink(store, view),
      // The match record (docs/record.md), to keep, share or replay from the file.
      over ? h("button", { type: "button", class: "btn", id: "save-record", data: { action: "save-record" }, text: t("saveMatch") }) : null,
    ),
    view.seat === null ? null : renderReview(store),
  );
}
