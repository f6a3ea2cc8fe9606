"""Votes sent twice: two players double-clicking "new match" or "next hand" dealt five
hands and abandoned four. A vote that asks for what already happened is now a no-op
(docs/rooms.md, "Votes"), over REST and the websocket, with a version and without: both seats
voting twice, interleaved, deal exactly one hand."""

from __future__ import annotations

from contextlib import AsyncExitStack
from typing import Any

import pytest

from tests.kit.clients import Api, seat_socket
from tests.kit.deals import fixed_deal
from tests.kit.responses import error_code, ok
from tests.kit.rooms import online_room
from tests.kit.servers import LiveServer

HAND = ["AH", "2H", "3H", "4H", "5C", "6C", "7C", "8D", "9D", "TD"]
MELDS = [["AH", "2H", "3H", "4H"], ["5C", "6C", "7C"], ["8D", "9D", "TD"]]


async def hand_over(api: Api) -> tuple[str, list[str], dict[str, Any]]:
    """A classic room whose first hand seat 0 has just won (version 3, hand_over)."""
    deal = fixed_deal("classic", players=2, hands=[HAND], stock_top=["KS"])
    room, tokens = await online_room(api, variant="classic", deal=deal)
    ok(await api.move(room, tokens[0], {"type": "draw", "source": "stock"}, 0))
    ok(await api.move(room, tokens[0], {"type": "meld", "melds": MELDS}, 1))
    view = ok(await api.move(room, tokens[0], {"type": "discard", "card": "KS"}, 2))
    assert view["phase"] == "hand_over" and view["version"] == 3
    return room, tokens, view


async def rest_vote(api: Api, room: str, token: str, kind: str, version: int | None) -> Any:
    vote: dict[str, Any] = {"vote": kind}
    if version is not None:
        vote["version"] = version
    r = await api.http.post(f"/api/rooms/{room}/votes", json=vote, headers=api.auth(token))
    return ok(r)  # never an error: a repeat is answered with the current view


async def assert_one_deal(api: Api, room: str, tokens: list[str], kind: str, over: dict) -> None:
    views = [ok(await api.state(room, t)) for t in tokens]
    for view in views:
        # Exactly two votes took effect: the first of each seat.
        assert view["version"] == over["version"] + 2
        assert view["phase"] == "draw" and view["hand_result"] is None
        assert view["votes"] == {"next_hand": [], "new_match": []}
        if kind == "next_hand":
            assert view["hand_number"] == over["hand_number"] + 1
            assert view["scores"] == over["scores"]
        else:
            assert view["hand_number"] == 1 and view["scores"] == [0, 0]
    log = ok(await api.log(room, tokens[0]))
    assert [h["hand"] for h in log["hands"]] == [0]  # nothing dealt and abandoned
    assert sorted(v["seat"] for v in log["hands"][0]["votes"]) == [0, 1]


KINDS = ["next_hand", "new_match"]


@pytest.mark.parametrize("versioned", [True, False], ids=["versioned", "unversioned"])
@pytest.mark.parametrize("kind", KINDS)
async def test_both_seats_voting_twice_over_rest_deal_one_hand(
    client: Api, kind: str, versioned: bool
) -> None:
    room, tokens, over = await hand_over(client)
    version = over["version"] if versioned else None
    # The worst order: each seat's second vote arrives after the deal.
    for seat in (0, 1, 0, 1):
        await rest_vote(client, room, tokens[seat], kind, version)
    await assert_one_deal(client, room, tokens, kind, over)


@pytest.mark.parametrize("versioned", [True, False], ids=["versioned", "unversioned"])
@pytest.mark.parametrize("kind", KINDS)
async def test_both_seats_voting_twice_over_websockets_deal_one_hand(
    client: Api, server: LiveServer, kind: str, versioned: bool
) -> None:
    room, tokens, over = await hand_over(client)
    frame: dict[str, Any] = {"type": "vote", "vote": kind}
    if versioned:
        frame["version"] = over["version"]
    async with AsyncExitStack() as stack:
        sockets = [await stack.enter_async_context(seat_socket(server, room, t)) for t in tokens]
        for seat in (0, 1, 0, 1):
            await sockets[seat].send(frame)
            # A socket handles its frames in order: the pong says the vote was handled.
            await sockets[seat].send({"type": "ping"})
            await sockets[seat].until(lambda f: f["type"] == "pong")
        errors = [f for s in sockets for f in s.frames if f["type"] == "error"]
        assert errors == []
    await assert_one_deal(client, room, tokens, kind, over)


async def test_a_vote_on_the_new_view_is_a_new_vote(client: Api) -> None:
    room, tokens, over = await hand_over(client)
    v = over["version"]
    await rest_vote(client, room, tokens[0], "new_match", v)
    fresh = await rest_vote(client, room, tokens[1], "new_match", v)
    assert fresh["version"] == v + 2 and fresh["scores"] == [0, 0]
    # Unversioned, on the untouched new match: a repeat, nothing changes.
    same = await rest_vote(client, room, tokens[0], "new_match", None)
    assert same["version"] == v + 2 and same["votes"]["new_match"] == []
    # With the version of the new match: a deliberate vote to restart again, counted.
    counted = await rest_vote(client, room, tokens[0], "new_match", v + 2)
    assert counted["version"] == v + 3 and counted["votes"]["new_match"] == [0]
    # A version the room never reached is refused, and changes nothing.
    r = await client.http.post(
        f"/api/rooms/{room}/votes",
        json={"vote": "new_match", "version": v + 10},
        headers=client.auth(tokens[1]),
    )
    assert error_code(r, 409) == "stale_version"
    assert ok(await client.state(room, tokens[1]))["version"] == v + 3


async def test_a_stale_vote_on_the_same_hand_still_counts(client: Api) -> None:
    room, tokens, over = await hand_over(client)
    v = over["version"]
    await rest_vote(client, room, tokens[0], "next_hand", v)
    # Seat 1 votes from the view it had before seat 0's vote: still about this hand.
    dealt = await rest_vote(client, room, tokens[1], "next_hand", v)
    assert dealt["phase"] == "draw" and dealt["hand_number"] == over["hand_number"] + 1
    # Once the next hand is under way, an unversioned next_hand is refused as in v1.
    ok(await client.move(room, tokens[1], {"type": "draw", "source": "stock"}, v + 2))
    r = await client.http.post(
        f"/api/rooms/{room}/votes", json={"vote": "next_hand"}, headers=client.auth(tokens[0])
    )
    assert error_code(r, 409) == "wrong_phase"
