// Cues for what happens at the table: short synthesised tones (Web Audio, no sound files
// to download), a vibration on phones when it becomes your turn, and a mute switch kept in
// storage (read at boot into `store.prefs.muted`).
import { keepText, loadText } from "./storage.js";

const KEY = "rummy.mute";
// Frequencies (Hz) and lengths (s) of each cue's notes: distinct enough to tell apart.
const TONES = {
  turn: [[660, 0.09], [880, 0.14]],
  draw: [[520, 0.06]],
  discard: [[390, 0.07]],
  meld: [[590, 0.06], [740, 0.06], [880, 0.08]],
  handEnd: [[880, 0.12], [660, 0.12], [990, 0.2]],
};

let audio = null;

/** The switch's choice as this browser keeps it (read at boot into `store.prefs.muted`). */
export function muted() {
  return loadText(KEY) === "1";
}

export function setMuted(on) {
  keepText(KEY, on ? "1" : "0");
}

export function play(kind) {
  const notes = TONES[kind];
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!notes || !Ctx) return;
  try {
    audio ||= new Ctx();
    // Browsers start a context suspended until the page has had a gesture.
    if (audio.state === "suspended") audio.resume?.();
    let at = audio.currentTime;
    for (const [freq, length] of notes) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.12, at);
      gain.gain.exponentialRampToValueAtTime(0.001, at + length);
      osc.connect(gain).connect(audio.destination);
      osc.start(at);
      osc.stop(at + length);
      at += length;
    }
  } catch {
    /* no sound is no harm */
  }
  if (kind === "turn") navigator.vibrate?.(120);
}

const PLAYING = ["draw", "play"];

/** The cue for going from view `prev` to `view`, if any. */
export function cueFor(prev, view) {
  if (!prev || !view || view.version === prev.version) return null;
  if (view.hand_result && !prev.hand_result) return "handEnd";
  const mine = (v) => v.turn === v.seat && PLAYING.includes(v.phase);
  if (mine(view) && !mine(prev)) return "turn";
  const move = view.last_move?.move?.type;
  if (JSON.stringify(view.last_move) === JSON.stringify(prev.last_move)) return null;
  if (move === "draw") return "draw";
  if (move === "discard") return "discard";
  if (["meld", "layoff", "swap"].includes(move)) return "meld";
  return null;
}
