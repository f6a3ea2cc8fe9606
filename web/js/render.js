// Draws the whole page from the store. Regions are rebuilt with replaceChildren; focus is
// kept on the same control across a redraw.
import { drawNotifyButton } from "./notify.js";
import { renderChallenge } from "./challenge.js";
import { h } from "./dom.js";
import { iconButton } from "./icons.js";
import { t } from "./i18n.js";
import { seatName } from "./names.js";
import { renderHandEnd } from "./render-end.js";
import { renderJoin, renderLobby, renderMessage, renderRules } from "./render-lobby.js";
import { renderTable } from "./render-table.js";
import { renderReplayPage } from "./replay-page.js";
import { replayPanel } from "./render-replay.js";
import { missedPanel } from "./missed.js";
import { awayBanners, keepTicking } from "./seats-alive.js";

const $ = (id) => document.getElementById(id);

// What tells apart controls that share a hook: the pile, the meld end, the vote, the seat,
// the reviewed decision.
const DETAILS = ["data-source", "data-end", "data-vote", "data-seat", "data-version"];
const detailOf = (el) => DETAILS.map((a) => el.getAttribute(a)).find(Boolean) || "";

function focusKey(el) {
  if (!el || el === document.body) return null;
  for (const attr of ["data-id", "data-meld", "data-action", "id"]) {
    if (el.hasAttribute?.(attr)) {
      const extra = detailOf(el);
      return [attr, el.getAttribute(attr), extra];
    }
  }
  return null;
}

function restoreFocus(key) {
  if (!key) return;
  const [attr, value, extra] = key;
  const all = document.querySelectorAll(`[${attr}="${CSS.escape(value)}"]`);
  for (const el of all) {
    const e = detailOf(el);
    if (e === extra && !el.disabled) {
      el.focus({ preventScroll: true });
      return;
    }
  }
  // The focused card left the hand (played or discarded), or a pile was drawn from and is
  // now shut: keep keyboard players in the hand, on the card that just came in if any.
  if (attr === "data-id" || (attr === "data-action" && value === "draw")) {
    const card = document.querySelector(".hand .card.new") || document.querySelector(".hand .card");
    card?.focus({ preventScroll: true });
  }
}

function banners(store) {
  const items = [];
  if (store.page === "table" && store.connection === "closed") {
    items.push(h("div", { class: "banner reconnecting", id: "reconnecting", role: "status", text: t("reconnecting") }));
  }
  if (store.page === "table" && store.view && store.session && store.session.mode !== "local") {
    // A room with computer seats may have people too. Who left (with the stand-in countdown and button) comes from the view's away_since.
    items.push(...awayBanners(store));
  }
  if (store.page === "table" && store.view) items.push(...missedPanel(store));
  if (store.twoTabs) items.push(h("div", { class: "banner two-tabs", id: "two-tabs", role: "alert", text: t("twoTabs") }));
  return items;
}

function cover(store) {
  const view = store.view;
  const name = seatName(view, view.turn);
  return h("section", { class: "cover", id: "cover", data: { seat: String(view.turn) } },
    h("div", { class: "cover-card" },
      h("div", { class: "cover-backs", "aria-hidden": "true" }, h("div", { class: "card back" }), h("div", { class: "card back" }), h("div", { class: "card back" })),
      h("h1", { text: t("coverTitle", { name }) }),
      h("p", { text: t("coverText", { name }) }),
      h("button", { type: "button", class: "btn primary big", data: { action: "reveal" }, id: "reveal", text: t("coverButton", { name }) })),
  );
}

/** Scroll the replay's list of moves (only the list: a phone's dialog stays on the table)
 * so its current move is in sight. */
function keepInSight(el) {
  const list = el?.closest(".replay-moves");
  if (!list) return;
  const at = el.getBoundingClientRect();
  const box = list.getBoundingClientRect();
  if (at.top < box.top) list.scrollTop -= box.top - at.top;
  else if (at.bottom > box.bottom) list.scrollTop += at.bottom - box.bottom;
}

function page(store) {
  switch (store.page) {
    case "lobby":
      return renderLobby(store);
    case "rules":
      return renderRules(store);
    case "replay":
      return renderReplayPage(store);
    case "join":
      return renderJoin(store);
    case "challenge":
      return renderChallenge(store);
    case "error":
      return renderMessage(store.message || t("errorGeneric"));
    case "table": {
      const view = store.view;
      if (!view) return h("p", { class: "muted", text: t("loading") });
      const local = store.session?.mode === "local";
      if (local && ["draw", "play"].includes(view.phase) && store.revealed !== view.turn) return cover(store);
      const table = renderTable(store);
      if (["hand_over", "match_over"].includes(view.phase)) table.prepend(renderHandEnd(store));
      return table;
    }
    default:
      return h("p", { class: "muted", text: t("loading") });
  }
}

/** The toast goes under the table's buttons when there is a table, else under the banners:
 * in the flow either way, so it never lies over a seat, a pile or the hand. */
function dockToast(toast) {
  const dock = $("toast-dock") || $("app");
  if (dock.id === "app") {
    if (toast.nextElementSibling !== dock) dock.before(toast);
  } else if (toast.parentElement !== dock) dock.append(toast);
}

export function render(store) {
  const focus = focusKey(document.activeElement);
  $("lang-switch").textContent = t("langSwitch");
  // Icons drawn as SVG with a word beside them (struck through by CSS when pressed): the
  // word names the button, and shows once the screen has room for it.
  const mute = $("mute");
  mute.setAttribute("aria-pressed", store.prefs.muted ? "true" : "false");
  iconButton(mute, "sound", t("mute"));
  const motion = $("motion");
  motion.setAttribute("aria-pressed", store.prefs.motion ? "false" : "true");
  iconButton(motion, "motion", t("motionOffShort"));
  motion.title = t("motionOff");
  const v = store.view;
  const mine = store.page === "table" && v && v.turn === v.seat && ["draw", "play"].includes(v.phase);
  document.title = mine ? `● ${t("yourTurnTitle")} · Rummy` : "Rummy";
  $("room-label").textContent = store.view ? `${t("handNo", { n: store.view.hand_number })}` : "";
  $("conn-status").textContent = "";
  $("banners").replaceChildren(...banners(store));
  keepTicking(store);
  const toast = $("toast");
  if (store.toast) {
    toast.hidden = false;
    toast.dataset.code = store.toast.code || "";
    // Each redraw docks the toast anew, which restarts its fade: started back in time by
    // its age, it fades once, 7 s after the error came.
    toast.style.animationDelay = `${Math.min(0, store.toast.at - Date.now())}ms`;
    const detail = store.toast.detail && store.toast.detail !== store.toast.text;
    toast.replaceChildren(...[
      h("span", { class: "toast-text", text: store.toast.text }),
      detail ? h("span", { class: "toast-detail", text: store.toast.detail }) : null,
      h("button", { type: "button", class: "toast-close", data: { action: "toast-close" }, "aria-label": "×", text: "×" }),
    ].filter(Boolean));
  } else {
    toast.hidden = true;
    toast.replaceChildren();
  }
  $("app").replaceChildren(page(store));
  // A new page opens at its top: the table made from far down the lobby opened scrolled
  // down with it, the top bar and the opponent off a phone's screen.
  const shown = `${store.page}:${store.session?.room ?? ""}`;
  if (store.shown !== shown) {
    store.shown = shown;
    window.scrollTo(0, 0);
  }
  dockToast(toast);
  drawNotifyButton(store.page === "table" && Boolean(store.session?.token) && store.session?.mode !== "local");
  const news = store.page === "table" ? document.getElementById("last-move")?.textContent || "" : "";
  if (news && $("announce").textContent !== news) $("announce").textContent = news;
  $("overlay").replaceChildren(...(store.replay ? [replayPanel(store)] : []));
  restoreFocus(focus);
  if (store.replay) {
    // The dialog has the keyboard from the moment it opens; the current move stays in sight.
    if (!$("overlay").contains(document.activeElement)) $("replay")?.focus({ preventScroll: true });
    keepInSight(document.querySelector(".replay-move[aria-current]"));
  }
}
