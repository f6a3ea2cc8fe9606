"""No log line shows a seat token: a real `rummy serve` at its most talkative log level, a
session of REST and websocket play with good, wrong and other rooms' tokens (header,
`?token=`, auth frame), then every token is looked for in everything it printed."""

from __future__ import annotations

import asyncio
import json
import secrets
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tests.kit.clients import Api
from tests.kit.processes import rummy_serve
from tests.kit.responses import ok
from tests.kit.rooms import online_room

DRAW = {"type": "draw", "source": "stock"}


async def _socket_session(url: str, first: dict[str, Any] | None, *then: Any) -> int | None:
    """Open `url`, send `first` (an auth frame) and `then`. With `then`, read the answer of
    each frame and return None; without, read until the server closes: its close code."""
    try:
        async with connect(url, open_timeout=30, close_timeout=5) as ws:
            if first is not None:
                await ws.send(json.dumps(first))
            for frame in then:
                await ws.send(frame if isinstance(frame, str) else json.dumps(frame))
            answers = 0
            async with asyncio.timeout(30):
                while not then or answers <= len(then):
                    if json.loads(await ws.recv())["type"] in ("state", "error", "pong"):
                        answers += 1
            return None
    except ConnectionClosed as exc:
        return exc.rcvd.code if exc.rcvd is not None else None


def _windows(secret: str, width: int = 12) -> set[str]:
    """Every `width`-character piece of `secret`: a truncated or split token is still one."""
    return {secret[i : i + width] for i in range(len(secret) - width + 1)}


async def test_no_log_line_contains_a_token(tmp_path: Path) -> None:
    with rummy_serve(tmp_path, "--log-level", "trace") as served:
        async with httpx.AsyncClient(base_url=served.base, timeout=30) as http:
            api = Api(http)
            room, tokens = await online_room(api, variant="classic")
            other_room, other_tokens = await online_room(api, variant="classic")
            wrong = ["wrong-" + secrets.token_urlsafe(24), secrets.token_urlsafe(32)]
            # REST: good, wrong, another room's and a lone "Bearer" credential.
            ok(await api.state(room, tokens[0]))
            ok(await api.move(room, tokens[0], DRAW, 0))
            assert (await api.state(room, wrong[0])).status_code == 401
            assert (await api.state(room, other_tokens[0])).status_code == 403
            assert (await api.move(room, tokens[1], DRAW, 1)).status_code in (409, 422)
            assert (await http.get(f"/api/rooms/{room}/log?token={tokens[1]}")).status_code
        ws = f"{served.ws_base}/api/rooms/{room}/ws"
        # ?token=: good (with a move and junk), wrong, another room's.
        assert await _socket_session(f"{ws}?token={tokens[1]}", None, "junk", DRAW) is None
        assert await _socket_session(f"{ws}?token={wrong[1]}", None) == 4401
        assert await _socket_session(f"{ws}?token={other_tokens[1]}", None) == 4403
        # The auth frame: good, wrong, another room's, and a frame that is not one.
        auth = {"type": "auth", "token": tokens[0]}
        assert await _socket_session(ws, auth, {"type": "ping"}) is None
        assert await _socket_session(ws, {"type": "auth", "token": wrong[0]}) == 4401
        assert await _socket_session(ws, {"type": "auth", "token": other_tokens[0]}) == 4403
        assert await _socket_session(ws, {"type": "move", "token": wrong[1]}) == 4401
    text = served.log_text()
    assert "WebSocket /api/rooms/" in text  # the handshake lines are there, token-free
    for secret in [*tokens, *other_tokens, *wrong]:
        leaked = [piece for piece in _windows(secret) if piece in text]
        assert not leaked, [line for line in text.splitlines() if leaked[0] in line][:5]
