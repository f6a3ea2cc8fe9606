// The friends' actions of the table (docs/api.md v1.2): a rematch at the match's end, and
// challenges (a computer match whose deals a friend plays too, and the page comparing them).
import * as api from "./api.js";
import { keepOwned, loadChallenge } from "./challenge.js";
import { stopChat } from "./chat.js";
import { t } from "./i18n.js";
import { saveGame } from "./saved.js";

/** A `{"type": "rematch"}` frame: who asked, and where the new room is. */
export function rematchFrame(store, room, msg) {
  store.table.rematch = { from: room, room: msg.room, seat: msg.seat, name: msg.name };
  store.emit();
}

/** A rematch asked before this page opened: the frame is gone, the summary says it. */
export function learnRematch(store, room) {
  store.table.rematch = null;
  api.getRoom(room).then((info) => {
    if (info.rematch && store.session?.room === room && !store.table.rematch) {
      store.table.rematch = { from: room, room: info.rematch, seat: null, name: t("someone") };
      store.emit();
    }
  }).catch(() => {});
}

/** The game's rematch and challenge actions, given what the session in main.js does. */
export function friendsGame({ store, connect, showError, normalizeTokens, closeSocket }) {
  return {
    /** "Challenge a friend": a computer match whose deals a friend can play too. */
    async challenge() {
      const f = store.lobby.form;
      const players = Number(f.players) || 2;
      const bots = Object.fromEntries(Array.from({ length: players - 1 }, (_, i) => [String(i + 1), f.level || "medium"]));
      const name = f.name || t("defaultName", { n: 1 });
      try {
        const first = t("challengeFriend");
        const res = await api.createChallenge({ variant: f.variant, players, bots, name, invite_name: first });
        saveGame({ room: res.room, seat: 0, token: res.token, mode: "computer", variant: f.variant, names: [name], challenge: res.challenge });
        // The owner secret stays on this device: it makes the next friends' links.
        keepOwned(res.challenge, { owner: res.owner, links: [{ name: first, url: res.challenge_url }] });
        history.pushState(null, "", `/c/${res.challenge}`);
        await this.showChallenge(res.challenge);
      } catch (err) {
        showError(err);
      }
    },

    /** One more link, for the friend called `name` (the maker's device only). */
    async inviteFriend(name) {
      const c = store.challenge;
      const owned = c?.owned;
      if (!owned || !name) return;
      try {
        const res = await api.inviteToChallenge(c.id, owned.owner, name);
        c.owned = { ...owned, links: [...owned.links, { name: res.name, url: res.url }] };
        keepOwned(c.id, c.owned);
        c.friend = "";
        store.emit();
      } catch (err) {
        showError(err);
      }
    },

    async playChallenge(name) {
      const id = store.challenge?.id;
      try {
        const res = await api.playChallenge(id, name || t("defaultName", { n: 1 }), store.challenge?.invite);
        const variant = store.challenge.result?.variant;
        saveGame({ room: res.room, seat: 0, token: res.token, mode: "computer", variant, names: [name], challenge: id });
        store.session = { room: res.room, seat: 0, token: res.token, mode: "computer", tokens: null };
        history.pushState(null, "", `/r/${res.room}#seat=${res.token}`);
        store.sheet = [];
        await connect();
      } catch (err) {
        showError(err);
      }
    },

    async showChallenge(id) {
      if (!id) return;
      closeSocket();
      stopChat(store);
      await loadChallenge(store, id);
      store.update({ page: "challenge" });
    },

    /** The match is over: this seat's place in the rematch (made now, or taken). */
    async rematch() {
      const s = store.session;
      try {
        const res = await api.rematch(s.room, s.token);
        const tokens = normalizeTokens(res.tokens);
        store.session = { room: res.room, seat: res.seat, token: res.token, mode: s.mode, tokens };
        saveGame({ room: res.room, seat: res.seat, token: res.token, mode: s.mode, tokens, variant: store.view?.variant });
        history.pushState(null, "", `/r/${res.room}#seat=${res.token}`);
        store.sheet = [];
        store.revealed = null;
        await connect();
      } catch (err) {
        showError(err);
      }
    },
  };
}
