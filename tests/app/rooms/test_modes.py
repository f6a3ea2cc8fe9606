"""The three room modes, the public summary, variants and the web app's routes."""

from __future__ import annotations

import rules
from tests.kit.clients import Api
from tests.kit.responses import error_code, ok
from tests.kit.servers import LiveServer


async def test_variants_list_every_rule_set(client: Api) -> None:
    variants = ok(await client.http.get("/api/variants"))
    names = {v["name"] for v in variants}
    assert names == set(rules.VARIANTS) >= {"classic", "basic", "rummy51"}
    classic = next(v for v in variants if v["name"] == "classic")
    assert classic["min_players"] == classic["max_players"] == 2


async def test_online_seats_fill_lowest_first(client: Api) -> None:
    created = ok(await client.create(variant="basic", players=4, name="Ann", seed=1), 201)
    room = created["room"]
    assert created["seat"] == 0 and created["invite_url"].endswith(f"/r/{room}")
    assert created["seat_url"].endswith(f"/r/{room}#seat={created['token']}")
    assert created.get("tokens") is None
    assert len(room) >= 11 and len(created["token"]) >= 22  # >= 64 and >= 128 random bits
    seats = [ok(await client.join(room, f"P{i}"), 201)["seat"] for i in (1, 2, 3)]
    assert seats == [1, 2, 3]
    summary = ok(await client.summary(room))
    assert summary["status"] == "playing" and summary["players"] == 4
    assert [s["name"] for s in summary["seats"]] == ["Ann", "P1", "P2", "P3"]
    assert all(s["taken"] and s["bot"] is None for s in summary["seats"])
    assert "'hand'" not in str(summary) and "token" not in str(summary)


async def test_a_local_room_holds_every_seat(client: Api) -> None:
    created = ok(await client.create(variant="rummy51", players=3, mode="local", seed=2), 201)
    room, tokens = created["room"], created["tokens"]
    assert len(set(tokens)) == 3
    views = [ok(await client.state(room, t)) for t in tokens]
    assert [v["seat"] for v in views] == [0, 1, 2]
    assert views[0]["phase"] == "draw"
    assert error_code(await client.join(room), 409) == "room_full"


async def test_a_computer_room_answers_each_move(client: Api) -> None:
    body = {"variant": "basic", "players": 3, "mode": "computer", "seed": 3, "name": "Beth"}
    created = ok(await client.create(**body), 201)
    room, token = created["room"], created["token"]
    summary = ok(await client.summary(room))
    assert [s["bot"] for s in summary["seats"]] == [None, "greedy", "greedy"]
    # Each computer seat has a name of its own (not "Greedy bot" twice), none the player's:
    # seat 1's own name is Beth, taken, so it sits as the next one.
    assert [s["name"] for s in summary["seats"]] == ["Beth", "Carl", "Dora"]
    view = ok(await client.state(room, token))
    assert view["seats"][1]["bot"] == "greedy" and view["phase"] == "draw"
    view = ok(await client.move(room, token, {"type": "draw", "source": "stock"}, 0))
    view = ok(await client.move(room, token, {"type": "discard", "card": view["hand"][0]}, 1))
    # Both bots played before the answer came back: it is the human's turn again
    # (or the hand ended on a bot's move).
    assert view["turn"] == 0 or view["phase"] in ("hand_over", "match_over")
    assert view["version"] >= 6
    assert view["last_move"]["seat"] == 2


async def test_bot_levels_and_mixed_rooms(client: Api) -> None:
    created = ok(
        await client.create(
            variant="basic", players=3, mode="online", bots={"2": "random"}, seed=4
        ),
        201,
    )
    summary = ok(await client.summary(created["room"]))
    assert summary["status"] == "waiting"
    assert [s["bot"] for s in summary["seats"]] == [None, None, "random"]
    assert ok(await client.join(created["room"]), 201)["seat"] == 1
    assert ok(await client.summary(created["room"]))["status"] == "playing"


async def test_a_computer_hand_plays_to_its_end(client: Api) -> None:
    """The human always draws and discards its first card; bots do the rest."""
    created = ok(await client.create(variant="classic", mode="computer", seed=5), 201)
    room, token = created["room"], created["token"]
    view = ok(await client.state(room, token))
    for _ in range(400):
        if view["phase"] in ("hand_over", "match_over"):
            break
        view = ok(
            await client.move(room, token, {"type": "draw", "source": "stock"}, view["version"])
        )
        if view["phase"] != "play":
            continue
        view = ok(
            await client.move(
                room, token, {"type": "discard", "card": view["hand"][-1]}, view["version"]
            )
        )
    assert view["phase"] in ("hand_over", "match_over")
    # Bots agree at once: the human's vote alone deals the next hand.
    if view["phase"] == "hand_over":
        dealt = ok(await client.vote(room, token, "next_hand"))
        assert dealt["hand_result"] is None
    log = ok(await client.log(room, token))
    assert len(log["hands"]) == 1


async def test_the_web_app_routes(server: LiveServer, client: Api) -> None:
    http = client.http
    for path in ("/", "/r/someroom"):
        page = await http.get(path)
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert (await http.get("/healthz")).json() == {"status": "ok"}
    schema = ok(await http.get("/openapi.json"))
    for path in ("/api/rooms", "/api/rooms/{room}/moves", "/api/rooms/{room}/state"):
        assert path in schema["paths"]
    state = schema["paths"]["/api/rooms/{room}/state"]["get"]["responses"]["200"]
    assert state["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/RoomView"
    }
