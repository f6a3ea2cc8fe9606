"""The websocket: each seat gets its own view on connect and after every change, presence
goes to everyone, and moves and votes may come this way too.

A socket authenticates with `?token=` or, so that no URL carries the token, with its first
frame `{"type": "auth", "token": "..."}` (docs/api.md v1.1), sent within `ws_auth_seconds`
(5 s): waiting for it, the socket holds no opening place (app/guards/handshake.py), and a
silent one is closed with 4401 (docs/api.md v1.3).

Every frame for one socket goes through that socket's `Outbox` and one writer task, so
frames never interleave and views arrive in version order; news skip the task only while
it has nothing to send (`_send_now`). The room's fan-out
(app/api/fanout.py) makes each change's frames once for all its sockets here and puts the
newest in each outbox: a socket that fell behind skips straight to the newest view.
The outbox is bounded (app/api/outbox.py): a client that sends without reading is closed
with `CLOSE_BEHIND` instead of growing the server's memory.

`?watch=1` opens a spectator's socket (docs/api.md v1.1): no token, no auth frame, the table as
everyone sees it (`RoomService.watch`), and only pings: it counts as no seat's presence.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Coroutine
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import ValidationError

import rules
from app.api.deps import ROOM_ID
from app.api.fanout import Audience, Fanout
from app.api.outbox import CLOSE_BEHIND, Outbox, SendNow
from app.errors import (
    AppError,
    Forbidden,
    InvalidRequest,
    InvalidText,
    MalformedMove,
    RoomExpired,
    RoomNotFound,
    Unauthorized,
    Unavailable,
    error_payload,
    field_errors,
)
from app.guards.handshake import park
from app.rooms.service import RoomService
from app.social.registry import friends_of
from rummy_wire.requests import MoveRequest, VoteRequest
from rummy_wire.textpolicy import SURROGATE_REFUSAL, has_lone_surrogate

router = APIRouter()
log = logging.getLogger("rummy.ws")

# Close codes mirroring the HTTP statuses (app/guards/sockets.py counts them as failed checks).
# 4503: the database had no connection free in time (`unavailable`): reconnect later.
CLOSE_CODES = {401: 4401, 403: 4403, 404: 4404, 410: 4410, 503: 4503}
# 1011, "internal error": this socket's writer failed (a bug, or Redis gone for too long);
# the client reconnects and the connect view resyncs it.
CLOSE_WRITER_FAILED = 1011
# How long the close frame of a socket that fell behind may wait for its client to read.
CLOSE_SECONDS = 30.0


@router.websocket("/api/rooms/{room}/ws")
async def room_socket(
    websocket: WebSocket, room: str, token: str | None = None, watch: bool = False
) -> None:
    service: RoomService = websocket.app.state.service
    if token is None and not watch:
        # It will wait for its auth frame: meanwhile it holds no opening place another
        # address may need (app/guards/handshake.py, docs/api.md v1.3 "Websocket openings").
        park(websocket.scope)
    await websocket.accept()
    try:
        seat = await _admit(websocket, service, room, token, watch)  # None: a spectator
    except AppError as exc:
        with contextlib.suppress(Exception):  # the client may be gone already
            await websocket.send_json({"type": "error", **error_payload(exc)[1]})
            await websocket.close(CLOSE_CODES.get(exc.status, 1008))
        return
    except WebSocketDisconnect:
        return
    outbox = Outbox()
    if seat is not None:
        await service.hub.connect(room, seat)
    try:
        await _serve(websocket, service, room, seat, outbox)
    except (WebSocketDisconnect, RoomNotFound, RoomExpired, Unavailable):
        pass
    finally:
        outbox.close()
        if seat is not None:
            await service.hub.disconnect(room, seat)
    if outbox.behind:
        log.info("closed a socket that sent more than it read (%d frames waiting)", len(outbox))
        # Nothing else is queued any more: the close waits only for the client to read.
        with contextlib.suppress(Exception):
            await asyncio.wait_for(
                websocket.close(CLOSE_BEHIND, "too far behind: reconnect to resync"),
                CLOSE_SECONDS,
            )


async def _admit(
    websocket: WebSocket, service: RoomService, room: str, token: str | None, watch: bool
) -> int | None:
    """The socket's seat, None for a spectator. Raises AppError to refuse it."""
    if not ROOM_ID.fullmatch(room):
        # No room has such an id, and PostgreSQL refuses a NUL in a query (a 1006 and a
        # traceback): the REST routes check the id's shape in their path, the socket here.
        raise RoomNotFound("no such room")
    if watch:
        # The room must exist and allow spectators; the view made here is the one the
        # fan-out then sends.
        await service.view_text(room, None)
        return None
    return await _authenticate(websocket, service, room, token)


async def _serve(
    websocket: WebSocket, service: RoomService, room: str, seat: int | None, outbox: Outbox
) -> None:
    """Send the room's views and read the client's frames until either side ends."""
    audience: Audience | None = None
    writer: asyncio.Task[None] | None = None
    try:
        try:
            # A reconnect must not trust a cache that missed news, and its first view waits
            # for that check: a stale first view would let a client decide twice on one
            # version (its move sent before the reconnect may have landed already).
            snap = await service.current(room)
        except Unavailable:
            # No connection free for the check: the cached room it was authorized on serves,
            # and app.rooms.healing compares it with the database within seconds.
            snap = await service.snapshot(room)
        fanout: Fanout = websocket.app.state.fanout
        audience = fanout.join(room, seat, outbox)  # its first view and presence come now
        for frame in await friends_of(service).chat.on_connect(room):
            outbox.put(frame)
        outbox.send_directly(_send_now(websocket))
        writer = asyncio.create_task(_write(websocket, outbox))
        if seat is not None:
            # The owner is back: a bot standing in stops before its next move.
            with contextlib.suppress(AppError):  # else its first move ends it
                await service.owner_back(room, seat)
        service.wake_bots(room, snap)
        await _converse(websocket, service, room, seat, outbox, audience, writer)
    finally:
        if audience is not None:
            audience.leave(outbox)
        if writer is not None:
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer


async def _converse(
    websocket: WebSocket,
    service: RoomService,
    room: str,
    seat: int | None,
    outbox: Outbox,
    audience: Audience,
    writer: asyncio.Task[None],
) -> None:
    """Run the reader beside the writer; whichever ends first ends the socket: a reader
    waiting for a frame must not keep open a socket whose writer died, or its client waits
    for views forever."""
    reading = _Reading()
    reader = asyncio.create_task(_read(websocket, service, room, seat, outbox, audience, reading))
    try:
        await asyncio.wait({reader, writer}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        if not reader.done():
            reading.stop(reader)
            with contextlib.suppress(asyncio.CancelledError):
                await reader
    if not reader.cancelled() and not reading.stopped:
        reader.result()  # the client left (raises) or fell behind (closed by the caller)
    else:
        await _writer_ended(websocket, writer)


async def _writer_ended(websocket: WebSocket, writer: asyncio.Task[None]) -> None:
    """The writer stopped before the reader: it closed the socket itself (a purged room),
    the client went away, or it failed, which closes the socket so the client resyncs."""
    failure = writer.exception()
    if failure is None or isinstance(failure, (WebSocketDisconnect, OSError)):
        return
    log.error("a socket's writer failed; closing the socket: %r", failure)
    with contextlib.suppress(Exception):
        await websocket.close(CLOSE_WRITER_FAILED, "server error: reconnect to resync")


async def _authenticate(
    websocket: WebSocket, service: RoomService, room: str, token: str | None
) -> int:
    """The seat of the socket's token, from the URL or else from its first frame."""
    if token is None:
        await service.snapshot(room)  # an unknown or expired room is told before any wait
        token = await _auth_frame(websocket, service.settings.ws_auth_seconds)
    return await service.authorize(room, token)


async def _auth_frame(websocket: WebSocket, deadline: float) -> str:
    try:
        message = await asyncio.wait_for(websocket.receive(), deadline)
    except TimeoutError:
        raise Unauthorized(f"no auth frame within {deadline:g} s") from None
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    try:
        data = json.loads(message.get("text") or "")
    except (ValueError, RecursionError):
        data = None
    token = data.get("token") if isinstance(data, dict) and data.get("type") == "auth" else None
    if not isinstance(token, str):
        raise Unauthorized('the first frame must be {"type": "auth", "token": "..."}')
    return token


class _Reading:
    """Whether the reader is handling a frame, and the stop asked of it meanwhile.

    A socket closing (its writer failed) must not cut a move short between its commit and
    its publish, so a reader that is handling a frame is let finish it and then stops; one
    waiting for the next frame is cancelled. (`asyncio.shield` did this with a task per
    frame.)"""

    def __init__(self) -> None:
        self.busy = False
        self.stopped = False

    def stop(self, reader: asyncio.Task[None]) -> None:
        self.stopped = True
        if not self.busy:
            reader.cancel()


async def _read(
    websocket: WebSocket,
    service: RoomService,
    room: str,
    seat: int | None,
    outbox: Outbox,
    audience: Audience,
    reading: _Reading,
) -> None:
    """Handle the client's frames until it leaves (WebSocketDisconnect), falls behind or is
    stopped (`_Reading`)."""
    while not outbox.behind and not reading.stopped:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(message.get("code", 1000))
        try:
            text = message.get("text")
            if text is None:
                raise InvalidRequest("frames are JSON text")
            reading.busy = True
            try:
                await _handle(service, room, seat, text, outbox)
            finally:
                reading.busy = False
        except (AppError, rules.IllegalMove) as exc:
            outbox.put(_error_frame(exc))
            # Then the current view, so the client resyncs.
            audience.want(outbox, state=True)


async def _handle(
    service: RoomService, room: str, seat: int | None, text: str, outbox: Outbox
) -> None:
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: "[[[[..." nested too deep
        raise InvalidRequest("a frame must be a JSON object") from None
    kind = data.get("type") if isinstance(data, dict) else None
    if kind == "ping":
        outbox.put({"type": "pong"})
        return
    if kind == "chat":  # a spectator's is refused there (forbidden)
        try:  # its text is checked by the text policy, lone surrogates included
            await friends_of(service).chat.from_socket(room, seat, data)
        except AppError as exc:
            # Chat changes no game state: its refusal is the error frame alone, no view
            # (docs/api.md v1.3).
            outbox.put(_error_frame(exc))
        return
    # A lone surrogate: no answer could even quote it (the error frame would not encode).
    if isinstance(data, dict) and "\\u" in text and has_lone_surrogate(data):
        raise InvalidText(SURROGATE_REFUSAL)
    if seat is None:
        if kind in ("move", "vote"):
            raise Forbidden("a spectator may only watch: moves and votes need a seat")
        raise InvalidRequest('a spectator may send only "ping"')
    try:
        if kind == "move":
            body = MoveRequest.model_validate(_body_of(data, MoveRequest))
            await service.play(room, seat, body.move, body.version)
        elif kind == "vote":
            vote = VoteRequest.model_validate(_body_of(data, VoteRequest))
            await service.cast(room, seat, vote.vote, vote.version)
        else:
            raise InvalidRequest('type must be "move", "vote", "chat" or "ping"')
    except ValidationError as exc:
        message, details = field_errors(exc.errors())
        error = MalformedMove if kind == "move" else InvalidRequest
        raise error(message, details=details) from None


def _body_of(frame: dict[str, Any], model: type[MoveRequest | VoteRequest]) -> dict[str, Any]:
    """The part of a move or vote frame that is REST's body: the frame's own keys (its
    "type", any other) are left out, and what is inside is checked as strictly as over REST
    (a move with a field it does not have is refused, not played)."""
    return {key: value for key, value in frame.items() if key in model.model_fields}


def _error_frame(exc: AppError | rules.IllegalMove) -> dict[str, Any]:
    _, body = error_payload(exc)
    body.pop("state", None)
    return {"type": "error", **body}


def _send_now(websocket: WebSocket) -> SendNow:
    """Sends a text frame without a task: the ASGI send runs to its end at once unless the
    server holds it back (the client's TCP window shut); what is then left is returned."""

    def send_now(text: str) -> Coroutine[Any, Any, None] | None:
        send = websocket.send_text(text)
        try:
            waiting = send.send(None)
        except StopIteration:
            return None
        except BaseException:
            send.close()
            raise
        return _finish(send, waiting)

    return send_now


async def _finish(send: Coroutine[Any, Any, None], waiting: Any) -> None:
    """Drive a send that `_send_now` began and that had to wait on `waiting` (a future)."""
    try:
        while True:
            if isinstance(waiting, asyncio.Future):
                await asyncio.wait((waiting,))  # the send reads its outcome itself
            else:
                await asyncio.sleep(0)  # a bare yield: it waits one turn of the loop
            waiting = send.send(None)
    except StopIteration:
        return
    except BaseException:
        send.close()
        raise


async def _write(websocket: WebSocket, outbox: Outbox) -> None:
    """Send what the room's fan-out (app/api/fanout.py) and the reader put in `outbox`."""
    while True:
        rest, frames, state, presence, failure = await outbox.take()
        if rest is not None:
            await rest
        for frame in frames:
            await websocket.send_text(frame)
        if failure is not None:
            if not isinstance(failure, AppError):
                raise failure  # the socket closes 1011 (`_writer_ended`)
            await websocket.send_json({"type": "error", **error_payload(failure)[1]})
            await websocket.close(CLOSE_CODES.get(failure.status, 1008))
            return
        if state is not None:
            await websocket.send_text(state)
        if presence is not None:
            await websocket.send_text(presence)
