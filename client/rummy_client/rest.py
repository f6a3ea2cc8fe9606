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
    CreatedRoom,
    CreateRoomRequest,
    ErrorBody,
    HintView,
    JoinedRoom,
    Mode,
    Move,
    MoveRequest,
    RecentMoves,
    ReviewView,
    RoomLog,
    RoomSummary,
    RoomView,
    RuleSet,
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
        created = _model(answer, CreatedRoom)
        seat = SeatClient(self, Seat(self.server, created.room, created.token, created.seat))
        seat.created = created
        return seat

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


class SeatClient:
    """What one seat's token may do: its view, its moves and votes, hints, the log, and its
    websocket (`socket()` once, `sockets()` reconnecting)."""

    created: CreatedRoom | None = None

    def __init__(self, rummy: Rummy, seat: Seat) -> None:
        self.rummy = rummy
        self.seat = seat
        self._auth = {"Authorization": f"Bearer {seat.token}"}
        self._room = f"/api/rooms/{seat.room}"

    async def _get(self, path: str, model: type[M], **params: Any) -> M:
        answer = await self.rummy.http.get(self._room + path, params=params, headers=self._auth)
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
