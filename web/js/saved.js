// Games this browser holds a seat in. Seat tokens live here (localStorage) and in the
// URL fragment only: they never reach a server log.
const KEY = "rummy.games";

function readAll() {
  try {
    return JSON.parse(localStorage.getItem(KEY)) || {};
  } catch {
    return {};
  }
}

function writeAll(all) {
  localStorage.setItem(KEY, JSON.stringify(all));
}

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
  localStorage.removeItem(`rummy.sheet.${room}`);
}

/** The score sheet this browser saw: [{hand, points}] per finished hand. */
export function loadSheet(room) {
  try {
    return JSON.parse(localStorage.getItem(`rummy.sheet.${room}`)) || [];
  } catch {
    return [];
  }
}

export function saveSheet(room, sheet) {
  localStorage.setItem(`rummy.sheet.${room}`, JSON.stringify(sheet));
}

export const seatUrl = (room, token) => `${location.origin}/r/${room}#seat=${token}`;
export const inviteUrl = (room) => `${location.origin}/r/${room}`;
