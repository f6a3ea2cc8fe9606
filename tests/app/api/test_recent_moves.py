"""GET /api/rooms/{room}/recent?since=V: the moves of the hand in play after a version, so
that a player coming back sees what happened while they were away (docs/api.md v1.1 additions,
"Seats that stay alive"), and nothing any seat could not see."""

from __future__ import annotations

import json
from typing import Any

import httpx

from tests.kit.clients import Api
from tests.kit.responses import error_code, ok
from tests.kit.rooms import online_room
from tests.kit.servers import LiveServer

DRAW = {"type": "draw", "source": "stock"}


async def recent(client: Api, room: str, token: str | None, since: Any) -> httpx.Response:
    return await client.http.get(
        f"/api/rooms/{room}/recent", params={"since": since}, headers=client.auth(token)
    )


async def test_a_returning_seat_reads_the_moves_it_missed(server: LiveServer, client: Api) -> None:
    room, tokens = await online_room(client, variant="basic", players=2, seed=51)
    v = ok(await client.state(room, tokens[0]))["version"]
    ok(await client.move(room, tokens[0], DRAW, v))
    hand = ok(await client.state(room, tokens[0]))["hand"]
    ok(await client.move(room, tokens[0], {"type": "discard", "card": hand[0]}, v + 1))
    ok(await client.move(room, tokens[1], {"type": "draw", "source": "discard"}, v + 2))

    body = ok(await recent(client, room, tokens[1], v))
    assert body["room"] == room and body["since"] == v
    seats = [(m["version"], m["seat"]) for m in body["moves"]]
    assert seats == [(v + 1, 0), (v + 2, 0), (v + 3, 1)]
    # A pickup from the discard pile names its card in the move, which lay face up (docs/api.md
    # v1.3, one shape for a named pickup); a stock draw names none.
    assert [m["move"] for m in body["moves"]] == [
        DRAW,
        {"type": "discard", "card": hand[0]},
        {"type": "draw", "source": "discard", "card": hand[0]},
    ]
    assert not [m for m in body["moves"] if "card" in m]  # nothing beside the move
    # Later versions give the rest; the newest gives nothing.
    assert [m["version"] for m in ok(await recent(client, room, tokens[0], v + 2))["moves"]] == [
        v + 3
    ]
    assert ok(await recent(client, room, tokens[0], v + 3))["moves"] == []
    # Nothing of a hand still held: seat 0's cards (but the one it discarded) appear nowhere.
    text = json.dumps(body)
    held = ok(await client.state(room, tokens[0]))["hand"]
    assert not [card for card in held if f'"{card}"' in text]


async def test_a_pickup_of_the_upcard_names_it(server: LiveServer, client: Api) -> None:
    room, tokens = await online_room(client, variant="basic", players=2, seed=54)
    view = ok(await client.state(room, tokens[0]))
    upcard, v = view["discard_top"], view["version"]
    ok(await client.move(room, tokens[0], {"type": "draw", "source": "discard"}, v))
    body = ok(await recent(client, room, tokens[1], 0))
    assert [m["move"] for m in body["moves"]] == [
        {"type": "draw", "source": "discard", "card": upcard}
    ]


async def test_recent_moves_need_the_rooms_seat_and_a_version(
    server: LiveServer, client: Api
) -> None:
    room, tokens = await online_room(client, seed=52)
    _, other_tokens = await online_room(client, seed=53)
    assert error_code(await recent(client, room, None, 0), 401) == "unauthorized"
    assert error_code(await recent(client, room, other_tokens[0], 0), 403) == "forbidden"
    for bad in (-1, "x", 2**40):
        assert error_code(await recent(client, room, tokens[0], bad), 422)
    assert error_code(await recent(client, "nosuchroom00", tokens[0], 0), 404)
