"""Complete hands of every variant with fixed deals, over real HTTP, then votes and the log."""

from __future__ import annotations

import pytest

import rules
from tests.kit.clients import Api
from tests.kit.deals import MELDS, OUT_IN_ONE_TURN, fixed_deal
from tests.kit.responses import error_code, ok
from tests.kit.rooms import online_room, play_out_hand


@pytest.mark.parametrize("variant", ["classic", "basic", "rummy51"])
async def test_a_fixed_hand_plays_to_its_end(client: Api, variant: str) -> None:
    room, tokens, view = await play_out_hand(client, variant)
    assert view["phase"] in ("hand_over", "match_over")
    result = view["hand_result"]
    assert result["reason"] == "out" and result["winner"] == 0
    # Both seats now see both hands, and the same result.
    other = ok(await client.state(room, tokens[1]))
    assert other["hand_result"] == result
    assert result["hands"][0] == []
    assert sorted(result["hands"][1]) == sorted(other["hand"])
    values = rules.get_variant(variant).card_values
    left = sum(values["JK" if c == "JK" else c[0]] for c in other["hand"])
    if variant == "classic":
        assert view["scores"] == [left, 0] and view["phase"] == "hand_over"
    elif variant == "basic":
        # Going rummy doubles the points, and that wins a two-player match (target 100).
        assert result["rummy"] and view["scores"] == [2 * left, 0]
        assert view["phase"] == "match_over" and view["match_winner"] == [0]
    else:
        # rummy51 counts penalties: going rummy adds 25 for the other player.
        assert result["rummy"] and view["scores"] == [0, left + 25]


async def test_next_hand_needs_every_human_vote(client: Api) -> None:
    room, tokens, view = await play_out_hand(client, "classic")
    assert view["votes"] == {"next_hand": [], "new_match": []}
    voted = ok(await client.vote(room, tokens[0], "next_hand"))
    assert voted["version"] == 4 and voted["phase"] == "hand_over"
    assert voted["votes"]["next_hand"] == [0]
    dealt = ok(await client.vote(room, tokens[1], "next_hand"))
    assert dealt["version"] == 5 and dealt["phase"] == "draw"
    assert dealt["hand_number"] == view["hand_number"] + 1
    assert dealt["scores"] == view["scores"]  # the score carries over
    assert len(dealt["hand"]) == 10 and dealt["hand_result"] is None
    # The dealer moved left: seat 1 starts the second hand.
    assert dealt["turn"] == 1


async def test_new_match_restarts_the_score(client: Api) -> None:
    room, tokens, view = await play_out_hand(client, "classic")
    assert view["scores"][0] > 0
    ok(await client.vote(room, tokens[1], "new_match"))
    fresh = ok(await client.vote(room, tokens[0], "new_match"))
    assert fresh["phase"] == "draw" and fresh["scores"] == [0, 0]


async def test_votes_must_agree(client: Api) -> None:
    room, tokens, _ = await play_out_hand(client, "classic")
    ok(await client.vote(room, tokens[0], "next_hand"))
    split = ok(await client.vote(room, tokens[1], "new_match"))
    assert split["phase"] == "hand_over"


async def test_a_local_room_needs_one_vote(client: Api) -> None:
    deal = fixed_deal("classic", players=2, hands=OUT_IN_ONE_TURN["classic"], stock_top=["KS"])
    created = ok(await client.create(variant="classic", mode="local", deal=deal), 201)
    room, tokens = created["room"], created["tokens"]
    assert len(tokens) == 2 and tokens[0] == created["token"] and tokens[1]
    t0 = tokens[0]
    ok(await client.move(room, t0, {"type": "draw", "source": "stock"}, 0))
    ok(await client.move(room, t0, {"type": "meld", "melds": MELDS["classic"]}, 1))
    ok(await client.move(room, t0, {"type": "discard", "card": "KS"}, 2))
    dealt = ok(await client.vote(room, tokens[1], "next_hand"))
    assert dealt["phase"] == "draw" and dealt["hand_number"] == 2 or dealt["hand_result"] is None


async def test_the_log_replays_every_finished_hand(client: Api) -> None:
    room, tokens, view = await play_out_hand(client, "rummy51")
    during = ok(await client.log(room, tokens[1]))
    assert len(during["hands"]) == 1
    hand = during["hands"][0]
    assert [m["version"] for m in hand["moves"]] == [1, 2, 3]
    assert [m["seat"] for m in hand["moves"]] == [0, 0, 0]
    start = rules.GameState.model_validate(hand["start"])
    end = rules.replay(start, [(m["seat"], rules.parse_move(m["move"])) for m in hand["moves"]])
    for seat in (0, 1):
        replayed = rules.seat_view(end, seat).model_dump(mode="json")
        served = ok(await client.state(room, tokens[seat]))
        assert replayed["hand_result"] == served["hand_result"]
        assert replayed["scores"] == served["scores"]
    assert hand["result"] == view["hand_result"]


async def test_the_log_hides_the_hand_in_play(client: Api) -> None:
    room, tokens = await online_room(client, variant="classic", seed=7)
    ok(await client.move(room, tokens[0], {"type": "draw", "source": "stock"}, 0))
    assert ok(await client.log(room, tokens[0])) == {"room": room, "hands": []}


async def test_a_rejected_move_changes_nothing(client: Api) -> None:
    room, tokens = await online_room(client, variant="classic", seed=11)
    before = ok(await client.state(room, tokens[0]))
    code = error_code(
        await client.move(room, tokens[0], {"type": "discard", "card": before["hand"][0]}, 0), 422
    )
    assert code == "must_draw_first"
    assert ok(await client.state(room, tokens[0])) == before


async def test_a_seed_deals_the_same_cards_twice(client: Api) -> None:
    a, ta = await online_room(client, variant="basic", players=3, seed=42)
    b, tb = await online_room(client, variant="basic", players=3, seed=42)
    for seat in range(3):
        va = ok(await client.state(a, ta[seat]))
        vb = ok(await client.state(b, tb[seat]))
        assert va["hand"] == vb["hand"] and len(va["hand"]) == 7
    assert va["discard_top"] == vb["discard_top"]
