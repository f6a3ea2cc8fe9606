"""Seats that stay alive (docs/api.md v1.1): away seats, stand-ins and the turn timer, over real
servers whose clock the test moves (nothing here sleeps for the minute it simulates)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect

from tests.kit.clients import Api, Socket
from tests.kit.responses import error_code, ok
from tests.kit.rooms import online_room
from tests.kit.servers import LiveServer

DRAW = {"type": "draw", "source": "stock"}


class FakeClock:
    """The servers' time: real time plus an offset the test moves forward."""

    def __init__(self) -> None:
        self.offset = timedelta()

    def __call__(self) -> datetime:
        return datetime.now(UTC) + self.offset

    def advance(self, seconds: float) -> None:
        self.offset += timedelta(seconds=seconds)


def ws_url(server: str, room: str, token: str) -> str:
    return "ws" + server[len("http") :] + f"/api/rooms/{room}/ws?token={token}"


async def stand_in(api: Api, room: str, token: str | None, seat: int) -> httpx.Response:
    return await api.http.post(
        f"/api/rooms/{room}/stand-in", json={"seat": seat}, headers=api.auth(token)
    )


async def host_turn(api: Api, room: str, token: str, view: dict[str, Any]) -> dict[str, Any]:
    """The host draws from the stock and discards what it drew: the answer's view comes
    after any computer turns that followed."""
    view = ok(await api.move(room, token, DRAW, view["version"]))
    discard = {"type": "discard", "card": view["hand"][-1]}
    return dict(ok(await api.move(room, token, discard, view["version"])))


async def away_seat(
    server: str, api: Api, room: str, tokens: list[str], host: Socket, seat: int = 1
) -> None:
    """Open and close seat `seat`'s socket; returns once the host sees it away."""
    async with connect(ws_url(server, room, tokens[seat])) as ws:
        guest = Socket(ws)
        await guest.state()
    await host.until(
        lambda f: f["type"] == "presence" and f["seats"][seat]["away_since"] is not None
    )


@contextlib.asynccontextmanager
async def stood_in(
    server: str, api: Api, clock: FakeClock, seed: int
) -> AsyncIterator[tuple[str, list[str], dict[str, Any]]]:
    """A room whose guest (seat 1) left a minute ago and is stood in for, the host's socket
    open: (room, tokens, the host's view)."""
    room, tokens = await online_room(api, seed=seed)
    async with connect(ws_url(server, room, tokens[0])) as ws:
        await away_seat(server, api, room, tokens, Socket(ws))
        clock.advance(61)
        yield room, tokens, ok(await stand_in(api, room, tokens[0], 1))


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def alive_server(make_server: Callable[..., LiveServer], clock: FakeClock) -> LiveServer:
    live = make_server(timer_interval_seconds=0.05)
    live.set_clock(clock)
    return live


@pytest.fixture
async def alive_api(alive_server: LiveServer) -> Any:
    async with httpx.AsyncClient(base_url=alive_server, timeout=60) as http:
        yield Api(http)


async def test_a_stand_in_is_refused_until_the_seat_was_away_long_enough(
    alive_server: LiveServer, alive_api: Api, clock: FakeClock
) -> None:
    api = alive_api
    room, tokens = await online_room(api, seed=41)
    async with connect(ws_url(alive_server, room, tokens[0])) as ws:
        host = Socket(ws)
        async with connect(ws_url(alive_server, room, tokens[1])) as ws1:
            await Socket(ws1).state()
            await host.until(lambda f: f["type"] == "presence" and f["seats"][1]["connected"])
            assert error_code(await stand_in(api, room, tokens[0], 1), 409) == "seat_present"
        await host.until(
            lambda f: f["type"] == "presence" and f["seats"][1]["away_since"] is not None
        )
        assert error_code(await stand_in(api, room, tokens[0], 1), 409) == "seat_present"
        clock.advance(59)
        assert error_code(await stand_in(api, room, tokens[0], 1), 409) == "seat_present"
        # Bad requests change nothing: its own seat, no such seat, a malformed body.
        before = ok(await api.state(room, tokens[0]))["version"]
        assert error_code(await stand_in(api, room, tokens[1], 1), 422) == "invalid_request"
        assert error_code(await stand_in(api, room, tokens[0], 5), 422) == "invalid_request"
        bad = await api.http.post(
            f"/api/rooms/{room}/stand-in", json={"seat": "1"}, headers=api.auth(tokens[0])
        )
        assert error_code(bad, 422) == "invalid_request"
        assert error_code(await stand_in(api, room, None, 1), 401) == "unauthorized"
        assert ok(await api.state(room, tokens[0]))["version"] == before
        clock.advance(2)
        view = ok(await stand_in(api, room, tokens[0], 1))
        assert view["seats"][1]["stand_in"] == "hard"
        assert view["seats"][1]["name"] == "Guest 1" and view["seats"][1]["bot"] is None
        assert view["version"] == before + 1
        # The owner's token still acts for the seat; its view is the same seat's.
        assert ok(await api.state(room, tokens[1]))["seat"] == 1


async def test_the_stand_in_plays_only_its_seat_until_the_owner_is_back(
    alive_server: LiveServer, alive_api: Api, clock: FakeClock
) -> None:
    api = alive_api
    async with stood_in(alive_server, api, clock, seed=42) as (room, tokens, view):
        start = view["version"]
        for _ in range(3):
            assert view["turn"] == 0 and view["phase"] == "draw", "the bot never plays seat 0"
            view = await host_turn(api, room, tokens[0], view)
            if view["phase"] not in ("draw", "play"):
                pytest.skip("the hand ended early")  # the seed is fixed: it does not
        # Three host turns and three bot turns: the bot played seat 1 only, in turn.
        versions = ok(await api.state(room, tokens[1]))["version"] - start
        assert versions >= 6 and view["seats"][1]["stand_in"] == "hard"
        # The owner comes back: a socket with its token ends the stand-in at once.
        async with connect(ws_url(alive_server, room, tokens[1])) as ws1:
            guest = Socket(ws1)
            back = await guest.until(
                lambda f: f["type"] == "state" and f["state"]["seats"][1]["stand_in"] is None
            )
            assert back["state"]["seat"] == 1
            view = await host_turn(api, room, tokens[0], ok(await api.state(room, tokens[0])))
            # No further bot move: seat 1's turn waits for its owner.
            assert view["turn"] == 1 and view["phase"] == "draw"
            assert view["seats"][1]["stand_in"] is None
            # What the owner missed says which of its turns the computer played: the hand's
            # stand-in entries, the start (before `since`) as well as the end.
            missed = ok(
                await api.http.get(
                    f"/api/rooms/{room}/recent",
                    params={"since": start},
                    headers=api.auth(tokens[1]),
                )
            )
            windows = [(e["seat"], e["stand_in"]) for e in missed["stand_ins"]]
            assert windows == [(1, "hard"), (1, None)], missed["stand_ins"]
            assert missed["stand_ins"][0]["version"] <= start < missed["stand_ins"][1]["version"]
            # The owner's own move (here over REST) is accepted as ever.
            ok(await api.move(room, tokens[1], DRAW, view["version"]))


async def test_a_move_from_the_owner_ends_the_stand_in(
    alive_server: LiveServer, alive_api: Api, clock: FakeClock
) -> None:
    api = alive_api
    room, tokens = await online_room(api, seed=43)
    async with connect(ws_url(alive_server, room, tokens[1])) as ws:
        await away_seat(alive_server, api, room, tokens, Socket(ws), seat=0)
    clock.advance(61)
    view = ok(await stand_in(api, room, tokens[1], 0))
    assert view["seats"][0]["stand_in"] == "hard"
    assert view["turn"] == 1  # had it been seat 0's turn, the bot played it
    view = ok(await api.move(room, tokens[1], DRAW, view["version"]))
    # Seat 0's owner sends a move: not its turn, so refused, but the owner is back.
    refused = await api.move(room, tokens[0], DRAW, view["version"])
    assert error_code(refused, 409) == "not_your_turn"
    after = ok(await api.state(room, tokens[1]))
    assert after["seats"][0]["stand_in"] is None and after["version"] == view["version"] + 1
    discard = {"type": "discard", "card": after["hand"][-1]}
    view = ok(await api.move(room, tokens[1], discard, after["version"]))
    assert view["turn"] == 0 and view["phase"] == "draw", "no bot move after the owner's return"


async def test_the_hand_ends_with_the_owners_score_and_the_stand_in_agrees_to_the_next(
    alive_server: LiveServer, alive_api: Api, clock: FakeClock
) -> None:
    api = alive_api
    async with stood_in(alive_server, api, clock, seed=44) as (room, tokens, view):
        for _ in range(300):
            if view["phase"] not in ("draw", "play"):
                break
            view = await host_turn(api, room, tokens[0], view)
        assert view["phase"] in ("hand_over", "match_over")
        result = view["hand_result"]
        guest = ok(await api.state(room, tokens[1]))
        assert guest["seat"] == 1 and guest["seats"][1]["name"] == "Guest 1"
        assert guest["scores"] == view["scores"]
        # The first hand's points are the match's scores, each under its own seat: the
        # stand-in's winnings (or losses) are the owner's.
        assert view["scores"] == result["points"] and guest["hand_result"] == result
        assert guest["hand_result"]["hands"][1] == result["hands"][1]
        if view["phase"] == "hand_over":
            # The stand-in agrees like a bot: the host's vote alone deals the next hand.
            dealt = ok(await api.vote(room, tokens[0], "next_hand"))
            assert dealt["hand_number"] == 2 and dealt["phase"] in ("draw", "play")
        log = ok(await api.log(room, tokens[0]))["hands"][0]
        assert [s["stand_in"] for s in log["stand_ins"]] == ["hard"]


async def test_a_timed_out_turn_is_played_and_counted(
    alive_server: LiveServer, alive_api: Api, clock: FakeClock
) -> None:
    api = alive_api
    room, tokens = await online_room(api, seed=45, turn_seconds=30)
    assert ok(await api.summary(room))["options"]["turn_seconds"] == 30
    async with connect(ws_url(alive_server, room, tokens[1])) as ws:
        guest = Socket(ws)
        first = await guest.state()
        deadline = datetime.fromisoformat(first["turn_deadline"])
        assert timedelta(seconds=25) < deadline - clock() <= timedelta(seconds=30)
        timer = alive_server.app.state.turns.timer
        assert await alive_server.call(lambda: timer.fire_due()) == 0
        clock.advance(31)
        view = await guest.until(lambda f: f["type"] == "state" and f["state"]["turn"] == 1)
        state = view["state"]
        assert state["seats"][0]["timeouts"] == 1 and state["seats"][1]["timeouts"] == 0
        assert state["hand_counts"][0] == first["hand_counts"][0]  # drew one, discarded one
        assert datetime.fromisoformat(state["turn_deadline"]) > deadline + timedelta(seconds=30)
        # The seat stays its owner's: seat 0's token plays its next turn itself.
        view = ok(await api.state(room, tokens[1]))
        view = ok(await api.move(room, tokens[1], DRAW, view["version"]))
        assert view["seats"][0]["timeouts"] == 1


async def test_a_timed_out_turn_is_played_after_a_restart(
    make_server: Callable[..., LiveServer], tmp_path: Any, clock: FakeClock
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path}/restart.db"
    first = make_server(database_url=url, timer_interval_seconds=0.05)
    first.set_clock(clock)
    async with httpx.AsyncClient(base_url=first, timeout=60) as http:
        api = Api(http)
        room, tokens = await online_room(api, seed=46, turn_seconds=60)
        view = ok(await api.move(room, tokens[0], DRAW, 0))  # the host is mid-turn
    first.stop()
    second = make_server(database_url=url, timer_interval_seconds=0.05)
    second.set_clock(clock)
    async with httpx.AsyncClient(base_url=second, timeout=60) as http:
        api = Api(http)
        async with connect(ws_url(second, room, tokens[1])) as ws:
            guest = Socket(ws)
            assert (await guest.state())["version"] == view["version"]
            clock.advance(61)
            state = (await guest.until(lambda f: f["type"] == "state" and f["state"]["turn"] == 1))[
                "state"
            ]
        assert state["seats"][0]["timeouts"] == 1
        assert state["hand_counts"][0] == view["hand_counts"][0] - 1  # it discarded
        assert state["last_move"]["seat"] == 0 and state["last_move"]["move"]["type"] == "discard"


async def test_no_timer_by_default(alive_api: Api) -> None:
    room, tokens = await online_room(alive_api, seed=47)
    view = ok(await alive_api.state(room, tokens[0]))
    assert (
        view["turn_deadline"] is None
        and ok(await alive_api.summary(room))["options"]["turn_seconds"] is None
    )
    for bad in (5, 601, "30", True):
        answer = await alive_api.create(turn_seconds=bad)
        assert error_code(answer, 422) == "invalid_request"


async def test_a_computer_room_times_its_humans_turns_from_the_start(
    alive_server: LiveServer, alive_api: Api, clock: FakeClock
) -> None:
    created = ok(await alive_api.create(mode="computer", seed=48, turn_seconds=30), 201)
    room, token = created["room"], created["token"]
    async with connect(ws_url(alive_server, room, token)) as ws:
        me = Socket(ws)
        first = (
            await me.until(
                lambda f: (
                    f["type"] == "state"
                    and f["state"]["turn"] == 0
                    and f["state"]["phase"] == "draw"
                )
            )
        )["state"]
        assert first["turn_deadline"] is not None
        clock.advance(31)
        later = await me.until(
            lambda f: f["type"] == "state" and f["state"]["seats"][0]["timeouts"] == 1
        )
        assert later["state"]["seats"][1]["timeouts"] == 0  # bots are never timed


async def test_a_seat_that_joined_and_never_connected_counts_as_away(
    alive_server: LiveServer, alive_api: Api, clock: FakeClock
) -> None:
    api = alive_api
    room, tokens = await online_room(api, seed=45)  # the guest joined and never connected
    async with connect(ws_url(alive_server, room, tokens[0])) as ws:
        await Socket(ws).state()
        assert error_code(await stand_in(api, room, tokens[0], 1), 409) == "seat_present"
        clock.advance(61)  # a minute since the room last moved: the guest is away
        view = ok(await stand_in(api, room, tokens[0], 1))
        assert view["seats"][1]["stand_in"] == "hard"
