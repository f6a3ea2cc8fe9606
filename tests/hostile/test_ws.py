"""Websocket fuzzing over a real socket: malformed JSON, wrong types, unknown message types,
deep nesting, binary and huge frames, moves for another seat. Every frame is answered with
an error frame (then the seat's view, to resync) or a clean close, and the room is exactly
as it was."""

from __future__ import annotations

import json
import random
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect

from tests.kit.clients import Seat, bearer, seat_socket
from tests.kit.responses import ok
from tests.kit.rooms import online_room
from tests.kit.servers import LiveServer

DRAW = {"type": "draw", "source": "stock"}


def _json_value(rng: random.Random, depth: int = 0) -> Any:
    """A random JSON value, biased towards the shapes a move frame has."""
    pick = rng.randrange(9 if depth < 3 else 6)
    if pick == 0:
        return None
    if pick == 1:
        return rng.choice([True, False])
    if pick == 2:
        return rng.choice([0, -1, 1, 2**31, 2**63, -(2**70), 10**30])
    if pick == 3:
        return rng.choice([0.5, -0.0, 1e308, 3.0])
    if pick == 4:
        return rng.choice(["", "draw", "stock", "QS", "JK", "ZZ", "\u0000", "é" * 40, "1"])
    if pick == 5:
        return rng.choice(["move", "vote", "meld", "discard", "layoff", "swap", "next_hand"])
    if pick == 6:
        return [_json_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    keys = ["type", "move", "version", "vote", "source", "card", "cards", "melds", "meld", "seat"]
    return {rng.choice(keys): _json_value(rng, depth + 1) for _ in range(rng.randrange(5))}


def _random_frame(rng: random.Random) -> Any:
    frame = _json_value(rng)
    if rng.random() < 0.7:
        frame = frame if isinstance(frame, dict) else {}
        frame["type"] = rng.choice(["move", "vote", "teleport", 7, None, "MOVE"])
        if frame["type"] == "move" and rng.random() < 0.6:
            move = frame.get("move")
            if not isinstance(move, dict):
                move = {}
            move["type"] = rng.choice(["draw", "meld", "layoff", "swap", "discard", "pass"])
            frame["move"] = move
    return frame


MALFORMED: list[str | bytes] = [
    "",
    "not json",
    "{",
    '{"type": "move"',
    "[]",
    "null",
    "42",
    '"move"',
    "NaN",
    '{"type": 5}',
    '{"type": null}',
    '{"type": "teleport"}',
    '{"type": "move"}',
    '{"type": "move", "move": "draw", "version": 0}',
    '{"type": "move", "move": {"type": "draw", "source": "stock"}, "version": "0"}',
    '{"type": "move", "move": {"type": "draw", "source": "stock"}, "version": true}',
    '{"type": "move", "move": {"type": "draw", "source": "stock"}, "version": -1}',
    '{"type": "move", "move": {"type": "draw", "source": "stock"}, "version": 1e400}',
    '{"type": "move", "move": {"type": "draw", "source": "stock"}, "version": ' + "9" * 4000 + "}",
    '{"type": "move", "move": {"type": "draw", "source": "nowhere"}, "version": 0}',
    '{"type": "move", "move": {"type": "discard", "card": "QS"}, "version": 0, "seat": 0}',
    '{"type": "move", "move": {"type": "meld", "melds": [[]]}, "version": 0}',
    '{"type": "move", "move": {"type": "meld", "melds": ' + "[" * 200 + "]" * 200 + "}}",
    '{"type": "vote", "vote": "win"}',
    '{"type": "vote", "vote": ["next_hand"]}',
    '{"type": "move", "move": {"type": "draw", "source": "stock"}, "version": 0, "type": "x"}',
    "[" * 5000 + "]" * 5000,
    '{"type": "move", "move": ' + "[" * 20000 + "]" * 20000 + "}",
    '{"a":' * 3000 + "1" + "}" * 3000,
    '"\\ud800"',
    '{"type": "move\\u0000"}',
    b"\x00\x01binary",
    json.dumps({"type": "move", "move": DRAW, "version": 0, "pad": " " * 30000}),
]


def _views(live: str, room: str, tokens: list[str]) -> list[dict[str, Any]]:
    """Every seat's view over REST, without presence (sockets come and go)."""
    views = []
    for token in tokens:
        view = ok(httpx.get(f"{live}/api/rooms/{room}/state", headers=bearer(token)))
        view.pop("seats")
        views.append(view)
    return views


async def _answered(seat: Any, expected_version: int) -> dict[str, Any]:
    """The error frame a bad frame gets, then the resync view at the unchanged version."""
    error = await seat.until(lambda f: f["type"] == "error")
    assert set(error) == {"type", "error"} and set(error["error"]) - {"details"} == {
        "code",
        "message",
    }
    assert isinstance(error["error"]["message"], str) and error["error"]["message"]
    state = await seat.state()
    assert state["version"] == expected_version
    return dict(error["error"])


@pytest.mark.parametrize("limits", ["off", "on"])
async def test_malformed_frames_get_an_error_frame_and_change_nothing(
    limits: str, live_server: LiveServer, make_server: Any
) -> None:
    # With the limits on, every frame also passes the middleware's move counter.
    if limits == "on":
        live_server = make_server(rate_limit_enabled=True)
    async with httpx.AsyncClient(base_url=live_server, timeout=60) as http:
        room, tokens = await online_room(http, "classic", 2, seed=7001)
    before = _views(live_server, room, tokens)
    codes = []
    # Seat 1 is not to move: even a well-formed move of its own must change nothing.
    async with seat_socket(live_server, room, tokens[1]) as seat:
        version = (await seat.state())["version"]
        for frame in MALFORMED:
            await seat.send(frame)
            codes.append((await _answered(seat, version))["code"])
        # The socket still works after all that.
        await seat.send({"type": "ping"})
        assert (await seat.until(lambda f: f["type"] in ("pong", "error")))["type"] == "pong"
    assert _views(live_server, room, tokens) == before
    assert set(codes) <= {"invalid_request", "invalid_move", "not_your_turn", "stale_version"}


async def test_random_frames_from_the_seat_to_move_change_nothing(
    live_server: LiveServer, http: httpx.AsyncClient
) -> None:
    room, tokens = await online_room(http, "rummy51", 3, seed=7002)
    before = _views(live_server, room, tokens)
    rng = random.Random(7002)
    sent = 0
    async with seat_socket(live_server, room, tokens[0]) as seat:
        version = (await seat.state())["version"]
        while sent < 250:
            frame = _random_frame(rng)
            if isinstance(frame, dict) and frame.get("type") == "move":
                # A random move may be legal: aim it at an old version so it must not apply.
                frame["version"] = rng.choice([version + 1, version + 50, -3, "x", None])
            await seat.send(frame)
            await _answered(seat, version)
            sent += 1
    assert _views(live_server, room, tokens) == before


async def test_moves_sent_for_another_seat_are_refused(
    live_server: LiveServer, http: httpx.AsyncClient
) -> None:
    room, tokens = await online_room(http, "basic", 3, seed=7003)
    before = _views(live_server, room, tokens)
    version = before[0]["version"]
    async with seat_socket(live_server, room, tokens[2]) as seat:
        await seat.state()
        for extra in ({}, {"seat": 0}, {"seat": "0"}, {"token": tokens[0]}, {"as": 0}):
            await seat.send({"type": "move", "move": DRAW, "version": version, **extra})
            assert (await _answered(seat, version))["code"] == "not_your_turn"
            await seat.send({"type": "move", "move": {**DRAW, **extra}, "version": version})
            assert (await _answered(seat, version))["code"] in ("invalid_move", "not_your_turn")
    assert _views(live_server, room, tokens) == before


async def test_a_frame_over_the_cap_closes_the_socket_with_1009(
    live_server: LiveServer, http: httpx.AsyncClient
) -> None:
    room, tokens = await online_room(http, "classic", 2, seed=7004)
    before = _views(live_server, room, tokens)
    cap = live_server.app.state.service.settings.ws_max_frame_bytes
    for frame in (
        json.dumps({"type": "move", "move": DRAW, "version": 0, "pad": "x" * cap}),
        "[" * (cap + 1),
        b"\x00" * (cap + 1),
    ):
        async with seat_socket(live_server, room, tokens[0]) as seat:
            await seat.state()
            await seat.send(frame)
            assert await seat.closed() == 1009
            assert all(f["type"] != "error" or f["error"]["code"] for f in seat.frames)
    assert _views(live_server, room, tokens) == before
    # The seat can reconnect and play on.
    async with seat_socket(live_server, room, tokens[0]) as seat:
        version = (await seat.state())["version"]
        await seat.send({"type": "move", "move": DRAW, "version": version})
        assert (await seat.state(version + 1))["phase"] == "play"


async def test_a_hostile_first_frame_is_refused_like_a_wrong_token(
    live_server: LiveServer, http: httpx.AsyncClient
) -> None:
    # A socket without ?token= authenticates with its first frame; anything else there is a
    # wrong token (4401), and the room is untouched.
    room, tokens = await online_room(http, "classic", 2, seed=7005)
    before = _views(live_server, room, tokens)
    url = "ws" + live_server[len("http") :] + f"/api/rooms/{room}/ws"
    cap = live_server.app.state.service.settings.ws_max_frame_bytes
    for frame in [
        *MALFORMED[:12],
        json.dumps({"type": "auth", "token": tokens[0]}).encode(),  # binary, not text
        json.dumps({"type": "auth", "token": [tokens[0]]}),
        json.dumps({"type": "auth", "token": {"token": tokens[0]}}),
        json.dumps({"type": "auth", "token": tokens[0] + "\u0000"}),
        json.dumps({"type": "auth", "token": "x" * (cap - 40)}),
        json.dumps({"type": "auth", "token": "é" * 1000}),
        "[" * 5000 + "]" * 5000,
    ]:
        async with connect(url, max_size=None) as ws:
            seat = Seat(ws)
            await seat.send(frame)
            assert await seat.closed() == 4401, frame[:80]
            assert [f["error"]["code"] for f in seat.frames] == ["unauthorized"]
    assert _views(live_server, room, tokens) == before
