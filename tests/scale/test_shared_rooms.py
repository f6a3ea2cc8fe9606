"""Two `rummy serve` processes, one PostgreSQL, one Redis: they serve the same rooms."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from tests.kit.players import (
    PLAYING,
    WAIT,
    Chooser,
    SeatSocket,
    create_room,
    get_log,
    get_summary,
    log_entries,
    same_move,
)

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


async def test_a_hand_across_two_processes_each_sees_the_others_moves_live(pair: Any) -> None:
    a, b = pair
    room, tokens = await create_room(a.url, [b.url], seed=11)
    seats = [
        await SeatSocket.open(a.url, room, 0, tokens[0]),
        await SeatSocket.open(b.url, room, 1, tokens[1]),
    ]
    chooser = Chooser()
    sent: list[tuple[int, int, dict[str, Any]]] = []
    try:
        # Lockstep: nobody moves until both sockets hold the current version, so each
        # socket must receive every version, and must receive it from its own process.
        version = (await seats[1].latest())["version"]
        while True:
            views = [await s.state_at(version) for s in seats]
            assert views[0]["phase"] == views[1]["phase"]
            if views[0]["phase"] not in PLAYING:
                break
            turn = views[0]["turn"]
            if sent:
                last_version, last_seat, last_move = sent[-1]
                for view in views:
                    assert view["last_move"]["seat"] == last_seat
                    assert view["last_move"]["move"]["type"] == last_move["type"]
            move = chooser.choose(views[turn])
            await seats[turn].send_move(move, version)
            version += 1
            sent.append((version, turn, move))
            assert len(sent) < 2000, "the hand does not end"
        assert views[0]["phase"] in ("hand_over", "match_over")
        assert not seats[0].errors and not seats[1].errors
    finally:
        for s in seats:
            await s.close()
    # Both processes' logs are the one database's log: every move once, in order.
    for url in (a.url, b.url):
        moves = [e for e in log_entries(await get_log(url, room, tokens[0])) if e[2] == "move"]
        assert [(v, s) for v, s, _, _ in moves] == [(v, s) for v, s, _ in sent]
        assert all(same_move(m, sm) for (_, _, _, m), (_, _, sm) in zip(moves, sent, strict=True))


async def _race(
    http: httpx.AsyncClient,
    urls: list[str],
    room: str,
    token: str,
    moves: list[dict[str, Any]],
    version: int,
) -> list[httpx.Response]:
    headers = {"Authorization": f"Bearer {token}"}
    return list(
        await asyncio.gather(
            *(
                http.post(
                    f"{url}/api/rooms/{room}/moves",
                    json={"move": move, "version": version},
                    headers=headers,
                )
                for url, move in zip(urls, moves, strict=True)
            )
        )
    )


async def test_simultaneous_moves_on_both_processes_apply_exactly_once(pair: Any) -> None:
    a, b = pair
    room, tokens = await create_room(a.url, [b.url], seed=12)
    chooser = Chooser(seed=2)
    applied: list[tuple[int, int, dict[str, Any]]] = []
    async with httpx.AsyncClient(timeout=WAIT) as http:
        r = await http.get(
            f"{a.url}/api/rooms/{room}/state", headers={"Authorization": f"Bearer {tokens[0]}"}
        )
        view = r.json()
        rounds = 0
        while view["phase"] in PLAYING:
            turn, version = view["turn"], view["version"]
            r = await http.get(
                f"{b.url}/api/rooms/{room}/state",
                headers={"Authorization": f"Bearer {tokens[turn]}"},
            )
            mine = r.json()
            assert mine["version"] == version
            move = chooser.choose(mine)
            moves = [move, move]
            if move == {"type": "draw", "source": "stock"} and mine["discard_top"] and rounds % 2:
                # Two different moves for one version: still only one may win.
                moves = [move, {"type": "draw", "source": "discard"}]
            responses = await _race(http, [a.url, b.url], room, tokens[turn], moves, version)
            ok = [i for i, resp in enumerate(responses) if resp.status_code == 200]
            assert len(ok) == 1, [resp.text[:200] for resp in responses]
            loser = responses[1 - ok[0]]
            assert loser.status_code == 409, loser.text[:300]
            assert loser.json()["error"]["code"] == "stale_version"
            winner = responses[ok[0]].json()
            assert winner["version"] >= version + 1
            applied.append((version + 1, turn, moves[ok[0]]))
            r = await http.get(
                f"{a.url}/api/rooms/{room}/state",
                headers={"Authorization": f"Bearer {tokens[0]}"},
            )
            view = r.json()
            assert view["version"] == version + 1
            rounds += 1
            assert rounds < 2000, "the hand does not end"
    entries = [e for e in log_entries(await get_log(b.url, room, tokens[1])) if e[2] == "move"]
    assert [(v, s) for v, s, _, _ in entries] == [(v, s) for v, s, _ in applied]
    assert all(
        same_move(logged, sent)
        for (_, _, _, logged), (_, _, sent) in zip(entries, applied, strict=True)
    )


async def test_presence_is_shared_across_processes(pair: Any) -> None:
    a, b = pair
    room, tokens = await create_room(a.url, [b.url])
    first = await SeatSocket.open(a.url, room, 0, tokens[0])
    second = await SeatSocket.open(b.url, room, 1, tokens[1])
    try:
        both = await first.presence_until(lambda seats: all(s["connected"] for s in seats))
        assert [s["connected"] for s in both] == [True, True]
        for url in (a.url, b.url):
            summary = await get_summary(url, room)
            assert [s["connected"] for s in summary["seats"]] == [True, True]
        await second.close()
        left = await first.presence_until(lambda seats: not seats[1]["connected"])
        assert [s["connected"] for s in left] == [True, False]
        for url in (a.url, b.url):
            summary = await get_summary(url, room)
            assert [s["connected"] for s in summary["seats"]] == [True, False]
    finally:
        await first.close()


async def test_computer_seats_are_played_exactly_once(pair: Any) -> None:
    a, b = pair
    async with httpx.AsyncClient(timeout=WAIT) as http:
        r = await http.post(
            f"{a.url}/api/rooms",
            json={"variant": "basic", "players": 3, "mode": "computer", "seed": 13},
        )
        assert r.status_code == 201, r.text
        room, token = r.json()["room"], r.json()["token"]
        headers = {"Authorization": f"Bearer {token}"}
        # The human's seat is open on both processes: each may wake the bots.
        sockets = [await SeatSocket.open(u, room, 0, token) for u in (a.url, b.url)]
        chooser = Chooser(seed=3)
        try:
            view = (await http.get(f"{b.url}/api/rooms/{room}/state", headers=headers)).json()
            moves = 0
            while view["phase"] in PLAYING:
                if view["turn"] != 0:
                    # Bots still playing: read again from the other process.
                    await asyncio.sleep(0.05)
                    url = (a.url, b.url)[moves % 2]
                    view = (await http.get(f"{url}/api/rooms/{room}/state", headers=headers)).json()
                    continue
                url = (a.url, b.url)[moves % 2]
                r = await http.post(
                    f"{url}/api/rooms/{room}/moves",
                    json={"move": chooser.choose(view), "version": view["version"]},
                    headers=headers,
                )
                if r.status_code == 409:
                    view = r.json()["state"]
                    continue
                assert r.status_code == 200, r.text
                view = r.json()
                moves += 1
                assert moves < 1000, "the hand does not end"
        finally:
            for s in sockets:
                await s.close()
    entries = [e for e in log_entries(await get_log(a.url, room, token)) if e[2] == "move"]
    versions = [v for v, _, _, _ in entries]
    assert versions == list(range(1, len(versions) + 1))
    # Turns go round the table: every turn is one seat's draw ... discard, once.
    expected_seat = 0
    for i, (_, seat, _, move) in enumerate(entries):
        assert seat == expected_seat, f"entry {i}: seat {seat} moved on seat {expected_seat}'s turn"
        if move["type"] == "discard":
            expected_seat = (expected_seat + 1) % 3
        if i + 1 < len(entries) and move["type"] != "discard":
            assert entries[i + 1][3]["type"] != "draw", f"entry {i + 1}: a second draw"
