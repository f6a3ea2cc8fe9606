"""No frozen socket (app/api/catchup.py): a socket that missed a view while every cache was
current is sent the room's newest view within the heal interval, without reconnecting."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import httpx
from websockets.asyncio.client import connect

from tests.kit.clients import Api, Socket
from tests.kit.responses import ok
from tests.kit.rooms import online_room
from tests.kit.servers import LiveServer

DRAW = {"type": "draw", "source": "stock"}


async def _outbox_of(live: LiveServer, room: str, seat: int) -> Any:
    """The server's outbox of the socket of `seat` in `room` (one such socket)."""
    for _ in range(600):
        audiences = {a.room: a for a in live.app.state.fanout.audiences()}
        audience = audiences.get(room)
        if audience is not None:
            found = [o for o, s in audience.members.items() if s == seat]
            if found:
                return found[0]
        await asyncio.sleep(0.05)
    raise AssertionError("the socket never joined its room's fan-out")


def _drop_next_view(outbox: Any) -> list[int]:
    """Make the socket miss its next view, as a lost event would; returns the dropped
    versions (filled when it happens)."""
    dropped: list[int] = []

    def drop(version: int, frame: str) -> None:
        dropped.append(version)
        del outbox.put_state  # the next views go through again

    outbox.put_state = drop
    return dropped


async def test_a_socket_that_missed_a_view_catches_up(
    make_server: Callable[..., LiveServer],
) -> None:
    live = make_server(heal_interval_seconds=0.2)
    async with httpx.AsyncClient(base_url=live, timeout=60) as http:
        api = Api(http)
        room, tokens = await online_room(api, seed=46)
        view = ok(await api.state(room, tokens[0]))
        mover = view["turn"]
        watcher = 1 - mover
        url = "ws" + live[len("http") :] + f"/api/rooms/{room}/ws?token={tokens[watcher]}"
        async with connect(url) as ws:
            sock = Socket(ws)
            first = await sock.state()
            dropped = _drop_next_view(await _outbox_of(live, room, watcher))
            moved = ok(await api.move(room, tokens[mover], DRAW, first["version"]))
            # The view of the move was never put in the socket's outbox; it comes anyway.
            caught = await sock.state(moved["version"])
            assert dropped == [moved["version"]]
            assert caught["version"] == moved["version"]
