"""Chat (docs/api.md v1.2): a real server on each database, real sockets for seats and a
spectator, and what each of them is shown."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select
from websockets.asyncio.client import connect

from app.persist.social_tables import Challenge, ChallengeEntry, ChatMessage, RoomSocial
from tests.kit.clients import Api, Socket
from tests.kit.processes import rummy_serve
from tests.kit.responses import error_code, ok
from tests.kit.rooms import online_room
from tests.kit.servers import LiveServer

SCRIPT = "<script>document.title='owned'</script>"


@contextlib.asynccontextmanager
async def socket(base: str, room: str, token: str | None) -> AsyncIterator[Socket]:
    ws_base = "ws" + base[len("http") :]
    query = f"token={token}" if token else "watch=1"
    async with connect(f"{ws_base}/api/rooms/{room}/ws?{query}") as ws:
        yield Socket(ws)


def is_chat(frame: dict[str, Any]) -> bool:
    return frame["type"] == "chat"


async def post(api: Api, room: str, token: str | None, text: Any) -> httpx.Response:
    return await api.http.post(
        f"/api/rooms/{room}/chat", json={"text": text}, headers=api.auth(token)
    )


async def history(api: Api, room: str, token: str | None, since: int | None = None) -> Any:
    params = {} if since is None else {"since": since}
    return await api.http.get(f"/api/rooms/{room}/chat", params=params, headers=api.auth(token))


async def test_every_socket_gets_every_message_in_order(server: LiveServer, client: Api) -> None:
    room, tokens = await online_room(client)
    async with (
        socket(server, room, tokens[0]) as one,
        socket(server, room, tokens[1]) as two,
        socket(server, room, None) as watcher,
    ):
        for s in (one, two, watcher):
            await s.state()
        posted = ok(await post(client, room, tokens[0], "  Good luck!  "), 201)["message"]
        assert posted["id"] >= 1 and posted["seat"] == 0 and posted["text"] == "Good luck!"
        assert posted["name"] == "Player 1" and posted["at"].endswith(("Z", "+00:00"))
        await two.send({"type": "chat", "text": "Nice one"})
        received = {
            s: [(await s.until(is_chat))["message"] for _ in range(2)] for s in (one, two, watcher)
        }
        ok(await post(client, room, tokens[0], SCRIPT), 201)
        for s in (one, two, watcher):
            got = received[s] + [(await s.until(is_chat))["message"]]
            assert [m["text"] for m in got] == ["Good luck!", "Nice one", SCRIPT]
            assert [m["id"] for m in got] == [posted["id"], posted["id"] + 1, posted["id"] + 2]
            assert [(m["seat"], m["name"]) for m in got] == [
                (0, "Player 1"),
                (1, "Guest 1"),
                (0, "Player 1"),
            ]
    # Chat is no move: the room's version did not move.
    assert ok(await client.summary(room))["version"] == 0
    texts = [m["text"] for m in ok(await history(client, room, tokens[1]))["messages"]]
    assert texts == ["Good luck!", "Nice one", SCRIPT]
    since = ok(await history(client, room, None, since=posted["id"]))["messages"]
    assert [m["text"] for m in since] == ["Nice one", SCRIPT]


async def test_refused_text_changes_nothing(server: LiveServer, client: Api) -> None:
    room, tokens = await online_room(client)
    too_long = "x" * 201
    bad = ["", "   ", too_long, "a\nb", "tab\there", "bell\x07", "\u202eevil", "iso\u2066late"]
    for text in bad:
        assert error_code(await post(client, room, tokens[0], text), 422) == "invalid_text"
    assert error_code(await post(client, room, tokens[0], 7), 422) == "invalid_request"
    assert ok(await history(client, room, tokens[0]))["messages"] == []
    # 200 code points (astral ones count one each) after trimming is the most there is.
    ok(await post(client, room, tokens[0], "  " + "\U0001f0a1" * 200 + " "), 201)
    async with socket(server, room, tokens[1]) as two:
        await two.state()
        await two.send({"type": "chat", "text": "x\u2069"})
        error = await two.until(lambda f: f["type"] == "error")
        assert error["error"]["code"] == "invalid_text"


async def test_spectators_read_but_may_not_write(server: LiveServer, client: Api) -> None:
    room, tokens = await online_room(client)
    assert error_code(await post(client, room, None, "hi"), 401) == "unauthorized"
    async with socket(server, room, None) as watcher:
        await watcher.state()
        await watcher.send({"type": "chat", "text": "let me in"})
        error = await watcher.until(lambda f: f["type"] == "error")
        assert error["error"]["code"] == "forbidden"
    assert ok(await history(client, room, None))["messages"] == []
    # A room nobody may watch keeps its chat to its seats.
    closed, closed_tokens = await online_room(client, spectators=False)
    assert error_code(await history(client, closed, None), 401) == "unauthorized"
    ok(await history(client, closed, closed_tokens[1]))
    # A token of another room is not a seat of this one.
    assert error_code(await post(client, room, closed_tokens[0], "hi"), 403) == "forbidden"


async def test_chat_off(server: LiveServer, client: Api) -> None:
    assert error_code(await client.create(chat="yes"), 422) == "invalid_request"
    assert error_code(await client.create(chat=1), 422) == "invalid_request"
    room, tokens = await online_room(client, chat=False)
    assert ok(await client.summary(room))["options"]["chat"] is False
    assert error_code(await post(client, room, tokens[0], "hello?"), 403) == "forbidden"
    async with socket(server, room, tokens[1]) as two:
        await two.state()
        await two.send({"type": "chat", "text": "hello?"})
        assert (await two.until(lambda f: f["type"] == "error"))["error"]["code"] == "forbidden"
    other, _ = await online_room(client)
    assert ok(await client.summary(other))["options"]["chat"] is True


async def test_ten_messages_per_seat_per_ten_seconds(server: LiveServer, client: Api) -> None:
    room, tokens = await online_room(client)
    for i in range(10):
        ok(await post(client, room, tokens[0], f"spam {i}"), 201)
    assert error_code(await post(client, room, tokens[0], "one more"), 429) == "rate_limited"
    async with socket(server, room, tokens[0]) as one:
        await one.state()
        await one.send({"type": "chat", "text": "and by socket"})
        error = await one.until(lambda f: f["type"] == "error")
        assert error["error"]["code"] == "rate_limited"
    # The limit is the seat's: the other seat may still talk.
    ok(await post(client, room, tokens[1], "my turn to talk"), 201)
    texts = [m["text"] for m in ok(await history(client, room, tokens[1]))["messages"]]
    assert texts == [f"spam {i}" for i in range(10)] + ["my turn to talk"]
    # Ten seconds later the seat may talk again.
    service = server.app.state.service
    later = service.clock() + timedelta(seconds=11)
    server.set_clock(lambda: later)
    try:
        ok(await post(client, room, tokens[0], "back"), 201)
    finally:
        server.set_clock(lambda: __import__("app.clock").clock.utcnow())


async def _rows(server: LiveServer, table: Any) -> int:
    async def count() -> int:
        async with server.app.state.engine.connect() as conn:
            found = await conn.scalar(select(func.count()).select_from(table))
        return int(found or 0)

    return int(await server.call(count))


async def test_the_purge_deletes_a_rooms_chat_rematch_and_challenge(make_server: Any) -> None:
    server: LiveServer = make_server()  # its own database: the purge takes every room
    async with httpx.AsyncClient(base_url=server, timeout=60) as http:
        api = Api(http)
        room, tokens = await online_room(api, chat=False)
        ok(await post(api, room, tokens[0], "bye"), 403)
        other, other_tokens = await online_room(api)
        ok(await post(api, other, other_tokens[0], "bye"), 201)
        made = ok(await http.post("/api/challenges", json={}), 201)
        tables = (ChatMessage, RoomSocial, Challenge, ChallengeEntry)
        assert [await _rows(server, t) for t in tables] == [1, 1, 1, 1]
        service = server.app.state.service
        now = service.clock()
        server.set_clock(lambda: now + timedelta(days=30))
        assert await server.call(service.purge) == 3
        assert [await _rows(server, t) for t in tables] == [0, 0, 0, 0]
        gone = await http.get(f"/api/challenges/{made['challenge']}")
        assert error_code(gone, 404) == "challenge_not_found"


@pytest.mark.timeout(180)
async def test_chat_survives_a_restart_and_never_reaches_the_log(tmp_path: Path) -> None:
    secret = "mellon-" + "swordfish" * 3
    db = f"sqlite+aiosqlite:///{tmp_path}/chat.db"
    with rummy_serve(tmp_path, "--log-level", "trace", RUMMY_DATABASE_URL=db) as served:
        async with httpx.AsyncClient(base_url=served.base, timeout=30) as http:
            api = Api(http)
            room, tokens = await online_room(api)
            ok(await post(api, room, tokens[0], secret), 201)
            async with socket(served.base, room, tokens[1]) as two:
                await two.state()
                await two.send({"type": "chat", "text": secret + " too"})
                await two.until(lambda f: is_chat(f) and f["message"]["seat"] == 1)
                await two.send({"type": "chat", "text": secret + "\n"})  # refused
                await two.until(lambda f: f["type"] == "error")
        first_log = served.log_text()
    with rummy_serve(tmp_path, "--log-level", "trace", RUMMY_DATABASE_URL=db) as served:
        async with httpx.AsyncClient(base_url=served.base, timeout=30) as http:
            api = Api(http)
            texts = [m["text"] for m in ok(await history(api, room, tokens[0]))["messages"]]
            assert texts == [secret, secret + " too"]
        # A socket that opens again is sent the recent messages.
        async with socket(served.base, room, tokens[0]) as one:
            got = [(await one.until(is_chat))["message"]["text"] for _ in range(2)]
            assert got == [secret, secret + " too"]
        second_log = served.log_text()
    for text in (first_log, second_log):
        assert "/api/rooms/" in text  # the access lines are there
        assert "swordfish" not in text and "mellon" not in text
