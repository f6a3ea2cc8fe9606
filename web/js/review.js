// The hand review (GET /api/rooms/{room}/review, docs/api.md "Hints"): a seat's own decisions of
// the hand just finished, judged by the hard bot. The server computes it in the background,
// so this polls while it is pending, then keeps the three decisions that cost the most.
import { getReplay, getReview } from "./api.js";
import { lang } from "./i18n.js";
import { replaySteps, stepBefore } from "./replay.js";

// About 0.4 s, growing by half each time up to 4 s: a short hand is ready within the first
// tries, a long one on a busy server gets a minute and a half before we stop asking.
const FIRST_WAIT_MS = 400;
const MAX_WAIT_MS = 4000;
const MAX_TRIES = 30;
const SHOWN = 3;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The seats this device may review: its own, or in local play every human seat it holds. */
export function reviewSeats(store) {
  const s = store.session;
  if (!s?.token || store.view?.seat === null || store.view?.seat === undefined) return [];
  if (s.mode !== "local" || !s.tokens) return [store.view.seat];
  return Object.entries(s.tokens).filter(([, token]) => token).map(([seat]) => Number(seat));
}

function tokenOf(store, seat) {
  const s = store.session;
  return s.mode === "local" && s.tokens?.[String(seat)] ? s.tokens[String(seat)] : s.token;
}

/** The decisions worth a look: a better move that the hard bot thinks cost points, worst first. */
export function costliest(decisions) {
  return decisions
    .filter((d) => d.better && d.cost > 0)
    .sort((a, b) => b.cost - a.cost || a.version - b.version)
    .slice(0, SHOWN);
}

/**
 * Each decision with its replay step (the table just before it) and the discard pile's top
 * card then: a review's draw from the pile does not name the card it took.
 */
function placed(decisions, steps) {
  return decisions.map((d) => {
    const step = stepBefore(steps, d.version);
    return { ...d, step, pile: steps[step]?.discard ?? null };
  });
}

/**
 * Load `seat`'s review of the hand that just ended into `store.review`:
 * {seat, hand, status: "loading" | "pending" | "ready" | "slow" | "error", shown, steps, error, run}.
 * A newer call (another seat, a retry) or the next hand stops an older one's polling: each
 * call's `run` is its own, and a review that is not the call's own ends it.
 */
export async function loadReview(store, seat) {
  const run = {};
  const current = () => store.review?.run === run;
  // Whether the seat won the hand is known at once (the view's result); the title says it.
  const won = store.view?.hand_result?.winner === seat;
  store.update({ review: { seat, hand: null, status: "loading", shown: [], steps: null, error: null, won, net: null, run } });
  const token = tokenOf(store, seat);
  const room = store.session.room;
  try {
    // The last finished hand, step by step from the server; the review asks for its log
    // number, which the view does not carry.
    const replay = await getReplay(room, token);
    const hand = replay.hand;
    const steps = replaySteps(replay, store.view);
    let wait = FIRST_WAIT_MS;
    for (let tries = 0; tries < MAX_TRIES; tries++) {
      if (!current()) return;
      const review = await getReview(room, token, hand, lang());
      if (!current()) return;
      if (review.status === "ready") {
        const shown = placed(costliest(review.decisions || []), steps);
        // `won`: the hand was this seat's, so a better move could only have won more.
        store.update({ review: { ...store.review, hand, status: "ready", shown, steps, won: review.won ?? won, net: review.net ?? null } });
        return;
      }
      if (store.review.status !== "pending") store.update({ review: { ...store.review, hand, status: "pending" } });
      await sleep(wait);
      wait = Math.min(MAX_WAIT_MS, wait * 1.5);
    }
    if (current()) store.update({ review: { ...store.review, status: "slow" } });
  } catch (err) {
    if (current()) store.update({ review: { ...store.review, status: "error", error: err?.error || null } });
  }
}

/**
 * The replay of the reviewed hand opened at decision `version`'s step, the table as it was
 * just before it; `focus` marks that step. Null when the review has no such decision.
 */
export function decisionReplay(store, version) {
  const r = store.review;
  const decision = r?.shown?.find((d) => d.version === version);
  if (!decision || decision.step < 0) return null;
  return { steps: r.steps, index: decision.step, focus: { index: decision.step, seat: r.seat, decision } };
}

/** Forget the review (a new hand began): any polling still running stops. */
export function dropReview(store) {
  store.review = null;
}
