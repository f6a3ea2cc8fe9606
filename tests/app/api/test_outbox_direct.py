"""A socket's news skip its writer task while it has nothing else to send, and keep their
order when a send has to wait (the client's TCP window shut).

The websocket here is a stand-in whose send can be held back at will: a real client would
have to leave megabytes unread before the server's transport pauses, and the order under
that pause is what these tests are about. The real sockets' paths (moves, errors, resyncs,
a client that never reads) are in test_ws.py and tests/hostile."""

from __future__ import annotations

import asyncio
import gc
import json
from typing import Any

import pytest

from app.api.outbox import Outbox
from app.api.ws import _send_now, _write


class HeldSocket:
    """Sends land in `sent` at once unless `open` is cleared: then they wait, as uvicorn's
    send waits for a paused transport."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.open = asyncio.Event()
        self.open.set()
        self.gone = False

    async def send_text(self, text: str) -> None:
        await self.open.wait()
        if self.gone:
            raise ConnectionResetError("the client went away")
        self.sent.append(text)

    async def send_json(self, data: Any) -> None:
        await self.send_text(json.dumps(data))

    async def close(self, code: int = 1000) -> None:
        self.sent.append(f"close {code}")


async def _writer(sock: HeldSocket) -> tuple[Outbox, asyncio.Task[None]]:
    outbox = Outbox()
    outbox.send_directly(_send_now(sock))  # type: ignore[arg-type]
    writer = asyncio.create_task(_write(sock, outbox))  # type: ignore[arg-type]
    await _settle()
    return outbox, writer


async def _settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_news_go_out_at_once_while_the_writer_waits() -> None:
    sock = HeldSocket()
    outbox, writer = await _writer(sock)
    outbox.put_state(1, "state 1")
    outbox.put_presence("presence")
    outbox.put({"type": "error", "error": {"code": "stale_version"}})
    # Sent before this test gave the loop a turn: no task had to wake for them.
    error = '{"type":"error","error":{"code":"stale_version"}}'
    assert sock.sent == ["state 1", "presence", error]
    outbox.put_state(0, "state 0")  # older than what the screen shows: never sent
    await _settle()
    assert sock.sent == ["state 1", "presence", error]
    writer.cancel()


async def test_a_send_held_back_keeps_its_place_and_the_newest_view_follows() -> None:
    sock = HeldSocket()
    outbox, writer = await _writer(sock)
    sock.open.clear()  # the client stops reading
    outbox.put_state(1, "state 1")  # begun at once, then held back
    outbox.put({"type": "pong"})  # must not overtake it
    outbox.put_state(2, "state 2")
    outbox.put_state(3, "state 3")  # replaces 2, which was never begun
    await _settle()
    assert sock.sent == []
    sock.open.set()
    await _settle()
    assert sock.sent == ["state 1", '{"type":"pong"}', "state 3"]
    # The writer waits again: the next news skip it once more.
    outbox.put_state(4, "state 4")
    assert sock.sent[-1] == "state 4"
    writer.cancel()


async def test_a_socket_closing_with_a_send_held_back_leaves_none_unfinished() -> None:
    sock = HeldSocket()
    outbox, writer = await _writer(sock)
    sock.open.clear()
    outbox.put_state(1, "state 1")
    writer.cancel()  # before it took the held send: the socket's end closes it
    with pytest.raises(asyncio.CancelledError):
        await writer
    outbox.close()
    gc.collect()  # a coroutine never awaited would warn here, which fails the run
    assert sock.sent == []


async def test_a_client_gone_during_a_direct_send_ends_the_writer() -> None:
    sock = HeldSocket()
    outbox, writer = await _writer(sock)
    sock.gone = True
    outbox.put_state(1, "state 1")
    with pytest.raises(ConnectionResetError):
        await asyncio.wait_for(writer, 5)
    assert sock.sent == []
