// Every user input, turned into store changes or API calls. One delegated listener per
// kind of event; hooks are data-* attributes.
import { delegate } from "./dom.js";
import { bindDrag } from "./drag.js";
import { legalMeld, legalOf } from "./legal.js";
import { fetchHint } from "./hint.js";
import { setMuted } from "./cues.js";
import { setMotion } from "./motion.js";
import { errorText, lang, loadLang, setLang, t } from "./i18n.js";
import { decisionReplay, dropReview, loadReview } from "./review.js";
import { replayActions } from "./replay-page.js";
import { closeReplay, goTo, newReplay, play, replayKey, setSpeed } from "./replay.js";
import { forgetGame, inviteUrl, savedGames } from "./saved.js";
import { resetStats, statsRows } from "./stats.js";
import { keepText } from "./storage.js";

const PLAYING = ["draw", "play"];

export function bindEvents(store, game) {
  const body = document.body;
  const myTurn = () => store.view && store.view.turn === store.view.seat && PLAYING.includes(store.view.phase);

  function meldMove() {
    const groups = [...store.staged.map((ids) => store.codesOf(ids))];
    const sel = store.selectedCodes();
    if (sel.length) groups.push(sel);
    if (!groups.length) {
      store.showToast(t("selectMeld"));
      return;
    }
    // Sent in the order `legal.melds` lists them, so the joker's place is the one the
    // opening meter counted; a meld missing from a full list goes as the player holds it.
    const legal = legalOf(store.view);
    const melds = groups.map((g) => legalMeld(legal, g) || g);
    game.move({ type: "meld", melds });
  }

  function discard() {
    const sel = store.selectedCodes();
    if (sel.length !== 1) {
      store.showToast(t("selectOne"));
      return;
    }
    game.move({ type: "discard", card: sel[0] });
  }

  function layoff(meldId, end) {
    const cards = store.selectedCodes();
    if (!cards.length || !myTurn()) return;
    const move = { type: "layoff", meld: meldId, cards };
    if (end) move.end = end;
    game.move(move);
  }

  /** Enter on a card: the one obvious action for the current selection. */
  function act() {
    const view = store.view;
    if (!myTurn()) return;
    if (view.phase === "draw") game.move({ type: "draw", source: legalOf(view).draw.includes("discard") && !legalOf(view).draw.includes("stock") ? "discard" : "stock" });
    else if (store.selected.size === 1 && !store.staged.length) discard();
    else meldMove();
  }

  const actions = {
    lang: async () => {
      setLang(lang() === "nl" ? "en" : "nl");
      await loadLang();
      store.emit();
    },
    mute: () => {
      store.prefs.muted = !store.prefs.muted;
      setMuted(store.prefs.muted);
      store.emit();
    },
    motion: () => {
      store.prefs.motion = !store.prefs.motion;
      setMotion(store.prefs.motion);
      store.emit();
    },
    draw: (el) => game.move({ type: "draw", source: el.dataset.source }),
    select: (el) => {
      // A staged card already belongs to a meld of the next "Uitleggen".
      if (!store.stagedIds().has(el.dataset.id)) store.toggle(el.dataset.id);
    },
    meld: meldMove,
    stage: () => store.stageSelection(),
    unstage: () => store.update({ staged: [] }),
    discard,
    layoff: (el) => layoff(el.dataset.meld, el.dataset.end),
    swap: (el) => {
      const cards = store.selectedCodes();
      if (cards.length === 1) game.move({ type: "swap", meld: el.dataset.meld, card: cards[0] });
    },
    hint: async () => {
      const version = store.view?.version;
      const hint = await fetchHint(store);
      // A hint for a view that has moved on would point at the wrong cards.
      if (store.view?.version === version) store.update({ hint });
    },
    "take-hint": () => store.selectCodes(store.hint?.cards || []),
    "sort-suit": () => store.sortBy("suit"),
    "sort-rank": () => store.sortBy("rank"),
    "move-left": () => store.shiftSelected(-1),
    "move-right": () => store.shiftSelected(1),
    deselect: () => store.update({ selected: new Set(), staged: [] }),
    vote: (el) => {
      const kind = el.dataset.vote;
      // A restart throws the match's scores away: asked once more, whenever it is pressed.
      if (kind === "new_match" && !window.confirm(t("newMatchConfirm"))) return;
      game.vote(kind);
    },
    "copy-invite": async () => {
      const url = inviteUrl(store.session.room);
      try {
        await navigator.clipboard.writeText(url);
      } catch {
        const input = document.getElementById("invite-url");
        input?.select();
        document.execCommand?.("copy");
      }
      // In the store, not on the button: the next presence or state frame re-renders it.
      store.update({ inviteCopied: store.session.room });
    },
    reveal: () => game.reveal(),
    replay: () => game.openReplay(),
    "replay-prev": () => goTo(store, store.replay.index - 1),
    "replay-next": () => goTo(store, store.replay.index + 1),
    "replay-first": () => goTo(store, 0),
    "replay-last": () => goTo(store, store.replay.steps.length - 1),
    "replay-go": (el) => goTo(store, Number(el.dataset.step)),
    "replay-play": () => play(store, !store.replay.playing),
    "replay-close": () => closeReplay(store),
    review: (el) => loadReview(store, Number(el.dataset.seat)),
    "review-toggle": (el) => {
      if (!store.review) {
        loadReview(store, Number(el.dataset.seat));
        return;
      }
      dropReview(store);
      store.emit();
    },
    "review-show": (el) => {
      const replay = decisionReplay(store, Number(el.dataset.version));
      if (replay) store.update({ replay: newReplay(replay.steps, replay, store.replay) });
    },
    forget: (el) => {
      forgetGame(el.dataset.room);
      store.lobby.games = savedGames();
      store.emit();
    },
    "reset-stats": () => {
      resetStats();
      store.lobby.stats = statsRows();
      store.emit();
    },
    "toast-close": () => store.update({ toast: null }),
    "missed-close": () => {
      store.table.missed = null;
      store.emit();
    },
    watch: () => game.watch(),
    "lobby-more": () => {
      store.lobby.form.more = !store.lobby.form.more;
      store.emit();
    },
    rematch: () => game.rematch(),
    challenge: () => game.challenge(),
    "challenge-refresh": () => game.showChallenge(store.challenge?.id),
    "stand-in": (el) => game.standIn(Number(el.dataset.seat)),
    ...replayActions(store, (err) => store.showToast(errorText(err?.error || { code: "network" })), (hand) => game.openReplay(hand)),
  };

  delegate(body, "click", "[data-action]", (ev, el) => {
    const fn = actions[el.dataset.action];
    if (!fn || el.disabled) return;
    if (el.dataset.action === "resume") return; // a plain link
    // A click on a card or end button inside a meld is that control's, not the meld's.
    if (el.classList.contains("meld") && ev.target.closest("button") && ev.target.closest("button") !== el) return;
    ev.preventDefault();
    fn(el, ev);
  });

  document.addEventListener("keydown", (ev) => replayKey(store, ev));
  delegate(body, "change", "[data-replay-speed]", (ev, el) => setSpeed(store, Number(el.value)));

  delegate(body, "keydown", ".hand .card", (ev, el) => {
    if (ev.key === " ") {
      ev.preventDefault();
      if (!store.stagedIds().has(el.dataset.id)) store.toggle(el.dataset.id);
    } else if (ev.key === "Enter") {
      ev.preventDefault();
      act();
    } else if (ev.key === "ArrowLeft" || ev.key === "ArrowRight") {
      ev.preventDefault();
      const dir = ev.key === "ArrowLeft" ? -1 : 1;
      if (ev.shiftKey) {
        if (!store.selected.has(el.dataset.id)) store.selected.add(el.dataset.id);
        store.shiftSelected(dir);
        return;
      }
      const sib = dir < 0 ? el.previousElementSibling : el.nextElementSibling;
      sib?.focus();
    }
  });
  delegate(body, "keyup", ".hand .card", (ev) => {
    if (ev.key === " ") ev.preventDefault();
  });
  delegate(body, "keydown", ".meld[role=button]", (ev, el) => {
    if ((ev.key === "Enter" || ev.key === " ") && ev.target === el) {
      ev.preventDefault();
      layoff(el.dataset.meld);
    }
  });

  bindDrag(store, game);

  delegate(body, "change", "[data-field]", (ev, el) => {
    const lobby = store.lobby.form;
    const field = el.dataset.field;
    lobby[field] = el.type === "checkbox" ? el.checked : el.value;
    if (field === "variant") {
      const v = store.variants.find((x) => x.name === el.value);
      if (v) lobby.players = String(Math.min(Math.max(Number(lobby.players) || v.min, v.min), v.max));
    }
    if (field !== "name") store.emit();
  });
  delegate(body, "input", "[data-field=name]", (ev, el) => {
    store.lobby.form.name = el.value;
  });
  delegate(body, "input", "[data-seat-name]", (ev, el) => {
    const lobby = store.lobby.form;
    lobby.names = { ...lobby.names, [el.dataset.seatName]: el.value };
  });
  // The challenge page redraws as results come in: what is typed must outlive a redraw.
  delegate(body, "input", "#challenge-name", (ev, el) => {
    store.lobby.form.name = el.value;
  });
  delegate(body, "submit", "form[data-form]", (ev, el) => {
    ev.preventDefault();
    const data = new FormData(el);
    const name = String(data.get("name") || "").trim();
    // A friend's name for a challenge link: not the player's own.
    if (el.dataset.form === "challenge-invite") return game.inviteFriend(name);
    store.lobby.form.name = name;
    keepText("rummy.name", name);
    if (el.dataset.form === "create") game.create();
    else if (el.dataset.form === "challenge") game.playChallenge(name);
    else game.join(name);
  });
}
