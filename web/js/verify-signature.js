// The server's Ed25519 signature on a match record (docs/api.md v1.3), checked by the
// browser's own WebCrypto, where it has Ed25519: where it has not, the page says so plainly.
import { fromBase64Url, toHex } from "./verify-bytes.js";
import { sayIn } from "./verify-say.js";

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
