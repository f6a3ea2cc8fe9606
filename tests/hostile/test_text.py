"""The hostile byte (docs/api.md v1.3 "One policy for text"): a lone surrogate, text that is only
a zero-width space, a left-to-right mark, a tag character and a letter under 200 combining
accents, sent through every text input there is, over REST and the websocket, to a real
`rummy serve`. On a869841 the surrogate was a 500 in chat and a dropped socket (1006) with a
traceback per frame, crashed the auth frame's token hashing, and chat took the other four.
Now each is 422 (REST), an error frame (a chat frame: and no view after it) or 4401 (an
auth frame), and the server's log holds no traceback and at most a line per refusal."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tests.kit.clients import bearer
from tests.kit.processes import Served, rummy_serve

# uvicorn's access log and its socket lines: one per request or socket, whatever it held.
UVICORN_LINE = re.compile(
    r'"(?:GET|POST) [^"]*HTTP/1.1" \d{3}|WebSocket /|connection (?:open|closed)'
)
HOSTILE = {
    "lone surrogate": "a\ud800b",
    "zero-width space only": "\u200b",
    "left-to-right mark": "\u200eAnn",
    "tag character": "Ann\U000e0041",
    "200 combining marks": "a" + "\u0301" * 200,
}


def _json(value: Any) -> str:
    return json.dumps(value)  # ASCII escapes: "\ud800" stays a lone surrogate on the wire


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    with rummy_serve(tmp_path_factory.mktemp("text"), RUMMY_ALLOW_FIXED_DEALS="1") as server:
        yield server


async def _post(http: httpx.AsyncClient, path: str, body: Any, token: str = "") -> httpx.Response:
    headers = {"content-type": "application/json", **(bearer(token) if token else {})}
    return await http.post(path, content=_json(body), headers=headers)


async def _setting(http: httpx.AsyncClient) -> dict[str, Any]:
    """A room with both seats taken and a challenge with its owner's secret."""
    room = (await _post(http, "/api/rooms", {"name": "Host", "seed": 3})).json()
    joined = (await _post(http, f"/api/rooms/{room['room']}/join", {"name": "Guest"})).json()
    challenge = (await _post(http, "/api/challenges", {"name": "Anna"})).json()
    return {
        "room": room["room"],
        "tokens": [room["token"], joined["token"]],
        "challenge": challenge["challenge"],
        "owner": challenge.get("owner"),
        "invite": challenge.get("invite"),
    }


async def _rest_inputs(http: httpx.AsyncClient, text: str) -> dict[str, httpx.Response]:
    s = await _setting(http)
    cid, room = s["challenge"], s["room"]
    return {
        "room name": await _post(http, "/api/rooms", {"name": text}),
        "join name": await _post(http, f"/api/rooms/{room}/join", {"name": text}),
        "chat": await _post(http, f"/api/rooms/{room}/chat", {"text": text}, s["tokens"][0]),
        "challenge name": await _post(http, "/api/challenges", {"name": text}),
        "first invitation's name": await _post(http, "/api/challenges", {"invite_name": text}),
        "invitation name": await _post(
            http, f"/api/challenges/{cid}/invites", {"name": text}, s["owner"]
        ),
        "challenge player": await _post(
            http, f"/api/challenges/{cid}/play", {"name": text, "invite": s["invite"]}
        ),
        "variant": await _post(http, "/api/rooms", {"variant": text}),
        "move": await _post(
            http,
            f"/api/rooms/{room}/moves",
            {"move": {"type": "discard", "card": text}, "version": 0},
            s["tokens"][1],
        ),
        "move type": await _post(
            http, f"/api/rooms/{room}/moves", {"move": {"type": text}, "version": 0}, s["tokens"][1]
        ),
    }


async def _frames_until(ws: Any, kinds: set[str]) -> list[dict[str, Any]]:
    frames: list[dict[str, Any]] = []
    while not frames or frames[-1]["type"] not in kinds:
        frames.append(json.loads(await ws.recv()))
    return frames


async def _socket_inputs(served: Served, http: httpx.AsyncClient, text: str) -> dict[str, Any]:
    s = await _setting(http)
    url = f"{served.ws_base}/api/rooms/{s['room']}/ws"
    seen: dict[str, Any] = {}
    async with connect(f"{url}?token={s['tokens'][0]}") as ws:
        await _frames_until(ws, {"state"})
        for name, frame in (
            ("chat frame", {"type": "chat", "text": text}),
            ("move frame", {"type": "move", "move": {"type": text}, "version": 0}),
        ):
            await ws.send(_json(frame))
            await ws.send(_json({"type": "ping"}))
            # What came before the pong: the refusal, and for a move the view to resync.
            seen[name] = [f for f in await _frames_until(ws, {"pong"}) if f["type"] != "presence"]
    answer: dict[str, Any] = {}
    try:
        async with connect(url) as ws, asyncio.timeout(30):
            await ws.send(_json({"type": "auth", "token": text}))
            answer = json.loads(await ws.recv())
            await ws.recv()
    except ConnectionClosed as closed:
        code = closed.rcvd.code if closed.rcvd else None
        seen["auth frame"] = (answer.get("error", {}).get("code"), code)
    return seen


@pytest.mark.parametrize("text", HOSTILE.values(), ids=HOSTILE.keys())
async def test_hostile_text_is_refused_everywhere_without_a_traceback(
    served: Served, text: str
) -> None:
    lines_before = len(served.log_text().splitlines())
    async with httpx.AsyncClient(base_url=served.base, timeout=60) as http:
        answers = await _rest_inputs(http, text)
        frames = await _socket_inputs(served, http, text)
    wrong = {k: (r.status_code, r.text[:160]) for k, r in answers.items() if r.status_code != 422}
    assert not wrong, wrong
    for name, response in answers.items():
        assert set(response.json()["error"]) >= {"code", "message"}, name
        if name not in ("variant", "move", "move type"):
            assert text not in response.text, name  # a refused text is never echoed back
    chat, move = frames["chat frame"], frames["move frame"]
    assert [f["type"] for f in chat] == ["error", "pong"], chat  # no view after a chat
    assert chat[0]["error"]["code"] == "invalid_text"
    assert [f["type"] for f in move] == ["error", "state", "pong"], move
    assert frames["auth frame"] == ("unauthorized", 4401)
    log = served.log_text()
    assert "Traceback" not in log and " 500" not in log, log[-3000:]
    # At most one line per refusal (10 requests, 3 frames) besides uvicorn's own lines for
    # each request and socket.
    added = [line for line in log.splitlines()[lines_before:] if not UVICORN_LINE.search(line)]
    assert len(added) <= len(answers) + 3, added


def test_one_policy_for_every_text() -> None:
    """The policy itself, on what a person would write: every script, emoji sequences
    (joined by U+200D), Persian's U+200C, accents; and nothing of the refused shapes."""
    from rummy_wire.textpolicy import refusal

    for fine in ["Zoë", "Ελένη", "محمد", "李雷", "👨\u200d👩\u200d👧", "🏳️\u200d🌈", "می\u200cخواهم",
                 "क्\u200dष", "1️⃣", "👍🏽", "Ann O'Neil", "a\u0301\u0301\u0301\u0301"]:  # fmt: skip
        assert refusal(fine, 40) is None, fine
    for bad in [*HOSTILE.values(), "\u200d", "A\u200d", "\u3164", " \u2800 ", "a\u2028b",
                "\ue000", "x\u0007", "\u202eevil", "a\u0301\u0301\u0301\u0301\u0301"]:  # fmt: skip
        assert refusal(bad, 40) is not None, repr(bad)
    assert refusal("x" * 40, 40) is None and refusal("x" * 41, 40) is not None


def test_the_log_shows_no_hostile_text(served: Served, tmp_path: Path) -> None:
    """Nothing of the text reaches the log, in any form (it ran first in this module)."""
    log = served.log_text()
    for text in HOSTILE.values():
        assert text.encode("utf-8", "backslashreplace").decode() not in log
        assert "\\u0301" * 5 not in log and "\\ud800" not in log.lower()
