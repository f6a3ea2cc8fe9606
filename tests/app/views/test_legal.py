"""docs/api.md v1.1 view additions over real HTTP and a real websocket: `legal` for the seat to
act (null for the others and while the room waits), a discard draw named in `last_move`,
and melds and lay-offs sent in any order."""

from __future__ import annotations

from tests.kit.clients import Api, seat_socket
from tests.kit.deals import fixed_deal
from tests.kit.responses import ok
from tests.kit.rooms import online_room
from tests.kit.servers import LiveServer

HANDS = [
    ["3C", "AC", "2C", "4H", "5H", "6H", "9S", "KD", "QS", "TD"],
    ["3H", "7H", "8D", "8S", "JC", "QC", "KC", "2S", "4S", "6S"],
]


async def _room(client: Api) -> tuple[str, list[str]]:
    deal = fixed_deal("classic", players=2, hands=HANDS, stock_top=["7C"], discard=["9D"])
    return await online_room(client, deal=deal)


async def test_legal_is_for_the_seat_to_act_only(server: LiveServer, client: Api) -> None:
    room, tokens = await _room(client)
    mine = ok(await client.state(room, tokens[0]))
    assert mine["legal"] == {
        "draw": ["stock", "discard"],
        "discard": [],
        "layoffs": [],
        "swaps": [],
        "melds": [],
        "must_play": [],
        "opening": None,
    }
    assert ok(await client.state(room, tokens[1]))["legal"] is None
    after = ok(await client.move(room, tokens[0], {"type": "draw", "source": "stock"}, 0))
    legal = after["legal"]
    assert legal["draw"] == []
    assert sorted(legal["discard"]) == sorted([*HANDS[0], "7C"])
    assert ["AC", "2C", "3C"] in legal["melds"] and ["4H", "5H", "6H"] in legal["melds"]


async def test_a_discard_draw_is_named_on_the_socket(server: LiveServer, client: Api) -> None:
    room, tokens = await _room(client)
    async with seat_socket(server, room, tokens[1]) as ws:
        first = await ws.state()
        assert first["legal"] is None
        ok(await client.move(room, tokens[0], {"type": "draw", "source": "discard"}, 0))
        seen = await ws.state(version=1)
        assert seen["last_move"] == {
            "seat": 0,
            "move": {"type": "draw", "source": "discard", "card": "9D"},
        }
        assert seen["legal"] is None


async def test_melds_in_hand_order_and_two_ended_layoffs(server: LiveServer, client: Api) -> None:
    room, tokens = await _room(client)
    ok(await client.move(room, tokens[0], {"type": "draw", "source": "stock"}, 0))
    melds = {"type": "meld", "melds": [["3C", "AC", "2C"], ["6H", "4H", "5H"]]}
    view = ok(await client.move(room, tokens[0], melds, 1))
    assert [m["cards"] for m in view["melds"]] == [["AC", "2C", "3C"], ["4H", "5H", "6H"]]
    ok(await client.move(room, tokens[0], {"type": "discard", "card": "KD"}, 2))
    ok(await client.move(room, tokens[1], {"type": "draw", "source": "stock"}, 3))
    legal = ok(await client.state(room, tokens[1]))["legal"]
    assert {"card": "3H", "meld": "m2", "end": "low"} in legal["layoffs"]
    assert {"card": "7H", "meld": "m2", "end": "high"} in legal["layoffs"]
    both = {"type": "layoff", "meld": "m2", "cards": ["3H", "7H"]}
    view = ok(await client.move(room, tokens[1], both, 4))
    assert view["melds"][1]["cards"] == ["3H", "4H", "5H", "6H", "7H"]
    assert view["last_move"] == {"seat": 1, "move": both}
