// Verify a room's hand log or a match record in the browser: for every finished hand, the
// revealed seed must hash to the commitment shown during the hand, and must deal exactly
// the cards the log says were dealt (verify-hand.js, verify-deal.js). A match record
// (docs/api.md v1.3) is checked as a whole too, as `rummy verify` does (verify-record.js),
// and so is the server's Ed25519 signature, where the browser's WebCrypto has Ed25519
// (verify-signature.js). Nothing here trusts the server: SHA-256 and Ed25519 come from the
// browser (crypto.subtle) and SHAKE-256 is computed here (verify-shake256.js). Replaying
// the moves needs the rules engine, which is not in the browser: `rummy verify <log.json>`
// does that part.
//
// This is the module verify.html loads and node imports (tests/hostile): it exports every
// check, checks a log, and runs the page.
import { sayIn } from "./verify-say.js";
import { verifyHand } from "./verify-hand.js";
import { RECORD_FORMAT } from "./verify-record.js";
import { fetchLog, line, logLines, noteCurrent, recordLines, seenOnPage } from "./verify-page.js";

export { fromBase64Url, fromHex } from "./verify-bytes.js";
export { commitmentOf, dealFromSeed, SHUFFLE_METHOD, shuffled, sortedPack } from "./verify-deal.js";
export { verifyHand } from "./verify-hand.js";
export { seenFromNotes } from "./verify-page.js";
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
    const seen = seenOnPage(doc, room, form.seen.value);
    const { items, allOk, any } = doc?.format === RECORD_FORMAT
      ? await recordLines(doc, rulesets, seen, form, say)
      : logLines(await verifyLog(doc, rulesets, seen, say), say);
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
