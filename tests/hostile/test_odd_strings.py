"""The byte no one expected, in every string a client sends: odd strings (digits that are not
ASCII, NUL, a lone surrogate, bidi and zero-width marks, 5,000 characters, "NaN", "1e309",
a path, markup) put one at a time into every place of an otherwise valid request, over real
HTTP and a real websocket. A meld id "m²" was a 500 on 0bdbdb3 (str.isdigit says yes, int()
says no), and so were a bot seat "²" and a seat key of 5,000 digits; schemathesis draws
random strings, not these.

The places come from /openapi.json: every operation must have a base request here (a new
route fails until it has one), and every path, query and header parameter, the bearer token,
every leaf and map key of the base body and every property its schema names but the base
leaves out is a place (of a list of cards its first; a field several bases share, once).
The promise (docs/api.md, "Conventions"): a status under 500, the error shape on every 4xx,
the tables untouched; on the websocket an error frame or a close code of
docs/asyncapi.json's `x-close-codes`, never 1006 or 1011; no error in the log."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from tests.kit.clients import Api, http_client
from tests.kit.deals import ANNA, BOB, fixed_deal
from tests.kit.oddities import (
    CLOSE_CODES,
    ODD,
    OPS,
    SCHEMA,
    Req,
    body_places,
    broken_promise,
    in_frame,
    places_of,
    send,
    url_part,
    wire,
)
from tests.kit.openapi import OPERATIONS
from tests.kit.responses import ok
from tests.kit.rooms import online_room, play_out_hand
from tests.kit.servers import LiveServer


@dataclass
class Table:
    """What the base requests need: a classic room in its play phase (Anna drew the 5C and
    laid 2C 3C 4C: version 2, one meld), a room whose hand is over, a challenge with its
    owner's secret, the finished room's record and log."""

    http: httpx.AsyncClient
    room: str
    tokens: list[str]
    meld: str
    done: str
    done_tokens: list[str]
    challenge: str
    owner: str
    record: dict[str, Any]
    log: dict[str, Any]

    async def fresh_room(self) -> str:
        created = await self.http.post("/api/rooms", json={"variant": "basic", "players": 4})
        return str(ok(created, 201)["room"])

    async def fresh_invite(self) -> str:
        made = await self.http.post(
            f"/api/challenges/{self.challenge}/invites",
            json={"name": "Cleo"},
            headers={"Authorization": f"Bearer {self.owner}"},
        )
        return str(ok(made, 201)["invite"])

    async def versions(self) -> tuple[int, int]:
        play = ok(await self.http.get(f"/api/rooms/{self.room}"))["version"]
        done = ok(await self.http.get(f"/api/rooms/{self.done}"))["version"]
        return play, done


@pytest.fixture(scope="module")
async def table(server: LiveServer) -> AsyncIterator[Table]:
    async with http_client(server) as http:
        deal = fixed_deal("classic", [ANNA, BOB], discard=["5C"], stock_top=["QD", "8D"])
        room, tokens = await online_room(http, "classic", deal=deal, name="Anna")
        api = Api(http)
        ok(await api.move(room, tokens[0], {"type": "draw", "source": "discard"}, 0))
        view = ok(
            await api.move(room, tokens[0], {"type": "meld", "melds": [["2C", "3C", "4C"]]}, 1)
        )
        done, done_tokens, _ = await play_out_hand(api, "classic")
        challenge = ok(
            await http.post(
                "/api/challenges",
                json={"variant": "classic", "players": 2, "bots": {"1": "easy"}, "name": "Anna"},
            ),
            201,
        )
        auth = {"Authorization": f"Bearer {done_tokens[0]}"}
        record = ok(await http.get(f"/api/rooms/{done}/record", headers=auth))
        log = ok(await http.get(f"/api/rooms/{done}/log", headers=auth))
        yield Table(
            http,
            room,
            tokens,
            view["melds"][0]["id"],
            done,
            done_tokens,
            challenge["challenge"],
            challenge["owner"],
            record,
            log,
        )


Base = Callable[[Table], Awaitable[Req]]


# Fields every base of an operation has, where the others' values change nothing: once.
SHARED = {"body set version", "body set move/type"}


def _only(base: Base, *fields: str) -> Base:
    """`base` for the places under these body fields only (the rest were the first base's)."""
    base.only = fields  # type: ignore[attr-defined]
    return base


def _fixed(make: Callable[[Table], Req]) -> Base:
    async def base(t: Table) -> Req:
        return make(t)

    return base


async def _join(t: Table) -> Req:  # a fresh room each time: an odd name that is fine sits
    return Req(
        "post", "/api/rooms/{room}/join", {"room": await t.fresh_room()}, body={"name": "Bob"}
    )


async def _play(
    t: Table,
) -> Req:  # a fresh invitation each time: one is good for one entry
    body = {"name": "Cleo", "invite": await t.fresh_invite()}
    return Req("post", "/api/challenges/{challenge}/play", {"challenge": t.challenge}, body=body)


def _room(method: str, path: str, body: Any = None, **query: str) -> Base:
    """A request to the play-phase room, as Anna."""
    return _fixed(
        lambda t: Req(method, path, {"room": t.room}, query, body=body, token=t.tokens[0])
    )


def _done(method: str, path: str, body: Any = None, **query: str) -> Base:
    """A request to the room whose hand is over, as its seat 0."""
    return _fixed(
        lambda t: Req(method, path, {"room": t.done}, query, body=body, token=t.done_tokens[0])
    )


def _moves(t: Table) -> list[dict[str, Any]]:
    """Each move type, well formed, at the play room's version; the first (a swap, which
    classic has not) changes nothing even when its headers and token are fine."""
    return [
        {"type": "swap", "meld": t.meld, "card": "5D"},
        {"type": "draw", "source": "stock"},
        {"type": "meld", "melds": [["KS", "KD", "KC"], ["7H", "8H", "9H"]]},
        {"type": "layoff", "meld": t.meld, "cards": ["5C"], "end": "high"},
        {"type": "discard", "card": "5D"},
    ]


def _move(i: int) -> Base:
    return _fixed(
        lambda t: Req(
            "post",
            "/api/rooms/{room}/moves",
            {"room": t.room},
            body={"move": _moves(t)[i], "version": 2},
            token=t.tokens[0],
        )
    )


CREATE = {
    "variant": "classic",
    "players": 2,
    "mode": "computer",
    "name": "Anna",
    "bots": {"1": "easy"},
    "spectators": True,
    "chat": True,
    "turn_seconds": 60,
}
RUMMY51 = {"variant": "rummy51", "players": 3, "mode": "online", "name": "Anna", "limit": 201}

# Every operation's base requests; the first of each is the one its parameters and token go in.
BASES: dict[str, list[Base]] = {
    "list_variants": [_fixed(lambda t: Req("get", "/api/variants"))],
    "create_room": [
        _fixed(lambda t: Req("post", "/api/rooms", body=CREATE)),
        _only(_fixed(lambda t: Req("post", "/api/rooms", body=RUMMY51)), "limit", "variant"),
        _only(
            _fixed(
                lambda t: Req(
                    "post",
                    "/api/rooms",
                    body={**CREATE, "deal": fixed_deal("classic", [ANNA, BOB])},
                )
            ),
            "deal",
        ),
    ],
    "join_room": [_join],
    "get_room": [_room("get", "/api/rooms/{room}")],
    "get_state": [_room("get", "/api/rooms/{room}/state")],
    "get_log": [_done("get", "/api/rooms/{room}/log")],
    "post_move": [_move(i) for i in range(5)],
    "cast_vote": [_done("post", "/api/rooms/{room}/votes", {"vote": "next_hand", "version": 3})],
    "get_recent": [_room("get", "/api/rooms/{room}/recent", since="0")],
    "get_hint": [_room("get", "/api/rooms/{room}/hint", lang="en")],
    "get_review": [_done("get", "/api/rooms/{room}/review", hand="0", lang="en")],
    "watch": [_room("get", "/api/rooms/{room}/watch")],
    "stand_in": [_room("post", "/api/rooms/{room}/stand-in", {"seat": 1})],
    "get_replay": [_done("get", "/api/rooms/{room}/replay", hand="0")],
    "replay_record": [
        _fixed(lambda t: Req("post", "/api/replays", query={"hand": "0"}, body=t.record)),
        # A log's own parts; its moves and results are the record's.
        _only(
            _fixed(lambda t: Req("post", "/api/replays", body=t.log)),
            "room",
            "hands/0/start",
        ),
    ],
    "get_record": [_done("get", "/api/rooms/{room}/record")],
    "post_chat": [_room("post", "/api/rooms/{room}/chat", {"text": "hi"})],
    "get_chat": [_room("get", "/api/rooms/{room}/chat", since="0")],
    "rematch": [_done("post", "/api/rooms/{room}/rematch")],
    "create_challenge": [
        _fixed(
            lambda t: Req(
                "post",
                "/api/challenges",
                body={
                    "variant": "classic",
                    "players": 2,
                    "bots": {"1": "easy"},
                    "name": "Anna",
                    "invite_name": "Cleo",
                },
            )
        )
    ],
    "invite_to_challenge": [
        _fixed(
            lambda t: Req(
                "post",
                "/api/challenges/{challenge}/invites",
                {"challenge": t.challenge},
                body={"name": "Dora"},
                token=t.owner,
            )
        )
    ],
    "play_challenge": [_play],
    "get_challenge": [
        _fixed(lambda t: Req("get", "/api/challenges/{challenge}", {"challenge": t.challenge}))
    ],
    "get_server_key": [_fixed(lambda t: Req("get", "/api/server-key"))],
    "get_health": [_fixed(lambda t: Req("get", "/healthz"))],
}


def _errors_logged(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        f"{r.name}: {r.getMessage()[:200]}"
        for r in caplog.records
        if r.levelno >= logging.ERROR or r.exc_info
    ]


def test_every_operation_has_a_base() -> None:
    """A new route of /openapi.json fails here until it has a base request above."""
    assert set(OPS) == set(BASES) == set(OPERATIONS.values())


@pytest.mark.parametrize("op_id", sorted(BASES))
async def test_odd_strings_in_every_place_of_a_request(
    table: Table, op_id: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    before = await table.versions()
    first = await BASES[op_id][0](table)
    tries: list[Awaitable[str | None]] = []
    places = 0
    done: set[str] = set()
    for index, base in enumerate(BASES[op_id]):
        sample = await base(table)
        labels = [label for label, _ in places_of(op_id, first if index else sample, sample, index)]
        if only := getattr(base, "only", None):
            labels = [x for x in labels if x.split(" ", 2)[-1].startswith(only)]
        labels = [x for x in labels if x not in SHARED or x not in done]
        done.update(labels)
        places += len(labels)
        for label in labels:
            for odd in ODD:
                tries.append(_try(table, op_id, first, base, index, label, odd))
    # Side by side: each answer waits out a round trip more than the server's work.
    limit = asyncio.Semaphore(8)

    async def one(attempt: Awaitable[str | None]) -> str | None:
        async with limit:
            return await attempt

    wrong = [w for w in await asyncio.gather(*map(one, tries)) if w]
    assert not wrong, "\n".join(wrong)
    assert await table.versions() == before  # nothing changed at either table
    assert not _errors_logged(caplog)
    assert places or op_id in {"list_variants", "get_server_key", "get_health"}


async def _try(
    t: Table, op_id: str, first: Req, base: Base, index: int, label: str, odd: str
) -> str | None:
    """Send `odd` in the place `label` of `base`'s request; what broke the promise."""
    req = await base(t)  # anew: a fresh room to join, a fresh invitation (a fine name takes it)
    place = dict(places_of(op_id, first if index else req, req, index))[label]
    response = await send(t.http, place(odd))
    problem = response is not None and broken_promise(response)
    return f"{op_id} {label} {odd[:12]!r}: {problem}" if problem else None


# --- the websocket ---------------------------------------------------------------------


async def _until_pong(ws: Any) -> list[dict[str, Any]]:
    frames: list[dict[str, Any]] = []
    async with asyncio.timeout(30):
        while not frames or frames[-1].get("type") != "pong":
            frames.append(json.loads(await ws.recv()))
    return frames


async def _opening(url: str, first: str | None) -> str | None:
    """Open a socket at `url`, send `first` (an auth frame) if given, then a ping; what broke
    the promise, if anything."""
    try:
        async with connect(url, max_size=None, open_timeout=30) as ws:
            if first is not None:
                await ws.send(first)
            await ws.send(wire({"type": "ping"}))
            for frame in await _until_pong(ws):
                if frame.get("type") == "error" and not frame["error"].get("code"):
                    return f"error frame without a code: {frame}"
    except InvalidStatus as refused:
        status = refused.response.status_code
        return f"HTTP {status}" if status >= 500 else None
    except ConnectionClosed as closed:
        code = closed.rcvd.code if closed.rcvd else 1006
        return None if code in CLOSE_CODES else f"closed {code}"
    return None


async def _in_session(base: str, room: str, token: str, frames: list[str]) -> list[str]:
    """Send each frame on a seat's socket, a ping after it; what broke the promise."""
    wrong: list[str] = []
    url = f"{base}/api/rooms/{room}/ws"
    pending = list(frames)
    frame = "(the auth frame)"
    while pending:
        try:
            async with connect(url, max_size=None) as ws:
                await ws.send(wire({"type": "auth", "token": token}))
                while pending:
                    frame = pending.pop(0)
                    await ws.send(frame)
                    await ws.send(wire({"type": "ping"}))
                    for answer in await _until_pong(ws):
                        if answer.get("type") == "error" and not answer["error"].get("code"):
                            wrong.append(f"{frame[:60]}: error frame without a code")
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd else 1006
            if code not in CLOSE_CODES:
                wrong.append(f"{frame[:60]}: closed {code}")
    return wrong


def _frame_places(t: Table) -> dict[str, list[Callable[[str], Any]]]:
    """The frames a seat sends, by place: each with an odd string in one of its strings."""
    move_frames: list[Callable[[str], Any]] = []
    for move in _moves(t):
        frame = {"type": "move", "move": move, "version": 2}
        move_schema = SCHEMA["components"]["schemas"]["MoveRequest"]["properties"]["move"]
        for how, path in body_places(move, move_schema):
            if path != ("type",) or not move_frames:
                move_frames.append(in_frame(frame, how, ("move", *path)))
    move_frames.append(in_frame(frame, "set", ("version",)))
    return {
        "frame type": [lambda s: {"type": s}],
        "move frame": [lambda s: {"type": "move", "move": s, "version": 2}, *move_frames],
        "vote frame": [lambda s: {"type": "vote", "vote": s}],
        "chat frame": [lambda s: {"type": "chat", "text": s}],
    }


@pytest.mark.parametrize("place", ["frame type", "move frame", "vote frame", "chat frame"])
async def test_odd_strings_in_every_frame_a_seat_sends(
    table: Table, server: LiveServer, place: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    before = await table.versions()
    room, token = (
        (table.done, table.done_tokens[0])
        if place == "vote frame"
        else (
            table.room,
            table.tokens[0],
        )
    )
    frames = [wire(make(odd)) for make in _frame_places(table)[place] for odd in ODD]
    wrong = await _in_session(server.ws_url, room, token, frames)
    assert not wrong, "\n".join(wrong)
    assert await table.versions() == before
    assert not _errors_logged(caplog)


@pytest.mark.parametrize("place", ["auth token", "auth type", "query token", "query watch", "room"])
async def test_odd_strings_in_a_socket_s_opening(
    table: Table, server: LiveServer, place: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    url = f"{server.ws_url}/api/rooms/{table.room}/ws"
    wrong: list[str] = []
    for odd in ODD:
        if place == "auth token":
            problem = await _opening(url, wire({"type": "auth", "token": odd}))
        elif place == "auth type":
            problem = await _opening(url, wire({"type": odd, "token": table.tokens[1]}))
        elif place == "query token":
            problem = await _opening(f"{url}?token={url_part(odd)}", None)
        elif place == "query watch":
            problem = await _opening(f"{url}?watch={url_part(odd)}", None)
        else:
            other = f"{server.ws_url}/api/rooms/{url_part(odd)}/ws"
            problem = await _opening(other, wire({"type": "auth", "token": table.tokens[1]}))
        if problem:
            wrong.append(f"{place} {odd[:12]!r}: {problem}")
    assert not wrong, "\n".join(wrong)
    assert not _errors_logged(caplog)
