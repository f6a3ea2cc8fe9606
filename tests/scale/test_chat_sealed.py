"""Chat sealed on Redis like game state (app/hub/sealed.py): `redis-cli MONITOR`, watching
every command Redis runs while a message posted on one process reaches a socket on the
other, sees the room's events go by and never the message's text. On a869841 the chat
frame crossed Redis in the clear."""

from __future__ import annotations

import json
import secrets
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.kit.players import WAIT, SeatSocket, create_room

pytestmark = [pytest.mark.postgres, pytest.mark.redis]
REDIS_CLI = shutil.which("redis-cli")


async def _chat_text(ws: Any) -> str:
    while True:
        frame = json.loads(await ws.recv())
        if frame["type"] == "chat":
            return str(frame["message"]["text"])


@pytest.mark.skipif(REDIS_CLI is None, reason="redis-cli is not installed")
async def test_redis_never_sees_chat_text(pair: Any, services: Any, tmp_path: Path) -> None:
    assert REDIS_CLI is not None
    a, b = pair
    room, tokens = await create_room(a.url, [b.url], seed=5)
    on_b = await SeatSocket.open(b.url, room, 1, tokens[1])
    secret = f"meet at the old mill {secrets.token_hex(6)}"
    watched = tmp_path / "monitor.txt"
    with watched.open("wb") as sink:
        monitor = subprocess.Popen([REDIS_CLI, "-u", services.redis_url, "MONITOR"], stdout=sink)
    try:
        deadline = time.monotonic() + WAIT
        while b"OK" not in watched.read_bytes():  # MONITOR answers OK once it watches
            assert time.monotonic() < deadline and monitor.poll() is None, "MONITOR did not start"
            time.sleep(0.05)
        await on_b.latest()
        async with httpx.AsyncClient(timeout=WAIT) as http:
            posted = await http.post(
                f"{a.url}/api/rooms/{room}/chat",
                json={"text": secret},
                headers={"Authorization": f"Bearer {tokens[0]}"},
            )
            assert posted.status_code == 201, posted.text
        assert await _chat_text(on_b.ws) == secret  # it crossed, through Redis
    finally:
        await on_b.close()
        monitor.terminate()
        monitor.wait(10)
    seen = watched.read_text(errors="replace")
    for piece in (secret, secret.split()[-1], "old mill"):
        assert piece not in seen, [line for line in seen.splitlines() if piece in line][:2]
    # ... though the chat's event went by, sealed.
    assert f'"PUBLISH" "rummy:room:{room}"' in seen, seen[-2000:]
    assert "sealed" in seen
