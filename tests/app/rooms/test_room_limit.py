"""rummy51's penalty limit as a room option (docs/api.md v1.1, RULES.md "rummy51 match length"):
refused when it is not 101, 201 or 301 or the variant has none, shown in the summary, and
the match runs on past 101 and ends after the hand in which someone reaches 201."""

from __future__ import annotations

from typing import Any

import pytest

from tests.kit.clients import Api
from tests.kit.deals import fixed_deal
from tests.kit.responses import error_code, ok

# Seat 0 goes rummy on its first turn (13 cards melded in one turn, the drawn 2S
# discarded); seat 1 keeps 2 jokers, 8 aces and 3 kings: 50 + 88 + 30 + 25 (rummy) = 193,
# past 101 and short of 201.
RUMMY = ["2C", "3C", "4C", "5C", "6D", "7D", "8D", "9D", "9H", "TH", "JH", "QH", "KH"]
LOSER = ["JK", "JK", "AS", "AH", "AD", "AC", "AS", "AH", "AD", "AC", "KS", "KD", "KC"]
FIRST_HAND_PENALTY = 193


def first_hand() -> dict[str, Any]:
    return fixed_deal("rummy51", players=2, hands=[RUMMY, LOSER], stock_top=["2S"], discard=["4S"])


async def go_rummy(client: Api, room: str, token: str) -> dict[str, Any]:
    ok(await client.move(room, token, {"type": "draw", "source": "stock"}, 0))
    melds = [RUMMY[:4], RUMMY[4:8], RUMMY[8:]]
    ok(await client.move(room, token, {"type": "meld", "melds": melds}, 1))
    return dict(ok(await client.move(room, token, {"type": "discard", "card": "2S"}, 2)))


@pytest.mark.parametrize(
    ("body", "where"),
    [
        ({"variant": "rummy51", "limit": 150}, "limit"),
        ({"variant": "rummy51", "limit": 0}, "limit"),
        ({"variant": "rummy51", "limit": "201"}, "limit"),
        ({"variant": "rummy51", "limit": True}, "limit"),
        ({"variant": "classic", "limit": 201}, "classic"),
        ({"variant": "basic", "limit": 101}, "basic"),
    ],
)
async def test_a_limit_other_than_101_201_301_of_rummy51_is_refused(
    client: Api, body: dict[str, Any], where: str
) -> None:
    r = await client.create(**body)
    assert error_code(r, 422) in ("invalid_request", "validation_error")
    assert where in r.json()["error"]["message"]
    assert "room" not in r.json()


@pytest.mark.parametrize(("limit", "shown"), [(None, 101), (101, 101), (201, 201), (301, 301)])
async def test_the_summary_shows_the_rooms_limit(
    client: Api, limit: int | None, shown: int
) -> None:
    body: dict[str, Any] = {"variant": "rummy51", "seed": 5}
    if limit is not None:
        body["limit"] = limit
    room = ok(await client.create(**body), 201)["room"]
    summary = ok(await client.summary(room))
    assert summary["options"]["limit"] == shown
    assert summary["variant"] == "rummy51" and len(summary["seats"]) == 2  # fields kept


async def test_variants_without_a_limit_show_none(client: Api) -> None:
    room = ok(await client.create(variant="classic", seed=5), 201)["room"]
    assert ok(await client.summary(room))["options"]["limit"] is None


async def test_the_default_limit_ends_the_match_after_a_hand_past_101(client: Api) -> None:
    created = ok(await client.create(variant="rummy51", mode="local", deal=first_hand()), 201)
    view = await go_rummy(client, created["room"], created["tokens"][0])
    assert view["hand_result"]["rummy"] is True
    assert view["scores"] == [0, FIRST_HAND_PENALTY]
    assert view["phase"] == "match_over" and view["match_winner"] == [0]


async def test_a_201_match_goes_on_past_101_and_ends_after_the_hand_that_reaches_201(
    client: Api,
) -> None:
    created = ok(
        await client.create(
            variant="rummy51",
            mode="computer",
            bots={"1": "greedy"},
            limit=201,
            deal=first_hand(),
        ),
        201,
    )
    room, token = created["room"], created["token"]
    view = await go_rummy(client, room, token)
    assert view["scores"] == [0, FIRST_HAND_PENALTY]
    assert view["phase"] == "hand_over" and view["match_winner"] is None
    hands = 1
    while view["phase"] != "match_over":
        assert view["phase"] == "hand_over" and max(view["scores"]) < 201, view["scores"]
        assert hands < 12, "the match should have ended by now"
        view = ok(await client.vote(room, token, "next_hand"))
        hands += 1
        view = await play_hand_badly(client, room, token, view)
    assert max(view["scores"]) >= 201
    low = min(view["scores"])
    assert view["match_winner"] == [s for s, n in enumerate(view["scores"]) if n == low]


async def play_hand_badly(
    client: Api, room: str, token: str, view: dict[str, Any]
) -> dict[str, Any]:
    """Seat 0 draws from the stock and throws the drawn card away until the bot goes out,
    so its penalties grow hand by hand."""
    while view["phase"] in ("draw", "play"):
        assert view["turn"] == 0, view
        before = list(view["hand"])
        view = ok(
            await client.move(room, token, {"type": "draw", "source": "stock"}, view["version"])
        )
        if view["phase"] != "play":
            continue  # the stock ran out and the hand ended
        drawn = list(view["hand"])
        for card in before:
            drawn.remove(card)
        move = {"type": "discard", "card": drawn[0]}
        view = ok(await client.move(room, token, move, view["version"]))
    return view
