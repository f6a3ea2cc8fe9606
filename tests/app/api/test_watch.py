"""Spectators (docs/api.md v1.1 "Seats that stay alive"): the `spectators` room option, the
watch view over REST and the websocket's `?watch=1`, on each database backend."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tests.kit.clients import Api, Socket
from tests.kit.responses import error_code, ok
from tests.kit.rooms import online_room
from tests.kit.servers import LiveServer

DRAW = {"type": "draw", "source": "stock"}


@contextlib.asynccontextmanager
async def watch_socket(server: LiveServer, room: str) -> AsyncIterator[Socket]:
    async with connect(f"{server.ws_url}/api/rooms/{room}/ws?watch=1") as ws:
        yield Socket(ws)


async def watch(client: Api, room: str) -> Any:
    return await client.http.get(f"/api/rooms/{room}/watch")


def assert_spectators_view(view: dict[str, Any], seat_view: dict[str, Any]) -> None:
    """A spectator's view is a seat's view with that seat's own parts taken out."""
    assert view["seat"] is None and view["hand"] == [] and view["legal"] is None
    assert view["must_play"] == []
    mine = {"seat", "hand", "legal", "must_play"}
    assert {k: v for k, v in view.items() if k not in mine} == {
        k: v for k, v in seat_view.items() if k not in mine
    }


async def test_the_option_defaults_to_on_and_the_summary_shows_it(client: Api) -> None:
    room = ok(await client.create(variant="classic"), 201)["room"]
    assert ok(await client.summary(room))["options"]["spectators"] is True
    closed = ok(await client.create(variant="classic", spectators=False), 201)["room"]
    assert ok(await client.summary(closed))["options"]["spectators"] is False


async def test_an_option_that_is_not_a_boolean_is_refused(client: Api) -> None:
    r = await client.create(variant="classic", spectators="no")
    assert error_code(r, 422) in ("invalid_request", "validation_error")
    assert "spectators" in r.json()["error"]["message"]


async def test_watch_shows_the_table_without_any_hand(server: LiveServer, client: Api) -> None:
    room, tokens = await online_room(client, seed=41)
    ok(await client.move(room, tokens[0], DRAW, 0))
    view = ok(await watch(client, room))
    seat1 = ok(await client.state(room, tokens[1]))
    assert_spectators_view(view, seat1)
    assert view["hand_counts"] == [11, 10]
    assert view["last_move"] == {"seat": 0, "move": DRAW}  # no card named
    assert view["version"] == 1 and view["room"] == room


async def test_a_waiting_room_can_be_watched(client: Api) -> None:
    room = ok(await client.create(variant="classic", players=2), 201)["room"]
    view = ok(await watch(client, room))
    assert view["phase"] == "waiting" and view["hand"] == [] and view["legal"] is None


async def test_watch_is_forbidden_when_the_room_has_no_spectators(
    server: LiveServer, client: Api
) -> None:
    room, _ = await online_room(client, seed=42, spectators=False)
    assert error_code(await watch(client, room), 403) == "forbidden"
    async with watch_socket(server, room) as ws:
        frame = await ws.recv()
        assert frame["type"] == "error" and frame["error"]["code"] == "forbidden"
        with contextlib.suppress(ConnectionClosed):
            await ws.recv()
        assert ws.ws.close_code == 4403


async def test_watch_of_an_unknown_room_is_404(server: LiveServer, client: Api) -> None:
    assert error_code(await watch(client, "nosuchroom"), 404) == "room_not_found"
    async with watch_socket(server, "nosuchroom") as ws:
        frame = await ws.recv()
        assert frame["error"]["code"] == "room_not_found"


async def test_a_move_arrives_on_the_spectator_socket(server: LiveServer, client: Api) -> None:
    room, tokens = await online_room(client, seed=43)
    async with watch_socket(server, room) as ws:
        first = await ws.state()
        assert first["seat"] is None and first["hand"] == [] and first["version"] == 0
        ok(await client.move(room, tokens[0], DRAW, 0))
        view = await ws.state(version=1)
        assert_spectators_view(view, ok(await client.state(room, tokens[1])))
        assert view["last_move"] == {"seat": 0, "move": DRAW}


async def test_a_spectator_is_nobodys_presence(server: LiveServer, client: Api) -> None:
    room, _ = await online_room(client, seed=44)
    async with watch_socket(server, room) as ws:
        await ws.state()
        presence = await ws.until(lambda f: f["type"] == "presence")
        assert [s["connected"] for s in presence["seats"]] == [False, False]
        summary = ok(await client.summary(room))
        assert [s["connected"] for s in summary["seats"]] == [False, False]


async def test_a_spectator_may_ping_but_not_move_or_vote(server: LiveServer, client: Api) -> None:
    room, tokens = await online_room(client, seed=45)
    async with watch_socket(server, room) as ws:
        await ws.state()
        await ws.send({"type": "ping"})
        assert (await ws.until(lambda f: f["type"] != "presence")) == {"type": "pong"}
        for frame in (
            {"type": "move", "move": DRAW, "version": 0},
            {"type": "vote", "vote": "new_match"},
        ):
            await ws.send(frame)
            error = await ws.until(lambda f: f["type"] == "error")
            assert error["error"]["code"] == "forbidden"
        await ws.send({"type": "auth", "token": tokens[0]})
        error = await ws.until(lambda f: f["type"] == "error")
        assert error["error"]["code"] == "invalid_request"
    # Nothing changed: seat 0 is still to draw at version 0.
    view = ok(await client.state(room, tokens[0]))
    assert view["version"] == 0 and view["phase"] == "draw"
