// Draws a finished hand's replay. The server builds every step (rules.replay_steps, through
// GET /api/rooms/{room}/replay or POST /api/replays): the table after each move and every
// seat's cards. This module only words each step and picks what the panel shows; it never
// moves a card itself.
import { describeMove } from "./names.js";
import { t } from "./i18n.js";

/**
 * The panel's steps from a server replay: {text, hands, melds, discard, version}. Names come
 * from `view` (the table's), or from the replay's own `players` (a record's file).
 */
export function replaySteps(replay, view) {
  const named = replay.players ? { seats: replay.players.map((name) => ({ name })) } : view;
  return (replay.steps || []).map((step) => ({
    text: step.move ? describeMove(named, step.move) : t("replayStart"),
    hands: step.hands,
    melds: step.view.melds.map((m) => m.cards),
    discard: step.view.discard_top,
    version: step.version,
  }));
}

/**
 * The step that shows the table just before the move the room numbered `version` (the step
 * before the one that follows it); -1 when the replay has no such move.
 */
export function stepBefore(steps, version) {
  const after = steps.findIndex((s) => s.version === version);
  return after > 0 ? after - 1 : -1;
}
