// Challenges (API.md v1.2): the page at /c/<id> that shares the link, lets a friend play
// the same deals, and compares every entry hand by hand, with what makes it fair.
import * as api from "./api.js";
import { h } from "./dom.js";
import { t, table } from "./i18n.js";
import { savedGames } from "./saved.js";

/** This browser's seat in `challenge`, if it played it (saved games remember it). */
export function myEntry(challenge) {
  return savedGames().find((g) => g.challenge === challenge) || null;
}

export async function loadChallenge(store, id) {
  try {
    store.extra.challenge = { id, result: await api.getChallenge(id) };
  } catch (err) {
    store.extra.challenge = { id, result: null, error: err.code || "network" };
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

export function renderChallenge(store) {
  const c = store.extra.challenge || {};
  if (!c.result) return h("div", { class: "card-panel" }, h("p", { text: c.error ? t("challengeGone") : t("loading") }));
  const r = c.result;
  const penalty = store.rules(r.variant).scoring === "penalty";
  const mine = myEntry(c.id);
  const url = `${location.origin}/c/${c.id}`;
  const numbers = [...new Set(r.entries.flatMap((e) => e.hands.map((x) => x.hand)))].sort((a, b) => a - b);
  const copy = h("button", { type: "button", class: "btn small", id: "challenge-copy", text: t("inviteCopy") });
  copy.addEventListener("click", () => navigator.clipboard?.writeText(url).then(() => { copy.textContent = t("inviteCopied"); }).catch(() => {}));
  return h("div", { class: "card-panel challenge", id: "challenge" },
    h("h1", { text: t("challengeTitle", { variant: table("variantNames")[r.variant] || r.variant }) }),
    h("p", { class: "fair", id: "challenge-fair", text: t("challengeFair") }),
    h("p", {}, h("span", { text: t("challengeShare") }), " ",
      h("input", { readonly: true, class: "share", id: "challenge-url", value: url, "aria-label": t("challengeShare") }), " ", copy),
    mine
      ? h("p", {}, h("a", { class: "btn primary", id: "challenge-mine", href: `/r/${mine.room}#seat=${mine.token}`, text: t("challengeMine") }))
      : h("form", { data: { form: "challenge" }, id: "challenge-play" },
          h("label", { class: "field" }, h("span", { text: t("yourName") }),
            h("input", { name: "name", id: "challenge-name", maxlength: "24", value: store.extra.lobby.name, autocomplete: "nickname" })),
          h("button", { type: "submit", class: "btn primary big", text: t("challengePlay") })),
    h("table", { class: "challenge-table", id: "challenge-table" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("challengeHand") }),
        r.entries.map((e) => h("th", { scope: "col", text: e.finished ? e.name : t("challengePlaying", { name: e.name }) })))),
      h("tbody", {}, numbers.map((n) => h("tr", { data: { hand: String(n) } },
        h("th", { scope: "row", text: String(n + 1) }),
        r.entries.map((e) => cell(e, n, penalty)))))),
    h("p", { class: "verdict", id: "challenge-verdict", text: verdict(r, penalty) }),
    h("button", { type: "button", class: "btn", data: { action: "challenge-refresh" }, text: t("challengeRefresh") }),
  );
}
