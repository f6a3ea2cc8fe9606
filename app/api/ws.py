"""The websocket: each seat gets its own view on connect and after every change, presence
goes to everyone, and moves and votes may come this way too.

Every frame for one socket goes through that socket's queue and one writer task, so
frames never interleave and views arrive in version order. A state event makes the writer
load the room at send time: a socket that fell behind skips straight to the newest view.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import ValidationError

import rules
from app.api.schemas import MoveRequest, VoteRequest
from app.errors import AppError, InvalidRequest, RoomExpired, RoomNotFound, error_payload
from app.game import Game
from app.views import seat_infos

router = APIRouter()
log = logging.getLogger("rummy.ws")

# Close codes mirroring the HTTP statuses (app/limits.py counts them as failed checks).
CLOSE_CODES = {401: 4401, 403: 4403, 404: 4404, 410: 4410}


@router.websocket("/api/rooms/{room}/ws")
async def room_socket(websocket: WebSocket, room: str, token: str | None = None) -> None:
    game: Game = websocket.app.state.game
    await websocket.accept()
    try:
        seat = await game.authorize(room, token)
    except AppError as exc:
        await websocket.send_json({"type": "error", **error_payload(exc)[1]})
        await websocket.close(CLOSE_CODES.get(exc.status, 1008))
        return
    queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    unsubscribe = game.hub.subscribe(room, queue.put_nowait)
    await game.hub.connect(room, seat)
    queue.put_nowait({"kind": "state"})
    writer = asyncio.create_task(_write(websocket, game, room, seat, queue))
    try:
        snap = await game.current(room)  # a reconnect must not trust a cache that missed news
        game.wake_bots(room, snap)
        await _read(websocket, game, room, seat, queue, writer)
    except (WebSocketDisconnect, RoomNotFound, RoomExpired):
        pass
    finally:
        unsubscribe()
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await writer
        await game.hub.disconnect(room, seat)


async def _read(
    websocket: WebSocket,
    game: Game,
    room: str,
    seat: int,
    queue: asyncio.Queue[dict[str, Any]],
    writer: asyncio.Task[None],
) -> None:
    while not writer.done():
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(message.get("code", 1000))
        try:
            text = message.get("text")
            if text is None:
                raise InvalidRequest("frames are JSON text")
            await _handle(game, room, seat, text, queue)
        except (AppError, rules.IllegalMove) as exc:
            _, body = error_payload(exc)
            body.pop("state", None)
            queue.put_nowait({"kind": "frame", "frame": {"type": "error", **body}})
            # Then the current view, so the client resyncs.
            queue.put_nowait({"kind": "state"})


async def _handle(
    game: Game, room: str, seat: int, text: str, queue: asyncio.Queue[dict[str, Any]]
) -> None:
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: "[[[[..." nested too deep
        raise InvalidRequest("a frame must be a JSON object") from None
    kind = data.get("type") if isinstance(data, dict) else None
    if kind == "ping":
        queue.put_nowait({"kind": "frame", "frame": {"type": "pong"}})
        return
    try:
        if kind == "move":
            body = MoveRequest.model_validate(data, extra="ignore")
            await game.play(room, seat, body.move, body.version)
        elif kind == "vote":
            vote = VoteRequest.model_validate(data, extra="ignore")
            await game.cast(room, seat, vote.vote, vote.version)
        else:
            raise InvalidRequest('type must be "move", "vote" or "ping"')
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        error = rules.InvalidMove if kind == "move" else InvalidRequest
        raise error(f"{where}: {first['msg']}") from None


async def _write(
    websocket: WebSocket, game: Game, room: str, seat: int, queue: asyncio.Queue[dict[str, Any]]
) -> None:
    sent = -1  # the newest version this socket was sent: a room never goes back on screen
    while True:
        events = [await queue.get()]
        while not queue.empty():
            events.append(queue.get_nowait())
        want_state = any(e["kind"] == "state" for e in events)
        want_presence = any(e["kind"] == "presence" for e in events)
        for event in events:
            if event["kind"] == "frame":
                await websocket.send_json(event["frame"])
        if want_state or want_presence:
            try:
                try:
                    snap = await game.snapshot(room)
                except RoomNotFound:  # it was there when the socket opened: purged since
                    raise RoomExpired(f"room {room} expired and was deleted") from None
            except AppError as exc:
                await websocket.send_json({"type": "error", **error_payload(exc)[1]})
                await websocket.close(CLOSE_CODES.get(exc.status, 1008))
                return
            connected = await game.hub.presence(room)
            if want_state and snap.version >= sent:
                sent = snap.version
                view = await game.view(room, seat, snap)
                # Serialized once, straight to text: this runs for every socket on every move.
                await websocket.send_text('{"type":"state","state":' + view.model_dump_json() + "}")
            if want_presence:
                seats = [s.model_dump(mode="json") for s in seat_infos(snap, connected)]
                await websocket.send_json({"type": "presence", "seats": seats})
