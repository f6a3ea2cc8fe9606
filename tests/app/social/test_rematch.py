"""Rematch (docs/api.md v1.2): a finished match of each mode, the seats pressing at the same
moment, exactly one new room with the seats moved on by one and a token of its own each."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select

from app.models import Room
from tests.kit.clients import Api, seat_socket
from tests.kit.deals import MELDS, OUT_IN_ONE_TURN, fixed_deal
from tests.kit.responses import error_code, ok
from tests.kit.rooms import online_room
from tests.kit.servers import LiveServer


async def rematch(api: Api, room: str, token: str | None) -> httpx.Response:
    return await api.http.post(f"/api/rooms/{room}/rematch", headers=api.auth(token))


async def finished(api: Api, mode: str) -> tuple[str, list[str]]:
    """A basic 2-player room of `mode` whose match seat 0 won in one rummy turn; the
    tokens of its human seats."""
    deal = fixed_deal("basic", players=2, hands=OUT_IN_ONE_TURN["basic"], stock_top=["KS"])
    if mode == "online":
        room, tokens = await online_room(api, variant="basic", deal=deal, name="Anna")
    else:
        body: dict[str, Any] = {"variant": "basic", "players": 2, "mode": mode, "deal": deal}
        if mode == "computer":
            body["bots"] = {"1": "hard"}
        created = ok(await api.create(name="Anna", **body), 201)
        room = created["room"]
        tokens = [t for t in (created.get("tokens") or [created["token"]]) if t]
    # Still on: no rematch yet.
    assert error_code(await rematch(api, room, tokens[0]), 409) == "wrong_phase"
    moves: list[dict[str, Any]] = [
        {"type": "draw", "source": "stock"},
        {"type": "meld", "melds": MELDS["basic"]},
        {"type": "discard", "card": "KS"},
    ]
    for version, move in enumerate(moves):
        view = ok(await api.move(room, tokens[0], move, version))
    assert view["phase"] == "match_over"
    return room, tokens


async def _rooms(server: LiveServer) -> int:
    async def count() -> int:
        async with server.app.state.engine.connect() as conn:
            return int(await conn.scalar(select(func.count()).select_from(Room)) or 0)

    return int(await server.call(count))


@pytest.mark.parametrize("mode", ["online", "local", "computer"])
async def test_both_seats_at_once_make_one_rematch(
    server: LiveServer, client: Api, mode: str
) -> None:
    room, tokens = await finished(client, mode)
    async with seat_socket(server, room, tokens[0]) as watcher:
        await watcher.state()
        before = await _rooms(server)
        # Every human seat presses at the same moment (a local room's one device: twice).
        callers = tokens if len(tokens) > 1 else tokens * 2
        answers = await asyncio.gather(*(rematch(client, room, t) for t in callers))
        assert sorted(a.status_code for a in answers) == [200] * (len(callers) - 1) + [201]
        assert await _rooms(server) == before + 1
        got = [a.json() for a in answers]
        new_room = got[0]["room"]
        assert all(g["room"] == new_room for g in got) and new_room != room
        frame = await watcher.until(lambda f: f["type"] == "rematch")
        assert frame["room"] == new_room
    # Old seat i sits in new seat (i + 1) mod n, with a token of its own that is no old one.
    for old_seat, (g, token) in enumerate(zip(got, callers, strict=True)):
        assert g["token"] not in tokens
        if mode == "online":
            assert g["seat"] == (old_seat + 1) % 2
        elif mode == "computer":
            assert g["seat"] == 1
        again = ok(await rematch(client, room, token), 200)
        assert (again["room"], again["seat"], again["token"]) == (new_room, g["seat"], g["token"])
        assert ok(await client.state(new_room, g["token"]))["seat"] == g["seat"]
    summary = ok(await client.summary(new_room))
    assert summary["mode"] == mode and summary["variant"] == "basic"
    assert summary["status"] == "playing"  # everyone seated: nobody waits for a join
    names = [s["name"] for s in summary["seats"]]
    bots = [s["bot"] for s in summary["seats"]]
    if mode == "online":
        assert names == ["Guest 1", "Anna"] and bots == [None, None]
    elif mode == "computer":
        assert names[1] == "Anna" and bots == ["hard", None]
        assert got[0]["seat"] == 1
    else:
        assert names[1] == "Anna" and len([t for t in got[0]["tokens"] if t]) == 2
        seats = {ok(await client.state(new_room, t))["seat"] for t in got[0]["tokens"]}
        assert seats == {0, 1}
    assert ok(await client.summary(room))["rematch"] == new_room
    assert ok(await client.summary(new_room))["rematch"] is None


async def test_the_rematch_keeps_the_options(server: LiveServer, client: Api) -> None:
    deal = fixed_deal("basic", players=2, hands=OUT_IN_ONE_TURN["basic"], stock_top=["KS"])
    room, tokens = await online_room(
        client, variant="basic", deal=deal, chat=False, spectators=False, turn_seconds=60
    )
    moves: list[dict[str, Any]] = [
        {"type": "draw", "source": "stock"},
        {"type": "meld", "melds": MELDS["basic"]},
        {"type": "discard", "card": "KS"},
    ]
    for version, move in enumerate(moves):
        ok(await client.move(room, tokens[0], move, version))
    got = ok(await rematch(client, room, tokens[1]), 201)
    assert got["seat"] == 0
    options = ok(await client.summary(got["room"]))["options"]
    assert options["chat"] is False and options["spectators"] is False
    assert options["turn_seconds"] == 60
    # A token of another room is refused as everywhere.
    other, other_tokens = await online_room(client)
    assert error_code(await rematch(client, room, other_tokens[0]), 403) == "forbidden"
    assert error_code(await rematch(client, room, None), 401) == "unauthorized"
