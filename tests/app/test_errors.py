"""Every error code of docs/api.md, each in the error shape, from real HTTP requests."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx

from tests.kit.clients import Api
from tests.kit.deals import fixed_deal
from tests.kit.responses import error_code, ok
from tests.kit.rooms import online_room, play_out_hand
from tests.kit.servers import LiveServer

DRAW = {"type": "draw", "source": "stock"}


async def test_401_without_or_with_an_unknown_token(client: Api) -> None:
    room, _ = await online_room(client, seed=1)
    assert error_code(await client.state(room, None), 401) == "unauthorized"
    assert error_code(await client.state(room, "not-a-token"), 401) == "unauthorized"
    assert error_code(await client.move(room, None, DRAW, 0), 401) == "unauthorized"
    assert error_code(await client.log(room, "x" * 40), 401) == "unauthorized"


async def test_403_for_a_token_of_another_room(client: Api) -> None:
    room_a, tokens_a = await online_room(client, seed=1)
    room_b, _ = await online_room(client, seed=1)
    assert error_code(await client.state(room_b, tokens_a[0]), 403) == "forbidden"
    assert error_code(await client.move(room_b, tokens_a[0], DRAW, 0), 403) == "forbidden"


async def test_403_for_a_fixed_deal_when_not_allowed(make_server) -> None:
    server: LiveServer = make_server(allow_fixed_deals=False)
    async with httpx.AsyncClient(base_url=server) as http:
        api = Api(http)
        assert error_code(await api.create(seed=3), 403) == "forbidden"
        deal = fixed_deal("classic", players=2)
        assert error_code(await api.create(deal=deal), 403) == "forbidden"
        ok(await api.create(variant="classic"), 201)


async def test_404_for_an_unknown_room_or_route(client: Api) -> None:
    http = client.http
    assert error_code(await http.get("/api/rooms/nosuchroom"), 404) == "room_not_found"
    assert error_code(await client.join("nosuchroom"), 404) == "room_not_found"
    assert error_code(await client.state("nosuchroom", "t"), 404) == "room_not_found"
    assert error_code(await http.get("/api/nothing/here"), 404) == "not_found"
    assert error_code(await http.post("/api/rooms/x/y/z", json={}), 404) == "not_found"
    code = error_code(await http.delete("/api/rooms"), 405)
    assert code == "method_not_allowed"


async def test_409_stale_version_carries_the_current_view(client: Api) -> None:
    room, tokens = await online_room(client, seed=5)
    ok(await client.move(room, tokens[0], DRAW, 0))
    response = await client.move(room, tokens[0], DRAW, 0)
    assert error_code(response, 409) == "stale_version"
    state = response.json()["state"]
    assert state == ok(await client.state(room, tokens[0]))
    assert state["version"] == 1 and state["seat"] == 0


async def test_409_not_your_turn_room_full_and_waiting(client: Api) -> None:
    created = ok(await client.create(variant="classic", players=2, seed=9), 201)
    room = created["room"]
    waiting = ok(await client.state(room, created["token"]))
    assert waiting["phase"] == "waiting"
    assert error_code(await client.move(room, created["token"], DRAW, 0), 409) == (
        "waiting_for_players"
    )
    guest = ok(await client.join(room), 201)
    assert error_code(await client.join(room), 409) == "room_full"
    assert error_code(await client.move(room, guest["token"], DRAW, 0), 409) == "not_your_turn"
    assert ok(await client.state(room, created["token"]))["phase"] == "draw"


async def test_409_wrong_phase_after_the_hand(client: Api) -> None:
    room, tokens, _ = await play_out_hand(client, "classic")
    assert error_code(await client.move(room, tokens[1], DRAW, 3), 409) == "wrong_phase"


async def test_410_after_a_week_without_activity(make_server) -> None:
    server: LiveServer = make_server()
    now = datetime.now(UTC)
    async with httpx.AsyncClient(base_url=server) as http:
        api = Api(http)
        room, tokens = await online_room(api, seed=2)
        server.set_clock(lambda: now + timedelta(days=6, hours=23))
        ok(await api.state(room, tokens[0]))
        ok(await api.move(room, tokens[0], DRAW, 0))  # activity: the clock restarts
        server.set_clock(lambda: now + timedelta(days=13, hours=22))
        ok(await api.state(room, tokens[0]))
        server.set_clock(lambda: now + timedelta(days=14))
        assert error_code(await api.state(room, tokens[0]), 410) == "room_expired"
        assert error_code(await api.summary(room), 410) == "room_expired"
        assert error_code(await api.join(room), 410) == "room_expired"
        assert error_code(await api.move(room, tokens[0], DRAW, 1), 410) == "room_expired"
        # The periodic purge removes it for good.
        purged = await server.call(lambda: server.app.state.service.purge())
        assert purged >= 1
        assert error_code(await api.summary(room), 404) == "room_not_found"


async def test_422_illegal_moves_name_their_rule(client: Api) -> None:
    hands = [["AH", "2H", "3H", "4H", "5C", "6C", "7C", "8D", "9D", "KS"]]
    deal = fixed_deal("classic", players=2, hands=hands, stock_top=["QD"], discard=["TD"])
    room, (t0, _) = await online_room(client, variant="classic", deal=deal)
    assert error_code(await client.move(room, t0, {"type": "discard", "card": "KS"}, 0), 422) == (
        "must_draw_first"
    )
    ok(await client.move(room, t0, {"type": "draw", "source": "discard"}, 0))
    assert error_code(await client.move(room, t0, {"type": "discard", "card": "TD"}, 1), 422) == (
        "cannot_discard_drawn_card"
    )
    assert error_code(await client.move(room, t0, {"type": "discard", "card": "QH"}, 1), 422) == (
        "card_not_in_hand"
    )
    bad_meld = {"type": "meld", "melds": [["AH", "5C", "KS"]]}
    assert error_code(await client.move(room, t0, bad_meld, 1), 422) == "invalid_meld"
    assert error_code(await client.move(room, t0, {"type": "fly"}, 1), 422) == "invalid_move"
    assert error_code(await client.move(room, t0, {"type": "discard", "card": "ZZ"}, 1), 422) == (
        "invalid_move"
    )
    response = await client.http.post(
        f"/api/rooms/{room}/moves", json={"move": DRAW}, headers=client.auth(t0)
    )
    assert error_code(response, 422) == "invalid_move"
    headers = {**client.auth(t0), "Content-Type": "application/json"}
    response = await client.http.post(
        f"/api/rooms/{room}/moves", content=b"{not json", headers=headers
    )
    assert error_code(response, 422) == "invalid_move"


async def test_422_opening_below_51(client: Api) -> None:
    hands = [["2H", "3H", "4H", "5C", "6C", "7C", "8D", "9D", "TD", "JD", "QS", "KS", "AS"]]
    deal = fixed_deal("rummy51", players=2, hands=hands, stock_top=["9S"])
    room, (t0, _) = await online_room(client, variant="rummy51", deal=deal)
    ok(await client.move(room, t0, DRAW, 0))
    small = {"type": "meld", "melds": [["2H", "3H", "4H"]]}
    assert error_code(await client.move(room, t0, small, 1), 422) == "opening_below_51"


async def test_422_invalid_request(client: Api) -> None:
    assert error_code(await client.create(variant="poker"), 422) == "invalid_request"
    assert error_code(await client.create(variant="classic", players=3), 422) == "invalid_request"
    assert error_code(await client.create(mode="telepathy"), 422) == "invalid_request"
    bots = {"0": "greedy"}
    assert error_code(await client.create(mode="computer", bots=bots), 422) == "invalid_request"
    bots = {"1": "psychic"}
    assert error_code(await client.create(mode="computer", bots=bots), 422) == "invalid_request"
    json_type = {"Content-Type": "application/json"}
    response = await client.http.post("/api/rooms", content=b"[1", headers=json_type)
    assert error_code(response, 422) == "invalid_request"
    room, tokens = await online_room(client, seed=4)
    response = await client.http.post(
        f"/api/rooms/{room}/votes", json={"vote": "surrender"}, headers=client.auth(tokens[0])
    )
    assert error_code(response, 422) == "invalid_request"
    long_id = "r" * 5000
    assert error_code(await client.http.get(f"/api/rooms/{long_id}"), 422) == "invalid_request"


async def test_422_shows_only_the_start_of_what_was_sent(client: Api) -> None:
    # pydantic quotes an unknown move type, and names a map's keys, as sent: 3,000
    # characters came back twice in one error. The error says which field, no more.
    room, tokens = await online_room(client, seed=5)
    junk = "q" * 3000
    response = await client.move(room, tokens[0], {"type": junk}, 0)
    assert error_code(response, 422) == "invalid_move"
    error = response.json()["error"]
    assert len(response.content) < 1000, len(response.content)
    assert f"'{'q' * 40}…'" in error["message"]
    assert "expected tags: 'draw', 'meld', 'layoff', 'swap', 'discard'" in error["message"]
    response = await client.create(mode="computer", bots={junk: "greedy"})
    assert error_code(response, 422) == "invalid_request"
    assert len(response.content) < 1000, len(response.content)
    assert ok(await client.state(room, tokens[0]))["version"] == 0  # and nothing changed


async def test_a_meld_id_of_odd_digits_is_no_meld(client: Api) -> None:
    # "m²": "²" is a digit to str.isdigit, and int() refused it with a 500.
    room, tokens = await online_room(client, seed=5)
    view = ok(await client.move(room, tokens[0], DRAW, 0))
    for meld in ("m²", "m١", "m" + "9" * 31):
        layoff = {"type": "layoff", "cards": [view["hand"][0]], "meld": meld}
        assert error_code(await client.move(room, tokens[0], layoff, 1), 422) == "meld_not_found"
    assert ok(await client.state(room, tokens[0]))["version"] == 1


async def test_429_when_one_client_creates_too_fast(make_server) -> None:
    server: LiveServer = make_server(rate_limit_enabled=True, rate_create="3/minute")
    async with httpx.AsyncClient(base_url=server) as http:
        api = Api(http)
        statuses = [(await api.create(variant="classic")).status_code for _ in range(5)]
        assert statuses[:3] == [201, 201, 201]
        response = await api.create(variant="classic")
        assert error_code(response, 429) == "rate_limited"


async def test_no_5xx_for_odd_input(client: Api) -> None:
    http = client.http
    odd: list[tuple[str, str, Any]] = [
        ("GET", "/api/rooms/%00", None),
        ("POST", "/api/rooms", {"players": 10**30}),
        ("POST", "/api/rooms", {"seed": -1}),
        ("POST", "/api/rooms", {"deal": {"hands": [["XX"]], "discard": [], "stock": []}}),
        ("POST", "/api/rooms", {"deal": {"hands": [], "discard": [], "stock": []}}),
        ("POST", "/api/rooms", {"name": "x" * 1000}),
        ("POST", "/api/rooms", {"bots": {"1": "greedy"}, "mode": "online", "players": 2}),
        # A digit to str.isdigit that int() refuses, and more digits than int() reads.
        ("POST", "/api/rooms", {"bots": {"\u00b2": "greedy"}, "mode": "computer"}),
        ("POST", "/api/rooms", {"bots": {"1" * 5000: "greedy"}, "mode": "computer"}),
        ("GET", "/api/rooms/abc/ws", None),
    ]
    for method, path, body in odd:
        response = await http.request(method, path, json=body)
        assert response.status_code < 500, (method, path, response.text)
        if response.status_code >= 400:
            assert "code" in response.json()["error"]


async def test_the_periodic_task_purges_expired_rooms(make_server) -> None:
    server: LiveServer = make_server(purge_interval_seconds=0.05)
    async with httpx.AsyncClient(base_url=server) as http:
        api = Api(http)
        room, _ = await online_room(api, seed=6)
        ok(await api.summary(room))
        later = datetime.now(UTC) + timedelta(days=8)
        server.set_clock(lambda: later)
        for _ in range(500):  # the purge runs every 50 ms; give it a few rounds
            if (await api.summary(room)).status_code == 404:
                break
            await asyncio.sleep(0.02)
        assert error_code(await api.summary(room), 404) == "room_not_found"
