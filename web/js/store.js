// The one place state lives: the server's view plus what this browser adds (card order,
// selection, staged melds, banners), and a named part for each page's own (lobby, table,
// chat, challenge, replay page, prefs). Renderers read only this; every change dispatches
// "change". Modules keep no state of their own beyond handles of work in flight (a socket,
// a timer), which nothing draws (tests/web/test_web_modules.py).
import { compareByRank, compareBySuit } from "./cards.js";
import { loadOrder, saveOrder } from "./hand-order.js";

let nextId = 1;

/** Keep the player's own card order across views: known cards stay put, new ones go last. */
function reconcile(order, hand) {
  const left = new Map();
  for (const code of hand) left.set(code, (left.get(code) || 0) + 1);
  const kept = [];
  for (const slot of order) {
    const n = left.get(slot.code) || 0;
    if (n > 0) {
      kept.push(slot);
      left.set(slot.code, n - 1);
    }
  }
  for (const code of hand) {
    const n = left.get(code) || 0;
    if (n > 0) {
      kept.push({ id: `c${nextId++}`, code });
      left.set(code, n - 1);
    }
  }
  return kept;
}

const sameHand = (a, b) => a.length === b.length && [...a].sort().join() === [...b].sort().join();

export class Store extends EventTarget {
  constructor() {
    super();
    this.page = "loading"; // loading | lobby | rules | join | table | error
    this.view = null;
    this.session = null; // {room, seat, token, mode, tokens}
    this.variants = [];
    this.order = []; // [{id, code}] in the player's own order
    this.selected = new Set(); // slot ids
    this.newIds = new Set(); // slot ids of cards that just came in
    this.staged = []; // [[slot id]] melds prepared for one "Uitleggen"
    this.toast = null; // {text, detail, code}
    this.connection = "idle"; // idle | open | closed
    this.twoTabs = false;
    this.gone = new Set(); // seats whose player left the table (presence went away)
    // The newest seats heard (a presence frame or a view as it arrives): views still waiting
    // to be shown one by one (motion.js) carry the seats of when they were sent, and must not
    // bring back a player who has left since.
    this.seatsNow = null;
    this.shown = null; // the page (and room) drawn last: a new one opens at its top
    this.inviteCopied = null; // the room whose invite link was copied
    this.revealed = null; // local play: the seat whose cards are uncovered
    this.hint = null;
    this.sheet = []; // [{hand, points}] seen by this browser
    this.replay = null; // {steps, index, focus}: focus marks a reviewed decision's step
    this.review = null; // the hand review on the hand-end screen (review.js)
    this.pending = false;
    this.dragging = null; // {ids, codes} of cards being dragged (drag.js)
    this.message = null; // the error page's sentence
    // This browser's own choices (storage.js), read once at boot; the switches write both.
    this.prefs = { muted: false, motion: true };
    // The pages before a table: the new game's form, the saved games with where each stands
    // (saved-status.js), this browser's statistics, the rules page's variant, a room to join.
    this.lobby = {
      form: { variant: "classic", players: "2", mode: "online", level: "medium", name: "", spectators: true, chat: true },
      games: [], statuses: {}, stats: [], rulesVariant: null, join: null,
    };
    // The table's own, beside the view and the hand above: local play's names typed in the
    // lobby (names.js), the room's wait before a stand-in and the countdown's ticker
    // (seats-alive.js), "while you were away" (missed.js) and the rooms whose first view this
    // page has had, a rematch asked (friends.js), the challenge the room belongs to.
    this.table = {
      localNames: [], awaySeconds: {}, ticker: null, missed: null, opened: new Set(), rematch: null, challenge: null,
    };
    // The room's chat (chat.js): whose it is, what was said, what this seat muted.
    this.chat = { room: null, token: null, seat: null, canWrite: false, open: false, unread: 0, messages: [], muted: new Set(), names: [] };
    // The challenge page (challenge.js): {id, invite, friend, result, error, mine, owned}.
    this.challenge = null;
    // The replay page (replay-page.js): the record file opened and what went wrong reading it;
    // the replay shown, of a room or a file, is `replay` above.
    this.replayPage = { file: null, error: null };
  }

  /** The rule set `name` as GET /api/variants publishes it ({} until it has answered). */
  rules(name = this.view?.variant) {
    return this.variants.find((v) => v.name === name) || {};
  }

  emit() {
    this.dispatchEvent(new Event("change"));
  }

  update(patch) {
    Object.assign(this, patch);
    this.emit();
  }

  /** Replace the view with the server's; an older version than ours is ignored. */
  setView(view) {
    if (!view) return;
    if (this.view && view.version < this.view.version && view.seat === this.view.seat) return;
    // The move's answer and the socket's broadcast carry the same view: rebuilding the hand
    // for the second one would only replace the cards under a finger about to tap them.
    if (this.view && view.version === this.view.version && JSON.stringify(view) === JSON.stringify(this.view)) return;
    const hand = view.hand || [];
    const changed = !this.view || view.seat !== this.view.seat || !sameHand(this.view.hand || [], hand);
    const fresh = !this.view || view.seat !== this.view.seat || view.hand_number !== this.view.hand_number;
    if (fresh) this.order = [];
    const before = new Set(this.order.map((slot) => slot.id));
    this.order = reconcile(this.order, hand);
    // Cards that just came in (a draw, a swapped joker) are marked until the next change.
    if (!fresh && changed) this.newIds = new Set(this.order.filter((s) => !before.has(s.id)).map((s) => s.id));
    else if (fresh) this.newIds = new Set();
    if (fresh) {
      // The order this browser kept for this hand wins; cards it does not know go last.
      const kept = this.session && loadOrder(this.session.room, view.seat, view.hand_number);
      if (kept) this.order = reconcile(kept.map((code) => ({ id: `c${nextId++}`, code })), hand);
      else this.order.sort((a, b) => compareBySuit(a.code, b.code));
    }
    // Keep what is still in the hand selected: a draw arriving after a quick tap loses nothing.
    const ids = new Set(this.order.map((slot) => slot.id));
    if (fresh || !["draw", "play"].includes(view.phase)) {
      this.selected = new Set();
      this.staged = [];
    } else {
      this.selected = new Set([...this.selected].filter((id) => ids.has(id)));
      this.staged = this.staged.filter((group) => group.every((id) => ids.has(id)));
    }
    if (changed || view.version !== this.view?.version) this.hint = null;
    this.view = view;
    this.keepOrder();
    this.emit();
  }

  /** Remember the current card order for a reload of this hand. */
  keepOrder() {
    if (!this.session?.room || !this.view) return;
    saveOrder(this.session.room, this.view.seat, this.view.hand_number, this.order.map((s) => s.code));
  }

  setSeats(seats) {
    if (!this.view) return;
    this.view = { ...this.view, seats };
    this.emit();
  }

  codesOf(ids) {
    const byId = new Map(this.order.map((s) => [s.id, s.code]));
    return ids.map((id) => byId.get(id)).filter(Boolean);
  }

  /** Selected cards in the order they lie in the hand. */
  selectedCodes() {
    return this.order.filter((s) => this.selected.has(s.id)).map((s) => s.code);
  }

  selectedIds() {
    return this.order.filter((s) => this.selected.has(s.id)).map((s) => s.id);
  }

  toggle(id) {
    if (this.selected.has(id)) this.selected.delete(id);
    else this.selected.add(id);
    this.emit();
  }

  /** Select exactly the cards of `codes` (one slot per code, in hand order). */
  selectCodes(codes) {
    const want = [...codes];
    const ids = [];
    for (const slot of this.order) {
      const i = want.indexOf(slot.code);
      if (i >= 0) {
        ids.push(slot.id);
        want.splice(i, 1);
      }
    }
    this.selected = new Set(ids);
    this.staged = [];
    this.emit();
  }

  clearSelection() {
    this.selected = new Set();
    this.emit();
  }

  stageSelection() {
    const ids = this.selectedIds();
    if (!ids.length) return;
    this.staged = [...this.staged, ids];
    this.selected = new Set();
    this.emit();
  }

  stagedIds() {
    return new Set(this.staged.flat());
  }

  sortBy(kind) {
    const cmp = kind === "rank" ? compareByRank : compareBySuit;
    this.order = [...this.order].sort((a, b) => cmp(a.code, b.code));
    this.keepOrder();
    this.emit();
  }

  /** Move the selected cards one place left (-1) or right (+1). */
  shiftSelected(dir) {
    const order = [...this.order];
    const idx = order.map((s, i) => (this.selected.has(s.id) ? i : -1)).filter((i) => i >= 0);
    if (!idx.length) return;
    if (dir < 0 && idx[0] === 0) return;
    if (dir > 0 && idx[idx.length - 1] === order.length - 1) return;
    const seq = dir < 0 ? idx : [...idx].reverse();
    for (const i of seq) [order[i], order[i + dir]] = [order[i + dir], order[i]];
    this.order = order;
    this.keepOrder();
    this.emit();
  }

  /** Drag and drop: put slot `id` before slot `beforeId` (or last when null). */
  moveSlot(id, beforeId) {
    const slot = this.order.find((s) => s.id === id);
    if (!slot || id === beforeId) return;
    const rest = this.order.filter((s) => s.id !== id);
    const at = beforeId ? rest.findIndex((s) => s.id === beforeId) : rest.length;
    rest.splice(at < 0 ? rest.length : at, 0, slot);
    this.order = rest;
    this.keepOrder();
    this.emit();
  }

  showToast(text, detail = "", code = "") {
    this.toast = { text, detail, code, at: Date.now() };
    this.emit();
  }
}

export const store = new Store();
