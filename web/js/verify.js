// Verify a room's hand log in the browser: for every finished hand, the revealed seed must
// hash to the commitment shown during the hand, and must deal exactly the cards the log
// says were dealt. Nothing here trusts the server: SHA-256 comes from the browser
// (crypto.subtle) and SHAKE-256 is computed below. Replaying the moves needs the rules
// engine, which is not in the browser: `rummy verify <log.json>` does that part.
//
// The method (rules/shuffle.py): commitment = SHA-256("shake256-fisher-yates-v1:" + seed);
// the deal reads SHAKE-256("rummy/shuffle/v1" + seed + "deal") as 8-byte big-endian words
// w[0..n) and shuffles the sorted pack: for i from n-1 down to 1, swap cards[i] with
// cards[w[n-1-i] mod (i+1)]. Seat by seat, each takes hand_size cards; the next card
// starts the discard pile and the rest is the stock, top first.
import TEXT from "./lang/verify-text.js";

export const SHUFFLE_METHOD = "shake256-fisher-yates-v1";
const MASK = (1n << 64n) - 1n;
const RANKS = "A23456789TJQK";
const SUITS = "CDHS";

// --- Keccak-f[1600] and SHAKE-256 (FIPS 202), lanes as BigInt ------------------------------

function roundConstants() {
  // FIPS 202 Algorithm 5: the bits of an 8-bit LFSR, x^8 + x^6 + x^5 + x^4 + 1.
  const bit = (t) => {
    let r = 1;
    for (let i = 0; i < t % 255; i++) {
      r <<= 1;
      if (r & 0x100) r ^= 0x171;
    }
    return BigInt(r & 1);
  };
  const out = [];
  for (let round = 0; round < 24; round++) {
    let rc = 0n;
    for (let j = 0; j < 7; j++) rc |= bit(j + 7 * round) << BigInt((1 << j) - 1);
    out.push(rc);
  }
  return out;
}

function rotationOffsets() {
  // FIPS 202 step rho: walk (x, y) from (1, 0); offset (t + 1)(t + 2) / 2 mod 64.
  const offsets = new Array(25).fill(0n);
  let x = 1;
  let y = 0;
  for (let t = 0; t < 24; t++) {
    offsets[x + 5 * y] = BigInt((((t + 1) * (t + 2)) / 2) % 64);
    [x, y] = [y, (2 * x + 3 * y) % 5];
  }
  return offsets;
}

const RC = roundConstants();
const RHO = rotationOffsets();

const rotl = (v, n) => (n === 0n ? v : ((v << n) | (v >> (64n - n))) & MASK);

function keccakF(lanes) {
  const c = new Array(5);
  const b = new Array(25);
  for (let round = 0; round < 24; round++) {
    for (let x = 0; x < 5; x++) {
      c[x] = lanes[x] ^ lanes[x + 5] ^ lanes[x + 10] ^ lanes[x + 15] ^ lanes[x + 20];
    }
    for (let x = 0; x < 5; x++) {
      const d = c[(x + 4) % 5] ^ rotl(c[(x + 1) % 5], 1n);
      for (let y = 0; y < 25; y += 5) lanes[x + y] ^= d;
    }
    for (let x = 0; x < 5; x++) {
      for (let y = 0; y < 5; y++) {
        b[y + 5 * ((2 * x + 3 * y) % 5)] = rotl(lanes[x + 5 * y], RHO[x + 5 * y]);
      }
    }
    for (let y = 0; y < 25; y += 5) {
      for (let x = 0; x < 5; x++) {
        lanes[x + y] = b[x + y] ^ (~b[((x + 1) % 5) + y] & MASK & b[((x + 2) % 5) + y]);
      }
    }
    lanes[0] ^= RC[round];
  }
}

/** SHAKE-256 of `data` (Uint8Array), `length` bytes of output. */
export function shake256(data, length) {
  const rate = 136;
  const padded = new Uint8Array(Math.floor(data.length / rate) * rate + rate);
  padded.set(data);
  padded[data.length] ^= 0x1f; // SHAKE's domain bits and the first bit of pad10*1
  padded[padded.length - 1] ^= 0x80;
  const lanes = new Array(25).fill(0n);
  for (let off = 0; off < padded.length; off += rate) {
    for (let i = 0; i < rate / 8; i++) {
      let lane = 0n;
      for (let k = 7; k >= 0; k--) lane = (lane << 8n) | BigInt(padded[off + 8 * i + k]);
      lanes[i] ^= lane;
    }
    keccakF(lanes);
  }
  const out = new Uint8Array(length);
  for (let pos = 0; pos < length; ) {
    for (let i = 0; i < rate / 8 && pos < length; i++) {
      let lane = lanes[i];
      for (let k = 0; k < 8 && pos < length; k++, pos++) {
        out[pos] = Number(lane & 0xffn);
        lane >>= 8n;
      }
    }
    if (pos < length) keccakF(lanes);
  }
  return out;
}

// --- the commitment and the deal ----------------------------------------------------------

const ascii = (text) => new TextEncoder().encode(text);

function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

export function fromHex(hex) {
  if (!/^(?:[0-9a-f]{2})*$/i.test(hex)) throw new Error("not hex");
  return Uint8Array.from(hex.match(/../g) || [], (h) => parseInt(h, 16));
}

const toHex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

/** SHA-256 hex of the method name, ":" and the seed (the browser's own SHA-256). */
export async function commitmentOf(seed) {
  const digest = await crypto.subtle.digest("SHA-256", concat(ascii(SHUFFLE_METHOD + ":"), seed));
  return toHex(new Uint8Array(digest));
}

/** The variant's pack in the engine's order: clubs A-K, diamonds, hearts, spades, jokers. */
export function sortedPack(ruleset) {
  const pack = [];
  for (const suit of SUITS) {
    for (const rank of RANKS) {
      for (let d = 0; d < ruleset.decks; d++) pack.push(rank + suit);
    }
  }
  for (let j = 0; j < ruleset.jokers; j++) pack.push("JK");
  return pack;
}

export function shuffled(cards, seed, label) {
  const out = cards.slice();
  const n = out.length;
  const stream = shake256(concat(ascii("rummy/shuffle/v1"), seed, label), 8 * n);
  for (let i = n - 1; i > 0; i--) {
    const k = n - 1 - i;
    let word = 0n;
    for (let b = 0; b < 8; b++) word = (word << 8n) | BigInt(stream[8 * k + b]);
    const j = Number(word % BigInt(i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

export function dealFromSeed(ruleset, players, seed) {
  const order = shuffled(sortedPack(ruleset), seed, ascii("deal"));
  const size = ruleset.hand_size[String(players)];
  const hands = [];
  for (let s = 0; s < players; s++) hands.push(order.slice(s * size, (s + 1) * size));
  const rest = order.slice(players * size);
  return { hands, discard: rest.slice(0, 1), stock: rest.slice(1) };
}

/** A sentence of `code`'s language with `{name}` placeholders filled from `params`. */
export function sayIn(code) {
  const table = TEXT[code] || TEXT.en;
  return (key, params = {}) => table[key].replace(/\{(\w+)\}/g, (_, k) => String(params[k]));
}

const same = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);

/** Check one hand of the log. `seen`: commitments the player noted for it. */
export async function verifyHand(entry, rulesets, seen = [], say = sayIn("en")) {
  const report = { hand: entry.hand, ok: false, commitment: null, problems: [] };
  const start = entry.start || {};
  const ruleset = rulesets[start.variant];
  if (!ruleset) {
    report.problems.push(say("unknownVariant", { variant: JSON.stringify(start.variant) }));
    return report;
  }
  let seed;
  try {
    seed = fromHex(String(start.hand_seed || ""));
  } catch {
    seed = new Uint8Array();
  }
  if (seed.length !== 32) {
    report.problems.push(say("seedHidden"));
    return report;
  }
  report.commitment = await commitmentOf(seed);
  for (const value of [...seen, ...(entry.commitment ? [entry.commitment] : [])]) {
    if (value.trim().toLowerCase() !== report.commitment) {
      report.problems.push(say("mismatch", { shown: value.trim(), commitment: report.commitment }));
    }
  }
  if (start.fixed_deal) {
    report.problems.push(say("fixedDeal"));
  } else {
    const dealt = dealFromSeed(ruleset, start.players, seed);
    dealt.hands.forEach((hand, s) => {
      if (!same(start.hands?.[s] || [], hand)) {
        report.problems.push(say("seatHand", { seat: s, cards: hand.join(" ") }));
      }
    });
    if (!same(start.discard || [], dealt.discard)) {
      report.problems.push(say("discard", { cards: dealt.discard.join(" ") }));
    }
    if (!same(start.stock || [], dealt.stock)) {
      const at = dealt.stock.findIndex((c, i) => (start.stock || [])[i] !== c);
      report.problems.push(say("stock", { at: at + 1 }));
    }
  }
  // A stand-in's start or end takes a version too (API.md v1.1).
  const versions = [...(entry.moves || []), ...(entry.votes || []), ...(entry.stand_ins || [])]
    .map((m) => m.version)
    .sort((a, b) => a - b);
  const expected = Array.from({ length: entry.end_version - entry.start_version }, (_, i) => entry.start_version + 1 + i);
  if (!same(versions, expected)) {
    report.problems.push(say("versions"));
  }
  report.ok = report.problems.length === 0;
  return report;
}

/** Check every hand of a log; `seen` maps a hand number to the commitments noted for it. */
export async function verifyLog(log, rulesets, seen = {}, say = sayIn("en")) {
  if (!log || !Array.isArray(log.hands)) throw new Error(say("notALog"));
  const reports = [];
  for (const entry of log.hands) reports.push(await verifyHand(entry, rulesets, seen[entry.hand] || [], say));
  return reports;
}

/**
 * Assign commitments noted during play ({version, commitment}, from a seat's view) to the
 * hand of the log that was being played at that version: the views from its deal to its
 * last move show its commitment. Returns hand number -> commitments.
 */
export function seenFromNotes(log, notes) {
  const seen = {};
  for (const note of notes || []) {
    const entry = (log.hands || []).find(
      (h) => h.start_version <= note.version && note.version <= h.end_version,
    );
    if (entry) (seen[entry.hand] ||= []).push(note.commitment);
  }
  return seen;
}

// --- the page -----------------------------------------------------------------------------

const NOTES = (room) => `rummy-verify:${room}`;

function loadNotes(room) {
  try {
    const notes = JSON.parse(localStorage.getItem(NOTES(room)) || "[]");
    return Array.isArray(notes) ? notes : [];
  } catch {
    return [];
  }
}

/** Note the commitment the seat's view shows now (this device keeps it for later). */
async function noteCurrent(room, token) {
  const r = await fetch(`/api/rooms/${encodeURIComponent(room)}/state`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  if (!r.ok) return null;
  const view = await r.json();
  if (!view.commitment || !["waiting", "draw", "play"].includes(view.phase)) return null;
  const notes = loadNotes(room);
  if (!notes.some((n) => n.version === view.version && n.commitment === view.commitment)) {
    notes.push({ version: view.version, hand_number: view.hand_number, commitment: view.commitment });
    localStorage.setItem(NOTES(room), JSON.stringify(notes.slice(-500)));
  }
  return view;
}

function merge(a, b) {
  const out = { ...a };
  for (const [hand, list] of Object.entries(b)) out[hand] = [...(out[hand] || []), ...list];
  return out;
}

function parseSeen(text) {
  const seen = {};
  for (const line of text.split(/\n/)) {
    const m = line.trim().match(/^(\d+)\s*[=:]\s*([0-9a-fA-F]{64})$/);
    if (m) (seen[m[1]] ||= []).push(m[2]);
  }
  return seen;
}

function line(text, kind) {
  const li = document.createElement("li");
  li.className = kind;
  li.textContent = text;
  return li;
}

async function fetchLog(room, token) {
  const r = await fetch(`/api/rooms/${encodeURIComponent(room)}/log`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  const body = await r.json();
  if (!r.ok) throw new Error(body?.error?.message || `HTTP ${r.status}`);
  return body;
}

async function run(form, results, say) {
  results.replaceChildren(line(say("checking"), "info"));
  const room = form.room.value.trim();
  const token = form.token.value.trim();
  const playing = room && token ? await noteCurrent(room, token).catch(() => null) : null;
  try {
    let text = form.log.value.trim();
    if (!text && form.file.files[0]) text = await form.file.files[0].text();
    const log = text ? JSON.parse(text) : await fetchLog(room, token);
    if (!text) form.log.value = JSON.stringify(log, null, 1);
    const variants = await (await fetch("/api/variants")).json();
    const rulesets = Object.fromEntries(variants.map((v) => [v.name, v]));
    const noted = seenFromNotes(log, loadNotes(log.room || room));
    const reports = await verifyLog(log, rulesets, merge(parseSeen(form.seen.value), noted), say);
    const items = reports.map((r) =>
      r.ok
        ? line(say("handOk", { hand: r.hand, commitment: r.commitment }), "ok")
        : line(say("handFail", { hand: r.hand, problems: r.problems.join("; ") }), "fail"),
    );
    if (!items.length) items.push(line(say("noHand"), "info"));
    const allOk = reports.every((r) => r.ok);
    if (playing) items.push(line(say("playing", { hand: playing.hand_number, commitment: playing.commitment }), "info"));
    if (reports.length) items.push(line(allOk ? say("allOk") : say("failed"), allOk ? "ok" : "fail"));
    results.replaceChildren(...items);
  } catch (err) {
    // fetch's own "Failed to fetch" is no sentence for a player.
    const reason = err instanceof TypeError && /fetch/i.test(err.message) ? say("network") : err.message;
    results.replaceChildren(line(say("cannot", { reason }), "fail"));
  }
}

if (typeof document !== "undefined") {
  // The page speaks the table's language (a stored choice, else the browser's); i18n.js is
  // loaded only here, as it needs localStorage.
  const { lang, setLang } = await import("./i18n.js");
  const form = document.getElementById("verify-form");
  const results = document.getElementById("results");
  const switcher = document.getElementById("lang-switch");
  let say;
  const speak = (code, remember) => {
    setLang(code, remember);
    say = sayIn(lang());
    document.title = say("title");
    switcher.textContent = say("langSwitch");
  };
  speak(lang(), false);
  switcher.addEventListener("click", () => {
    speak(lang() === "nl" ? "en" : "nl", true);
    if (results.children.length) run(form, results, say);
  });
  const params = new URLSearchParams(location.hash.slice(1));
  if (params.get("room")) form.room.value = params.get("room");
  if (params.get("seat")) form.token.value = params.get("seat");
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    run(form, results, say);
  });
  if (form.room.value && form.token.value) run(form, results, say);
}
