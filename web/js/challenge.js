// Challenges (docs/api.md v1.2, invitations v1.3): the page at /c/<id>. Its maker gets one link
// per friend, each good for one game (the owner secret that makes them stays on this
// device); a friend's link (?invite=) lets them play the same deals once; everyone sees
// every entry from its start, finished or not, with the name of the link it came from.
import * as api from "./api.js";
import { h } from "./dom.js";
import { t, table } from "./i18n.js";
import { savedGames } from "./saved.js";
import { keep, load } from "./storage.js";

const OWNED = (id) => `rummy.challenge.${id}`;

/** This browser's seat in `challenge`, if it played it (saved games remember it). */
export function myEntry(challenge) {
  return savedGames().find((g) => g.challenge === challenge) || null;
}

/** What this device keeps of a challenge it made: {owner, links: [{name, url}]}, or null. */
export function ownedChallenge(id) {
  const owned = load(OWNED(id));
  return owned && typeof owned.owner === "string" ? owned : null;
}

export function keepOwned(id, owned) {
  keep(OWNED(id), owned);
}

export async function loadChallenge(store, id) {
  // A friend's link carries its invitation; it stays with the page until it is used.
  const invite = new URLSearchParams(location.search).get("invite") || store.challenge?.invite || null;
  const friend = store.challenge?.friend || "";
  // What this device holds of it: its own entry, and the maker's secret and links.
  const mine = myEntry(id);
  const owned = ownedChallenge(id);
  try {
    store.challenge = { id, invite, friend, mine, owned, result: await api.getChallenge(id) };
  } catch (err) {
    store.challenge = { id, invite, friend, mine, owned, result: null, error: err.code || "network" };
  }
}

function hands(entry) {
  return Object.fromEntries((entry.hands || []).map((x) => [x.hand, x]));
}

function cell(entry, hand, penalty) {
  const x = hands(entry)[hand];
  if (!x) return h("td", { class: "muted", text: "–" });
  const who = x.winner === null ? t("challengeNobody") : x.winner === 0 ? entry.name : t("challengeBot");
  return h("td", { data: { points: String(x.points[0]) } },
    h("strong", { text: penalty ? t("challengePenalty", { n: x.points[0] }) : t("challengePoints", { n: x.points[0] }) }),
    " ", h("span", { class: "muted", text: t("challengeOut", { name: who }) }));
}

function verdict(result, penalty) {
  const done = result.entries.filter((e) => e.finished);
  if (done.length < 2) return t("challengeWaiting");
  const total = (e) => e.hands.reduce((sum, x) => sum + x.points[0], 0);
  const ranked = [...done].sort((a, b) => (penalty ? total(a) - total(b) : total(b) - total(a)));
  if (total(ranked[0]) === total(ranked[1])) return t("challengeTie");
  return t("challengeBetter", { name: ranked[0].name });
}

function copyButton(id, url) {
  const copy = h("button", { type: "button", class: "btn small", id, text: t("inviteCopy") });
  copy.addEventListener("click", () => navigator.clipboard?.writeText(url).then(() => { copy.textContent = t("inviteCopied"); }).catch(() => {}));
  return copy;
}

/** The maker's links, one per friend, and the form that makes the next. */
function invitations(c, owned) {
  const friend = h("input", { name: "name", id: "challenge-friend", maxlength: "24", required: true, value: c.friend, autocomplete: "off" });
  friend.addEventListener("input", () => { c.friend = friend.value; });
  return h("section", { class: "invites", id: "challenge-invites" },
    h("p", { text: t("challengeShare") }),
    h("ul", { class: "invite-links", id: "challenge-links" }, owned.links.map((link, i) => h("li", { data: { invite: link.name } },
      h("strong", { text: link.name }), " ",
      h("input", { readonly: true, class: "share", id: i === 0 ? "challenge-url" : `challenge-url-${i}`, value: link.url, "aria-label": t("challengeLinkFor", { name: link.name }) }), " ",
      copyButton(i === 0 ? "challenge-copy" : `challenge-copy-${i}`, link.url)))),
    h("form", { data: { form: "challenge-invite" }, id: "challenge-invite" },
      h("label", { class: "field" }, h("span", { text: t("challengeFriendName") }), friend),
      h("button", { type: "submit", class: "btn", text: t("challengeMakeLink") })),
    h("p", { class: "muted", text: t("challengeOneEach") }));
}

function entryHead(e) {
  const name = e.finished ? e.name : t("challengePlaying", { name: e.name });
  return h("th", { scope: "col" }, name,
    e.invite_name ? h("span", { class: "muted invite-name", text: ` ${t("challengeFromLink", { name: e.invite_name })}` }) : null);
}

function playOrAsk(store, c, mine) {
  if (mine) return h("p", {}, h("a", { class: "btn primary", id: "challenge-mine", href: `/r/${mine.room}#seat=${mine.token}`, text: t("challengeMine") }));
  if (!c.invite) return h("p", { class: "muted", id: "challenge-ask", text: t("challengeAsk") });
  return h("form", { data: { form: "challenge" }, id: "challenge-play" },
    h("label", { class: "field" }, h("span", { text: t("yourName") }),
      h("input", { name: "name", id: "challenge-name", maxlength: "24", value: store.lobby.form.name, autocomplete: "nickname" })),
    h("button", { type: "submit", class: "btn primary big", text: t("challengePlay") }));
}

export function renderChallenge(store) {
  const c = store.challenge || {};
  if (!c.result) return h("div", { class: "card-panel" }, h("p", { text: c.error ? t("challengeGone") : t("loading") }));
  const r = c.result;
  const penalty = store.rules(r.variant).scoring === "penalty";
  const { mine, owned } = c;
  const numbers = [...new Set(r.entries.flatMap((e) => e.hands.map((x) => x.hand)))].sort((a, b) => a - b);
  return h("div", { class: "card-panel challenge", id: "challenge" },
    h("h1", { text: t("challengeTitle", { variant: table("variantNames")[r.variant] || r.variant }) }),
    h("p", { class: "fair", id: "challenge-fair", text: t("challengeFair") }),
    owned ? invitations(c, owned) : null,
    playOrAsk(store, c, mine),
    h("table", { class: "challenge-table", id: "challenge-table" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("challengeHand") }), r.entries.map(entryHead))),
      h("tbody", {}, numbers.map((n) => h("tr", { data: { hand: String(n) } },
        h("th", { scope: "row", text: String(n + 1) }),
        r.entries.map((e) => cell(e, n, penalty)))))),
    h("p", { class: "verdict", id: "challenge-verdict", text: verdict(r, penalty) }),
    h("button", { type: "button", class: "btn", data: { action: "challenge-refresh" }, text: t("challengeRefresh") }),
  );
}
