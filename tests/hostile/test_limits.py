"""The limits, on real servers started with small ones: body and frame caps, 429 on room
creation, joins, moves and failed credential checks, idle sockets closed with 4408, and the
same limits set through RUMMY_* variables of `rummy serve`."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from tests.kit.clients import bearer, seat_socket
from tests.kit.ports import free_port
from tests.kit.processes import RUMMY, wait_serving
from tests.kit.responses import error_code, ok
from tests.kit.rooms import online_room
from tests.kit.servers import LiveServer

DRAW = {"type": "draw", "source": "stock"}
ROOT = Path(__file__).resolve().parents[2]


def _limited(retry: httpx.Response) -> None:
    assert retry.status_code == 429 and error_code(retry) == "rate_limited", retry.text
    assert int(retry.headers["retry-after"]) >= 1


@pytest.fixture
def limited(make_server: Callable[..., LiveServer]) -> Callable[..., LiveServer]:
    def make(**settings: Any) -> LiveServer:
        return make_server(rate_limit_enabled=True, **settings)

    return make


@pytest.fixture
async def client() -> AsyncIterator[Callable[[str], httpx.AsyncClient]]:
    opened: list[httpx.AsyncClient] = []

    def make(base: str) -> httpx.AsyncClient:
        opened.append(httpx.AsyncClient(base_url=base, timeout=60))
        return opened[-1]

    yield make
    for http in opened:
        await http.aclose()


@pytest.fixture
def limited_room(limited: Any, client: Any) -> Callable[..., Any]:
    """A server with these limits, a client of it and a full classic room of two."""

    async def make(**settings: Any) -> tuple[LiveServer, httpx.AsyncClient, str, list[str]]:
        live = limited(**settings)
        http = client(live)
        room, tokens = await online_room(http, "classic", 2)
        return live, http, room, tokens

    return make


async def test_a_body_over_the_cap_gets_413(limited: Any, client: Any) -> None:
    live = limited(max_body_bytes=2000)
    http = client(live)
    big = {"variant": "classic", "name": "x" * 30, "bots": {}, "pad": "y" * 3000}
    r = await http.post("/api/rooms", json=big)
    assert r.status_code == 413 and error_code(r) == "payload_too_large"

    async def chunks() -> AsyncIterator[bytes]:  # no Content-Length: counted as it streams
        yield b'{"variant": "classic", "pad": "'
        for _ in range(10):
            yield b"z" * 500
        yield b'"}'

    r = await http.post(
        "/api/rooms", content=chunks(), headers={"content-type": "application/json"}
    )
    assert r.status_code == 413 and error_code(r) == "payload_too_large"
    room, tokens = await online_room(http)
    r = await http.post(
        f"/api/rooms/{room}/moves",
        json={"move": DRAW, "version": 0, "pad": "p" * 5000},
        headers=bearer(tokens[0]),
    )
    assert r.status_code == 413
    assert (await http.get(f"/api/rooms/{room}/state", headers=bearer(tokens[0]))).json()[
        "version"
    ] == 0
    # Under the cap, all is well.
    assert (await http.post("/api/rooms", json={"variant": "classic"})).status_code == 201


async def test_room_creation_is_rate_limited(limited: Any, client: Any) -> None:
    live = limited(rate_create="3/hour")
    http = client(live)
    for _ in range(3):
        assert (await http.post("/api/rooms", json={})).status_code == 201
    _limited(await http.post("/api/rooms", json={}))
    # Other routes are not affected.
    assert (await http.get("/api/variants")).status_code == 200


async def test_challenges_count_as_room_creation(limited: Any, client: Any) -> None:
    live = limited(rate_create="2/hour")
    http = client(live)
    made = ok(await http.post("/api/challenges", json={}), 201)
    play = {"invite": made["invite"]}
    assert (
        await http.post(f"/api/challenges/{made['challenge']}/play", json=play)
    ).status_code == 201
    _limited(await http.post(f"/api/challenges/{made['challenge']}/play", json=play))
    _limited(await http.post("/api/challenges", json={}))
    _limited(await http.post("/api/rooms", json={}))


async def test_joins_are_rate_limited(limited: Any, client: Any) -> None:
    live = limited(rate_join="2/hour")
    http = client(live)
    room = ok(await http.post("/api/rooms", json={"variant": "basic", "players": 4}), 201)["room"]
    for seat in (1, 2):
        assert ok(await http.post(f"/api/rooms/{room}/join", json={}), 201)["seat"] == seat
    _limited(await http.post(f"/api/rooms/{room}/join", json={}))
    summary = ok(await http.get(f"/api/rooms/{room}"))
    assert [s["taken"] for s in summary["seats"]] == [True, True, True, False]


async def test_moves_are_rate_limited_over_rest_and_websocket(limited: Any, client: Any) -> None:
    live = limited(rate_move="2/hour")
    http = client(live)
    room, tokens = await online_room(http, "classic", 2, seed=9001)
    # Two moves pass (even a refused one spends a token), the third is refused unseen.
    r = await http.post(
        f"/api/rooms/{room}/moves", json={"move": DRAW, "version": 5}, headers=bearer(tokens[0])
    )
    assert r.status_code == 409
    r = await http.post(
        f"/api/rooms/{room}/moves", json={"move": DRAW, "version": 0}, headers=bearer(tokens[0])
    )
    hand = ok(r)["hand"]
    card = hand[0]
    move = {"move": {"type": "discard", "card": card}, "version": 1}
    _limited(await http.post(f"/api/rooms/{room}/moves", json=move, headers=bearer(tokens[0])))
    async with seat_socket(live, room, tokens[0]) as seat:
        assert (await seat.state())["version"] == 1
        await seat.send({"type": "move", **move})
        error = await seat.until(lambda f: f["type"] == "error")
        assert error["error"]["code"] == "rate_limited"
        # Pings are not moves: the socket still answers.
        await seat.send({"type": "ping"})
        await seat.until(lambda f: f["type"] == "pong")
    state = ok(await http.get(f"/api/rooms/{room}/state", headers=bearer(tokens[0])))
    assert state["version"] == 1 and state["hand"] == hand


async def test_the_move_counter_survives_garbage_frames(limited: Any, client: Any) -> None:
    """With the limits on, the middleware reads each frame's type to count moves: frames it
    cannot read still reach the app, which answers them with an error frame."""
    live = limited(rate_move="100/minute")
    http = client(live)
    room, tokens = await online_room(http, "classic", 2, seed=9007)
    async with seat_socket(live, room, tokens[1]) as seat:
        version = (await seat.state())["version"]
        for frame in (
            '{"type": "move", "move": ' + "[" * 20000 + "]" * 20000 + "}",
            '{"type": "move", "version": ' + "9" * 5000 + "}",
            '{"type": "vote", "vote": NaN}',
            '{"type": "move"',
        ):
            await seat.send(frame)
            error = await seat.until(lambda f: f["type"] == "error")
            assert error["error"]["code"] in ("invalid_request", "invalid_move")
            assert (await seat.state())["version"] == version


async def test_a_move_with_an_escaped_key_is_counted_like_any_move(limited_room: Any) -> None:
    """`{"\\u0074ype": "move"}` is a move once parsed: it spends the move rate like one."""
    live, http, room, tokens = await limited_room(rate_move="5/hour")
    # No `"type"` anywhere in its text, yet a move (the 7,000 in 9.5 s went through).
    escaped = (
        '{"\\u0074ype": "move", "move": {"\\u0074ype": "draw", "source": "stock"}, "version": 99}'
    )
    assert json.loads(escaped)["type"] == "move"
    async with seat_socket(live, room, tokens[0]) as seat:
        await seat.state()
        for _ in range(30):  # a flood: sent without waiting for the answers
            await seat.send(escaped)
        errors = [(await seat.until(lambda f: f["type"] == "error"))["error"] for _ in range(30)]
    codes = [e["code"] for e in errors]
    # Five reached the game (refused there: stale version), the rest never did.
    assert codes.count("rate_limited") == 25, codes
    assert "rate_limited" not in codes[:5]
    state = ok(await http.get(f"/api/rooms/{room}/state", headers=bearer(tokens[0])))
    assert state["version"] == 0


async def test_a_flood_of_junk_frames_closes_the_socket_with_4429(limited_room: Any) -> None:
    """Junk, pings and refused frames all count against the frame rate of the address."""
    live, http, room, tokens = await limited_room(rate_frame="12/hour")
    junk = ["not json", b"\x00\x01", "{}", '{"type": "dance"}', {"type": "ping"}, "[" * 50]
    async with seat_socket(live, room, tokens[1]) as seat:
        await seat.state()
        for frame in junk * 2:  # twelve frames, each answered
            await seat.send(frame)
            await seat.until(lambda f: f["type"] in ("error", "pong"))
        await seat.send({"type": "ping"})  # the thirteenth
        assert await seat.closed() == 4429
        assert seat.frames[-1]["type"] == "error"
        assert seat.frames[-1]["error"]["code"] == "rate_limited"
    # The rate is the address's, not the socket's: a new socket gets no more room.
    async with seat_socket(live, room, tokens[0]) as again:
        await again.state()
        await again.send({"type": "ping"})
        assert await again.closed() == 4429
    # The REST routes are not affected.
    assert ok(await http.get(f"/api/rooms/{room}/state", headers=bearer(tokens[0])))


async def test_failed_token_checks_are_rate_limited(limited: Any, client: Any) -> None:
    live = limited(rate_auth_fail="3/hour")
    http = client(live)
    room, tokens = await online_room(http, "classic", 2, seed=9002)
    guesses = [
        http.get(f"/api/rooms/{room}/state", headers=bearer("guess-1")),
        http.get(f"/api/rooms/{room}/log", headers=bearer("guess-2")),
        http.get("/api/rooms/NoSuchRoom1/state", headers=bearer(tokens[0])),
    ]
    for guess in guesses:
        assert (await guess).status_code in (401, 404)
    # Now even the right token is refused from this address for a while, over REST ...
    _limited(await http.get(f"/api/rooms/{room}/state", headers=bearer(tokens[0])))
    _limited(await http.get(f"/api/rooms/{room}"))
    # ... and over the websocket, refused before it opens.
    with pytest.raises(InvalidStatus) as refused:
        async with connect(live.ws_url + f"/api/rooms/{room}/ws?token={tokens[0]}"):
            pass
    assert refused.value.response.status_code == 429
    # Routes outside a room still work.
    assert (await http.get("/api/variants")).status_code == 200


async def test_failed_websocket_tokens_count_too(limited: Any, client: Any) -> None:
    live = limited(rate_auth_fail="2/hour")
    http = client(live)
    room, tokens = await online_room(http, "classic", 2, seed=9003)
    for guess in ("guess-1", "guess-2"):
        async with seat_socket(live, room, guess) as seat:
            assert await seat.closed() == 4401
    _limited(await http.get(f"/api/rooms/{room}/state", headers=bearer(tokens[0])))


async def test_an_idle_socket_is_closed_with_4408(limited: Any, client: Any) -> None:
    live = limited(ws_idle_seconds=0.5)
    http = client(live)
    room, tokens = await online_room(http, "classic", 2, seed=9004)
    async with seat_socket(live, room, tokens[1]) as seat:
        await seat.state()
        assert await seat.closed() == 4408
    # The seat is shown as gone once its socket was closed.
    for _ in range(100):
        summary = ok(await http.get(f"/api/rooms/{room}"))
        if not summary["seats"][1]["connected"]:
            break
        await asyncio.sleep(0.05)
    assert not summary["seats"][1]["connected"]


async def test_a_frame_over_a_configured_cap_closes_with_1009(limited: Any, client: Any) -> None:
    live = limited(ws_max_frame_bytes=300)
    http = client(live)
    room, tokens = await online_room(http, "classic", 2, seed=9005)
    async with seat_socket(live, room, tokens[0]) as seat:
        await seat.state()
        await seat.send({"type": "ping", "pad": "x" * 200})
        await seat.until(lambda f: f["type"] == "pong")
        await seat.send({"type": "ping", "pad": "x" * 400})
        assert await seat.closed() == 1009


async def test_a_body_that_trickles_in_gets_408(limited: Any) -> None:
    live = limited(body_timeout_seconds=0.5)
    host, port = live[len("http://") :].split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    try:
        writer.write(
            b"POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b'Content-Length: 100\r\n\r\n{"variant"'
        )
        await writer.drain()
        # ... and nothing more: the server answers without waiting for the other 89 bytes.
        async with asyncio.timeout(60):
            head = await reader.readuntil(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 408 ")
            length = int(
                next(
                    line.split(b":")[1]
                    for line in head.split(b"\r\n")
                    if line.lower().startswith(b"content-length:")
                )
            )
            answer = json.loads(await reader.readexactly(length))
        assert answer["error"]["code"] == "request_timeout"
    finally:
        writer.close()


async def test_open_websockets_per_address_are_capped(limited: Any, client: Any) -> None:
    live = limited(ws_max_per_client=2)
    http = client(live)
    room, tokens = await online_room(http, "classic", 2, seed=9006)
    async with seat_socket(live, room, tokens[0]) as a, seat_socket(live, room, tokens[1]) as b:
        await a.state()
        await b.state()
        with pytest.raises(InvalidStatus) as refused:
            async with connect(live.ws_url + f"/api/rooms/{room}/ws?token={tokens[0]}"):
                pass
        assert refused.value.response.status_code == 429
        assert b"rate_limited" in refused.value.response.body
    # Once they are closed (the server notices soon after), sockets open again.
    for _ in range(200):
        try:
            async with seat_socket(live, room, tokens[0]) as again:
                assert (await again.state())["seat"] == 0
                break
        except InvalidStatus as exc:
            assert exc.response.status_code == 429
            await asyncio.sleep(0.05)
    else:
        raise AssertionError("no socket opened after the others closed")


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    """`rummy serve` in a subprocess, configured only through RUMMY_* variables."""
    port = free_port()
    env = {
        **os.environ,
        "RUMMY_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/serve.db",
        "RUMMY_RATE_CREATE": "2/hour",
        "RUMMY_MAX_BODY_BYTES": "1500",
        "RUMMY_WS_MAX_FRAME_BYTES": "500",
    }
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [RUMMY, "serve", "--port", str(port)],
            cwd=tmp_path,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_serving(base, proc, log.read_text)
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=30)


async def test_rummy_serve_takes_its_limits_from_the_environment(served: str) -> None:
    async with httpx.AsyncClient(base_url=served, timeout=60) as http:
        r = await http.post("/api/rooms", json={"variant": "classic", "pad": "x" * 2000})
        assert r.status_code == 413
        room, tokens = await online_room(http)  # creation 1 of 2 (the 413 spent one)
        _limited(await http.post("/api/rooms", json={}))
        async with seat_socket(served, room, tokens[0]) as seat:
            await seat.state()
            await seat.send({"type": "ping", "pad": "x" * 600})
            assert await seat.closed() == 1009


def test_the_schema_documents_what_the_guards_answer(live_server: LiveServer) -> None:
    """Every body-taking operation lists 408 and 413, every room URL 429 with Retry-After
    (the guards answer those before any route runs), each with the error body."""
    schema = httpx.get(live_server + "/openapi.json").json()
    checked = 0
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            responses = operation["responses"]
            expected = {"408", "413"} if method in ("post", "put", "patch") else set()
            if path.startswith("/api/rooms"):
                expected.add("429")
                retry = responses.get("429", {}).get("headers", {})
                assert "Retry-After" in retry, (method, path)
            assert expected <= set(responses), (method, path, sorted(responses))
            for status in expected:
                content = responses[status]["content"]["application/json"]["schema"]
                assert content == {"$ref": "#/components/schemas/ErrorBody"}
            checked += 1
    assert checked >= 8
