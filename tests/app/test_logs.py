"""JSON logs (RUMMY_LOG_FORMAT=json): a real `rummy serve` at debug level plays a hand with
chat, sockets and a wrong token; every line it printed, uvicorn's included, is one JSON
object with time, level, logger and message (and the room where there is one), and no line
holds a seat token or a word of the chat."""

from __future__ import annotations

import json
import secrets
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

from tests.kit.processes import rummy_serve
from tests.kit.tables import Table


def _windows(secret: str, width: int = 12) -> set[str]:
    """Every `width`-character piece of `secret`: a cut or split secret is still found."""
    return {secret[i : i + width] for i in range(len(secret) - width + 1)}


def _parsed(line: str) -> dict[str, Any]:
    try:
        parsed = json.loads(line)
    except ValueError:
        raise AssertionError(f"not a JSON line: {line!r}") from None
    assert isinstance(parsed, dict), line
    return parsed


async def test_every_line_is_json_without_tokens_or_chat(tmp_path: Path) -> None:
    said = [f"pineapple {secrets.token_hex(8)}", f"mango {secrets.token_hex(8)}"]
    wrong = secrets.token_urlsafe(32)
    with rummy_serve(tmp_path, "--log-level", "debug", RUMMY_LOG_FORMAT="json") as served:
        async with httpx.AsyncClient(timeout=30) as http:
            table = await Table.open(http, served.base)
            posted = await http.post(
                f"{served.base}/api/rooms/{table.room}/chat",
                json={"text": said[0]},
                headers={"Authorization": f"Bearer {table.tokens[0]}"},
            )
            assert posted.status_code in (200, 201), posted.text
            ws = f"{served.ws_base}/api/rooms/{table.room}/ws"
            async with connect(f"{ws}?token={table.tokens[1]}") as seat:
                await seat.send(json.dumps({"type": "chat", "text": said[1]}))
                await table.play_hand(http)
            refused = await http.get(
                f"{served.base}/api/rooms/{table.room}/state",
                headers={"Authorization": f"Bearer {wrong}"},
            )
            assert refused.status_code == 401
            assert table.hands_done == 0 and table.acked  # a hand played to its end
    text = served.log_text()
    lines = [_parsed(line) for line in text.split("\n") if line]
    assert all({"time", "level", "logger", "message"} <= set(line) for line in lines)
    loggers = {line["logger"] for line in lines}
    assert {"uvicorn.error", "rummy.service"} <= loggers, loggers
    rooms = {line.get("room") for line in lines}
    assert table.room in rooms  # the room's requests and handshakes name it
    handshakes = [line for line in lines if "WebSocket /api/rooms/" in line["message"]]
    assert handshakes and all(line["room"] == table.room for line in handshakes)
    for secret in [*table.tokens, wrong]:
        leaked = [piece for piece in _windows(secret) if piece in text]
        assert not leaked, [line for line in text.splitlines() if leaked[0] in line][:3]
    for words in said:
        assert words.split()[1] not in text and words not in text
