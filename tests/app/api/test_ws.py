"""The websocket: own views on connect and after every change, presence, moves and votes
over the socket, error frames followed by a resync, reconnects and several tabs."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tests.kit.clients import Api, Socket, seat_socket
from tests.kit.deals import MELDS, OUT_IN_ONE_TURN, fixed_deal
from tests.kit.responses import error_code, ok
from tests.kit.rooms import online_room
from tests.kit.servers import LiveServer

DRAW = {"type": "draw", "source": "stock"}


async def test_connect_sends_the_seats_own_view_then_presence(
    server: LiveServer, client: Api
) -> None:
    room, tokens = await online_room(client, seed=21)
    async with seat_socket(server, room, tokens[1]) as ws:
        state = await ws.state()
        assert state == {**ok(await client.state(room, tokens[1])), "seats": state["seats"]}
        assert state["seat"] == 1
        presence = await ws.until(lambda f: f["type"] == "presence")
        assert [s["connected"] for s in presence["seats"]] == [False, True]


async def test_every_seat_gets_its_own_view_after_a_move(server: LiveServer, client: Api) -> None:
    room, tokens = await online_room(client, players=3, variant="basic", seed=22)
    async with (
        seat_socket(server, room, tokens[0]) as a,
        seat_socket(server, room, tokens[1]) as b,
        seat_socket(server, room, tokens[2]) as c,
    ):
        for ws in (a, b, c):
            await ws.state()
        ok(await client.move(room, tokens[0], DRAW, 0))
        views = [await ws.state(version=1) for ws in (a, b, c)]
        for seat, view in enumerate(views):
            assert view["seat"] == seat and view["version"] == 1
            assert view["hand"] == ok(await client.state(room, tokens[seat]))["hand"]
        assert views[0]["hand_counts"] == [8, 7, 7]
        assert views[1]["last_move"] == {"seat": 0, "move": DRAW}


async def test_presence_goes_to_everyone(server: LiveServer, client: Api) -> None:
    room, tokens = await online_room(client, seed=23)
    async with seat_socket(server, room, tokens[0]) as a:
        await a.until(lambda f: f["type"] == "presence" and f["seats"][0]["connected"])
        async with seat_socket(server, room, tokens[1]):
            both = await a.until(
                lambda f: f["type"] == "presence" and all(s["connected"] for s in f["seats"])
            )
            assert [s["name"] for s in both["seats"]] == ["Player 1", "Guest 1"]
            summary = ok(await client.summary(room))
            assert [s["connected"] for s in summary["seats"]] == [True, True]
        gone = await a.until(lambda f: f["type"] == "presence" and not f["seats"][1]["connected"])
        assert gone["seats"][0]["connected"]


async def test_moves_and_votes_over_the_socket(server: LiveServer, client: Api) -> None:
    deal = fixed_deal("classic", players=2, hands=OUT_IN_ONE_TURN["classic"], stock_top=["KS"])
    room, tokens = await online_room(client, variant="classic", deal=deal)
    async with seat_socket(server, room, tokens[0]) as a, seat_socket(server, room, tokens[1]) as b:
        await a.state()
        await a.send({"type": "move", "move": DRAW, "version": 0})
        assert "KS" in (await a.state(version=1))["hand"]
        await a.send(
            {"type": "move", "move": {"type": "meld", "melds": MELDS["classic"]}, "version": 1}
        )
        await a.send({"type": "move", "move": {"type": "discard", "card": "KS"}, "version": 2})
        over = await b.state(version=3)
        assert over["phase"] == "hand_over" and over["hand_result"]["winner"] == 0
        await a.send({"type": "vote", "vote": "next_hand"})
        await b.send({"type": "vote", "vote": "next_hand"})
        dealt = await b.state(version=5)
        assert dealt["phase"] == "draw" and dealt["hand_result"] is None
        await a.send({"type": "ping"})
        assert (await a.until(lambda f: f["type"] == "pong")) == {"type": "pong"}


async def test_an_error_frame_then_the_current_view(server: LiveServer, client: Api) -> None:
    room, tokens = await online_room(client, seed=24)
    async with seat_socket(server, room, tokens[1]) as ws:
        await ws.state()
        await ws.send({"type": "move", "move": DRAW, "version": 0})
        error = await ws.until(lambda f: f["type"] == "error")
        assert error["error"]["code"] == "not_your_turn"
        resync = await ws.recv()
        assert resync["type"] == "state" and resync["state"]["version"] == 0
        for bad, code in [
            ({"type": "move", "move": DRAW, "version": 7}, "stale_version"),
            ({"type": "move", "move": {"type": "x"}, "version": 0}, "invalid_move"),
            ({"type": "dance"}, "invalid_request"),
            ({"type": "vote", "vote": "next_hand"}, "wrong_phase"),
        ]:
            await ws.send(bad)
            error = await ws.until(lambda f: f["type"] == "error")
            assert error["error"]["code"] == code, error
            assert set(error) == {"type", "error"}
            assert (await ws.recv())["type"] == "state"
        await ws.ws.send("not json")
        assert (await ws.until(lambda f: f["type"] == "error"))["error"][
            "code"
        ] == "invalid_request"


async def test_a_move_frame_is_checked_as_strictly_as_rest(server: LiveServer, client: Api) -> None:
    # REST refuses a move with a field it does not have; the socket played it.
    room, tokens = await online_room(client, seed=24)
    odd = {**DRAW, "bogus": "x"}
    assert error_code(await client.move(room, tokens[0], odd, 0), 422) == "invalid_move"
    async with seat_socket(server, room, tokens[0]) as ws:
        await ws.state()
        await ws.send({"type": "move", "move": odd, "version": 0})
        error = await ws.until(lambda f: f["type"] == "error")
        assert error["error"]["code"] == "invalid_move", error
        assert ok(await client.state(room, tokens[0]))["version"] == 0
        # The frame's own keys beside "move" and "version" are still its business.
        await ws.send({"type": "move", "move": DRAW, "version": 0, "id": 7})
        assert (await ws.state(version=1))["version"] == 1


async def test_a_reconnect_gets_a_full_fresh_view(server: LiveServer, client: Api) -> None:
    room, tokens = await online_room(client, seed=25)
    async with seat_socket(server, room, tokens[1]) as ws:
        assert (await ws.state())["version"] == 0
    ok(await client.move(room, tokens[0], DRAW, 0))
    ok(
        await client.move(
            room,
            tokens[0],
            {"type": "discard", "card": ok(await client.state(room, tokens[0]))["hand"][0]},
            1,
        )
    )
    async with seat_socket(server, room, tokens[1]) as ws:
        state = await ws.state()
        assert state["version"] == 2 and state["turn"] == 1
        assert state["hand"] == ok(await client.state(room, tokens[1]))["hand"]


async def test_several_tabs_on_one_seat_stay_correct(server: LiveServer, client: Api) -> None:
    room, tokens = await online_room(client, seed=26)
    async with (
        seat_socket(server, room, tokens[0]) as tab1,
        seat_socket(server, room, tokens[0]) as tab2,
    ):
        await tab1.state()
        await tab2.state()
        await tab1.send({"type": "move", "move": DRAW, "version": 0})
        one, two = await tab1.state(version=1), await tab2.state(version=1)
        assert one == two and len(one["hand"]) == 11
    # Closing one of two tabs keeps the seat connected; closing both does not.
    async with seat_socket(server, room, tokens[0]) as tab1:
        async with seat_socket(server, room, tokens[0]):
            pass
        await tab1.send({"type": "ping"})
        await tab1.until(lambda f: f["type"] == "pong")
        assert ok(await client.summary(room))["seats"][0]["connected"]


async def test_a_bad_token_is_refused(server: LiveServer, client: Api) -> None:
    room, _ = await online_room(client, seed=27)
    other, other_tokens = await online_room(client, seed=27)
    url = server.ws_url + f"/api/rooms/{room}/ws?token="
    for token, code, close in [
        ("nope", "unauthorized", 4401),
        (other_tokens[0], "forbidden", 4403),
    ]:
        async with connect(url + token) as ws:
            frame = json.loads(await ws.recv())
            assert frame == {
                "type": "error",
                "error": {"code": code, "message": frame["error"]["message"]},
            }
            try:
                await ws.recv()
            except ConnectionClosed as closed:
                assert closed.rcvd is not None and closed.rcvd.code == close
    async with connect(server.ws_url + "/api/rooms/nosuch/ws?token=x") as ws:
        assert json.loads(await ws.recv())["error"]["code"] == "room_not_found"


async def test_joining_updates_the_waiting_view(server: LiveServer, client: Api) -> None:
    created = ok(await client.create(variant="classic", seed=28), 201)
    async with seat_socket(server, created["room"], created["token"]) as ws:
        assert (await ws.state())["phase"] == "waiting"
        ok(await client.join(created["room"], "Bea"), 201)
        ready = await ws.until(lambda f: f["type"] == "state" and f["state"]["phase"] == "draw")
        assert ready["state"]["seats"][1]["name"] == "Bea"


async def _first_frame_then_close(url: str, *frames: Any) -> tuple[dict[str, Any], int | None]:
    """Send `frames`, read the first answer, then wait for the close: (answer, close code)."""
    async with connect(url) as ws, asyncio.timeout(30):
        # A socket to a room that does not exist is answered and closed on connect, and its
        # close may come before our frame is sent: the answer is still there to read.
        with contextlib.suppress(ConnectionClosed):
            for frame in frames:
                await ws.send(json.dumps(frame))
        answer = json.loads(await ws.recv())
        try:
            while True:
                await ws.recv()
        except ConnectionClosed as closed:
            return answer, closed.rcvd.code if closed.rcvd is not None else None


async def test_the_token_may_come_as_the_first_frame(server: LiveServer, client: Api) -> None:
    room, tokens = await online_room(client, seed=29)
    url = server.ws_url + f"/api/rooms/{room}/ws"
    async with connect(url) as raw:
        ws = Socket(raw)
        await ws.send({"type": "auth", "token": tokens[1]})
        state = await ws.state()
        assert (
            state["seat"] == 1 and state["hand"] == ok(await client.state(room, tokens[1]))["hand"]
        )
        await ws.send({"type": "ping"})
        assert (await ws.until(lambda f: f["type"] == "pong")) == {"type": "pong"}
        # Once authenticated, another auth frame is just a frame the socket does not know.
        await ws.send({"type": "auth", "token": tokens[0]})
        assert (await ws.until(lambda f: f["type"] == "error"))["error"][
            "code"
        ] == "invalid_request"
        assert (await ws.state())["seat"] == 1


async def test_a_wrong_auth_frame_is_refused(server: LiveServer, client: Api) -> None:
    room, tokens = await online_room(client, seed=30)
    _, other_tokens = await online_room(client, seed=30)
    url = server.ws_url + f"/api/rooms/{room}/ws"
    for frame, code, close in [
        ({"type": "auth", "token": "nope"}, "unauthorized", 4401),
        ({"type": "auth", "token": ""}, "unauthorized", 4401),
        ({"type": "auth", "token": other_tokens[0]}, "forbidden", 4403),
        ({"type": "auth", "token": 7}, "unauthorized", 4401),
        ({"type": "move", "move": DRAW, "version": 0, "token": tokens[0]}, "unauthorized", 4401),
        ({"type": "ping"}, "unauthorized", 4401),
    ]:
        answer, closed = await _first_frame_then_close(url, frame)
        assert (answer["type"], answer["error"]["code"], closed) == ("error", code, close), frame
    answer, closed = await _first_frame_then_close(
        server.ws_url + "/api/rooms/nosuch/ws", {"type": "auth", "token": tokens[0]}
    )
    assert (answer["error"]["code"], closed) == ("room_not_found", 4404)
    # Nothing moved.
    assert ok(await client.state(room, tokens[0]))["version"] == 0


async def test_a_socket_that_never_authenticates_is_closed(
    server: LiveServer, client: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = server.app.state.service.settings  # the server runs in this process
    monkeypatch.setattr(settings, "ws_auth_seconds", 0.5)
    room, _ = await online_room(client, seed=31)
    answer, closed = await _first_frame_then_close(server.ws_url + f"/api/rooms/{room}/ws")
    assert (answer["error"]["code"], closed) == ("unauthorized", 4401)


async def test_a_socket_whose_writer_fails_is_closed_not_left_silent(
    make_server: Any,
) -> None:
    """A writer that dies (a bug, a dependency failing in a way nobody caught) must take its
    socket down, so that the client reconnects and resyncs: before, the socket stayed open
    and its client, waiting for its turn, waited for a view that never came."""
    live = make_server(allow_fixed_deals=True)
    async with httpx.AsyncClient(base_url=str(live), timeout=30) as http:
        client = Api(http)
        room, tokens = await online_room(client, seed=41)
        hub = live.app.state.service.hub
        healthy, healthy_now = hub.presence, hub.presence_now

        async def broken(room_id: str) -> set[int]:
            raise RuntimeError("presence is broken")

        def broken_now(room_id: str) -> None:
            raise RuntimeError("presence is broken")

        async with seat_socket(live, room, tokens[1]) as watcher:
            await watcher.state()
            async with seat_socket(live, room, tokens[0]) as mover:
                await mover.state()
                # The room's fan-out reads presence in its task, or at once when the hub
                # knows it (`presence_now`): either failing must close the socket.
                hub.presence, hub.presence_now = broken, broken_now
                try:
                    await mover.send({"type": "move", "move": DRAW, "version": 0})
                    with pytest.raises(ConnectionClosed) as closed:
                        await watcher.until(lambda f: False)
                finally:
                    hub.presence, hub.presence_now = healthy, healthy_now
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1011
        # The move was committed all the same, and a reconnect resyncs.
        async with seat_socket(live, room, tokens[1]) as again:
            assert (await again.state())["version"] == 1


async def test_two_tabs_of_a_seat_get_the_view_its_rest_answer_carries(
    server: LiveServer, client: Api
) -> None:
    room, tokens = await online_room(client, seed=31)
    async with (
        seat_socket(server, room, tokens[0]) as a,
        seat_socket(server, room, tokens[0]) as b,
    ):
        for ws in (a, b):
            await ws.state()
            await ws.until(lambda f: f["type"] == "presence")
        answer = ok(await client.move(room, tokens[0], DRAW, 0))
        tabs = [await ws.state(version=1) for ws in (a, b)]
        assert tabs[0] == tabs[1] == answer
        assert ok(await client.state(room, tokens[0])) == answer


async def test_a_move_answered_minimally_carries_no_view_the_socket_brings_it(
    server: LiveServer, client: Api
) -> None:
    # A client whose socket is open asks for no view in the answer (RFC 7240): it would
    # only receive the same view twice.
    room, tokens = await online_room(client, seed=32)
    async with seat_socket(server, room, tokens[0]) as ws:
        await ws.state()
        answer = await client.http.post(
            f"/api/rooms/{room}/moves",
            json={"move": DRAW, "version": 0},
            headers={**client.auth(tokens[0]), "Prefer": "return=minimal"},
        )
        assert answer.status_code == 204 and answer.content == b""
        assert answer.headers["Rummy-Version"] == "1"
        assert answer.headers["Preference-Applied"] == "return=minimal"
        view = await ws.state(version=1)
        assert view == ok(await client.state(room, tokens[0]))
    # Without it, and on a refusal, the answer is as it always was.
    refused = await client.http.post(
        f"/api/rooms/{room}/moves",
        json={"move": DRAW, "version": 1},
        headers={**client.auth(tokens[0]), "Prefer": "return=minimal"},
    )
    assert refused.status_code == 422 and refused.json()["error"]["code"]
    full = ok(await client.move(room, tokens[0], {"type": "discard", "card": view["hand"][0]}, 1))
    assert full["version"] == 2
