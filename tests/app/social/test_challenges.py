"""Challenges (docs/api.md v1.2): two players, each against the computer, dealt the same
hands for every hand; the second player's room shows no deal before its hand is over."""

from __future__ import annotations

import json

import httpx
import pytest

from tests.kit.clients import Api
from tests.kit.responses import error_code, ok
from tests.kit.servers import LiveServer

pytestmark = pytest.mark.timeout(600)


async def play_match(api: Api, room: str, token: str, seen: list[tuple[int, str]]) -> None:
    """Play seat 0 to the match's end (draw from the stock, throw the first legal card),
    keeping every response's hand number and text in `seen`."""
    view = ok(await api.state(room, token))
    for _ in range(3000):
        seen.append((view["hand_number"], json.dumps(view)))
        phase = view["phase"]
        if phase == "match_over":
            return
        if phase == "hand_over":
            r = await api.vote(room, token, "next_hand")
        elif view["turn"] != 0:
            r = await api.state(room, token)
        elif phase == "draw":
            r = await api.move(room, token, {"type": "draw", "source": "stock"}, view["version"])
        else:
            card = view["legal"]["discard"][0]
            r = await api.move(room, token, {"type": "discard", "card": card}, view["version"])
        view = ok(r)
        # Everything else a player of this room can read while the hand is played.
        if view["phase"] in ("draw", "play"):
            log = ok(await api.log(room, token))
            seen.append((view["hand_number"], json.dumps(log)))
            assert all(h["hand"] < view["hand_number"] - 1 for h in log["hands"])
    raise AssertionError("the match does not end")


async def test_two_entries_get_the_same_deals_and_none_is_seen_early(
    server: LiveServer, client: Api
) -> None:
    http: httpx.AsyncClient = client.http
    body = {"variant": "classic", "players": 2, "bots": {"1": "greedy"}, "name": "Anna"}
    anna = ok(await http.post("/api/challenges", json=body), 201)
    assert anna["seat"] == 0
    assert anna["challenge_url"].endswith(f"/c/{anna['challenge']}?invite={anna['invite']}")
    summary = ok(await client.summary(anna["room"]))
    assert summary["mode"] == "computer" and summary["options"]["spectators"] is False
    assert [s["bot"] for s in summary["seats"]] == [None, "greedy"]
    await play_match(client, anna["room"], anna["token"], [])
    anna_log = ok(await client.log(anna["room"], anna["token"]))["hands"]

    url = f"/api/challenges/{anna['challenge']}/play"
    bob = ok(await http.post(url, json={"name": "Bob", "invite": anna["invite"]}), 201)
    assert bob["seat"] == 0 and bob["challenge"] == anna["challenge"]
    assert bob["room"] != anna["room"]
    # Bob cannot look at Anna's room: no spectators, and her log needs her token.
    assert error_code(await http.get(f"/api/rooms/{anna['room']}/watch"), 403) == "forbidden"
    assert error_code(await client.log(anna["room"], bob["token"]), 403) == "forbidden"
    assert error_code(await client.log(anna["room"], None), 401) == "unauthorized"
    seen: list[tuple[int, str]] = []
    mid = ok(await http.get(f"/api/challenges/{anna['challenge']}"))
    seen.append((1, json.dumps(mid)))
    await play_match(client, bob["room"], bob["token"], seen)
    bob_log = ok(await client.log(bob["room"], bob["token"]))["hands"]

    # The same deal for every hand both played: hands, stock and discard.
    common = min(len(anna_log), len(bob_log))
    assert common >= 1
    for a, b in zip(anna_log[:common], bob_log[:common], strict=True):
        assert a["hand"] == b["hand"]
        for part in ("hands", "stock", "discard", "dealer", "hand_seed"):
            assert a["start"][part] == b["start"][part], (a["hand"], part)
    # No response of Bob's room showed hand n's seed, or its stock, while hand n was on.
    by_number = {h["start"]["hand_number"]: h["start"] for h in anna_log}
    for number, text in seen:
        start = by_number.get(number)
        if start is None:
            continue
        assert start["hand_seed"] not in text
        assert json.dumps(start["stock"][:8])[1:-1] not in text

    result = ok(await http.get(f"/api/challenges/{anna['challenge']}"))
    assert result["variant"] == "classic" and result["players"] == 2
    assert [e["name"] for e in result["entries"]] == ["Anna", "Bob"]
    assert [e["invite_name"] for e in result["entries"]] == [None, "Friend"]
    assert [e["room"] for e in result["entries"]] == [anna["room"], bob["room"]]
    for entry, log in zip(result["entries"], (anna_log, bob_log), strict=True):
        assert entry["finished"] is True and entry["match_winner"] in (0, 1)
        assert [h["hand"] for h in entry["hands"]] == [h["hand"] for h in log]
        assert [h["points"] for h in entry["hands"]] == [h["result"]["points"] for h in log]


async def test_challenge_errors(client: Api) -> None:
    http = client.http
    missing = await http.get("/api/challenges/nope")
    assert error_code(missing, 404) == "challenge_not_found"
    assert error_code(await http.post("/api/challenges/nope/play", json={}), 404) == (
        "challenge_not_found"
    )
    bad = [{"variant": "poker"}, {"bots": {"0": "greedy"}}, {"bots": {"1": "genius"}}]
    for body in bad:
        assert error_code(await http.post("/api/challenges", json=body), 422) == "invalid_request"
    made = ok(await http.post("/api/challenges", json={}), 201)
    # Unnamed seats get the default level, the caller the default name.
    summary = ok(await client.summary(made["room"]))
    assert summary["seats"][0]["name"] == "Player 1" and summary["seats"][1]["bot"]
    result = ok(await http.get(f"/api/challenges/{made['challenge']}"))
    assert result["entries"][0]["hands"] == [] and result["entries"][0]["finished"] is False
