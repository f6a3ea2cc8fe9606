// The replay page ("/#replay"): a saved match record (docs/record.md) or a room's log opened
// from a file, with no room on the server. The server's stateless POST /api/replays builds
// each step from the file; the panel of render.js draws them. And "Save this match": the
// room's record (GET /api/rooms/{room}/record) downloaded as a file.
import * as api from "./api.js";
import { h } from "./dom.js";
import { errorText, t } from "./i18n.js";
import { newReplay, replaySteps } from "./replay.js";

/** The hands of a file that can be replayed, by their number: a record lists only
 * finished hands; a log also the ones a new match cut short (no result). */
function handsOf(doc) {
  if (doc.format) return doc.hands.map((x) => x.number);
  return doc.hands.filter((x) => x.result).map((x) => x.hand);
}

/** The file with only hand `number` in it: one hand at a time keeps a long match's file
 * under the server's body limit, and a record's hand is self-contained. */
function withHand(doc, number) {
  const key = doc.format ? "number" : "hand";
  return { ...doc, hands: doc.hands.filter((x) => x[key] === number) };
}

/** Show hand `number` of the open file in the replay panel. */
async function showHand(store, number) {
  const doc = store.replayPage.file;
  try {
    const replay = await api.replayFile(withHand(doc, number), number);
    const steps = replaySteps(replay, null);
    store.replayPage.error = null;
    const extra = { source: "file", names: replay.players || null, hands: handsOf(doc), hand: number };
    store.update({ replay: newReplay(steps, extra, store.replay) });
  } catch (err) {
    store.replayPage.error = err?.error ? errorText(err.error) : t("replayNotAFile");
    store.emit();
  }
}

/** Read a chosen or dropped file and open its first hand. */
export async function openFile(store, file) {
  let doc = null;
  try {
    doc = JSON.parse(await file.text());
  } catch {
    doc = null;
  }
  if (!doc || typeof doc !== "object" || !Array.isArray(doc.hands) || !handsOf(doc).length) {
    store.replayPage.error = t("replayNotAFile");
    store.update({ replay: null });
    return;
  }
  store.replayPage.file = doc;
  await showHand(store, handsOf(doc)[0]);
}

export function renderReplayPage(store) {
  const { file, error } = store.replayPage;
  return h("section", { class: "card-panel replay-page", id: "replay-page", "aria-labelledby": "replay-page-title" },
    h("h1", { id: "replay-page-title", text: t("replayPageTitle") }),
    h("p", { text: t("replayPageText") }),
    h("label", { class: "drop-zone", id: "replay-drop", for: "replay-file" },
      h("span", { text: t("replayChoose") }),
      h("input", { type: "file", id: "replay-file", accept: "application/json,.json" })),
    error ? h("p", { class: "error", id: "replay-error", role: "alert", text: error }) : null,
    file && !store.replay
      ? h("button", { type: "button", class: "btn", data: { action: "replay-hand", hand: String(handsOf(file)[0]) }, text: t("replay") })
      : null,
    h("p", {}, h("a", { href: "/", class: "btn", text: t("rulesBack") })),
  );
}

/** Download the room's match record as a file. */
async function saveRecord(store) {
  const { room, token } = store.session;
  const record = await api.getRecord(room, token);
  const blob = new Blob([JSON.stringify(record, null, 1)], { type: "application/json" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = `rummy-${record.variant}-${new Date().toISOString().slice(0, 10)}.json`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

/** The page's click actions, for events.js's table of actions; `openRoomHand(n)` opens a
 * room's hand (main.js), a file's comes from the file. */
export function replayActions(store, showError, openRoomHand) {
  return {
    "replay-hand": (el) => (store.replay?.source === "room" ? openRoomHand(Number(el.dataset.hand)) : showHand(store, Number(el.dataset.hand))),
    "save-record": () => saveRecord(store).catch(showError),
  };
}

/** The file picker and the drop zone. */
export function bindReplayPage(store) {
  document.body.addEventListener("change", (ev) => {
    if (ev.target?.id === "replay-file" && ev.target.files?.[0]) openFile(store, ev.target.files[0]);
  });
  document.body.addEventListener("dragover", (ev) => {
    if (store.page === "replay") ev.preventDefault();
  });
  document.body.addEventListener("drop", (ev) => {
    if (store.page !== "replay") return;
    ev.preventDefault();
    const file = ev.dataTransfer?.files?.[0];
    if (file) openFile(store, file);
  });
}
