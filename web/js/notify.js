// "Your turn" while this tab is hidden: with the player's permission a browser
// notification (the Notification API); without it the tab's title says so, as before.
import { t } from "./i18n.js";
import { iconButton } from "./icons.js";

const PLAYING = ["draw", "play"];

export const notifySupported = () => "Notification" in window;
const granted = () => notifySupported() && Notification.permission === "granted";

function myTurn(view) {
  return Boolean(view) && view.seat !== null && view.seat !== undefined && view.turn === view.seat && PLAYING.includes(view.phase);
}

/** Call with every new view: a turn that has just become ours, in a hidden tab, notifies. */
export function noteTurn(prev, view, session) {
  if (!myTurn(view) || session?.mode === "local" || !document.hidden || !granted()) return;
  if (myTurn(prev) && prev.hand_number === view.hand_number && prev.turns_completed === view.turns_completed) return;
  try {
    const n = new Notification(t("notifyTitle"), { body: t("notifyBody"), tag: `rummy-${view.room}`, renotify: true });
    n.onclick = () => {
      window.focus();
      n.close();
    };
  } catch {
    /* a browser that only notifies from a service worker: the title still says it */
  }
}

/** The top bar's button that asks for permission; gone once the player has answered. */
export function drawNotifyButton(onTable) {
  let button = document.getElementById("notify");
  const ask = onTable && notifySupported() && Notification.permission === "default";
  if (!ask) {
    button?.remove();
    return;
  }
  if (!button) {
    button = document.createElement("button");
    button.type = "button";
    button.id = "notify";
    button.className = "mute";
    button.addEventListener("click", async () => {
      try {
        await Notification.requestPermission();
      } finally {
        drawNotifyButton(true);
      }
    });
    document.getElementById("mute")?.before(button);
  }
  iconButton(button, "bell", t("notifyShort"));
  button.title = t("notifyAsk");
}
