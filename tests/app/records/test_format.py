"""Match records and replays over real HTTP (docs/api.md v1.2 "Match records", docs/record.md):
`GET .../record`, `GET .../replay?hand=N`, the stateless `POST /api/replays`, and
`rummy verify` on a record."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import pytest

import rules
from tests.kit.deals import pack
from tests.kit.responses import error_code, ok
from tests.kit.servers import LiveServer

RUMMY = Path(sys.executable).parent / "rummy"
SEED = 43  # a classic deal that the policy below finishes in a few dozen moves


def _policy(view: dict[str, Any]) -> dict[str, Any]:
    """Biggest meld, else biggest lay-off, else a stock draw, else the last discard."""
    fields = rules.SeatView.model_fields
    seat_view = rules.SeatView.model_validate({k: v for k, v in view.items() if k in fields})
    legal = list(rules.legal_moves(seat_view))
    melds = [m for m in legal if isinstance(m, rules.Meld)]
    layoffs = [m for m in legal if isinstance(m, rules.LayOff)]
    draws = [m for m in legal if isinstance(m, rules.Draw)]
    if melds:
        move: rules.Move = max(melds, key=lambda m: sum(len(c) for c in m.melds))
    elif layoffs:
        move = max(layoffs, key=lambda m: len(m.cards))
    elif draws:
        move = next((m for m in draws if m.source == "stock"), draws[0])
    else:
        move = legal[-1]
    return rules.move_to_json(move)


def auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


async def _play_hand(http: httpx.AsyncClient, room: str, tokens: list[str]) -> set[str]:
    """Play the hand in progress to its end; the commitments the seats were shown."""
    seen: set[str] = set()
    for _ in range(1000):
        view = ok(await http.get(f"/api/rooms/{room}/state", headers=auth(tokens[0])))
        seen.add(view["commitment"])
        if view["phase"] not in ("draw", "play"):
            return seen
        turn = view["turn"]
        mine = ok(await http.get(f"/api/rooms/{room}/state", headers=auth(tokens[turn])))
        body = {"move": _policy(mine), "version": mine["version"]}
        ok(await http.post(f"/api/rooms/{room}/moves", json=body, headers=auth(tokens[turn])))
    raise AssertionError("the hand did not end")


async def _room(http: httpx.AsyncClient, **options: Any) -> tuple[str, list[str]]:
    body = {"variant": "classic", "players": 2, "name": "Anna", "seed": SEED, **options}
    created = ok(await http.post("/api/rooms", json=body), 201)
    joined = ok(await http.post(f"/api/rooms/{created['room']}/join", json={"name": "Ben"}), 201)
    return created["room"], [created["token"], joined["token"]]


@pytest.fixture(scope="module")
async def played(live_server: LiveServer) -> dict[str, Any]:
    """Two classic hands played to their end over HTTP, and what the seats saw meanwhile."""
    async with httpx.AsyncClient(base_url=live_server, timeout=60) as http:
        room, tokens = await _room(http)
        seen = [await _play_hand(http, room, tokens)]
        for token in tokens:
            vote = {"vote": "next_hand"}
            ok(await http.post(f"/api/rooms/{room}/votes", json=vote, headers=auth(token)))
        seen.append(await _play_hand(http, room, tokens))
        log = ok(await http.get(f"/api/rooms/{room}/log", headers=auth(tokens[1])))
        state = ok(await http.get(f"/api/rooms/{room}/state", headers=auth(tokens[0])))
        record = ok(await http.get(f"/api/rooms/{room}/record", headers=auth(tokens[0])))
    return {
        "room": room,
        "tokens": tokens,
        "seen": seen,
        "log": log,
        "state": state,
        "record": record,
    }


def test_a_record_holds_every_finished_hand_self_contained(played: dict[str, Any]) -> None:
    record, log = played["record"], played["log"]
    assert record["format"] == "rummy-record/1"
    assert record["variant"] == "classic" and record["players"] == ["Anna", "Ben"]
    assert record["options"]["spectators"] is True
    assert [h["number"] for h in record["hands"]] == [0, 1]
    for hand, logged, seen in zip(record["hands"], log["hands"], played["seen"], strict=True):
        start = logged["start"]
        assert {hand["commitment"]} == seen  # the commitment every seat was shown
        assert hand["seed"] == start["hand_seed"]
        assert hand["deal"] == {k: start[k] for k in ("hands", "discard", "stock")}
        assert hand["dealer"] == start["dealer"] and hand["start_scores"] == start["scores"]
        assert hand["moves"] == [{"seat": m["seat"], "move": m["move"]} for m in logged["moves"]]
        assert hand["result"] == logged["result"]
    assert record["hands"][1]["dealer"] == (record["hands"][0]["dealer"] + 1) % 2
    assert record["scores"] == played["state"]["scores"]
    assert "token" not in json.dumps(record) and played["room"] not in json.dumps(record)


async def test_who_may_read_a_record(live_server: LiveServer, played: dict[str, Any]) -> None:
    room = played["room"]
    async with httpx.AsyncClient(base_url=live_server, timeout=60) as http:
        # No token: anyone may, where anyone may watch.
        assert ok(await http.get(f"/api/rooms/{room}/record")) == played["record"]
        closed, tokens = await _room(http, spectators=False)
        assert error_code(await http.get(f"/api/rooms/{closed}/record"), 401) == "unauthorized"
        record = ok(await http.get(f"/api/rooms/{closed}/record", headers=auth(tokens[1])))
        assert record["hands"] == [] and record["scores"] == [0, 0]  # nothing over yet
        other = auth(played["tokens"][0])
        assert error_code(await http.get(f"/api/rooms/{closed}/record", headers=other), 403)
        assert error_code(await http.get(f"/api/rooms/{room}/record", headers=auth("x" * 30)), 401)
        assert error_code(await http.get("/api/rooms/nosuchroom00/record"), 404)


def _check_steps(steps: list[dict[str, Any]], logged: dict[str, Any], players: int) -> None:
    """Every step of a replay against the log: the move it follows, the cards all there, the
    hands and counts agreeing, the last step's result the log's."""
    moves = logged["moves"]
    assert len(steps) == len(moves) + 1
    assert steps[0]["move"] is None and steps[0]["hands"] == logged["start"]["hands"]
    whole = Counter(pack("classic"))
    for i, step in enumerate(steps):
        view = step["view"]
        assert view["seat"] is None and view["hand"] == [] and view["legal"] is None
        assert view["hand_counts"] == [len(h) for h in step["hands"]]
        held = [c for h in step["hands"] for c in h] + [
            c for m in view["melds"] for c in m["cards"]
        ]
        assert len(held) + view["stock_count"] + view["discard_count"] == sum(whole.values())
        assert Counter(held) <= whole
        if i:
            entry = moves[i - 1]
            assert step["move"]["seat"] == entry["seat"]
            public = {k: v for k, v in entry["move"].items() if v is not None}
            if public["type"] == "draw" and public["source"] == "discard":
                public["card"] = steps[i - 1]["view"]["discard_top"]  # named: it was face up
            assert step["move"]["move"] == public
            if public["type"] == "discard":
                assert view["discard_top"] == public["card"]
                before = Counter(steps[i - 1]["hands"][entry["seat"]])
                assert before - Counter(step["hands"][entry["seat"]]) == Counter([public["card"]])
    assert steps[-1]["view"]["hand_result"] == logged["result"]
    assert len(steps[-1]["hands"]) == players


async def test_a_rooms_replay_has_every_step_built_by_the_server(
    live_server: LiveServer, played: dict[str, Any]
) -> None:
    room, token = played["room"], played["tokens"][0]
    async with httpx.AsyncClient(base_url=live_server, timeout=60) as http:
        last = ok(await http.get(f"/api/rooms/{room}/replay", headers=auth(token)))
        assert last["hand"] == 1 and last["hands"] == [0, 1]
        for number, logged in enumerate(played["log"]["hands"]):
            got = ok(await http.get(f"/api/rooms/{room}/replay?hand={number}", headers=auth(token)))
            assert got["hand"] == number
            _check_steps(got["steps"], logged, 2)
            assert [s["version"] for s in got["steps"][1:]] == [
                m["version"] for m in logged["moves"]
            ]
        assert (
            error_code(await http.get(f"/api/rooms/{room}/replay?hand=7", headers=auth(token)), 409)
            == "wrong_phase"
        )
        assert error_code(await http.get(f"/api/rooms/{room}/replay"), 401) == "unauthorized"
        assert error_code(
            await http.get(f"/api/rooms/{room}/replay?hand=-1", headers=auth(token)), 422
        )


async def test_a_record_or_a_log_replays_with_no_room(
    live_server: LiveServer, played: dict[str, Any]
) -> None:
    room, token = played["room"], played["tokens"][0]
    async with httpx.AsyncClient(base_url=live_server, timeout=60) as http:
        for number in (0, 1):
            from_room = ok(
                await http.get(f"/api/rooms/{room}/replay?hand={number}", headers=auth(token))
            )
            from_record = ok(await http.post(f"/api/replays?hand={number}", json=played["record"]))
            assert from_record["players"] == ["Anna", "Ben"]
            # A record numbers no versions; every table and hand is the room's.
            assert [{**s, "version": None} for s in from_room["steps"]] == from_record["steps"]
            from_log = ok(await http.post(f"/api/replays?hand={number}", json=played["log"]))
            assert from_log["steps"] == from_room["steps"]
        # One hand of a record is a record too (a long match's file is sent hand by hand).
        single = {**played["record"], "hands": played["record"]["hands"][1:]}
        alone = ok(await http.post("/api/replays", json=single))
        assert alone["hand"] == 1 and alone["hands"] == [1]


async def test_a_replay_refuses_what_does_not_hold_together(
    live_server: LiveServer, played: dict[str, Any]
) -> None:
    record = played["record"]
    changed = copy.deepcopy(record)
    discard = next(m for m in changed["hands"][0]["moves"] if m["move"]["type"] == "discard")
    discard["move"]["card"] = "JK"  # classic has no joker
    moved = copy.deepcopy(record)
    moved["hands"][0]["moves"].insert(0, moved["hands"][0]["moves"][1])
    misnamed = copy.deepcopy(record)
    _misname_a_pickup(misnamed)
    async with httpx.AsyncClient(base_url=live_server, timeout=60) as http:
        for bad in (changed, moved):
            r = await http.post("/api/replays?hand=0", json=bad)
            assert error_code(r, 422) in ("invalid_record", "invalid_request"), r.text
        for bad in (moved, misnamed):
            r = await http.post("/api/replays?hand=0", json=bad)
            assert error_code(r, 422) == "invalid_record", r.text
        junk: object
        for junk in ({}, [], {"format": "rummy-record/9"}, {"hands": "x"}):
            assert error_code(await http.post("/api/replays", json=junk), 422) == "invalid_request"
        r = await http.post("/api/replays", content=b"{" + b" " * 70_000 + b"}")
        assert error_code(r, 413) == "payload_too_large"
        assert error_code(await http.post("/api/replays?hand=9", json=record), 409) == "wrong_phase"


def _verify(tmp_path: Path, document: Any) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "match.json"
    path.write_text(json.dumps(document))
    return subprocess.run(
        [str(RUMMY), "verify", str(path)], capture_output=True, text=True, timeout=120
    )


def test_rummy_verify_checks_a_record(played: dict[str, Any], tmp_path: Path) -> None:
    done = _verify(tmp_path, played["record"])
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    for number, seen in enumerate(played["seen"]):
        assert lines[number].startswith(f"hand {number}: OK  commitment {next(iter(seen))}")
    assert lines[-1] == "all hands verified"


def _swap_dealt_card(record: dict[str, Any]) -> None:
    hands = record["hands"][1]["deal"]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]


def _change_a_move_card(record: dict[str, Any]) -> None:
    hand = record["hands"][0]
    entry = next(m for m in hand["moves"] if m["move"]["type"] == "discard")
    held = set(hand["deal"]["hands"][entry["seat"]]) - {entry["move"]["card"]}
    entry["move"]["card"] = sorted(held)[0]


def _misname_a_pickup(record: dict[str, Any]) -> None:
    # A draw names the card it took (a stock draw none): any other name is a forgery.
    hand = record["hands"][0]
    draw = next(m for m in hand["moves"] if m["move"]["type"] == "draw")
    draw["move"]["card"] = "AS" if draw["move"].get("card") != "AS" else "2S"


def _change_the_scores(record: dict[str, Any]) -> None:
    record["scores"][0] += 5


@pytest.mark.parametrize(
    ("change", "failing", "expected"),
    [
        (_swap_dealt_card, "hand 1: FAIL", "seat 0's hand in the log"),
        (_change_a_move_card, "hand 0: FAIL", "is illegal"),
        (_misname_a_pickup, "hand 0: FAIL", "misnames its card"),
        (_change_the_scores, "hand 1: FAIL", "the record states the scores"),
    ],
)
def test_a_record_with_a_changed_card_fails_verification(
    played: dict[str, Any], tmp_path: Path, change: Any, failing: str, expected: str
) -> None:
    record = copy.deepcopy(played["record"])
    change(record)
    done = _verify(tmp_path, record)
    assert done.returncode == 1, done.stdout
    line = next(x for x in done.stdout.splitlines() if x.startswith(failing))
    assert expected in line, done.stdout
    assert done.stdout.splitlines()[-1] == "VERIFICATION FAILED"


def test_not_a_record_is_an_error(tmp_path: Path) -> None:
    done = _verify(tmp_path, {"format": "rummy-record/1", "variant": "classic"})
    assert done.returncode == 2 and "not a match record" in done.stderr
