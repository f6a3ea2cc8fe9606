// Boot: read the route, wire the store to the renderer, and run the game session
// (create, join, connect, watch, act). Routes: "/" lobby, "/#rules/<variant>",
// "/r/<room>[#seat=<token>]", "/r/<room>#watch" (a spectator: the table read-only).
import * as api from "./api.js";
import { noteTurn } from "./notify.js";
import { refreshSavedStatus } from "./saved-status.js";
import { chatFrame, chatSeats, startChat, stopChat } from "./chat.js";
import { cueFor, muted, play } from "./cues.js";
import { friendsGame, learnRematch, rematchFrame } from "./friends.js";
import { bindEvents } from "./events.js";
import { errorText, lang, loadLang, setLang, t } from "./i18n.js";
import { seatName, useLocalNames } from "./names.js";
import { Playback, motionOn } from "./motion.js";
import { render } from "./render.js";
import { redrawOnChange } from "./redraw.js";
import { normalizeVariants } from "./render-lobby.js";
import { newReplay, replaySteps } from "./replay.js";
import { bindReplayPage } from "./replay-page.js";
import { dropReview } from "./review.js";
import { keepSheet, refreshSheet } from "./scoresheet.js";
import { loadSheet, saveGame, savedGame, savedGames } from "./saved.js";
import { recordHand, statsRows } from "./stats.js";
import { noteView } from "./missed.js";
import { learnRoom } from "./seats-alive.js";
import { loadText } from "./storage.js";
import { store } from "./store.js";
import { watchTabs } from "./tabs.js";

let socket = null;
const announceTab = watchTabs(store);

redrawOnChange(store, render);

function showError(err, move = null) {
  const error = err?.error || { code: "network", message: String(err) };
  if (err?.body?.state) receive(err.body.state, true);
  let text = errorText(error);
  if (error.code === "invalid_meld" && move?.melds?.some((g) => g.length >= 6)) text = `${text} ${t("tipGroups")}`;
  // No detail line: the server's English message or the browser's "Failed to fetch" under
  // our own sentence only confuses.
  store.showToast(text, "", error.code);
}

/** Wait (a few seconds at most) for the socket to bring the view of the move made on
 * version `sent`; if it does not, read the view, as an answer would have carried it. */
async function ownMoveShown(sent) {
  const until = Date.now() + 3000;
  while ((socket?.seen ?? -1) <= sent && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  if ((socket?.seen ?? -1) <= sent) receive(unwrapView(await api.getState(store.session.room, store.session.token)), true);
}

function unwrapView(data) {
  return data && data.state && data.state.hand ? data.state : data;
}

function normalizeTokens(tokens) {
  if (!tokens) return null;
  if (Array.isArray(tokens)) return Object.fromEntries(tokens.map((tok, i) => [String(i), tok]));
  return { ...tokens };
}

/** Every view passes here: the score sheet and local-play cover follow it. */
function applyView(view) {
  if (!view || !store.session) return;
  if (view.seats && store.seatsNow?.length === view.seats.length) view = { ...view, seats: store.seatsNow };
  const prev = store.view;
  if (prev && view.hand_number !== prev.hand_number) store.revealed = null;
  // A review belongs to the hand end it was opened on (a new match may restart at hand 1).
  if (store.review && !["hand_over", "match_over"].includes(view.phase)) dropReview(store);
  if (view.hand_result && ["hand_over", "match_over"].includes(view.phase)) {
    recordHand(store.session.room, store.session.mode, view, store.rules(view.variant).scoring === "penalty");
  }
  keepSheet(store, view);
  noteView(store, view);
  const s = store.session;
  if (s.mode === "online" && view.seats?.some((x) => x.bot)) s.mode = "computer";
  s.seat = s.mode === "local" ? s.seat : view.seat;
  // A spectator holds no seat: nothing to resume later.
  if (s.mode !== "watch") saveGame({
    room: s.room, seat: view.seat, token: s.mode === "local" ? s.tokens?.["0"] || s.token : s.token,
    mode: s.mode, tokens: s.tokens, variant: view.variant, hand: view.hand_number,
    names: (view.seats || []).map((x, i) => seatName(view, i)),
  });
  const ended = view.hand_result && (!prev || prev.phase !== view.phase || prev.hand_number !== view.hand_number);
  store.setView(view);
  chatSeats(store, store.view);
  noteTurn(prev, store.view, store.session);
  const cue = cueFor(prev, store.view);
  if (cue && !store.prefs.muted) play(cue);
  if (ended || !prev) refreshSheet(store, api.getLog);
}

// Views from the socket are shown one step at a time (motion.js); answers to this browser's
// own requests at once.
const playback = new Playback({ apply: applyView, current: () => store.view, moving: () => store.prefs.motion });
const receive = (view, own = false) => {
  if (!view || !store.session) return;
  if (view.seats) store.seatsNow = view.seats;
  playback.push(view, own);
};

/** Presence frames: a person whose seat goes dark gets a "left the table" banner. */
function noteDepartures(seats) {
  store.seatsNow = seats;
  const before = store.view?.seats || [];
  const gone = new Set(store.gone);
  (seats || []).forEach((seat, i) => {
    if (seat.connected || seat.bot || i === store.view?.seat) gone.delete(i);
    else if (before[i]?.connected) gone.add(i);
  });
  store.gone = gone;
  store.setSeats(seats);
}

async function connect() {
  const { room, token } = store.session;
  useLocalNames(store.session.mode === "local" ? savedGame(room)?.playerNames : []);
  store.table.challenge = savedGame(room)?.challenge ?? null;
  socket?.close();
  playback.queue = []; // another seat's views (local play) must not land on this one
  store.seatsNow = null;
  store.update({ page: "table" });
  try {
    receive(unwrapView(token ? await api.getState(room, token) : await api.watchRoom(room)));
  } catch (err) {
    if (err.status === 401 || err.status === 403 || err.status === 404 || err.status === 410) {
      // Without a token the only 403 is a room that allows no spectators (docs/api.md v1.1).
      store.message = !token && err.status === 403 ? t("noSpectators") : errorText(err.error);
      store.update({ page: "error" });
      return;
    }
    showError(err);
  }
  socket = new api.RoomSocket(room, token, {
    onMessage: (msg) => {
      if (msg.type === "state") receive(msg.state);
      else if (msg.type === "presence") noteDepartures(msg.seats);
      else if (msg.type === "error") showError({ error: msg.error });
      else if (msg.type === "chat") chatFrame(store, msg);
      else if (msg.type === "rematch") rematchFrame(store, room, msg);
    },
    onStatus: (status, code) => {
      if (status === "fatal") {
        store.message = errorText({ code, message: code });
        store.update({ page: "error", connection: "idle" });
        return;
      }
      // No REST read on "open": the server sends the view on every connect, and a read
      // started here could land after a newer frame of the same version (a join) and undo it.
      store.update({ connection: status });
    },
  });
  if (token) announceTab();
  // One device passed around has nobody to chat with.
  if (store.session.mode === "local") stopChat(store);
  else startChat(store, room, token);
  learnRematch(store, room);
  learnRoom(store, api.getRoom, room).then(() => store.emit());
}

const game = {
  async create() {
    const f = store.lobby.form;
    const players = Number(f.players) || 2;
    const body = { variant: f.variant, players, mode: f.mode, name: f.name || t("defaultName", { n: 1 }) };
    body.spectators = f.spectators !== false;
    body.chat = f.chat !== false;
    if (f.mode !== "local" && Number(f.turnSeconds)) body.turn_seconds = Number(f.turnSeconds);
    if (store.rules(f.variant).penalty_limits?.length) body.limit = Number(f.limit) || store.rules(f.variant).penalty_limit;
    if (f.mode === "computer") {
      body.bots = Object.fromEntries(Array.from({ length: players - 1 }, (_, i) => [String(i + 1), f.level || "medium"]));
    }
    try {
      const res = await api.createRoom(body);
      store.session = { room: res.room, seat: res.seat, token: res.token, mode: f.mode, tokens: normalizeTokens(res.tokens) };
      // Local play: every seat's name from the lobby; a blank one keeps "Player n".
      const playerNames = f.mode === "local" ? Array.from({ length: players }, (_, i) => (i === 0 ? body.name : (f.names?.[i] || "").trim())) : undefined;
      saveGame({ room: res.room, seat: res.seat, token: res.token, mode: f.mode, tokens: store.session.tokens, variant: f.variant, names: [body.name], playerNames });
      history.pushState(null, "", `/r/${res.room}#seat=${res.token}`);
      store.sheet = [];
      await connect();
    } catch (err) {
      showError(err);
    }
  },

  async join(name) {
    const room = store.session.room;
    try {
      const res = await api.joinRoom(room, name || t("defaultName", { n: 2 }));
      store.session = { room, seat: res.seat, token: res.token, mode: "online", tokens: null };
      saveGame({ room, seat: res.seat, token: res.token, mode: "online" });
      history.replaceState(null, "", `/r/${room}#seat=${res.token}`);
      await connect();
    } catch (err) {
      if (err.code === "room_full") store.lobby.join = { ...store.lobby.join, full: true };
      showError(err);
    }
  },

  /** Let the computer play for `seat`, whose owner left (docs/api.md v1.1 stand-in). */
  async standIn(seat) {
    const s = store.session;
    try {
      applyView(unwrapView(await api.standIn(s.room, s.token, seat)));
    } catch (err) {
      showError(err);
    }
  },

  /** Watch a room without a seat: its table read-only, live (docs/api.md v1.1 spectators). */
  async watch() {
    const room = store.session.room;
    store.session = { room, seat: null, token: null, mode: "watch", tokens: null };
    history.replaceState(null, "", `/r/${room}#watch`);
    await connect();
  },

  /** Send a move; `dropped`: a card dragged there, which needs no journey on screen. */
  async move(move, { dropped = false } = {}) {
    if (store.pending || !store.view) return;
    store.pending = true;
    playback.quiet = dropped;
    try {
      const s = store.session;
      const sent = store.view.version;
      // A live socket brings the new view anyway: the answer then carries none (one view
      // per version reaches this browser, not two).
      const live = socket?.token === s.token && socket.seen >= 0;
      const answer = await api.sendMove(s.room, s.token, move, sent, live);
      store.toast = null;
      if (answer?.minimal) await ownMoveShown(sent);
      else receive(unwrapView(answer), true);
    } catch (err) {
      showError(err, move);
    } finally {
      store.pending = false;
      playback.quiet = false;
    }
  },

  async vote(kind) {
    const s = store.session;
    const tokens = s.mode === "local" && s.tokens ? [s.token, ...Object.values(s.tokens).filter((x) => x && x !== s.token)] : [s.token];
    let version = store.view?.version;
    try {
      for (const token of tokens) {
        const view = unwrapView(await api.sendVote(s.room, token, kind, version));
        version = view.version;
        if (token === s.token) receive(view, true);
        const done = !["hand_over", "match_over"].includes(view.phase) && kind === "next_hand";
        if (done || (view.votes?.[kind] || []).length === 0) break;
      }
      store.toast = null;
      receive(unwrapView(await api.getState(s.room, s.token)), true);
    } catch (err) {
      showError(err);
    }
  },

  /** Local play: the next player takes the device and uncovers their own cards. */
  async reveal() {
    const s = store.session;
    const seat = store.view.turn;
    const token = s.tokens?.[String(seat)];
    if (token && token !== s.token) {
      s.token = token;
      s.seat = seat;
      store.revealed = seat;
      await connect();
    } else {
      store.update({ revealed: seat });
    }
  },

  /** The room's replay, of hand `hand` (the log's number; null: the last finished one),
   * with every finished hand of the room to choose from. */
  async openReplay(hand = null) {
    try {
      const replay = await api.getReplay(store.session.room, store.session.token, hand);
      const steps = replaySteps(replay, store.view);
      const extra = { source: "room", hands: replay.hands, hand: replay.hand };
      if (steps.length) store.update({ replay: newReplay(steps, extra, store.replay) });
    } catch (err) {
      showError(err);
    }
  },
};

// Rematch and challenges (web/js/friends.js) act through the same session as the rest.
Object.assign(game, friendsGame({ store, connect, showError, normalizeTokens, closeSocket: () => socket?.close() }));

async function route() {
  const path = location.pathname;
  const m = path.match(/^\/r\/([^/]+)\/?$/);
  const challenge = path.match(/^\/c\/([^/]+)\/?$/);
  if (challenge) return game.showChallenge(decodeURIComponent(challenge[1]));
  if (!m) {
    const rules = location.hash.match(/^#rules\/(\w+)/);
    if (location.hash === "#replay") {
      store.update({ page: "replay", replay: null });
    } else if (rules) {
      store.lobby.rulesVariant = rules[1];
      store.update({ page: "rules" });
      window.scrollTo(0, 0);
    } else {
      const games = savedGames();
      store.lobby.games = games;
      store.lobby.stats = statsRows();
      store.update({ page: "lobby" });
      refreshSavedStatus(store, games);
    }
    stopChat(store);
    return;
  }
  const room = decodeURIComponent(m[1]);
  const hashToken = new URLSearchParams(location.hash.slice(1)).get("seat");
  const saved = savedGame(room);
  store.sheet = loadSheet(room);
  if (location.hash === "#watch") {
    store.session = { room, seat: null, token: null, mode: "watch", tokens: null };
    await connect();
  } else if (hashToken) {
    const known = saved && (saved.token === hashToken || Object.values(saved.tokens || {}).includes(hashToken));
    store.session = { room, seat: null, token: hashToken, mode: known ? saved.mode || "online" : "online", tokens: known ? saved.tokens || null : null };
    await connect();
  } else if (saved?.token) {
    store.session = { room, seat: saved.seat, token: saved.token, mode: saved.mode || "online", tokens: saved.tokens || null };
    history.replaceState(null, "", `/r/${room}#seat=${saved.token}`);
    await connect();
  } else {
    store.session = { room, seat: null, token: null, mode: "online", tokens: null };
    try {
      const info = await api.getRoom(room);
      const seats = info.seats || [];
      const full = seats.length > 0 && seats.every((x) => x.taken || x.bot);
      store.lobby.join = { ...info, full };
      store.update({ page: "join" });
    } catch (err) {
      store.message = err.status === 404 || err.status === 410 ? t("roomGone") : errorText(err.error);
      store.update({ page: "error" });
    }
  }
}

async function boot() {
  setLang(lang(), false);
  await loadLang();
  store.lobby.form.name = loadText("rummy.name") || "";
  store.prefs = { muted: muted(), motion: motionOn() };
  bindEvents(store, game);
  bindReplayPage(store);
  window.addEventListener("hashchange", () => {
    if (location.pathname === "/" || location.pathname === "") route();
  });
  window.addEventListener("popstate", () => route());
  api.getVariants().then((data) => store.update({ variants: normalizeVariants(data) })).catch(() => {});
  await route();
}

boot();
