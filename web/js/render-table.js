// The table during a hand: opponents, stock and discard, melds, helpers, actions, your hand.
import { cardLabel, cardName, cardsShort, isJoker, renderBack, renderCard } from "./cards.js";
import { h } from "./dom.js";
import { isMeld, layoffMelds, layoffsOf, legalMeld, legalOf, openingTotal, penaltyTotal, swapMelds } from "./legal.js";
import { t, table } from "./i18n.js";
import { describeMove, seatName } from "./names.js";
import { inviteUrl, seatUrl } from "./saved.js";
import { renderNewMatch, renderScores } from "./render-end.js";
import { turnClock } from "./seats-alive.js";

const PLAYING = ["draw", "play"];

function dot(seat) {
  const on = seat?.connected || seat?.bot;
  return h("span", {
    class: ["dot", on ? "on" : "off"],
    role: "img",
    "aria-label": on ? t("connected") : t("disconnected"),
    title: on ? t("connected") : t("disconnected"),
    data: { presence: on ? "on" : "off" },
  });
}

function botLabel(level) {
  const key = { easy: "levelEasy", medium: "levelMedium", hard: "levelHard" }[level];
  return key ? `${t("bot")} · ${t(key).toLowerCase()}` : t("bot");
}

/** Where each other seat sits, in the order of play after yours: one across for two
 * players; left and right for three; left, across, right for four. */
function seatsAround(n) {
  if (n === 1) return ["across"];
  if (n === 2) return ["left", "right"];
  return ["left", ...Array(n - 2).fill("across"), "right"];
}

function opponent(view, seat, local, place) {
  const info = { ...(view.seats?.[seat] || {}) };
  if (local) info.connected = true; // one device holds every seat
  const count = view.hand_counts?.[seat] ?? 0;
  const backs = [];
  for (let i = 0; i < Math.min(count, 14); i += 1) backs.push(renderBack({ small: true }));
  return h(
    "section",
    {
      class: ["opponent", `at-${place}`, view.turn === seat && PLAYING.includes(view.phase) && "turn"],
      data: { seat: String(seat) },
      "aria-label": `${seatName(view, seat)}, ${t("cardsCount", { n: count })}`,
    },
    h("div", { class: "who" },
      dot(info),
      h("span", { class: "name", text: seatName(view, seat) }),
      info.bot ? h("span", { class: "tag", title: info.bot, text: botLabel(info.bot) }) : null,
      info.stand_in ? h("span", { class: "tag stand-in", text: t("computerPlaysFor", { name: seatName(view, seat) }) }) : null,
      h("span", { class: "seatno", text: t("seatLabel", { seat: seat + 1 }) }),
    ),
    h("div", { class: "backs", "aria-hidden": "true" }, backs),
    h("div", { class: "count", data: { count: String(count) }, text: t("cardsCount", { n: count }) }),
  );
}

function pile(view, legal, drop) {
  const canDraw = (source) => legal.draw.includes(source);
  const stock = h(
    "button",
    {
      type: "button",
      class: ["pile", "stock", canDraw("stock") && "can"],
      data: { action: "draw", source: "stock" },
      "aria-label": t("stockLabel", { n: view.stock_count }),
      disabled: !canDraw("stock"),
    },
    renderBack(),
  );
  const lastDiscard = view.last_move?.move?.type === "discard";
  const top = view.discard_top;
  const discard = h(
    "button",
    {
      type: "button",
      class: ["pile", "discard", canDraw("discard") && "can", lastDiscard && "last", drop?.length === 1 && legal.discard.includes(drop[0]) && "drop-ok"],
      data: { action: "draw", source: "discard" },
      "aria-label": top ? t("discardLabel", { card: cardLabel(top) }) : t("discardEmpty"),
      disabled: !canDraw("discard"),
    },
    top ? renderCard(top, { attrs: { "data-card": top } }) : h("div", { class: "card empty", "aria-hidden": "true" }),
  );
  // The count sits on the pile's corner but outside its button: the button's name says it,
  // and its visible text must stay within that name (WCAG 2.5.3).
  const counted = (button, n) => h("div", { class: "pile-wrap" }, button, h("span", { class: "pile-count", "aria-hidden": "true", text: String(n) }));
  return h("div", { class: "piles" },
    h("figure", {}, counted(stock, view.stock_count), h("figcaption", { text: t("stock") })),
    h("figure", {}, counted(discard, view.discard_count), h("figcaption", { text: t("discardPile") })),
  );
}

function status(store, view, myTurn) {
  let line;
  if (view.phase === "waiting") {
    const free = (view.seats || []).filter((s) => !s.name).length || 1;
    line = t("waitingFor", { n: free });
  } else if (!PLAYING.includes(view.phase)) {
    line = t("handOver", { n: view.hand_number });
  } else if (myTurn) line = view.phase === "draw" ? t("yourTurnDraw") : t("yourTurnPlay");
  else line = t("theirTurn", { name: seatName(view, view.turn) });
  return h("div", { class: "status" },
    h("p", { class: ["turn-line", myTurn && "mine"], id: "turn-line", text: line }),
    ...turnClock(store),
    view.last_move ? h("p", { class: "last-move", id: "last-move", text: describeMove(view, view.last_move) }) : null,
  );
}

function lastMeldIds(view) {
  const m = view.last_move?.move;
  if (!m) return new Set();
  if (m.type === "layoff" || m.type === "swap") return new Set([m.meld]);
  if (m.type === "meld") {
    const keys = new Set((m.melds || []).map((g) => [...g].sort().join()));
    return new Set(view.melds.filter((x) => keys.has([...x.cards].sort().join())).map((x) => x.id));
  }
  return new Set();
}

function meldView(view, meld, ctx) {
  const { selection, canPlay, lastIds, legal } = ctx;
  // Lit exactly where `legal` says: the run ends listed for a single card, the melds every
  // selected card may go onto, the joker swaps open now.
  const ends = new Set(selection.length === 1 ? layoffsOf(legal, selection[0]).filter((l) => l.meld === meld.id).map((l) => l.end) : []);
  const fitsAll = ctx.fits.has(meld.id);
  const swappable = selection.length === 1 && swapMelds(legal, selection[0]).has(meld.id);
  const cards = meld.cards.map((c, i) => {
    const stands = meld.stands_for?.[i];
    if (isJoker(c) && stands && !isJoker(stands)) {
      // A joker on the table wears the card it stands for, in joker colours.
      const el = renderCard(stands, { classes: ["small", "joker-as"] });
      el.setAttribute("aria-label", `${cardName(c)}, ${t("standsFor", { card: cardName(stands) })}`);
      el.title = t("standsFor", { card: cardsShort([stands]) });
      el.append(h("span", { class: "joker-badge", "aria-hidden": "true", text: "★" }));
      el.dataset.card = c;
      return el;
    }
    return renderCard(c, { classes: ["small"], attrs: { "data-card": c } });
  });
  const label = t("meldLabel", { kind: meld.kind === "set" ? t("meldSet") : t("meldRun"), cards: meld.cards.map(cardName).join(", ") });
  const end = (side) => h("button", {
    type: "button",
    class: ["end", side],
    data: { action: "layoff", meld: meld.id, end: side },
    "aria-label": `${t("layoff")} (${t(side === "low" ? "lowEnd" : "highEnd")})`,
    text: "+",
  });
  return h(
    "div",
    {
      class: ["meld", meld.kind, fitsAll && canPlay && "fits", lastIds.has(meld.id) && "last", ctx.drop && layoffMelds(legal, ctx.drop).has(meld.id) && "drop-ok"],
      data: { meld: meld.id, cards: meld.cards.join(), action: canPlay && selection.length ? "layoff" : null, fits: fitsAll ? "yes" : null },
      role: canPlay && selection.length ? "button" : "group",
      tabindex: canPlay && selection.length ? "0" : null,
      "aria-label": fitsAll ? `${label}, ${t("fitsHere")}` : label,
    },
    canPlay && ends.has("low") ? end("low") : null,
    h("div", { class: "meld-cards" }, cards),
    canPlay && ends.has("high") ? end("high") : null,
    canPlay && swappable ? h("button", { type: "button", class: "swap", data: { action: "swap", meld: meld.id }, text: t("swap") }) : null,
  );
}

function melds(view, ctx) {
  // The felt takes a meld dropped on it: lit when `legal` lists the dragged cards as one.
  const ok = ctx.drop && isMeld(ctx.legal, ctx.drop) && "drop-ok";
  if (!view.melds.length) return h("section", { class: ["melds", "empty", ok], id: "melds", "aria-label": t("tableEmpty") }, h("p", { text: t("tableEmpty") }));
  return h("section", { class: ["melds", ok], id: "melds" }, view.melds.map((m) => meldView(view, m, ctx)));
}

function meters(store, view, myTurn, legal) {
  const items = [];
  const hand = view.hand || [];
  const rules = store.rules(view.variant);
  const minimum = legal.opening && !legal.opening.opened ? legal.opening.needed : 0;
  if (minimum) {
    const groups = [...store.staged.map((ids) => store.codesOf(ids)), store.selectedCodes()];
    const n = openingTotal(legal, groups);
    items.push(h("div", { class: ["meter", "opening", n >= minimum && "ok"], id: "opening-meter", data: { value: String(n) } },
      h("span", { class: "meter-text", text: t("openingMeter", { n, min: minimum }) }),
      h("span", { class: "bar", "aria-hidden": "true" }, h("span", { class: "fill", style: `width:${Math.min(100, (n / minimum) * 100)}%` })),
      n >= minimum ? h("span", { class: "ok-text", text: t("openingOk") }) : null,
    ));
  }
  if (PLAYING.includes(view.phase)) {
    const n = penaltyTotal(hand, rules);
    const key = rules.scoring === "penalty" ? "penaltyMeterTake" : "penaltyMeterGive";
    items.push(h("div", { class: "meter penalty", id: "penalty-meter", data: { value: String(n) }, text: t(key, { n }) }));
  }
  if (myTurn && (view.must_play || []).length) {
    items.push(h("div", { class: "meter warn", text: t("mustPlay", { cards: cardsShort(view.must_play) }) }));
  }
  if (store.hint) {
    items.push(h("div", { class: "hint", id: "hint", role: "status" },
      h("strong", { text: t("hintPrefix") }), " ", t(store.hint.key, store.hint.params),
      store.hint.cards.length ? h("button", { type: "button", class: "btn small", data: { action: "take-hint" }, text: t("hintSelect") }) : null));
  }
  return h("div", { class: "meters" }, items);
}

function actions(store, view, myTurn, anyFits, legal) {
  const play = myTurn && view.phase === "play";
  const n = store.selected.size;
  const selection = store.selectedCodes();
  // A selection is a meld when `legal.melds` lists it; staged melds were checked when staged.
  const meldable = n > 0 && isMeld(legal, selection);
  const btn = (action, label, { enabled = true, cls = "" } = {}) =>
    h("button", { type: "button", class: ["btn", cls], data: { action }, disabled: !enabled, text: label });
  // A label with words is spoken as shown, then explained (a voice user says what they see).
  const spoken = (label, name) => (/\p{L}/u.test(label) ? `${label} (${name})` : name);
  const tool = (action, label, name, enabled = true) =>
    h("button", { type: "button", class: "btn small", data: { action }, disabled: !enabled, "aria-label": spoken(label, name), title: name, text: label });
  const staged = store.staged.length
    ? h("div", { class: "staged", id: "staged" },
        h("span", { text: t("staged") }),
        // In the order the meld goes out, so a joker shows the place it will take.
        store.staged.map((ids) => h("span", { class: "group", text: cardsShort(legalMeld(legal, store.codesOf(ids)) || store.codesOf(ids)) })),
        btn("unstage", t("clearStaged"), { cls: "link" }))
    : null;
  return h("div", { class: "actions" },
    h("div", { class: "row main-actions" },
      btn("meld", t("meld"), { enabled: play && (meldable || (n === 0 && store.staged.length > 0)), cls: "primary" }),
      btn("stage", t("stage"), { enabled: play && meldable }),
      btn("discard", t("discard"), { enabled: play && n === 1 && legal.discard.includes(selection[0]), cls: "primary" }),
      btn("hint", t("hint"), { enabled: myTurn && PLAYING.includes(view.phase) }),
    ),
    play && n > 0 && anyFits ? h("p", { class: "help", text: t("layoffHelp") }) : null,
    staged,
    h("div", { class: "row tools" },
      h("span", { class: "tools-label", text: t("sort") }),
      tool("sort-suit", t("sortSuitShort"), t("sortSuit")),
      tool("sort-rank", t("sortRankShort"), t("sortRank")),
      tool("move-left", "◀", t("moveLeft"), n > 0),
      tool("move-right", "▶", t("moveRight"), n > 0),
      tool("deselect", "✕", t("deselect"), n > 0),
    ),
  );
}

function hand(store, view) {
  const hinted = new Set(store.hint?.cards || []);
  const stagedIds = store.stagedIds();
  const cards = store.order.map((slot, i) => {
    const selected = store.selected.has(slot.id);
    const el = renderCard(slot.code, {
      tag: "button",
      classes: [selected && "selected", stagedIds.has(slot.id) && "staged", hinted.has(slot.code) && "hinted",
        store.newIds.has(slot.id) && "new", store.dragging?.ids.has(slot.id) && "dragging",
        slot.code === view.drawn_from_discard && "drawn"].filter(Boolean),
      attrs: {
        "data-action": "select",
        "data-id": slot.id,
        "data-card": slot.code,
        "aria-pressed": selected ? "true" : "false",
      },
    });
    el.style.setProperty("--i", String(i));
    return el;
  });
  // A pulse on the hand when it is your turn to draw: the cue a glance can catch.
  const pulse = view.turn === view.seat && view.phase === "draw";
  return h("section", { class: ["hand-wrap", pulse && "pulse"], "aria-label": t("yourHand") },
    h("h2", { class: "sr-only", text: t("yourHand") }),
    h("div", { class: "hand", id: "hand", data: { region: "hand" }, style: `--n:${cards.length};--mid:${(cards.length - 1) / 2}` }, cards),
  );
}

function ownLink(session) {
  return h("details", { class: "own-link" },
    h("summary", { text: t("ownLink") }),
    h("input", { readonly: true, value: seatUrl(session.room, session.token), "aria-label": t("ownLink") }));
}

export function renderInvite(view, session, copied = false) {
  const url = inviteUrl(session.room);
  const firstFree = (view?.seats || []).findIndex((s) => !s.name && !s.bot);
  return h("section", { class: "invite", id: "invite" },
    h("h2", { text: t("inviteTitle") }),
    h("p", { text: t("inviteText", { seat: (firstFree >= 0 ? firstFree : 1) + 1 }) }),
    h("div", { class: "copy-row" },
      h("input", { class: "invite-url", id: "invite-url", readonly: true, value: url, "aria-label": t("inviteTitle") }),
      h("button", { type: "button", class: "btn primary", data: { action: "copy-invite" }, text: copied ? t("inviteCopied") : t("inviteCopy") }),
    ),
    ownLink(session),
  );
}

/** The felt: the other seats around it, the piles and the turn in the middle, the melds. */
function felt(view, others, session, middle, meldArea) {
  const places = seatsAround(others.length);
  const at = (place) => others.filter((_, i) => places[i] === place).map((s) => opponent(view, s, session.mode === "local", place));
  return h("div", { class: "felt", data: { around: String(others.length) } },
    h("div", { class: "seats-left" }, at("left")),
    h("div", { class: "seats-across" }, at("across")),
    h("div", { class: "seats-right" }, at("right")),
    h("div", { class: "center" }, middle),
    meldArea,
  );
}

export function renderTable(store) {
  const view = store.view;
  const session = store.session;
  const myTurn = view.turn === view.seat && PLAYING.includes(view.phase);
  // A spectator's view has no seat (docs/api.md v1.1): every seat sits across, nothing to play.
  const watching = view.seat === null;
  const others = [];
  const first = watching ? 0 : 1;
  for (let i = first; i < view.hand_counts.length; i += 1) others.push(((view.seat ?? 0) + i) % view.hand_counts.length);
  const legal = legalOf(view);
  const selection = store.selectedCodes();
  const drop = store.dragging?.codes || null;
  const ctx = { selection, canPlay: myTurn && view.phase === "play", lastIds: lastMeldIds(view), legal, fits: layoffMelds(legal, selection), drop };
  const anyFits = ctx.fits.size > 0;
  const needInvite = session.mode === "online" && (view.phase === "waiting" || (view.seats || []).some((s) => !s.name && !s.bot));
  const me = view.seats?.[view.seat] || {};
  return h("div", { class: ["table", `phase-${view.phase}`, myTurn && "my-turn"], id: "table", data: { phase: view.phase, seat: String(view.seat) } },
    // The page's heading for screen readers: what is played, which hand (the top bar shows it).
    h("h1", { class: "sr-only", id: "table-title", text: `${table("variantNames")[view.variant] || view.variant} · ${t("handNo", { n: view.hand_number })}` }),
    needInvite ? renderInvite(view, session, store.inviteCopied === session.room) : null,
    felt(view, others, session, [pile(view, legal, drop), status(store, view, myTurn)], melds(view, ctx)),
    watching ? h("p", { class: "watching", id: "watching", role: "status", text: t("watching") }) : h("div", { class: ["me", myTurn && "turn"], data: { seat: String(view.seat) } },
      dot({ ...me, connected: store.connection === "open" }),
      h("span", { class: "name", text: `${seatName(view, view.seat)} (${t("you")})` }),
      h("span", { class: "seatno", text: t("seatLabel", { seat: view.seat + 1 }) }),
      h("span", { class: "count", text: t("cardsCount", { n: (view.hand || []).length }) }),
    ),
    store.order.length ? hand(store, view) : null,
    // Below the hand: what appears and goes (help, staged melds, meters, hints) never moves it.
    PLAYING.includes(view.phase) && !watching ? actions(store, view, myTurn, anyFits, legal) : null,
    // An error shows here (render.js moves the toast in): under the buttons, over nothing.
    h("div", { class: "toast-dock", id: "toast-dock" }),
    watching ? null : meters(store, view, myTurn, legal),
    renderScores(store, view, [
      [...PLAYING, "hand_over"].includes(view.phase) && !watching ? renderNewMatch(store, view) : null,
      session.mode !== "local" && !needInvite && session.token ? ownLink(session) : null,
    ]),
  );
}
