"""Moves of many rooms arriving together share the database's batch write (one hop on
SQLite, one statement on PostgreSQL, or with RUMMY_BATCH_WRITER=false statement by
statement through the engine): every room ends up exactly as if it had been played alone,
hands included, and no batch had to fall back to writing its moves one by one."""

from __future__ import annotations

import asyncio
import logging

import httpx
import pytest

from tests.kit.clients import Api
from tests.kit.deals import fixed_deal
from tests.kit.responses import ok
from tests.kit.rooms import online_room

ROOMS = 12
# Seat 0 draws the planted KS, melds its three runs and discards the KS: out in one turn.
HAND = ["AH", "2H", "3H", "4H", "5C", "6C", "7C", "8D", "9D", "TD"]
MELDS = [["AH", "2H", "3H", "4H"], ["5C", "6C", "7C"], ["8D", "9D", "TD"]]


@pytest.mark.parametrize("batch_writer", [True, False], ids=["one-hop", "engine"])
async def test_rooms_played_at_once_are_each_written_whole(
    database_url: str, make_server, batch_writer: bool, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="rummy")
    caplog.set_level(logging.INFO, logger="rummy.store")
    base = make_server(database_url=database_url, batch_writer=batch_writer)
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        await play_rooms_at_once(Api(http))
    fallbacks = [
        r.getMessage() for r in caplog.records if r.name in ("rummy.committer", "rummy.store")
    ]
    assert fallbacks == []  # nor did SQLite's batch swap its rooms one by one


async def play_rooms_at_once(client: Api) -> None:
    deal = fixed_deal("classic", players=2, hands=[HAND], stock_top=["KS"])
    rooms = await asyncio.gather(*(online_room(client, deal=deal) for _ in range(ROOMS)))

    async def everywhere(step) -> list[dict]:
        return [ok(r) for r in await asyncio.gather(*(step(room, t) for room, t in rooms))]

    await everywhere(
        lambda room, t: client.move(room, t[0], {"type": "draw", "source": "stock"}, 0)
    )
    await everywhere(lambda room, t: client.move(room, t[0], {"type": "meld", "melds": MELDS}, 1))
    ended = await everywhere(
        lambda room, t: client.move(room, t[0], {"type": "discard", "card": "KS"}, 2)
    )
    assert {v["phase"] for v in ended} == {"hand_over"}
    await everywhere(lambda room, t: client.vote(room, t[0], "next_hand"))
    dealt = await everywhere(lambda room, t: client.vote(room, t[1], "next_hand"))
    assert {(v["version"], v["hand_number"], v["phase"]) for v in dealt} == {(5, 2, "draw")}

    for room, tokens in rooms:
        hands = ok(await client.log(room, tokens[0]))["hands"]
        assert len(hands) == 1
        first = hands[0]
        assert (first["hand"], first["start_version"], first["end_version"]) == (0, 0, 3)
        assert [m["version"] for m in first["moves"]] == [1, 2, 3]
        assert [m["move"]["type"] for m in first["moves"]] == ["draw", "meld", "discard"]
        assert [(v["version"], v["seat"]) for v in first["votes"]] == [(4, 0), (5, 1)]
        assert first["result"]["winner"] == 0
        # The second hand is dealt and in play: nobody but its players see its deal yet.
        view = ok(await client.state(room, tokens[1]))
        assert view["version"] == 5 and len(view["hand"]) == 10
