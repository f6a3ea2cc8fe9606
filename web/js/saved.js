// Games this browser holds a seat in. Seat tokens live here (localStorage, storage.js) and
// in the URL fragment only: they never reach a server log.
import { drop, keep, load } from "./storage.js";

const KEY = "rummy.games";

const readAll = () => load(KEY, {});
const writeAll = (all) => keep(KEY, all);

export function savedGames() {
  return Object.values(readAll()).sort((a, b) => (b.updated || 0) - (a.updated || 0));
}

export function savedGame(room) {
  return readAll()[room] || null;
}

export function saveGame(entry) {
  const all = readAll();
  all[entry.room] = { ...(all[entry.room] || {}), ...entry, updated: Date.now() };
  writeAll(all);
}

export function forgetGame(room) {
  const all = readAll();
  delete all[room];
  writeAll(all);
  drop(`rummy.sheet.${room}`);
}

/** The score sheet this browser saw: [{hand, points}] per finished hand. */
export function loadSheet(room) {
  return load(`rummy.sheet.${room}`, []);
}

export function saveSheet(room, sheet) {
  keep(`rummy.sheet.${room}`, sheet);
}

export const seatUrl = (room, token) => `${location.origin}/r/${room}#seat=${token}`;
export const inviteUrl = (room) => `${location.origin}/r/${room}`;
