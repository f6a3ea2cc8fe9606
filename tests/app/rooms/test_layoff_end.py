"""docs/api.md v1.2, Clarified, over real HTTP: a lay-off's `end` settles the jokers' side only.
A joker and a natural card sent together land at opposite ends of the run when the natural
card fits only the other end, at either end (issue 48, item 5)."""

from __future__ import annotations

import pytest

from tests.kit.clients import Api
from tests.kit.deals import fixed_deal
from tests.kit.responses import ok
from tests.kit.rooms import online_room
from tests.kit.servers import LiveServer

OPENER = ["TH", "JH", "QH", "KS", "KD", "KC", "5C"]
ANSWER = ["QS", "QD", "QC", "AS", "AD", "AC", "7C"]


@pytest.mark.parametrize(
    ("natural", "end", "cards", "stands_for"),
    [
        ("9H", "high", ["9H", "TH", "JH", "QH", "JK"], ["9H", "TH", "JH", "QH", "KH"]),
        ("KH", "low", ["JK", "TH", "JH", "QH", "KH"], ["9H", "TH", "JH", "QH", "KH"]),
    ],
)
async def test_a_joker_and_a_natural_card_go_to_opposite_ends(
    server: LiveServer,
    client: Api,
    natural: str,
    end: str,
    cards: list[str],
    stands_for: list[str],
) -> None:
    hands = [OPENER, [*ANSWER, "JK", natural]]
    deal = fixed_deal("rummy51", players=2, hands=hands, stock_top=["2D", "4D"], discard=["3C"])
    room, tokens = await online_room(client, variant="rummy51", deal=deal)
    ok(await client.move(room, tokens[0], {"type": "draw", "source": "stock"}, 0))
    opening = {"type": "meld", "melds": [["TH", "JH", "QH"], ["KS", "KD", "KC"]]}
    ok(await client.move(room, tokens[0], opening, 1))
    ok(await client.move(room, tokens[0], {"type": "discard", "card": "5C"}, 2))
    ok(await client.move(room, tokens[1], {"type": "draw", "source": "stock"}, 3))
    answer = {"type": "meld", "melds": [["QS", "QD", "QC"], ["AS", "AD", "AC"]]}
    ok(await client.move(room, tokens[1], answer, 4))

    layoff = {"type": "layoff", "meld": "m1", "cards": ["JK", natural], "end": end}
    view = ok(await client.move(room, tokens[1], layoff, 5))
    assert view["melds"][0]["cards"] == cards
    assert view["melds"][0]["stands_for"] == stands_for
    assert view["last_move"] == {"seat": 1, "move": layoff}
    assert "JK" not in view["hand"] and natural not in view["hand"]
    # the other seat and a fresh read agree
    other = ok(await client.state(room, tokens[0]))
    assert other["melds"][0]["cards"] == cards and other["version"] == view["version"]
