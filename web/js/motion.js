// Moves you can watch. The server answers at once and a computer's whole turn (draw, melds,
// discard) reaches the socket within a few milliseconds; this module queues the views and
// shows them one step at a time at a readable pace, with the card travelling from where it
// was to where it went. Your own moves are shown at once. `prefers-reduced-motion` keeps
// the pace (each step still gets read out) but no card travels; the switch in the top bar
// turns both off.
import { renderBack, renderCard } from "./cards.js";
import { keepText, loadText } from "./storage.js";

const KEY = "rummy.motion";
// About 0.65 s a step, down to 0.35 s when several steps wait (a reconnect, a long turn).
const PACE_MS = 650;
const FAST_MS = 350;

/** The switch's choice as this browser keeps it (read at boot into `store.prefs.motion`). */
export const motionOn = () => loadText(KEY) !== "off";
export const setMotion = (on) => keepText(KEY, on ? "on" : "off");
const reduced = () => window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;

const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The pause after a step, shorter the more steps are waiting. */
export function paceFor(waiting) {
  return Math.max(FAST_MS, PACE_MS - 100 * waiting);
}

const rectOf = (el) => (el && el.isConnected ? el.getBoundingClientRect() : null);
const q = (sel) => document.querySelector(sel);
const qa = (sel) => [...document.querySelectorAll(sel)];
const opponentSpot = (seat) => q(`.opponent[data-seat="${seat}"] .backs .card:last-child`) || q(`.opponent[data-seat="${seat}"]`);
const handCard = (code, used) => qa(`#hand .card[data-card="${CSS.escape(code)}"]`).find((el) => !used.has(el)) || null;
const meldCard = (meldId, code) => {
  const cards = qa(`.meld[data-meld="${CSS.escape(meldId)}"] .card`);
  return cards.find((el) => el.dataset.card === code) || cards[cards.length - 1] || null;
};

/**
 * Where each card of `move` comes from, read from the page before the step is drawn:
 * [{code (null: a back), from: DOMRect, to: () => Element}] with `to` looked up afterwards.
 */
function plan(last, view) {
  if (!last?.move) return [];
  const m = last.move;
  const mine = last.seat === view.seat;
  const used = new Set();
  // A card leaves a hand: your own card where it lay, an opponent's from their seat.
  const fromHand = (code) => {
    if (!mine) return rectOf(opponentSpot(last.seat));
    const el = handCard(code, used);
    if (el) used.add(el);
    return rectOf(el);
  };
  const intoHand = (code) => () => (mine ? q(`#hand .card.new[data-card="${CSS.escape(code || "")}"]`) || q("#hand .card.new") : opponentSpot(last.seat));
  switch (m.type) {
    case "draw": {
      const from = rectOf(q(`.pile.${m.source === "discard" ? "discard" : "stock"} .card`));
      const code = m.source === "discard" ? m.card || null : null;
      return [{ code, from, to: intoHand(code) }];
    }
    case "discard":
      return [{ code: m.card, from: fromHand(m.card), to: () => q(".pile.discard .card") }];
    case "layoff":
      return (m.cards || []).map((code) => ({ code, from: fromHand(code), to: () => meldCard(m.meld, code) }));
    case "swap": {
      // Both ways: the card onto the meld, the joker it frees into the hand.
      const joker = rectOf(q(`.meld[data-meld="${CSS.escape(m.meld)}"] .card[data-card="JK"]`));
      return [
        { code: m.card, from: fromHand(m.card), to: () => meldCard(m.meld, m.card) },
        { code: "JK", from: joker, to: intoHand("JK") },
      ];
    }
    case "meld": {
      const out = [];
      (m.melds || []).forEach((group) => {
        const key = [...group].sort().join();
        group.forEach((code) => out.push({
          code,
          from: fromHand(code),
          to: () => {
            const meld = qa(".meld").find((el) => [...(el.dataset.cards || "").split(",")].sort().join() === key);
            return meld ? [...meld.querySelectorAll(".card")].find((c) => c.dataset.card === code) || meld : null;
          },
        }));
      });
      return out;
    }
    default:
      return [];
  }
}

/** Send the planned cards on their way; resolves when they have landed. */
function fly(flights, ms) {
  const layer = document.getElementById("flights");
  if (!layer) return Promise.resolve();
  const runs = [];
  flights.forEach((f, i) => {
    const target = f.to();
    const to = rectOf(target);
    if (!f.from || !to || !to.width) return;
    // A card drawn blind shows its back, except on its way into your own hand.
    const code = f.code || (target.closest("#hand") ? target.dataset.card : null);
    const el = code ? renderCard(code, { classes: ["flight"] }) : renderBack({});
    el.classList.add("flight");
    el.style.cssText = `left:${to.left}px;top:${to.top}px;--card-w:${to.width}px;`;
    layer.append(el);
    target.classList.add("landing");
    const dx = f.from.left - to.left;
    const dy = f.from.top - to.top;
    const s = f.from.width / to.width || 1;
    const anim = el.animate(
      [
        { transform: `translate(${dx}px, ${dy}px) scale(${s})`, offset: 0 },
        { transform: `translate(${dx * 0.5}px, ${dy * 0.5 - 24}px) scale(${(s + 1) / 2 * 1.06})`, offset: 0.5 },
        { transform: "none", offset: 1 },
      ],
      { duration: ms, delay: i * 50, easing: "cubic-bezier(.3,.7,.4,1)", fill: "backwards" },
    );
    runs.push(anim.finished.catch(() => {}).then(() => {
      el.remove();
      target.classList.remove("landing");
    }));
  });
  return Promise.all(runs);
}

/**
 * The queue between the socket and the store. `apply(view)` puts a view into the store (and
 * so on screen); `isStep(prev, view)` says whether a view is someone else's move to be
 * shown at the pace; `moving()` whether the switch lets moves play at all.
 */
export class Playback {
  constructor({ apply, current, moving }) {
    this.apply = apply;
    this.current = current;
    this.moving = moving;
    this.queue = [];
    this.running = false;
    this.steps = 0;
    this.quiet = false; // the next own move was dragged into place: nothing to fly
  }

  /** Whether cards travel: the switch is on and the browser does not ask for less motion. */
  travels() {
    return this.moving() && !reduced();
  }

  /** A view from the server; `own`: the answer to this browser's own move or request. */
  push(view, own = false) {
    const prev = this.current();
    // Your own move is shown at once, whichever of its answer and its broadcast comes first.
    const mine = prev && view.last_move?.seat === view.seat && view.version > prev.version && !this.queue.length;
    // The answer to your move can come after the socket brought the computer's replies to
    // it: those are queued, and the answer (older) has nothing left to show.
    const newest = this.queue.length ? this.queue[this.queue.length - 1].version : -1;
    if (own && view.seat === prev?.seat && view.version <= newest) return;
    // An answer that already holds the computer's replies (the server plays bots before it
    // answers): the socket brings those moves one by one, so wait for them; show the answer
    // itself only if they never come (no socket).
    if (own && prev && view.seat === prev.seat && view.version > prev.version && view.last_move && view.last_move.seat !== view.seat && this.moving()) {
      setTimeout(() => {
        if (Math.max(this.current()?.version ?? -1, this.queue.at(-1)?.version ?? -1) < view.version) this.push(view);
      }, 500);
      return;
    }
    if (own || mine || !this.moving() || document.hidden) {
      this.flush();
      this.show(view, (own || mine) && this.travels() && !this.quiet);
      return;
    }
    this.queue.push(view);
    if (!this.running) this.run();
  }

  /** Every waiting view at once, in order. */
  flush() {
    const waiting = this.queue.splice(0);
    for (const view of waiting) this.apply(view);
  }

  isStep(prev, view) {
    return Boolean(prev && view.last_move && view.version > prev.version && view.seat === prev.seat
      && view.hand_number === prev.hand_number && view.last_move.seat !== view.seat);
  }

  /** Draw one view, the moving card on its way when `animate`. */
  async show(view, animate, ms = 320) {
    const prev = this.current();
    // The second copy of a view (the move's answer after its broadcast) has nothing to show.
    const fresh = !prev || view.version > prev.version;
    const flights = animate && fresh ? plan(view.last_move, view) : [];
    this.apply(view);
    if (!flights.length) return;
    await frame();
    await fly(flights, ms);
  }

  async run() {
    this.running = true;
    try {
      while (this.queue.length) {
        const view = this.queue.shift();
        const prev = this.current();
        if (!this.isStep(prev, view) || document.hidden) {
          this.apply(view);
          continue;
        }
        const pace = paceFor(this.queue.length);
        const landed = this.show(view, this.travels(), Math.round(pace * 0.7));
        // After the frame that drew it: the mark is when the step was on screen.
        await frame();
        this.steps += 1;
        if (this.steps % 500 === 0) performance.clearMarks("rummy:step"); // a long evening
        performance.mark("rummy:step", { detail: { version: view.version, seat: view.last_move.seat, type: view.last_move.move?.type, pace } });
        await Promise.all([landed, sleep(pace)]);
      }
    } finally {
      this.running = false;
    }
  }
}
