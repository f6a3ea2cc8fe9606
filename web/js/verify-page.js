// The verify page's parts: the commitments a seat noted during play (kept in this device's
// storage), the server's log and key fetched for a room, and the lines that draw a check's
// results. verify.js runs them on the page.
import { keep, load } from "./storage.js";
import { list, verifyRecord } from "./verify-record.js";
import { checkSignature } from "./verify-signature.js";

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

const NOTES = (room) => `rummy-verify:${room}`;

function loadNotes(room) {
  const notes = load(NOTES(room), []);
  return Array.isArray(notes) ? notes : [];
}

/** Note the commitment the seat's view shows now (this device keeps it for later). */
export async function noteCurrent(room, token) {
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
  for (const [hand, values] of Object.entries(b)) out[hand] = [...(out[hand] || []), ...values];
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

export function line(text, kind) {
  const li = document.createElement("li");
  li.className = kind;
  li.textContent = text;
  return li;
}

export async function fetchLog(room, token) {
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

/** A hand's line: its commitment where it passed, else its problems. */
function handLine(report, say) {
  return report.ok
    ? line(say("handOk", { hand: report.hand, commitment: report.commitment }), "ok")
    : line(say("handFail", { hand: report.hand, problems: report.problems.join("; ") }), "fail");
}

/** The lines of a record's check: its hands, the match, and the signature. */
export async function recordLines(record, rulesets, seen, form, say) {
  const { hands, match } = await verifyRecord(record, rulesets, seen, say);
  const items = hands.map((r) => handLine(r, say));
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

/** The lines of a log's check, from verifyLog's reports. */
export function logLines(reports, say) {
  const items = reports.map((r) => handLine(r, say));
  if (!items.length) items.push(line(say("noHand"), "info"));
  return { items, allOk: reports.every((r) => r.ok), any: reports.length > 0 };
}

/** The commitments to check `doc`'s hands against: the ones pasted, and the ones this
 * device noted for its room during play. */
export function seenOnPage(doc, room, pasted) {
  return merge(parseSeen(pasted), seenFromNotes(doc, loadNotes(doc.room || room)));
}
