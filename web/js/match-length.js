// How long a match lasts, in plain words, from the rule set GET /api/variants publishes:
// the lobby says it before a room is made, the end of a match says why it ended.
import { t } from "./i18n.js";
import { seatNames } from "./names.js";

/** "A match lasts until someone has 100 points" or "... reaches 101 penalty points". */
export function matchLength(rules, limit = null) {
  if (rules.scoring === "penalty") return t("matchPenalty", { n: limit || rules.penalty_limit });
  const targets = Object.entries(rules.match_target || {});
  if (!targets.length) return "";
  if (new Set(targets.map(([, n]) => n)).size === 1) return t("matchTarget", { n: targets[0][1] });
  const by = targets.map(([players, n]) => t("matchTargetsBy", { n, players }));
  return t("matchTargets", { targets: by.join(", ") });
}

/** Why the match is over: who reached the target, or who went past the penalty limit. */
export function matchEndReason(view, rules) {
  const scores = view.scores || [];
  if (!scores.length) return "";
  const top = Math.max(...scores);
  const seats = scores.map((s, i) => (s === top ? i : -1)).filter((i) => i >= 0);
  const names = seatNames(view, seats);
  if (rules.scoring === "penalty") {
    return t("matchEndPenalty", { names, score: top, n: view.limit ?? rules.penalty_limit });
  }
  const target = rules.match_target?.[String(scores.length)];
  return target ? t("matchEndTarget", { names, score: top, n: target }) : "";
}
