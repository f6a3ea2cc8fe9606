"""Rooms a test needs before it starts: an online room with every seat taken (any one, or
Anna and Bob's on a fixed deal), one whose first hand seat 0 has won, and rooms against the
computer or on one device for the browser tests."""

from __future__ import annotations

from typing import Any

import httpx

from tests.kit.clients import Api
from tests.kit.deals import ANNA, BOB, MELDS, OUT_IN_ONE_TURN, fixed_deal
from tests.kit.responses import ok


async def online_room(
    client: Api | httpx.AsyncClient, variant: str = "classic", players: int = 2, **body: Any
) -> tuple[str, list[str]]:
    """An online room with every seat taken ("Guest 1", ...); its id and the tokens by
    seat. `body` adds to the create request (seed, deal, name, options)."""
    http = client.http if isinstance(client, Api) else client
    body.setdefault("mode", "online")
    created = ok(
        await http.post("/api/rooms", json={"variant": variant, "players": players, **body}),
        201,
    )
    tokens = [created["token"]]
    for i in range(1, players):
        joined = ok(
            await http.post(f"/api/rooms/{created['room']}/join", json={"name": f"Guest {i}"}),
            201,
        )
        assert joined["seat"] == i
        tokens.append(joined["token"])
    return created["room"], tokens


async def play_out_hand(api: Api, variant: str) -> tuple[str, list[str], dict[str, Any]]:
    """A 2-player online room of `variant` whose first hand seat 0 went out of in one turn
    (`deals.OUT_IN_ONE_TURN`: draw KS, meld `deals.MELDS`, discard KS), each step checked;
    its id, the tokens by seat and seat 0's view after the last move (version 3)."""
    deal = fixed_deal(variant, players=2, hands=OUT_IN_ONE_TURN[variant], stock_top=["KS"])
    room, tokens = await online_room(api, variant=variant, deal=deal)
    view = ok(await api.state(room, tokens[0]))
    assert view["phase"] == "draw" and view["turn"] == 0 and view["version"] == 0
    assert sorted(view["hand"]) == sorted(OUT_IN_ONE_TURN[variant][0])
    view = ok(await api.move(room, tokens[0], {"type": "draw", "source": "stock"}, 0))
    assert view["version"] == 1 and "KS" in view["hand"] and view["phase"] == "play"
    view = ok(await api.move(room, tokens[0], {"type": "meld", "melds": MELDS[variant]}, 1))
    assert view["hand"] == ["KS"] and len(view["melds"]) == len(MELDS[variant])
    view = ok(await api.move(room, tokens[0], {"type": "discard", "card": "KS"}, 2))
    assert view["version"] == 3
    return room, tokens, view


async def full_room(http: httpx.AsyncClient, **extra: Any) -> tuple[str, str]:
    """A classic online room of Anna and Bob on their fixed deal (`deals.ANNA`, `deals.BOB`,
    the 5C on the discard pile), Anna to draw; the room's id and her token. `extra` adds to
    the create request (`spectators`...)."""
    cards = fixed_deal("classic", [ANNA, BOB], discard=["5C"], stock_top=["QD", "8D"])
    body = {"variant": "classic", "players": 2, "name": "Anna", "deal": cards, **extra}
    created = (await http.post("/api/rooms", json=body)).json()
    joined = await http.post(f"/api/rooms/{created['room']}/join", json={"name": "Bob"})
    assert joined.status_code == 201, joined.text
    return created["room"], created["token"]


async def computer_room(http: Any, *deal_args: Any, **deal_kw: Any) -> dict[str, Any]:
    """A room against easy bots for "Anna" in seat 0: on a fixed deal when `hands` are given,
    else on a random one (the arguments of `new_room` after `mode`)."""
    return await new_room(http, "computer", *deal_args, **deal_kw)


async def new_room(
    http: Any,
    mode: str,
    hands: list[list[str]] | None = None,
    discard: list[str] | None = None,
    stock_top: list[str] | None = None,
    variant: str = "classic",
    players: int = 2,
) -> dict[str, Any]:
    """A room of `mode` for "Anna" in seat 0 ("computer": easy bots in the other seats;
    "local": players on the same device, every token in `tokens`), on a fixed deal when
    `hands` are given (one per seat), else on a random one."""
    body: dict[str, Any] = {"variant": variant, "players": players, "mode": mode, "name": "Anna"}
    if mode == "computer":
        body["bots"] = {str(i): "easy" for i in range(1, players)}
    if hands is not None:
        body["deal"] = fixed_deal(variant, hands, discard or [], stock_top or [], players=players)
    return dict(ok(await http.post("/api/rooms", json=body), 201))
