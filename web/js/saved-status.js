// The lobby's saved games, each with where its room stands for this seat: "your turn",
// "waiting for Anna", "finished", read from the room's own view (GET .../state).
import * as api from "./api.js";
import { t } from "./i18n.js";

const PLAYING = ["draw", "play"];
const MAX_ROOMS = 20;

/** What `view` asks of this seat, as {kind, text}. */
export function statusOf(view, mode) {
  const name = (seat) => view.seats?.[seat]?.name || t("defaultName", { n: seat + 1 });
  if (view.phase === "match_over") return { kind: "finished", text: t("statusFinished") };
  if (view.phase === "waiting") return { kind: "waiting", text: t("statusWaitingJoin") };
  if (PLAYING.includes(view.phase)) {
    const mine = view.turn === view.seat || (mode === "local" && !view.seats?.[view.turn]?.bot);
    return mine ? { kind: "turn", text: t("statusYourTurn") } : { kind: "waiting", text: t("statusWaitingFor", { name: name(view.turn) }) };
  }
  // Between hands: our vote, or the others' still missing.
  const voted = view.votes?.next_hand || [];
  if (!voted.includes(view.seat)) return { kind: "turn", text: t("statusYourTurn") };
  const missing = (view.seats || []).map((s, i) => i).filter((i) => !voted.includes(i) && !view.seats[i].bot);
  return { kind: "waiting", text: t("statusWaitingFor", { name: missing.map(name).join(", ") || "…" }) };
}

/** Read every saved room's view (at most MAX_ROOMS) and put each one's status in the store. */
export async function refreshSavedStatus(store, games) {
  const found = {};
  await Promise.all(games.slice(0, MAX_ROOMS).map(async (g) => {
    if (!g.token) return;
    try {
      const view = await api.getState(g.room, g.token);
      found[g.room] = statusOf(view.state?.hand ? view.state : view, g.mode);
    } catch (err) {
      if (err.status === 404 || err.status === 410) found[g.room] = { kind: "gone", text: t("statusGone") };
    }
  }));
  store.lobby.statuses = found;
  if (store.page === "lobby") store.emit();
}
