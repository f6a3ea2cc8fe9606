// Verify a room's hand log or a match record in the browser: for every finished hand, the
// revealed seed must hash to the commitment shown during the hand, and must deal exactly
// the cards the log says were dealt. A match record (docs/api.md v1.3) is checked as a whole
// too, as `rummy verify` does (app/records/checks.py): numbered 0, 1, 2, ... from zero
// scores, each hand from the last, the deal passing on, options and names that fit the
// variant, the match over exactly when its limit is reached; and the server's Ed25519
// signature, where the browser's WebCrypto has Ed25519 (the page says so plainly where it
// has not). Nothing here trusts the server: SHA-256 and Ed25519 come from the browser
// (crypto.subtle) and SHAKE-256 is computed below. Replaying the moves needs the rules
// engine, which is not in the browser: `rummy verify <log.json>` does that part.
//
// The method (rules/shuffle.py): commitment = SHA-256("shake256-fisher-yates-v1:" + seed);
// the deal reads SHAKE-256("rummy/shuffle/v1" + seed + "deal") as 8-byte big-endian words
// w[0..n) and shuffles the sorted pack: for i from n-1 down to 1, swap cards[i] with
// cards[w[n-1-i] mod (i+1)]. Seat by seat, each takes hand_size cards; the next card
// starts the discard pile and the rest is the stock, top first.
import TEXT from "./lang/verify-text.js";
import { keep, load } from "./storage.js";

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
  // A stand-in's start or end takes a version too (docs/api.md v1.1).
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

// --- a match record, as a whole (docs/api.md v1.3) ------------------------------------------------

export const RECORD_FORMAT = "rummy-record/1";
const TURN_SECONDS = [15, 600];
const list = (values) => `[${values.join(", ")}]`; // as rummy verify writes them
const sum = (a, b) => a.map((v, i) => v + (b[i] ?? 0));

/** A record's hand in the shape of a log's hand, for verifyHand (its moves numbered 1..n). */
function logEntryOf(record, hand) {
  const deal = hand.deal || {};
  const moves = Array.isArray(hand.moves) ? hand.moves : [];
  return {
    hand: hand.number,
    commitment: typeof hand.commitment === "string" ? hand.commitment : "",
    start: {
      variant: record.variant,
      players: (record.players || []).length,
      hand_seed: hand.seed,
      hands: deal.hands,
      discard: deal.discard,
      stock: deal.stock,
      fixed_deal: null,
    },
    start_version: 0,
    end_version: moves.length,
    moves: moves.map((_, i) => ({ version: i + 1 })),
  };
}

/** Who won once `scores` stand after a hand, by the variant's end (null: not over). */
function winnersAt(ruleset, players, limit, scores) {
  const seats = (value) => scores.flatMap((s, i) => (s === value ? [i] : []));
  if (ruleset.scoring === "penalty") {
    return limit && Math.max(...scores) >= limit ? seats(Math.min(...scores)) : null;
  }
  const target = (ruleset.match_target || {})[String(players)] || 0;
  return target && Math.max(...scores) >= target ? seats(Math.max(...scores)) : null;
}

function optionProblems(record, ruleset, say) {
  const problems = [];
  const players = record.players.length;
  if (players < ruleset.min_players || players > ruleset.max_players) {
    problems.push(say("playersCount", { n: players, variant: record.variant, low: ruleset.min_players, high: ruleset.max_players }));
  }
  const limits = ruleset.penalty_limits?.length ? ruleset.penalty_limits : ruleset.penalty_limit ? [ruleset.penalty_limit] : [];
  const limit = record.options?.limit ?? null;
  if ((limit === null) !== (limits.length === 0) || (limit !== null && !limits.includes(limit))) {
    problems.push(say("limit", { limit: limit === null ? "None" : limit, variant: record.variant, allowed: limits.length ? limits.join(" or ") : "none (null)" }));
  }
  const turn = record.options?.turn_seconds ?? null;
  if (turn !== null && (turn < TURN_SECONDS[0] || turn > TURN_SECONDS[1])) problems.push(say("turnSeconds", { turn }));
  return problems;
}

/** The chain from hand to hand and where the match ends: [index or null, problem] pairs. */
function chainProblems(record, ruleset, say) {
  const hands = record.hands;
  const players = record.players.length;
  const out = [];
  const ends = hands.map((h) => sum(h.start_scores, h.result.points));
  if (record.scores.length !== players) out.push([hands.length - 1, say("scoresCount", { n: record.scores.length, players })]);
  hands.forEach((h, i) => {
    if (h.number !== i) out.push([i, say("numbered", { number: h.number, index: i })]);
  });
  if (hands.length) {
    if (hands[0].start_scores.some((v) => v !== 0)) out.push([0, say("startsAt", { scores: list(hands[0].start_scores) })]);
    if (hands[0].dealer !== players - 1) out.push([0, say("firstDealer", { seat: hands[0].dealer, last: players - 1 })]);
  }
  for (let i = 1; i < hands.length; i++) {
    if (!same(hands[i].start_scores, ends[i - 1])) {
      out.push([i, say("chainScores", { scores: list(hands[i].start_scores), ended: list(ends[i - 1]) })]);
    }
    if (hands[i].dealer !== (hands[i - 1].dealer + 1) % players) {
      out.push([i, say("chainDealer", { seat: hands[i].dealer, before: hands[i - 1].dealer })]);
    }
  }
  if (hands.length && !same(record.scores, ends[ends.length - 1])) {
    out.push([hands.length - 1, say("finalScores", { scores: list(record.scores), ended: list(ends[ends.length - 1]) })]);
  }
  const limit = record.options?.limit ?? ruleset.penalty_limit ?? null;
  const over = ends.map((end) => winnersAt(ruleset, players, limit, end));
  over.slice(0, -1).forEach((winners, i) => {
    if (winners) out.push([i + 1, say("overEarly", { hand: i })]);
  });
  const actual = over.length ? over[over.length - 1] : null;
  const stated = record.match_winner ?? null;
  if (!(stated === null ? actual === null : actual !== null && same(stated, actual))) {
    const words = (w) => (w === null ? say("stillPlaying") : say("wonBy", { seats: list(w) }));
    out.push([null, say("endMismatch", { stated: words(stated), actual: words(actual) })]);
  }
  return out;
}

function wellFormed(record) {
  const ints = (a) => Array.isArray(a) && a.every(Number.isInteger);
  return (
    Array.isArray(record.players) && Array.isArray(record.hands) && ints(record.scores) &&
    record.hands.every((h) => h && Number.isInteger(h.number) && Number.isInteger(h.dealer) &&
      ints(h.start_scores) && ints(h.result?.points))
  );
}

/**
 * Check a match record: every hand (commitment and deal, as verifyHand), then the match as
 * a whole. Returns {hands: [reports], match: {ok, problems, hands, scores, winner}}.
 */
export async function verifyRecord(record, rulesets, seen = {}, say = sayIn("en")) {
  if (!record || record.format !== RECORD_FORMAT || !wellFormed(record)) throw new Error(say("notARecord"));
  const reports = [];
  for (const hand of record.hands) {
    reports.push(await verifyHand(logEntryOf(record, hand), rulesets, seen[hand.number] || [], say));
  }
  const match = { ok: false, problems: [], hands: record.hands.length, scores: record.scores, winner: record.match_winner ?? null };
  const ruleset = rulesets[record.variant];
  if (!ruleset) {
    match.problems.push(say("unknownVariant", { variant: JSON.stringify(record.variant) }));
  } else {
    match.problems.push(...optionProblems(record, ruleset, say));
    for (const [index, problem] of chainProblems(record, ruleset, say)) {
      const report = index === null || !reports.length ? match : reports[index];
      report.problems.push(problem);
      report.ok = false;
    }
  }
  match.ok = match.problems.length === 0;
  return { hands: reports, match };
}

// --- the server's signature (docs/api.md v1.3) -----------------------------------------------------

/** The bytes a record's signature covers, as Python's json.dumps(sort_keys=True,
 * separators=(",", ":"), ensure_ascii=False) writes the record without its signature
 * (the server writes whole numbers as integers, so JSON.stringify's numbers agree). */
export function canonicalJson(value) {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value).filter((k) => value[k] !== undefined).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

export function fromBase64Url(text) {
  const b64 = String(text).trim().replace(/-/g, "+").replace(/_/g, "/");
  const bin = atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

/** The id of a public key: the first 16 hex digits of its SHA-256. */
export async function keyId(raw) {
  return toHex(new Uint8Array(await crypto.subtle.digest("SHA-256", raw))).slice(0, 16);
}

/**
 * Check `record`'s signature under the server's public key (`keyText`: URL-safe base64).
 * Returns {status: "ok" | "fail" | "unsupported", text}: "unsupported" where this
 * browser's WebCrypto has no Ed25519, which the page then says plainly.
 */
export async function checkSignature(record, keyText, say = sayIn("en")) {
  let raw;
  try {
    raw = fromBase64Url(keyText);
  } catch {
    raw = new Uint8Array();
  }
  if (raw.length !== 32) return { status: "fail", text: say("badKey") };
  const id = await keyId(raw);
  const signature = record?.signature;
  if (!signature || typeof signature !== "object") return { status: "fail", text: say("notSigned") };
  if (signature.alg !== "ed25519") return { status: "fail", text: say("otherAlg", { alg: JSON.stringify(signature.alg) }) };
  if (signature.key_id !== id) return { status: "fail", text: say("otherKey", { id: JSON.stringify(signature.key_id), key: id }) };
  let key;
  try {
    key = await crypto.subtle.importKey("raw", raw, { name: "Ed25519" }, false, ["verify"]);
  } catch {
    return { status: "unsupported", text: say("sigUnsupported") };
  }
  const { signature: _, ...unsigned } = record;
  let sig;
  try {
    sig = fromBase64Url(signature.sig);
  } catch {
    sig = new Uint8Array();
  }
  const good = sig.length === 64 &&
    (await crypto.subtle.verify({ name: "Ed25519" }, key, sig, new TextEncoder().encode(canonicalJson(unsigned))));
  return good ? { status: "ok", text: say("sigOk", { id }) } : { status: "fail", text: say("sigMismatch") };
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
  const notes = load(NOTES(room), []);
  return Array.isArray(notes) ? notes : [];
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
    keep(NOTES(room), notes.slice(-500));
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

/** The server key to check a record with: the one pasted, else this server's own. */
async function serverKey(form) {
  const pasted = form.key.value.trim();
  if (pasted) return pasted;
  const r = await fetch("/api/server-key");
  if (!r.ok) throw new Error(`HTTP ${r.status}`);
  return (await r.json()).key;
}

/** The lines of a record's check: its hands, the match, and the signature. */
async function recordLines(record, rulesets, seen, form, say) {
  const { hands, match } = await verifyRecord(record, rulesets, seen, say);
  const items = hands.map((r) =>
    r.ok
      ? line(say("handOk", { hand: r.hand, commitment: r.commitment }), "ok")
      : line(say("handFail", { hand: r.hand, problems: r.problems.join("; ") }), "fail"),
  );
  const end = match.winner ? say("wonBy", { seats: list(match.winner) }) : say("stillPlaying");
  items.push(
    match.ok
      ? line(say("matchOk", { hands: match.hands, scores: list(match.scores), end }), "ok")
      : line(say("matchFail", { problems: match.problems.join("; ") }), "fail"),
  );
  let signed;
  try {
    signed = await checkSignature(record, await serverKey(form), say);
  } catch (err) {
    signed = { status: "unsupported", text: say("noKey", { reason: err.message }) };
  }
  const kind = { ok: "ok", fail: "fail", unsupported: "info" }[signed.status];
  items.push(line(say(signed.status === "ok" ? "sigLineOk" : signed.status === "fail" ? "sigLineFail" : "sigLineNot", { text: signed.text }), kind));
  const allOk = hands.every((r) => r.ok) && match.ok && signed.status !== "fail";
  return { items, allOk, any: true };
}

async function logLines(log, rulesets, seen, say) {
  const reports = await verifyLog(log, rulesets, seen, say);
  const items = reports.map((r) =>
    r.ok
      ? line(say("handOk", { hand: r.hand, commitment: r.commitment }), "ok")
      : line(say("handFail", { hand: r.hand, problems: r.problems.join("; ") }), "fail"),
  );
  if (!items.length) items.push(line(say("noHand"), "info"));
  return { items, allOk: reports.every((r) => r.ok), any: reports.length > 0 };
}

async function run(form, results, say) {
  results.replaceChildren(line(say("checking"), "info"));
  const room = form.room.value.trim();
  const token = form.token.value.trim();
  const playing = room && token ? await noteCurrent(room, token).catch(() => null) : null;
  try {
    let text = form.log.value.trim();
    if (!text && form.file.files[0]) text = await form.file.files[0].text();
    const doc = text ? JSON.parse(text) : await fetchLog(room, token);
    if (!text) form.log.value = JSON.stringify(doc, null, 1);
    const variants = await (await fetch("/api/variants")).json();
    const rulesets = Object.fromEntries(variants.map((v) => [v.name, v]));
    const seen = merge(parseSeen(form.seen.value), seenFromNotes(doc, loadNotes(doc.room || room)));
    const { items, allOk, any } = doc?.format === RECORD_FORMAT
      ? await recordLines(doc, rulesets, seen, form, say)
      : await logLines(doc, rulesets, seen, say);
    if (playing) items.push(line(say("playing", { hand: playing.hand_number, commitment: playing.commitment }), "info"));
    if (any) items.push(line(allOk ? say("allOk") : say("failed"), allOk ? "ok" : "fail"));
    results.replaceChildren(...items);
  } catch (err) {
    // fetch's own "Failed to fetch" is no sentence for a player.
    const reason = err instanceof TypeError && /fetch/i.test(err.message) ? say("network") : err.message;
    results.replaceChildren(line(say("cannot", { reason }), "fail"));
  }
}

if (typeof document !== "undefined") {
  // The page speaks the table's language (a stored choice, else the browser's); i18n.js is
  // loaded only here, as it needs the browser's storage.
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
