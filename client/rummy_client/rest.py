"""The REST API (docs/api.md), one method per operation id, typed by the wire's models."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from types import TracebackType
from typing import Any, TypeVar

import httpx
from pydantic import BaseModel

from rummy_client.errors import ApiError
from rummy_client.models import (
    VARIANTS,
    BotName,
    ChallengeRequest,
    ChallengeResult,
    ChallengeSeat,
    ChatHistory,
    ChatPosted,
    ChatRequest,
    CreatedRoom,
    CreateRoomRequest,
    ErrorBody,
    Health,
    HintView,
    Invite,
    InviteRequest,
    JoinedRoom,
    LogBody,
    MatchRecord,
    Mode,
    Move,
    MoveRequest,
    PlayRequest,
    RecentMoves,
    Replay,
    ReviewView,
    RoomLog,
    RoomSummary,
    RoomView,
    RuleSet,
    ServerKey,
    StateFrame,
    VariantName,
    VoteKind,
    VoteRequest,
    WatchView,
    read,
)
from rummy_client.socket import SeatSocket, sockets
from rummy_client.urls import Seat

M = TypeVar("M", bound=BaseModel)


class Rummy:
    """A client of one server: `async with Rummy("http://127.0.0.1:8000") as rummy: ...`
    (or pass your own `httpx.AsyncClient`, whose `base_url` is the server)."""

    def __init__(self, server: str, *, http: httpx.AsyncClient | None = None) -> None:
        self.server = server.rstrip("/")
        self.http = http or httpx.AsyncClient(base_url=self.server, timeout=30)

    async def __aenter__(self) -> Rummy:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.http.aclose()

    async def list_variants(self) -> list[RuleSet]:
        return VARIANTS.validate_python(_json(await self.http.get("/api/variants")), extra="ignore")

    async def create_room(
        self,
        variant: VariantName = "classic",
        *,
        players: int | None = None,
        mode: Mode = "online",
        name: str = "Player 1",
        bots: dict[str, BotName] | None = None,
        **options: Any,
    ) -> SeatClient:
        """Create a room and take its seat 0 (`created` holds the invite URL, and in `local`
        mode every seat's token). `options`: the rest of CreateRoomRequest (`turn_seconds`,
        `spectators`, `limit`, `seed`, ...)."""
        body = CreateRoomRequest(
            variant=variant, players=players, mode=mode, name=name, bots=bots or {}, **options
        )
        answer = await self.http.post(
            "/api/rooms", content=body.model_dump_json(exclude_unset=True), headers=_JSON
        )
        return self._created(answer)

    async def join_room(self, room: str, name: str = "") -> SeatClient:
        """Take the lowest free seat of `room` (409 `room_full` when there is none)."""
        joined = _model(
            await self.http.post(f"/api/rooms/{room}/join", json={"name": name}), JoinedRoom
        )
        return SeatClient(self, Seat(self.server, joined.room, joined.token, joined.seat))

    def seat(self, room: str, token: str) -> SeatClient:
        """A seat already taken (its token from a seat URL: `parse_seat_url`)."""
        return SeatClient(self, Seat(self.server, room, token))

    async def get_room(self, room: str) -> RoomSummary:
        return _model(await self.http.get(f"/api/rooms/{room}"), RoomSummary)

    async def watch(self, room: str) -> WatchView:
        """The table as a spectator sees it."""
        return _model(await self.http.get(f"/api/rooms/{room}/watch"), WatchView)

    async def replay_record(self, record: MatchRecord | LogBody, hand: int | None = None) -> Replay:
        """Hand `hand` (default: the last) of a match record or a room's log, step by step;
        nothing is kept on the server."""
        answer = await self.http.post(
            "/api/replays",
            content=record.model_dump_json(),
            headers=_JSON,
            params=_given(hand=hand),
        )
        return _model(answer, Replay)

    async def get_server_key(self) -> ServerKey:
        """The key this server signs match records with (`signature.key_id` is its `id`)."""
        return _model(await self.http.get("/api/server-key"), ServerKey)

    async def get_health(self) -> Health:
        return _model(await self.http.get("/healthz"), Health)

    async def create_challenge(
        self,
        variant: VariantName = "classic",
        *,
        players: int | None = None,
        bots: dict[str, BotName] | None = None,
        name: str = "Player 1",
        invite_name: str = "Friend",
    ) -> SeatClient:
        """A challenge (the same deals for friends, each against the computer) and its
        maker's own entry; `seat.challenge` holds the owner secret and a first invitation."""
        body = ChallengeRequest(
            variant=variant, players=players, bots=bots or {}, name=name, invite_name=invite_name
        )
        return self._entry(await self._send("/api/challenges", body))

    async def invite_to_challenge(self, challenge: str, owner: str, name: str = "Friend") -> Invite:
        """One more invitation, good for one entry (`owner`: the maker's secret)."""
        headers = {"Authorization": f"Bearer {owner}", **_JSON}
        body = InviteRequest(name=name).model_dump_json()
        answer = await self.http.post(
            f"/api/challenges/{challenge}/invites", content=body, headers=headers
        )
        return _model(answer, Invite)

    async def play_challenge(
        self, challenge: str, invite: str, name: str = "Player 1"
    ) -> SeatClient:
        """An entry of the challenge with its very deals, once per invitation (409
        `invite_spent` the second time)."""
        body = PlayRequest(name=name, invite=invite)
        return self._entry(await self._send(f"/api/challenges/{challenge}/play", body))

    async def get_challenge(self, challenge: str) -> ChallengeResult:
        """Every entry side by side, hand by hand."""
        return _model(await self.http.get(f"/api/challenges/{challenge}"), ChallengeResult)

    async def _send(self, path: str, body: BaseModel) -> httpx.Response:
        return await self.http.post(path, content=body.model_dump_json(), headers=_JSON)

    def _created(self, answer: httpx.Response) -> SeatClient:
        """The seat a new room's answer (201 `CreatedRoom`) holds, `created` kept on it."""
        created = _model(answer, CreatedRoom)
        seat = SeatClient(self, Seat(self.server, created.room, created.token, created.seat))
        seat.created = created
        return seat

    def _entry(self, answer: httpx.Response) -> SeatClient:
        entry = _model(answer, ChallengeSeat)
        seat = SeatClient(self, Seat(self.server, entry.room, entry.token, entry.seat))
        seat.challenge = entry
        return seat


class SeatClient:
    """What one seat's token may do: its view, its moves and votes, hints, the log, and its
    websocket (`socket()` once, `sockets()` reconnecting)."""

    created: CreatedRoom | None = None
    challenge: ChallengeSeat | None = None

    def __init__(self, rummy: Rummy, seat: Seat) -> None:
        self.rummy = rummy
        self.seat = seat
        self._auth = {"Authorization": f"Bearer {seat.token}"}
        self._room = f"/api/rooms/{seat.room}"

    async def _get(self, path: str, model: type[M], **params: Any) -> M:
        answer = await self.rummy.http.get(
            self._room + path, params=_given(**params), headers=self._auth
        )
        return _model(answer, model)

    async def _post(self, path: str, body: BaseModel, model: type[M]) -> M:
        content = body.model_dump_json(exclude_none=True)
        headers = {**self._auth, **_JSON}
        answer = await self.rummy.http.post(self._room + path, content=content, headers=headers)
        return _model(answer, model)

    async def get_state(self) -> RoomView:
        return await self._get("/state", RoomView)

    async def post_move(self, move: Move, version: int) -> RoomView:
        """Apply `move` made on view `version`; the view after it and after every computer
        turn that followed at once (so `version` may grow by more than one)."""
        return await self._post("/moves", MoveRequest(move=move, version=version), RoomView)

    async def cast_vote(self, vote: VoteKind, version: int | None = None) -> RoomView:
        return await self._post("/votes", VoteRequest(vote=vote, version=version), RoomView)

    async def get_hint(self, lang: str = "en") -> HintView:
        return await self._get("/hint", HintView, lang=lang)

    async def get_review(self, hand: int, lang: str = "en") -> ReviewView:
        return await self._get("/review", ReviewView, hand=hand, lang=lang)

    async def get_log(self) -> RoomLog:
        return await self._get("/log", RoomLog)

    async def get_recent(self, since: int) -> RecentMoves:
        return await self._get("/recent", RecentMoves, since=since)

    async def stand_in(self, seat: int) -> RoomView:
        """Let a bot play seat `seat`, away for long enough, until its owner is back."""
        answer = await self.rummy.http.post(
            self._room + "/stand-in", json={"seat": seat}, headers=self._auth
        )
        return _model(answer, RoomView)

    async def post_chat(self, text: str) -> ChatPosted:
        return await self._post("/chat", ChatRequest(text=text), ChatPosted)

    async def get_chat(self, since: int | None = None) -> ChatHistory:
        """The messages after id `since` (default: the last 100), oldest first."""
        return await self._get("/chat", ChatHistory, since=since)

    async def rematch(self) -> SeatClient:
        """Once the match is over: this seat's place in the new room of the same players
        (the same room for every seat that asks)."""
        answer = await self.rummy.http.post(self._room + "/rematch", headers=self._auth)
        return self.rummy._created(answer)

    async def get_record(self) -> MatchRecord:
        """The match so far as a self-contained record, signed by the server."""
        return await self._get("/record", MatchRecord)

    async def get_replay(self, hand: int | None = None) -> Replay:
        """A finished hand (default: the last finished) step by step."""
        return await self._get("/replay", Replay, hand=hand)

    async def take_turn(self, view: RoomView, choose: Callable[[RoomView], Move]) -> RoomView:
        """The next view of a match: after voting `next_hand` when the hand is over, after
        the move `choose(view)` when it is this seat's, else when the socket brings this
        seat's turn (or the hand's end).

            while view.phase != "match_over":
                view = await seat.take_turn(view, simple_player)
        """
        if view.phase == "hand_over":
            if view.seat in view.votes.next_hand:
                return await self._next_view(view.version)
            return await self.cast_vote("next_hand", view.version)
        if view.phase in ("draw", "play") and view.turn == view.seat:
            return await self.post_move(choose(view), view.version)
        return await self._next_view(view.version)

    async def _next_view(self, after: int) -> RoomView:
        async with self.socket() as ws:
            async for frame in ws.frames():
                if isinstance(frame, StateFrame) and isinstance(frame.state, RoomView):
                    state = frame.state
                    moving = state.phase in ("draw", "play") and state.turn == state.seat
                    if state.version > after and (moving or state.phase in _OVER):
                        return state
        raise ConnectionError("the socket closed before this seat's turn")

    def socket(self) -> contextlib.AbstractAsyncContextManager[SeatSocket]:
        """This seat's websocket, once: `async with seat.socket() as ws: ...`."""
        return SeatSocket.open(self.seat)

    def sockets(self, *, max_retries: int = 30) -> Any:
        """This seat's websocket, reconnected after every drop (`rummy_client.socket`)."""
        return sockets(self.seat, max_retries=max_retries)


_JSON = {"Content-Type": "application/json"}
_OVER = ("hand_over", "match_over")


def _given(**params: Any) -> dict[str, Any]:
    """The query parameters that have a value: httpx would send a None as `name=`, which the
    server refuses where it wants its default."""
    return {name: value for name, value in params.items() if value is not None}


def _json(answer: httpx.Response) -> Any:
    if answer.is_success:
        return answer.json()
    try:
        error = read(ErrorBody, answer.content)
    except ValueError:
        raise ApiError(answer.status_code, "http_error", answer.text[:200]) from None
    raise ApiError(answer.status_code, error.error.code, error.error.message, error.state)


def _model(answer: httpx.Response, model: type[M]) -> M:
    if answer.is_success:
        return read(model, answer.content)
    _json(answer)  # raises
    raise AssertionError("unreachable")
