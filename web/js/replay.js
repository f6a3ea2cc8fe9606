// A finished hand's replay: its steps, and moving through them (a step, a jump, autoplay).
// The server builds every step (rules.replay_steps, through GET /api/rooms/{room}/replay or
// POST /api/replays): the table after each move and every seat's cards. This module only
// words each step and keeps the place; it never moves a card itself. The panel that draws it
// is render-replay.js, the same for a room's hands and a record file's.
import { describeMove } from "./names.js";

/**
 * The panel's steps from a server replay: {text, seat, move, hands, melds, discard, version,
 * result}. Names come from `view` (the table's), or from the replay's own `players` (a
 * record's file). Step 0 is the deal: it has no text (the panel says "Start of the hand").
 */
export function replaySteps(replay, view) {
  const named = replay.players ? { seats: replay.players.map((name) => ({ name })) } : view;
  return (replay.steps || []).map((step) => ({
    text: step.move ? describeMove(named, step.move) : "",
    seat: step.move?.seat ?? null,
    move: step.move?.move ?? null,
    hands: step.hands,
    melds: step.view.melds.map((m) => m.cards),
    discard: step.view.discard_top,
    version: step.version,
    variant: step.view.variant,
    result: step.view.hand_result ?? null,
  }));
}

/**
 * The step that shows the table just before the move the room numbered `version` (the step
 * before the one that follows it); -1 when the replay has no such move.
 */
export function stepBefore(steps, version) {
  const after = steps.findIndex((s) => s.version === version);
  return after > 0 ? after - 1 : -1;
}

/** The moves grouped by turn, for the move list: [{seat, steps: [index...]}]; a turn
 * begins with a draw (or with the first move, or another seat's). */
export function turnsOf(steps) {
  const turns = [];
  steps.forEach((step, i) => {
    if (i === 0) return;
    const last = turns.at(-1);
    if (!last || step.move?.type === "draw" || step.seat !== last.seat) turns.push({ seat: step.seat, steps: [i] });
    else last.steps.push(i);
  });
  return turns;
}

// Autoplay's pace: a step every so many milliseconds.
export const SPEEDS = [2000, 1000, 500];
const DEFAULT_SPEED = 1000;

/** A replay to open: its steps at `index`, stopped, at the normal pace (kept from `before`). */
export function newReplay(steps, extra = {}, before = null) {
  stop(before);
  return { steps, index: 0, playing: false, speed: before?.speed ?? DEFAULT_SPEED, timer: 0, ...extra };
}

function stop(replay) {
  if (replay?.timer) clearTimeout(replay.timer);
}

/** Show step `index` (clamped); autoplay goes on from there, and stops at the hand's end. */
export function goTo(store, index) {
  const r = store.replay;
  if (!r) return;
  stop(r);
  const at = Math.max(0, Math.min(r.steps.length - 1, index));
  const playing = r.playing && at < r.steps.length - 1;
  const timer = playing ? setTimeout(() => store.replay && goTo(store, store.replay.index + 1), r.speed) : 0;
  store.update({ replay: { ...r, index: at, playing, timer } });
}

/** Start or stop autoplay; started at the hand's end, it plays from the start. */
export function play(store, on) {
  const r = store.replay;
  if (!r) return;
  stop(r);
  const index = on && r.index >= r.steps.length - 1 ? 0 : r.index;
  store.replay = { ...r, playing: on, timer: 0 };
  goTo(store, index);
}

/** Autoplay's pace, in milliseconds a step. */
export function setSpeed(store, ms) {
  const r = store.replay;
  if (!r || !SPEEDS.includes(ms)) return;
  store.replay = { ...r, speed: ms };
  goTo(store, r.index);
}

/** Close the replay (its autoplay stops). */
export function closeReplay(store) {
  stop(store.replay);
  store.update({ replay: null });
}

/** The replay's keys: ← and → a step, Home and End the hand's start and end, space plays
 * or pauses, Escape closes. Not while a field or a list of options has the keyboard. */
export function replayKey(store, ev) {
  const r = store.replay;
  if (!r || ev.altKey || ev.ctrlKey || ev.metaKey) return false;
  if (ev.key !== "Escape" && ev.target?.closest?.("input, select, textarea")) return false;
  const keys = {
    ArrowLeft: () => goTo(store, r.index - 1),
    ArrowRight: () => goTo(store, r.index + 1),
    Home: () => goTo(store, 0),
    End: () => goTo(store, r.steps.length - 1),
    " ": () => play(store, !r.playing),
    Escape: () => closeReplay(store),
  };
  // Space on a button presses that button; the keys' own meaning everywhere else.
  if (ev.key === " " && ev.target?.closest?.("button")) return false;
  const act = keys[ev.key];
  if (!act) return false;
  ev.preventDefault();
  act();
  return true;
}
