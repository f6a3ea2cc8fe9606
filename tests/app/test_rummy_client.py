"""rummy_client against a live server: docs/client.md's example plays a whole computer match,
refusals come back as typed errors, and the socket's frames as typed models."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest
from rummytest import LiveServer

import rummy_client
from rummy_client import ApiError, Draw, RoomView, Rummy, SeatClient
from rummy_client.models import PongFrame, PresenceFrame, StateFrame

DOCS = Path(__file__).resolve().parents[2] / "docs" / "client.md"


def _example() -> str:
    [code] = re.findall(r"```python\n(.*?)```", DOCS.read_text(), re.S)[:1]
    return code


async def test_the_docs_example_plays_a_computer_match(
    live_server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    code = _example()
    assert len(code.strip().splitlines()) <= 8  # an import, the function, five lines
    seats: list[SeatClient] = []
    create = Rummy.create_room

    async def recording(self: Rummy, *args: Any, **kwargs: Any) -> SeatClient:
        seat = await create(self, *args, **kwargs)
        seats.append(seat)
        return seat

    monkeypatch.setattr(Rummy, "create_room", recording)
    namespace: dict[str, Any] = {}
    exec(code.replace("http://127.0.0.1:8000", str(live_server)), namespace)
    await asyncio.wait_for(namespace["main"](), timeout=240)
    [seat] = seats
    async with Rummy(live_server) as rummy:
        view = await rummy.seat(seat.seat.room, seat.seat.token).get_state()
    assert isinstance(view, RoomView) and view.phase == "match_over"
    assert view.match_winner is not None and view.hand_number >= 1


async def test_refusals_are_typed_errors(live_server: LiveServer) -> None:
    async with Rummy(live_server) as rummy:
        with pytest.raises(ApiError) as missing:
            await rummy.get_room("nosuchroom")
        assert (missing.value.status, missing.value.code) == (404, "room_not_found")
        seat = await rummy.create_room("basic", players=2, name="Ann")
        assert seat.created is not None and seat.created.invite_url.endswith(seat.seat.room)
        other = await rummy.join_room(seat.seat.room, "Bob")
        view = await seat.get_state()
        if view.turn != 0:
            seat, view = other, await other.get_state()  # the seat to draw first
        assert view.variant == "basic" and view.legal is not None
        drawn = await seat.post_move(Draw(source="stock"), view.version)
        assert drawn.version == view.version + 1 and drawn.last_move is not None
        assert drawn.last_move.move == {"type": "draw", "source": "stock"}
        with pytest.raises(ApiError) as stale:
            await seat.post_move(Draw(source="stock"), view.version)
        assert stale.value.code == "stale_version"
        assert isinstance(stale.value.state, RoomView)
        assert stale.value.state.version == drawn.version
        with pytest.raises(ApiError) as illegal:
            await seat.post_move(Draw(source="stock"), drawn.version)
        assert illegal.value.status == 409 or illegal.value.status == 422
        variants = await rummy.list_variants()
        assert {v.name for v in variants} == {"classic", "basic", "rummy51"}


async def test_the_socket_speaks_typed_frames(live_server: LiveServer) -> None:
    async with Rummy(live_server) as rummy:
        seat = await rummy.create_room("rummy51", players=2, name="Ann")
        other = await rummy.join_room(seat.seat.room, "Bob")
        if (await seat.get_state()).turn != 0:
            seat, other = other, seat  # the seat to draw first opens the socket
        async with seat.socket() as ws, asyncio.timeout(60):
            frames = ws.frames()
            first = await anext(frames)
            assert isinstance(first, StateFrame) and isinstance(first.state, RoomView)
            assert isinstance(await anext(frames), PresenceFrame)
            await ws.ping()
            assert isinstance(await anext(frames), PongFrame)
            version = first.state.version
            await ws.move(Draw(source="stock"), version)
            async for frame in frames:
                if isinstance(frame, StateFrame) and frame.state.version > version:
                    assert frame.state.hand and frame.state.phase == "play"
                    break
        assert isinstance(frame, StateFrame)
        mine = frame.state
        assert (await other.get_state()).hand_counts[mine.seat] == len(mine.hand)


def test_the_client_exports_what_docs_names() -> None:
    for name in ("Rummy", "SeatClient", "SeatSocket", "sockets", "computer", "ApiError"):
        assert hasattr(rummy_client, name), name
