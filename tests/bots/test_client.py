"""The websocket bot against a real server: complete hands, reconnects, computer seats."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from bots import client
from bots.expert import ExpertStrategy
from bots.greedy import GreedyStrategy

DRAW = {"type": "draw", "source": "stock"}


async def create_room(base: str, **body: Any) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        r = await http.post("/api/rooms", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def seat_url(base: str, created: dict[str, Any]) -> str:
    url = created["seat_url"]
    return url if url.startswith("http") else base + url


def test_parse_seat_url() -> None:
    assert client.parse_seat_url("http://127.0.0.1:9/r/AbC_d#seat=t0k") == (
        "http://127.0.0.1:9",
        "AbC_d",
        "t0k",
    )
    with pytest.raises(ValueError):
        client.parse_seat_url("http://127.0.0.1:9/r/AbC_d")


async def test_two_bots_play_a_complete_hand(live_server: str) -> None:
    created = await create_room(live_server, variant="classic", players=2, seed=7, name="a")
    server, room, token = client.parse_seat_url(seat_url(live_server, created))
    first = client.Seat(live_server, room, token, created["seat"])
    second = await client.join(live_server, room, "b")
    assert second.seat == 1
    results = await asyncio.wait_for(
        asyncio.gather(
            client.play(first, ExpertStrategy(budget_ms=50.0), seed=1, max_hands=1),
            client.play(second, GreedyStrategy(), seed=2, max_hands=1),
        ),
        timeout=120,
    )
    for state in results:
        assert state is not None and state["phase"] in ("hand_over", "match_over")
        assert state["hand_result"]["reason"] in ("out", "draw", "stalemate")


async def test_bot_resyncs_after_a_dropped_connection(live_server: str) -> None:
    created = await create_room(live_server, variant="classic", players=2, seed=11, name="a")
    _, room, token = client.parse_seat_url(seat_url(live_server, created))
    first = client.Seat(live_server, room, token, 0)
    second = await client.join(live_server, room, "b")
    dropped: list[int] = []
    real_connect = client.connect

    def flaky_connect(*args: Any, **kwargs: Any) -> Any:
        # The first three connections of seat 0 die after their first few frames.
        return _FlakyConnect(real_connect(*args, **kwargs), token, dropped)

    client.connect = flaky_connect  # type: ignore[assignment,misc]  # monkeypatch: connect is a class
    try:
        results = await asyncio.wait_for(
            asyncio.gather(
                client.play(first, GreedyStrategy(), seed=1, max_hands=1),
                client.play(second, GreedyStrategy(), seed=2, max_hands=1),
            ),
            timeout=120,
        )
    finally:
        client.connect = real_connect  # type: ignore[misc]  # monkeypatch: connect is a class
    assert len(dropped) >= 2
    assert all(s is not None and s["phase"] in ("hand_over", "match_over") for s in results)


class _FlakyConnect:
    """Wraps `connect(...)`'s reconnecting loop: a connection that authenticates as `token`
    closes itself after 3 frames, 3 times over."""

    def __init__(self, inner: Any, token: str, dropped: list[int]) -> None:
        self.inner = inner
        self.token = token
        self.dropped = dropped

    async def __aiter__(self) -> Any:
        async for ws in self.inner:
            yield _Dropper(ws, self.token, self.dropped)


class _Dropper:
    def __init__(self, ws: Any, token: str, dropped: list[int]) -> None:
        self.ws = ws
        self.token = token
        self.dropped = dropped
        self.armed = False
        self.frames = 0

    async def send(self, data: str) -> None:
        if self.token in data and len(self.dropped) < 3:  # seat 0's auth frame
            self.armed = True
            self.dropped.append(1)
        await self.ws.send(data)

    def __aiter__(self) -> Any:
        return self._frames()

    async def _frames(self) -> Any:
        async for raw in self.ws:
            yield raw
            self.frames += 1
            if self.armed and self.frames >= 3:
                await self.ws.close()
                from websockets.exceptions import ConnectionClosedOK

                raise ConnectionClosedOK(None, None)


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
async def test_server_computer_seats_use_the_levels(
    make_server: Callable[..., Any], level: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bots
    from app.turns import strategies as computer

    shared = bots.get_strategy(level)
    assert computer.get_strategy(level) is shared
    calls: list[str] = []
    real_choose = shared.choose

    def counting(view: Any, legal: Any, rng: Any) -> Any:
        move = real_choose(view, legal, rng)
        assert move in legal
        calls.append(move.type)
        return move

    # A server thinking in threads (no worker processes) calls this very object.
    live_server = str(make_server(bot_processes=0))
    monkeypatch.setattr(shared, "choose", counting)
    created = await create_room(
        live_server, variant="classic", players=2, mode="computer", bots={"1": level}, seed=3
    )
    async with httpx.AsyncClient(base_url=live_server, timeout=30) as http:
        summary = (await http.get(f"/api/rooms/{created['room']}")).json()
    assert summary["seats"][1]["bot"] in (level, True)
    _, room, token = client.parse_seat_url(seat_url(live_server, created))
    state = await asyncio.wait_for(
        client.play(client.Seat(live_server, room, token, 0), GreedyStrategy(), max_hands=1),
        timeout=120,
    )
    assert state is not None and state["hand_result"] is not None
    assert "draw" in calls and "discard" in calls


async def test_waiting_bot_keeps_its_socket_on_a_server_closing_idle_ones(
    make_server, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Seat 0 (a human) never moves, so the bot in seat 1 only waits. Every (re)connect brings
    # a fresh state frame: one frame means the socket was never closed for idleness (4408).
    base = make_server(ws_idle_seconds=1.5)
    monkeypatch.setattr(client, "KEEPALIVE_SECONDS", 0.3)
    created = await create_room(base, variant="classic", players=2, seed=5, name="a")
    bot_seat = await client.join(base, created["room"], "bot")
    frames: list[dict[str, Any]] = []
    playing = asyncio.create_task(client.play(bot_seat, GreedyStrategy(), on_state=frames.append))
    await asyncio.sleep(4.5)  # three idle timeouts' worth of waiting
    playing.cancel()
    with pytest.raises(asyncio.CancelledError):
        await playing
    assert len(frames) == 1, [f["version"] for f in frames]


async def test_bot_sends_its_token_in_the_first_frame_not_the_url(
    live_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    urls: list[str] = []
    real_connect = client.connect

    def recording_connect(url: str, *args: Any, **kwargs: Any) -> Any:
        urls.append(url)
        return real_connect(url, *args, **kwargs)

    monkeypatch.setattr(client, "connect", recording_connect)
    created = await create_room(live_server, variant="classic", players=2, seed=13, name="a")
    _, room, token = client.parse_seat_url(seat_url(live_server, created))
    second = await client.join(live_server, room, "b")
    results = await asyncio.wait_for(
        asyncio.gather(
            client.play(client.Seat(live_server, room, token, 0), GreedyStrategy(), max_hands=1),
            client.play(second, GreedyStrategy(), max_hands=1),
        ),
        timeout=120,
    )
    assert all(s is not None and s["hand_result"] is not None for s in results)
    assert len(urls) == 2 and all("token" not in url for url in urls), urls
    assert token not in "".join(urls) and second.token not in "".join(urls)


async def test_bot_closed_for_falling_behind_reconnects_and_plays_on(
    live_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.api import outbox

    # The live server runs in this process: every pong is one frame too many, so each of
    # the bot's pings gets its socket closed with 4409. (Frames go out at once while the
    # writer is idle, and queue only behind a client that stopped reading: here they queue.)
    monkeypatch.setattr(outbox, "MAX_QUEUED_FRAMES", 0)
    monkeypatch.setattr(outbox.Outbox, "send_directly", lambda self, send_now: None)
    monkeypatch.setattr(client, "KEEPALIVE_SECONDS", 0.2)
    created = await create_room(live_server, variant="classic", players=2, seed=17, name="a")
    human = created["token"]
    bot_seat = await client.join(live_server, created["room"], "bot")
    frames: list[dict[str, Any]] = []
    playing = asyncio.create_task(client.play(bot_seat, GreedyStrategy(), on_state=frames.append))
    try:
        async with asyncio.timeout(60):
            while len(frames) < 3:  # a state frame per (re)connect: nothing moves meanwhile
                assert not playing.done(), playing
                await asyncio.sleep(0.05)
        assert {f["version"] for f in frames} == {0}
        async with httpx.AsyncClient(base_url=live_server, timeout=30) as http:
            auth = {"Authorization": f"Bearer {human}"}
            url = f"/api/rooms/{created['room']}/moves"
            drawn = await http.post(url, json={"move": DRAW, "version": 0}, headers=auth)
            assert drawn.status_code == 200, drawn.text
            card = drawn.json()["hand"][0]
            move = {"type": "discard", "card": card}
            assert (
                await http.post(url, json={"move": move, "version": 1}, headers=auth)
            ).is_success
        async with asyncio.timeout(60):
            while not any(f["version"] >= 4 for f in frames):  # the bot drew and discarded
                assert not playing.done(), playing
                await asyncio.sleep(0.05)
    finally:
        playing.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await playing
