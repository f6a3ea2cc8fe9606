"""Replays and match records (docs/api.md, "Match records and replays"): a finished hand
step by step, each step's table built by `rules.replay_steps` (the browser only draws
them), from a room or from a log or record the client sends; and a room's match record.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import JSONResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.concurrency import run_in_threadpool

import rules
from app.api.deps import RoomId, SeatDep, ServiceDep
from app.api.responses import BODY, SEAT, TOKEN_OR_SPECTATOR, errors, limited
from app.api.serverkey import signer_of
from app.errors import Unauthorized
from app.records.format import InvalidRecord, build_record, log_moves, pick, replay_of
from app.social.registry import friends_of
from app.views import LogHand, room_options
from rummy_wire.records import LogBody, MatchRecord, Replay

router = APIRouter(prefix="/api", tags=["replays"])

_bearer = HTTPBearer(auto_error=False, description="the seat token")
HandQuery = Annotated[
    int | None,
    Query(ge=0, le=100_000, description="the log's hand number; default: the last finished"),
]
_NOT_OVER = "No finished hand of that number (`wrong_phase`)"


def _steps(
    start: rules.GameState, moves: list[tuple[int, rules.Move]], versions: list[int | None]
) -> list[rules.ReplayStep]:
    try:
        return list(rules.replay_steps(start, moves, versions))
    except rules.IllegalMove as exc:
        raise InvalidRecord(f"a move does not fit the hand: {exc.code}: {exc.message}") from None
    except Exception as exc:  # a crafted start can trip the engine: refuse it, never crash
        raise InvalidRecord(f"the hand does not hold together: {type(exc).__name__}") from None


def _log_replay(hands: list[LogHand], wanted: int | None) -> Replay:
    numbers = [h.hand for h in hands if h.result is not None]
    hand = [h for h in hands if h.result is not None][pick(numbers, wanted)]
    moves, versions = log_moves(hand)
    return Replay(hand=hand.hand, hands=numbers, steps=_steps(hand.start, moves, versions))


def _record_replay(record: MatchRecord, wanted: int | None) -> Replay:
    numbers = [h.number for h in record.hands]
    hand = record.hands[pick(numbers, wanted)]
    start, moves = replay_of(record, hand)
    steps = _steps(start, moves, [])
    return Replay(hand=hand.number, hands=numbers, players=record.players, steps=steps)


@router.get(
    "/rooms/{room}/replay",
    response_model=Replay,
    responses=errors(*SEAT, 409, e409=_NOT_OVER),
)
async def get_replay(
    room: RoomId, seat: SeatDep, service: ServiceDep, hand: HandQuery = None
) -> Replay:
    """A finished hand of the room step by step (a seat's token, as for GET .../log)."""
    # A long hand takes a tenth of a second or more to replay: off the event loop.
    return await run_in_threadpool(_log_replay, await service.hand_log(room), hand)


@router.post(
    "/replays",
    response_model=Replay,
    responses={**limited(200), **errors(*BODY, 409, e409=_NOT_OVER)},
)
def replay_record(body: MatchRecord | LogBody, hand: HandQuery = None) -> Replay:
    """A hand of a match record (docs/record.md) or of a room's log, step by step, with no
    room on the server: for a file opened in the browser. 422 `invalid_record` when its
    moves do not fit its deal. (A plain function: FastAPI runs it, and the answer's
    checks, in its thread pool, off the event loop.)"""
    if isinstance(body, MatchRecord):
        return _record_replay(body, hand)
    return _log_replay(body.hands, hand)


async def _record_reader(
    room: RoomId,
    service: ServiceDep,
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> None:
    """A seat of the room, or anyone when the room may be watched. A credential that is
    not a bearer token is a wrong one, not none."""
    if credentials is not None or "authorization" in request.headers:
        await service.authorize(room, credentials.credentials if credentials else None)
        return
    snap = await service.snapshot(room)
    if not snap.spectators:
        raise Unauthorized("a seat token is required: this room cannot be watched")


@router.get(
    "/rooms/{room}/record",
    response_model=MatchRecord,
    responses=errors(*SEAT),
    dependencies=[Depends(_record_reader)],
    openapi_extra=TOKEN_OR_SPECTATOR,
)
async def get_record(room: RoomId, service: ServiceDep, request: Request) -> JSONResponse:
    """The match record (`rummy-record/1`, docs/record.md): every finished hand of the
    room's latest match, self-contained, signed by the server (`signature`, docs/api.md v1.3;
    its key: GET /api/server-key). A seat's token, or none for a room with spectators."""
    snap = await service.snapshot(room)
    # The chat option lives in the room's social row, beside the room (app/social/options.py).
    chat = await friends_of(service).rows.chat_on(room)
    options = room_options(snap, service.settings.away_seconds).model_copy(update={"chat": chat})
    record = build_record(snap, await service.hand_log(room), options)
    unsigned = record.model_dump(mode="json", exclude={"signature"})
    return JSONResponse(signer_of(request).sign(unsigned))
