// The pages before a table: the lobby (new game, saved games), a variant's rules, joining.
import { h } from "./dom.js";
import { t, table } from "./i18n.js";
import { matchLength } from "./match-length.js";

/** GET /api/variants, with each rule set's players range as `min` and `max`. */
export function normalizeVariants(data) {
  return (Array.isArray(data) ? data : []).map((v) => ({ ...v, min: v.min_players, max: v.max_players }));
}

// Each variant says whom it is for in one line, so a newcomer can pick; the chosen one
// also says how it is played and how long a match lasts. The lobby stays short on a phone.
function variantOption(v, form) {
  const limit = v.penalty_limits?.includes(Number(form.limit)) ? Number(form.limit) : null;
  const names = table("variantNames");
  const chosen = form.variant === v.name;
  const id = `variant-${v.name}`;
  return h("div", { class: ["choice", chosen && "chosen"] },
    h("input", { type: "radio", name: "variant", id, value: v.name, checked: chosen, data: { field: "variant" } }),
    h("label", { for: id },
      h("strong", { text: names[v.name] || v.name }),
      h("span", { class: "pick", text: table("variantPicks")[v.name] || "" }),
      chosen ? h("span", { class: "summary", text: table("variantSummaries")[v.name] || "" }) : null,
      chosen ? h("span", { class: "summary match-length", data: { variant: v.name }, text: matchLength(v, limit) }) : null),
    chosen ? h("a", { class: "rules-link", href: `/#rules/${v.name}`, text: t("rulesFull", { name: names[v.name] || v.name }) }) : null,
  );
}

function modeOption(mode, label, help, form) {
  const id = `mode-${mode}`;
  const chosen = form.mode === mode;
  return h("div", { class: ["choice", chosen && "chosen"] },
    h("input", { type: "radio", name: "mode", id, value: mode, checked: chosen, data: { field: "mode" } }),
    h("label", { for: id }, h("strong", { text: label }), chosen ? h("span", { class: "summary", text: help }) : null),
  );
}

/** The options most games keep as they are (turn timer, spectators, chat), folded away. */
function moreOptions(form) {
  const open = Boolean(form.more);
  return h("div", { class: "more-options" },
    h("button", { type: "button", class: "btn small link", id: "more-options", "aria-expanded": open ? "true" : "false", "aria-controls": "more-options-body", data: { action: "lobby-more" }, text: t("moreOptions") }),
    h("div", { id: "more-options-body", hidden: !open },
      form.mode !== "local"
        ? h("label", { class: "field" }, h("span", { text: t("turnTimer") }),
            h("select", { name: "turn_seconds", id: "turn-seconds", data: { field: "turnSeconds" } },
              ["", "30", "60", "120"].map((n) => h("option", { value: n, selected: String(form.turnSeconds || "") === n, text: n ? t("turnTimerN", { n }) : t("turnTimerOff") }))))
        : null,
      h("label", { class: "field check" },
        h("input", { type: "checkbox", name: "spectators", id: "spectators", checked: form.spectators !== false, data: { field: "spectators" } }),
        h("span", { text: t("allowSpectators") })),
      form.mode !== "local"
        ? h("label", { class: "field check" },
            h("input", { type: "checkbox", name: "chat", id: "chat-option", checked: form.chat !== false, data: { field: "chat" } }),
            h("span", { text: t("allowChat") }))
        : null));
}

/** Where a saved room stands for this seat (web/js/saved-status.js), once read. */
function savedStatus(statuses, g) {
  const s = statuses[g.room];
  return s ? h("span", { class: ["saved-status", `status-${s.kind}`], data: { status: s.kind }, text: s.text }) : null;
}

function savedList(kind, title, games, statuses) {
  const mine = games.filter((g) => (g.mode || "online") === kind);
  return h("div", { class: "saved-group", data: { kind } },
    h("h3", { text: title }),
    mine.length
      ? h("ul", {}, mine.map((g) => h("li", { data: { room: g.room } },
          savedStatus(statuses, g),
          h("span", { class: "saved-name" },
            h("strong", { text: (table("variantNames")[g.variant] || g.variant || "") }),
            " ",
            h("span", { class: "muted", text: `${(g.names || []).filter(Boolean).join(" · ")} · ${new Date(g.updated || Date.now()).toLocaleDateString()}` })),
          h("a", { class: "btn small", href: `/r/${g.room}#seat=${g.token}`, data: { action: "resume", room: g.room }, text: t("resume") }),
          h("button", { type: "button", class: "btn small link", data: { action: "forget", room: g.room }, text: t("forget") }))))
      : h("p", { class: "muted", text: t("savedNone") }),
  );
}

/** Local play: a name field for every other player at this device. */
function otherNames(form, players) {
  const fields = [];
  for (let seat = 1; seat < players; seat += 1) {
    fields.push(h("label", { class: "field grow" }, h("span", { text: t("playerName", { n: seat + 1 }) }),
      h("input", { id: `name-${seat}`, maxlength: "24", placeholder: t("defaultName", { n: seat + 1 }), value: form.names?.[seat] || "", data: { seatName: String(seat) } })));
  }
  return fields;
}

/** This browser's statistics per variant and mode, with a reset. */
function statsPanel(rows) {
  const modes = { local: t("savedLocal"), computer: t("savedComputer"), online: t("savedOnline") };
  const pair = (won, played) => t("statsWonOf", { won, played });
  return h("section", { class: "card-panel stats", id: "stats" },
    h("h2", { text: t("statsTitle") }),
    rows.length
      ? h("table", { class: "stats-table" },
          h("thead", {}, h("tr", {},
            h("th", { scope: "col", text: t("statsGame") }),
            h("th", { scope: "col", text: t("statsHands") }),
            h("th", { scope: "col", text: t("statsMatches") }),
            h("th", { scope: "col", text: t("statsBest") }))),
          h("tbody", {}, rows.map((r) => h("tr", { data: { variant: r.variant, mode: r.mode } },
            h("th", { scope: "row", text: `${table("variantNames")[r.variant] || r.variant} · ${modes[r.mode] || r.mode}` }),
            h("td", { class: "hands", text: pair(r.handsWon, r.hands) }),
            h("td", { class: "matches", text: pair(r.matchesWon, r.matches) }),
            h("td", { class: "best", text: r.best === null ? "–" : t("statsPoints", { n: r.best }) })))))
      : h("p", { class: "muted", text: t("statsNone") }),
    rows.length ? h("button", { type: "button", class: "btn small", data: { action: "reset-stats" }, text: t("statsReset") }) : null,
  );
}

export function renderLobby(store) {
  const form = store.lobby.form;
  const variants = store.variants;
  const chosen = variants.find((v) => v.name === form.variant) || variants[0] || {};
  const counts = [];
  for (let n = chosen.min; n <= chosen.max; n += 1) counts.push(n);
  const limit = Number(form.limit) || chosen.penalty_limit;
  const { games, statuses } = store.lobby;
  return h("div", { class: "lobby", id: "lobby" },
    h("form", { class: "card-panel", id: "lobby-form", data: { form: "create" } },
      h("h1", { text: t("lobbyTitle") }),
      h("fieldset", {}, h("legend", { text: t("variant") }), variants.map((v) => variantOption(v, form))),
      h("fieldset", {}, h("legend", { text: t("mode") }),
        modeOption("online", t("modeOnline"), t("modeOnlineHelp"), form),
        modeOption("local", t("modeLocal"), t("modeLocalHelp"), form),
        modeOption("computer", t("modeComputer"), t("modeComputerHelp"), form)),
      h("div", { class: "row fields" },
        counts.length > 1
          ? h("label", { class: "field" }, h("span", { text: t("players") }),
              h("select", { name: "players", id: "players", data: { field: "players" } },
                counts.map((n) => h("option", { value: String(n), selected: Number(form.players) === n, text: String(n) }))))
          : null,
        chosen.penalty_limits?.length
          ? h("label", { class: "field" }, h("span", { text: t("limit") }),
              h("select", { name: "limit", id: "limit", data: { field: "limit" } },
                chosen.penalty_limits.map((n) => h("option", { value: String(n), selected: limit === n, text: t("limitN", { n }) }))))
          : null,
        form.mode === "computer"
          ? h("label", { class: "field" }, h("span", { text: t("level") }),
              h("select", { name: "level", id: "level", data: { field: "level" } },
                ["easy", "medium", "hard"].map((l) => h("option", { value: l, selected: form.level === l, text: t(`level${l[0].toUpperCase()}${l.slice(1)}`) }))))
          : null,
        h("label", { class: "field grow" }, h("span", { text: t("yourName") }),
          h("input", { name: "name", id: "name", maxlength: "24", autocomplete: "nickname", placeholder: t("namePlaceholder"), value: form.name, data: { field: "name" } })),
        form.mode === "local" ? otherNames(form, Number(form.players) || chosen.min || 2) : null),
      moreOptions(form),
      // On a phone the button stays in sight at the screen's foot while the form scrolls.
      h("div", { class: "create-bar" },
        h("button", { type: "submit", class: "btn primary big", id: "create", disabled: !variants.length, text: t("create") })),
      h("p", { class: "challenge-offer" },
        h("button", { type: "button", class: "btn", id: "challenge-create", data: { action: "challenge" }, disabled: !variants.length, text: t("challengeCreate") }),
        " ", h("span", { class: "muted", text: t("challengeCreateHelp") })),
    ),
    h("section", { class: "card-panel saved", id: "saved" },
      h("h2", { text: t("savedTitle") }),
      savedList("local", t("savedLocal"), games, statuses),
      savedList("computer", t("savedComputer"), games, statuses),
      savedList("online", t("savedOnline"), games, statuses),
      h("p", { class: "note", text: t("savedNote") }),
      h("p", {}, h("a", { class: "btn small", id: "replay-page-link", href: "/#replay", text: t("replayPageLink") })),
    ),
    statsPanel(store.lobby.stats),
  );
}

export function renderRules(store) {
  const name = store.lobby.rulesVariant;
  const sections = table("rules")[name] || [];
  return h("article", { class: "card-panel rules", id: "rules" },
    h("h1", { text: table("variantNames")[name] || name }),
    h("p", { class: "summary", text: table("variantSummaries")[name] || "" }),
    sections.map(([head, paras]) => h("section", {}, h("h2", { text: head }), paras.map((p) => h("p", { text: p })))),
    h("p", {}, h("a", { href: "/", class: "btn", text: t("rulesBack") })),
  );
}

export function renderJoin(store) {
  const info = store.lobby.join || {};
  const seats = info.seats || [];
  const names = seats.filter((s) => s.name).map((s) => s.name);
  const full = info.full;
  return h("div", { class: "card-panel join", id: "join" },
    h("h1", { text: t("joinTitle") }),
    info.variant ? h("p", { text: t("joinText", { variant: table("variantNames")[info.variant] || info.variant, names: names.join(", ") || "…" }) }) : null,
    full
      ? h("div", { class: "full" },
          h("p", { class: "error", text: t("roomFull") }),
          // A full room may still be watched, unless its creator turned spectators off.
          info.options?.spectators === false
            ? null
            : h("button", { type: "button", class: "btn primary big", id: "watch-button", data: { action: "watch" }, text: t("watchButton") }))
      : h("form", { data: { form: "join" } },
          h("label", { class: "field" }, h("span", { text: t("yourName") }),
            // Kept in the store as it is typed: a redraw (the variants arriving late) must not wipe it.
            h("input", { name: "name", id: "join-name", maxlength: "24", value: store.lobby.form.name, autocomplete: "nickname", data: { field: "name" } })),
          h("button", { type: "submit", class: "btn primary big", id: "join-button", text: t("joinButton") })),
  );
}

export function renderMessage(text) {
  return h("div", { class: "card-panel" }, h("p", { text }), h("p", {}, h("a", { href: "/", class: "btn", text: t("rulesBack") })));
}
