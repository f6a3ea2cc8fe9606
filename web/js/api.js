// The only way to the server: REST to act, the websocket to hear (docs/api.md).

export class ApiError extends Error {
  constructor(status, error, body) {
    super(error?.message || `HTTP ${status}`);
    this.status = status;
    this.code = error?.code || "http_error";
    this.error = error || { code: "http_error", message: `HTTP ${status}` };
    this.body = body || {};
  }
}

async function request(method, path, { token, body, prefer } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  if (prefer) headers.Prefer = prefer;
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (err) {
    throw new ApiError(0, { code: "network", message: String(err.message || err) });
  }
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) throw new ApiError(res.status, data?.error, data);
  // A minimal answer (204): no view, the room's version in a header.
  if (res.status === 204) return { minimal: true, version: Number(res.headers.get("Rummy-Version")) };
  return data;
}

const room = (id) => `/api/rooms/${encodeURIComponent(id)}`;

export const getVariants = () => request("GET", "/api/variants");
export const createRoom = (body) => request("POST", "/api/rooms", { body });
export const joinRoom = (id, name) => request("POST", `${room(id)}/join`, { body: { name } });
export const getRoom = (id) => request("GET", room(id));
export const getState = (id, token) => request("GET", `${room(id)}/state`, { token });
export const watchRoom = (id) => request("GET", `${room(id)}/watch`);
export const getLog = (id, token) => request("GET", `${room(id)}/log`, { token });
// Replays (docs/api.md v1.2 "Match records"): the server builds every step. `hand` is the log's
// number (null: the last finished hand).
const handQuery = (hand) => (hand === null || hand === undefined ? "" : `?hand=${hand}`);
export const getReplay = (id, token, hand = null) => request("GET", `${room(id)}/replay${handQuery(hand)}`, { token });
export const getRecord = (id, token) => request("GET", `${room(id)}/record`, { token });
/** A record or log from a file, replayed with no room on the server. */
export const replayFile = (doc, hand = null) => request("POST", `/api/replays${handQuery(hand)}`, { body: doc });
export const getRecentMoves = (id, token, since) => request("GET", `${room(id)}/recent?since=${since}`, { token });
export const getHint = (id, token, lang) => request("GET", `${room(id)}/hint?lang=${lang}`, { token });
// `hand` is the log's number for the hand (0 for the room's first), not the view's hand_number.
export const getReview = (id, token, hand, lang) =>
  request("GET", `${room(id)}/review?hand=${hand}&lang=${lang}`, { token });
// `minimal`: this browser's socket brings the view, so the answer need not carry it too.
export const sendMove = (id, token, move, version, minimal = false) =>
  request("POST", `${room(id)}/moves`, { token, body: { move, version }, prefer: minimal ? "return=minimal" : undefined });
// The version makes a repeated vote (a double click) a no-op once its hand is dealt.
export const sendVote = (id, token, vote, version) =>
  request("POST", `${room(id)}/votes`, { token, body: { vote, version } });
// Chat (docs/api.md v1.2): a seat posts; a seat, or anyone where spectators may watch, reads.
export const postChat = (id, token, text) => request("POST", `${room(id)}/chat`, { token, body: { text } });
export const getChat = (id, token) => request("GET", `${room(id)}/chat`, { token });
// Rematch (docs/api.md v1.2): this seat's place in the finished match's next one.
export const rematch = (id, token) => request("POST", `${room(id)}/rematch`, { token });
// Challenges (docs/api.md v1.2; v1.3: an entry starts from an invitation, each good for one entry).
export const createChallenge = (body) => request("POST", "/api/challenges", { body });
export const playChallenge = (id, name, invite) => request("POST", `/api/challenges/${encodeURIComponent(id)}/play`, { body: { name, invite } });
export const inviteToChallenge = (id, owner, name) => request("POST", `/api/challenges/${encodeURIComponent(id)}/invites`, { token: owner, body: { name } });
export const getChallenge = (id) => request("GET", `/api/challenges/${encodeURIComponent(id)}`);
// Seats that stay alive: a bot plays `seat` while its owner is away.
export const standIn = (id, token, seat) => request("POST", `${room(id)}/stand-in`, { token, body: { seat } });

/** Close codes the server uses for 401/403/404/410: the error code each stands for. */
const FATAL = { 4401: "unauthorized", 4403: "forbidden", 4404: "room_not_found", 4410: "room_expired" };
/** The server closed us for falling behind: reconnect at once, the connect view resyncs. */
const BEHIND = 4409;

/**
 * A websocket to one room that reconnects by itself. Callbacks: onMessage(msg),
 * onStatus("open" | "closed"). The server sends the full view on every connect, which is
 * how a reconnect resyncs. The token goes in the first frame, never in the URL (URLs end
 * up in logs). Without a token the socket watches (`?watch=1`): a spectator sends no auth.
 */
export class RoomSocket {
  constructor(roomId, token, { onMessage, onStatus }) {
    this.roomId = roomId;
    this.token = token;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.retry = 0;
    this.closed = false;
    this.ws = null;
    // The newest version a state frame brought since the socket last opened (-1: none yet):
    // while it has one, the socket is live and moves are answered minimally.
    this.seen = -1;
    this.timer = null;
    this.pinger = null;
    this.open();
  }

  open() {
    if (this.closed) return;
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const watch = this.token ? "" : "?watch=1";
    const ws = new WebSocket(`${proto}//${location.host}${room(this.roomId)}/ws${watch}`);
    this.ws = ws;
    this.seen = -1;
    ws.addEventListener("open", () => {
      if (this.token) ws.send(JSON.stringify({ type: "auth", token: this.token }));
      this.retry = 0;
      this.onStatus("open");
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.send({ type: "ping" }), 25000);
    });
    ws.addEventListener("message", (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (msg.type === "state" && this.ws === ws) this.seen = Math.max(this.seen, msg.state?.version ?? -1);
      this.onMessage(msg);
    });
    ws.addEventListener("close", (ev) => {
      clearInterval(this.pinger);
      if (this.ws === ws) this.seen = -1;
      if (this.ws !== ws || this.closed) return;
      if (FATAL[ev.code]) {
        // The seat or the room is gone: retrying cannot help.
        this.closed = true;
        this.onStatus("fatal", FATAL[ev.code]);
        return;
      }
      this.onStatus("closed");
      const behind = ev.code === BEHIND && this.retry === 0;
      // Jitter: after a restart or a storm (the server refuses handshakes it cannot serve
      // now), thousands of tabs must not come back in the same instant.
      const delay = behind ? 0 : Math.min(8000, 400 * 2 ** this.retry) * (0.5 + Math.random());
      this.retry += 1;
      this.timer = setTimeout(() => this.open(), delay);
    });
  }

  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    if (this.ws) this.ws.close();
  }
}
