// Verify a room's hand log or a match record in the browser: for every finished hand, the
// revealed seed must hash to the commitment shown during the hand, and must deal exactly
// the cards the log says were dealt (verify-hand.js, verify-deal.js). A match record
// (docs/api.md v1.3) is checked as a whole too, as `rummy verify` does (verify-record.js),
// and so is the server's Ed25519 signature, where the browser's WebCrypto has Ed25519
// (verify-signature.js). Nothing here trusts the server: SHA-256 and Ed25519 come from the
// browser (crypto.subtle) and SHAKE-256 is computed here (verify-shake256.js). Replaying
// the moves needs the rules engine, which is not in the browser: `rummy verify <log.json>`
// does that part.
import { keep, load } from "./storage.js";
import { sayIn } from "./verify-say.js";
import { verifyHand } from "./verify-hand.js";
import { list, RECORD_FORMAT, verifyRecord } from "./verify-record.js";
import { checkSignature } from "./verify-signature.js";

export { fromBase64Url, fromHex } from "./verify-bytes.js";
export { commitmentOf, dealFromSeed, SHUFFLE_METHOD, shuffled, sortedPack } from "./verify-deal.js";
export { verifyHand } from "./verify-hand.js";
export { RECORD_FORMAT, verifyRecord } from "./verify-record.js";
export { sayIn } from "./verify-say.js";
export { shake256 } from "./verify-shake256.js";
export { canonicalJson, checkSignature, keyId } from "./verify-signature.js";

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
