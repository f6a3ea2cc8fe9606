"""Garbage over REST, on every route that takes a body: broken JSON, bodies nested too deep
for a parser, invalid UTF-8, numbers out of range, wrong content types and methods. Every
answer is a 4xx in the API's error shape (never a 5xx, never a traceback), and the room is
unchanged, on every database backend. Also: the default limits leave ordinary busy play
alone."""

from __future__ import annotations

from typing import Any

import httpx

from tests.kit.clients import bearer
from tests.kit.responses import error_code, ok
from tests.kit.rooms import online_room
from tests.kit.servers import LiveServer

GARBAGE: list[bytes] = [
    b"",
    b"{",
    b"null",
    b"[]",
    b'"x"',
    b"\xff\xfe\xfa",
    b'{"move": {"type": "draw", "source": "stock"}, "version": NaN}',
    b'{"move": {"type": "draw", "source": "stock"}, "version": 1e999}',
    b'{"move": {"type": "draw", "source": "stock"}, "version": ' + b"9" * 5000 + b"}",
    b'{"move": {"type": "draw", "source": "stock"}, "version": 0, "version": "0"}',
    b'{"move": ' + b"[" * 30000 + b"]" * 30000 + b"}",
    b'{"a": ' * 20000 + b"1" + b"}" * 20000,
    b'{"vote": "next_hand\\u0000"}',
    b'{"variant": "classic", "players": 2.5}',
    b'{"variant": "classic", "players": 1e308}',
    b'{"variant": "../../etc/passwd"}',
    b'{"variant": "classic", "mode": "online", "bots": {"1": "greedy", "99": "x"}}',
    b'{"name": "' + "\u202e".encode() * 50 + b'"}',
    b'{"name": "\\ud800"}',
    b'{"name": "Ann\\u0000"}',  # PostgreSQL cannot store NUL: it answered a plain 500
]


def _assert_refused(r: httpx.Response) -> None:
    assert 400 <= r.status_code < 500 and r.status_code != 400, (r.status_code, r.text[:300])
    assert r.headers["content-type"].startswith("application/json"), r.headers
    assert error_code(r) and "Traceback" not in r.text


async def test_garbage_bodies_get_4xx_in_the_error_shape(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server, timeout=60) as http:
        await _garbage_bodies_get_4xx(http)


async def _garbage_bodies_get_4xx(http: httpx.AsyncClient) -> None:
    room, tokens = await online_room(http, "classic", 2, seed=9101)
    before = [ok(await http.get(f"/api/rooms/{room}/state", headers=bearer(t))) for t in tokens]
    summary = ok(await http.get(f"/api/rooms/{room}"))
    routes = [f"/api/rooms/{room}/moves", f"/api/rooms/{room}/votes"]
    for path in routes:
        for data in GARBAGE:
            for content_type in ("application/json", "text/plain"):
                r = await http.post(
                    path,
                    content=data,
                    headers={**bearer(tokens[0]), "content-type": content_type},
                )
                if r.status_code == 200:  # only a vote with a valid body can pass
                    assert path.endswith("/votes"), data
                    continue
                _assert_refused(r)
    for data in GARBAGE:
        r = await http.post(f"/api/rooms/{room}/join", content=data)
        _assert_refused(r)  # the room is full whatever the body says
        r = await http.post(
            "/api/rooms", content=data, headers={"content-type": "application/json"}
        )
        if r.status_code != 201:
            _assert_refused(r)
    for method in ("PUT", "DELETE", "PATCH"):
        _assert_refused(await http.request(method, f"/api/rooms/{room}/moves"))
    after = [ok(await http.get(f"/api/rooms/{room}/state", headers=bearer(t))) for t in tokens]
    # Votes for the next hand are refused while the hand is played: nothing moved at all.
    assert [{**v, "seats": None} for v in after] == [{**v, "seats": None} for v in before]
    assert ok(await http.get(f"/api/rooms/{room}"))["version"] == summary["version"]


async def test_path_and_header_garbage(http: httpx.AsyncClient) -> None:
    room, tokens = await online_room(http, "classic", 2, seed=9102)
    for bad in ["x" * 40, "%00", "..%2F..", "a b", "%F0%9F%83%8F", "9" * 30]:
        r = await http.get(f"/api/rooms/{bad}/state", headers=bearer(tokens[0]))
        _assert_refused(r)
    for header in (b"Bearer " + b"\xff" * 10, b"Basic " + tokens[0].encode(), b"Bearer  x"):
        r = await http.get(f"/api/rooms/{room}/state", headers={b"Authorization": header})
        assert r.status_code == 401 and error_code(r) == "unauthorized"


async def test_the_default_limits_leave_busy_play_alone(make_server: Any) -> None:
    """A server with every limit at its default: a burst of rooms, joins, moves and
    sockets from one address (a school behind one NAT) gets no 429."""
    live = make_server(rate_limit_enabled=True)
    async with httpx.AsyncClient(base_url=live, timeout=60) as client:
        rooms = [await online_room(client, "basic", 4) for _ in range(25)]
        for room, tokens in rooms:
            state = ok(await client.get(f"/api/rooms/{room}/state", headers=bearer(tokens[0])))
            r = await client.post(
                f"/api/rooms/{room}/moves",
                json={"move": {"type": "draw", "source": "stock"}, "version": state["version"]},
                headers=bearer(tokens[0]),
            )
            assert r.status_code == 200, r.text
        wrong = [
            await client.get(f"/api/rooms/{room}/log", headers=bearer("typo")) for room, _ in rooms
        ]
        assert {r.status_code for r in wrong} == {401}
