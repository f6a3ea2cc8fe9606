// The table's chat (docs/api.md v1.2 "Chat"): a panel beside the game, never over it (on a
// phone a tab that opens a drawer), an unread count, quick phrases and free text, and a
// per-seat mute kept in this browser. Every message's text goes in as text (h() and
// textContent), never as HTML. Spectators read only. What it holds is the store's `chat`
// part; the panel is drawn here, outside the page's regions, whenever the chat changes.
import * as api from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { keep, load } from "./storage.js";

const PHRASES = ["chatGoodLuck", "chatNiceOne", "chatWellPlayed", "chatOneMoment"];
const MAX_KEPT = 200;
const muteKey = (room) => `rummy.chatMute.${room}`;

const panelRoot = () => document.getElementById("chat");

function loadMuted(room) {
  const seats = load(muteKey(room), []);
  return new Set(Array.isArray(seats) ? seats : []);
}

/** Show the chat of `room` for this seat (`token` null: a spectator, who only reads). */
export async function startChat(store, room, token) {
  stopChat(store);
  const chat = store.chat;
  Object.assign(chat, { room, token, seat: null, canWrite: Boolean(token), open: false, unread: 0, messages: [], muted: loadMuted(room), names: [] });
  let info;
  try {
    info = await api.getRoom(room);
  } catch {
    return;
  }
  // A room on one device (passed around, whatever this browser calls it), or one where the
  // computer plays every other seat, has nobody to chat with.
  const alone = (info.seats || []).filter((seat) => !seat.bot).length < 2 && info.mode === "computer";
  if (chat.room !== room || info.options?.chat === false || info.mode === "local" || alone) return;
  if (!chat.names.length) chat.names = (info.seats || []).map((s) => (s.bot ? "" : s.name || ""));
  document.body.append(h("aside", { id: "chat", class: "chat", "aria-label": t("chatTitle") }));
  document.body.classList.add("has-chat");
  try {
    const data = await api.getChat(room, token);
    (data.messages || []).forEach((m) => addMessage(chat, m, false));
  } catch {
    /* the socket brings the recent messages too */
  }
  draw(chat);
}

export function stopChat(store) {
  panelRoot()?.remove();
  store.chat.room = null;
  document.body.classList.remove("has-chat", "chat-open");
}

/** Every view: our seat (our own messages count as read, and a seat cannot mute itself)
 * and who sits where, so a friend who joins after the page opened can be muted at once. */
export function chatSeats(store, view) {
  const chat = store.chat;
  // A computer seat never writes: nothing to mute.
  const names = (view?.seats || []).map((s) => (s.bot ? "" : s.name || ""));
  const seat = view?.seat ?? null;
  if (chat.seat === seat && names.join("\n") === chat.names.join("\n")) return;
  chat.seat = seat;
  if (view?.seats) chat.names = names;
  if (panelRoot()) draw(chat);
}

/** A `{"type": "chat"}` frame from the room's socket. */
export function chatFrame(store, msg) {
  if (!panelRoot() || !msg?.message) return;
  addMessage(store.chat, msg.message, true);
  draw(store.chat);
}

function addMessage(chat, m, live) {
  if (chat.messages.some((x) => x.id === m.id)) return; // the socket's recent messages again
  chat.messages.push(m);
  chat.messages.sort((a, b) => a.id - b.id);
  if (chat.messages.length > MAX_KEPT) chat.messages.shift();
  if (live && !chat.open && m.seat !== chat.seat && !chat.muted.has(m.seat)) chat.unread += 1;
}

function toggle(chat) {
  chat.open = !chat.open;
  if (chat.open) chat.unread = 0;
  document.body.classList.toggle("chat-open", chat.open);
  draw(chat);
  if (chat.open) panelRoot()?.querySelector("#chat-text")?.focus();
}

function toggleMute(chat, seat) {
  if (chat.muted.has(seat)) chat.muted.delete(seat);
  else chat.muted.add(seat);
  keep(muteKey(chat.room), [...chat.muted]);
  draw(chat);
}

async function send(chat, text) {
  const clean = String(text || "").trim();
  if (!clean || !chat.canWrite) return;
  const status = panelRoot()?.querySelector(".chat-status");
  try {
    const res = await api.postChat(chat.room, chat.token, clean);
    addMessage(chat, res.message, false);
    const input = panelRoot()?.querySelector("#chat-text");
    if (input && input.value.trim() === clean) input.value = "";
    draw(chat);
  } catch (err) {
    if (status) status.textContent = err.code === "rate_limited" ? t("chatTooFast") : err.code === "invalid_text" ? t("chatInvalid") : t("chatFailed");
  }
}

function messageItem(chat, m) {
  const name = m.name || chat.names[m.seat] || "";
  const mine = m.seat === chat.seat;
  return h("li", { class: ["chat-msg", mine && "mine"], data: { id: String(m.id), seat: String(m.seat) } },
    h("span", { class: "chat-name", text: name }),
    h("span", { class: "chat-text", text: m.text }));
}

function muteButtons(chat) {
  const others = chat.names.map((name, seat) => ({ name, seat })).filter((x) => x.seat !== chat.seat && x.name);
  return h("div", { class: "chat-mutes" }, others.map(({ name, seat }) => {
    const muted = chat.muted.has(seat);
    const button = h("button", { type: "button", class: "btn small link", "aria-pressed": muted ? "true" : "false", data: { muteSeat: String(seat) } });
    button.textContent = muted ? t("chatUnmute", { name }) : t("chatMute", { name });
    button.addEventListener("click", () => toggleMute(chat, seat));
    return button;
  }));
}

function form(chat) {
  if (!chat.canWrite) return h("p", { class: "muted chat-readonly", text: t("chatSpectator") });
  const phrases = h("div", { class: "chat-phrases" }, PHRASES.map((key) => {
    const b = h("button", { type: "button", class: "btn small", data: { phrase: key }, text: t(key) });
    b.addEventListener("click", () => send(chat, t(key)));
    return b;
  }));
  const input = h("input", { id: "chat-text", name: "chat", maxlength: "200", autocomplete: "off", "aria-label": t("chatPlaceholder"), placeholder: t("chatPlaceholder") });
  const f = h("form", { class: "chat-form" }, input, h("button", { type: "submit", class: "btn small primary", text: t("chatSend") }));
  f.addEventListener("submit", (ev) => {
    ev.preventDefault();
    send(chat, input.value);
  });
  return h("div", {}, phrases, f, h("p", { class: "chat-status muted", "aria-live": "polite" }));
}

function draw(chat) {
  const root = panelRoot();
  if (!root) return;
  const typed = root.querySelector("#chat-text")?.value || "";
  const hadFocus = document.activeElement?.id === "chat-text";
  const shown = chat.messages.filter((m) => !chat.muted.has(m.seat));
  const tab = h("button", { type: "button", class: "chat-tab btn", id: "chat-tab", "aria-expanded": chat.open ? "true" : "false" }, t("chatTitle"),
    chat.unread ? h("span", { class: "chat-unread", id: "chat-unread", "aria-label": t("chatUnread", { n: chat.unread }), text: String(chat.unread) }) : null);
  tab.addEventListener("click", () => toggle(chat));
  const list = h("ol", { class: "chat-list", id: "chat-list", "aria-live": "polite" }, shown.map((m) => messageItem(chat, m)));
  const panel = h("div", { class: "chat-panel", id: "chat-panel", hidden: !chat.open }, muteButtons(chat), list, form(chat));
  root.replaceChildren(tab, panel);
  const input = root.querySelector("#chat-text");
  if (input) {
    input.value = typed;
    if (hadFocus) input.focus();
  }
  list.scrollTop = list.scrollHeight;
}
