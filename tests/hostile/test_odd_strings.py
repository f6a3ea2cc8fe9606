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
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from tests.kit.clients import Api, http_client
from tests.kit.deals import ANNA, BOB, fixed_deal
from tests.kit.openapi import OPERATIONS
from tests.kit.responses import ok
from tests.kit.rooms import online_room, play_out_hand
from tests.kit.servers import LiveServer

ODD = [
    "²",
    "١٢",  # Arabic-Indic digits: str.isdigit, not int()'s ASCII
    "m²",
    "m١",
    "\u00a0",
    "\x00",
    "a\ud800b",  # a lone surrogate: json.dumps writes it as the escape \ud800
    "\u202e",
    "\u200b",
    "\ufeff",
    "e\u0301" * 200,
    "🂡" * 100,
    "x" * 5000,
    "1" * 5000,
    "-0",
    "NaN",
    "1e309",
    " ",
    "",
    "null",
    "../../etc/passwd",
    "<script>",
]

CLOSE_CODES = {
    c["code"]
    for c in json.loads((Path(__file__).parents[2] / "docs" / "asyncapi.json").read_text())[
        "x-close-codes"
    ]
} - {1011}

Path_ = tuple[str | int, ...]


def _wire(value: Any) -> str:
    """JSON with ASCII escapes: a lone surrogate goes out as the text `\\ud800`."""
    return json.dumps(value)


def _url(text: str) -> str:
    """`text` percent-encoded as UTF-8 (a lone surrogate as the bytes it would be)."""
    return quote(text.encode("utf-8", "surrogatepass"), safe="")


@dataclass
class Req:
    """One request: path parameters, query, headers and body are what the places vary."""

    method: str
    path: str
    params: dict[str, str] = field(default_factory=dict)
    query: dict[str, str] = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)
    body: Any = None
    token: str | None = None


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


async def _play(t: Table) -> Req:  # a fresh invitation each time: one is good for one entry
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
        _only(_fixed(lambda t: Req("post", "/api/replays", body=t.log)), "room", "hands/0/start"),
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


def _app_schema() -> dict[str, Any]:
    from app.config import Settings
    from app.main import create_app

    return create_app(Settings(database_url="sqlite+aiosqlite:///:memory:")).openapi()


SCHEMA = _app_schema()
OPS = {
    op["operationId"]: (method, path, op)
    for path, ops in SCHEMA["paths"].items()
    for method, op in ops.items()
}


def _resolve(schema: Any, value: Any) -> dict[str, Any]:
    """The schema `value` is checked against: $refs followed, the branch of a union that
    fits it (a move by its `type`)."""
    while isinstance(schema, dict):
        if "$ref" in schema:
            schema = SCHEMA["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
            continue
        branches = schema.get("oneOf") or schema.get("anyOf")
        if not branches:
            return schema
        mapping = schema.get("discriminator", {}).get("mapping", {})
        if isinstance(value, dict) and value.get("type") in mapping:
            schema = {"$ref": mapping[value["type"]]}
            continue
        kind = {dict: "object", list: "array", str: "string", bool: "boolean"}.get(
            type(value), "integer" if isinstance(value, int) else "null"
        )
        fits = [b for b in branches if _resolve(b, None).get("type") == kind] or branches
        if kind == "object":  # the object branch whose properties the value uses most
            fits.sort(key=lambda b: -len(set(value) & set(_resolve(b, None).get("properties", {}))))
        schema = fits[0]
    return {}


def _body_places(value: Any, schema: Any, path: Path_ = ()) -> Iterator[tuple[str, Path_]]:
    """("set", path) for every leaf, ("key", path) for every key of a map, ("add", path) for
    every property the schema names that the value leaves out; of a list, its first item, or
    its first and last when they are objects (a record's moves; a deal's 52 cards are alike)."""
    schema = _resolve(schema, value)
    if isinstance(value, dict):
        props = schema.get("properties", {})
        extra = schema.get("additionalProperties")
        for key, item in value.items():
            if key not in props and isinstance(extra, dict):
                yield "key", (*path, key)
            yield from _body_places(item, props.get(key, extra), (*path, key))
        for key in props:
            if key not in value:
                yield "add", (*path, key)
    elif isinstance(value, list) and value:
        items = schema.get("items")
        # Objects (a record's moves: a draw first, a discard last) differ; cards are alike.
        ends = {0, len(value) - 1} if isinstance(value[0], dict) else {0}
        for i in sorted(ends):
            yield from _body_places(value[i], items, (*path, i))
    elif isinstance(value, str) or len(path) <= 2:
        # Every string; of the other leaves, the body's own and its objects' (players,
        # version, seat), not a record's every number.
        yield "set", path


def _put(body: Any, how: str, path: Path_, odd: str) -> Any:
    body = json.loads(json.dumps(body))  # a copy
    *parents, last = path
    target = body
    for key in parents:
        target = target[key]
    if how == "key":
        target[odd] = target.pop(last)
    else:
        target[last] = odd
    return body


def _places(
    op_id: str, first: Req, req: Req, index: int
) -> Iterator[tuple[str, Callable[[str], Req]]]:
    """Every place of `req` (the op's base number `index`) an odd string can go, named."""
    _, _, op = OPS[op_id]
    if index == 0:
        for param in op.get("parameters", []):
            part = {"path": "params", "query": "query", "header": "headers"}[param["in"]]
            yield f"{param['in']} {param['name']}", _param(first, part, param["name"])
        if any("HTTPBearer" in s for s in op.get("security", [])):
            yield "bearer token", _param(first, "token", "")
    content = op.get("requestBody", {}).get("content", {}).get("application/json", {})
    if req.body is not None:
        for how, path in _body_places(req.body, content.get("schema")):
            yield f"body {how} {'/'.join(map(str, path))}", _in_body(req, how, path)


def _param(req: Req, part: str, name: str) -> Callable[[str], Req]:
    """`req` with an odd string as its path, query or header parameter `name`, or token."""

    def put(odd: str) -> Req:
        if part == "token":
            return replace(req, token=odd)
        if part == "params":
            return replace(req, params={**req.params, name: odd})
        if part == "query":
            return replace(req, query={**req.query, name: odd})
        return replace(req, headers={**req.headers, name: odd})

    return put


def _in_body(req: Req, how: str, path: Path_) -> Callable[[str], Req]:
    return lambda odd: replace(req, body=_put(req.body, how, path, odd))


def _in_frame(frame: Any, how: str, path: Path_) -> Callable[[str], Any]:
    return lambda odd: _put(frame, how, path, odd)


async def _send(http: httpx.AsyncClient, req: Req) -> httpx.Response | None:
    """Send `req` as bytes on the wire; None when the client itself refuses (a NUL in a
    header)."""
    path = req.path
    for name, value in req.params.items():
        path = path.replace("{" + name + "}", _url(value))
    if req.query:
        path += "?" + "&".join(f"{k}={_url(v)}" for k, v in req.query.items())
    headers = {k.encode(): v.encode("utf-8", "surrogatepass") for k, v in req.headers.items()}
    if req.token is not None:
        headers[b"authorization"] = b"Bearer " + req.token.encode("utf-8", "surrogatepass")
    content = None
    if req.body is not None:
        content = _wire(req.body).encode()
        headers[b"content-type"] = b"application/json"
    try:
        return await http.request(req.method.upper(), path, content=content, headers=headers)
    except httpx.LocalProtocolError:
        return None


def _wrong(response: httpx.Response) -> str | None:
    """What breaks the promise in `response`, if anything."""
    status = response.status_code
    if status >= 500:
        return f"{status} {response.text[:200]}"
    if status >= 400 and response.request.method != "HEAD":
        try:
            error = response.json()["error"]
        except (ValueError, KeyError, TypeError):
            return f"{status} not the error shape: {response.text[:200]}"
        if not (isinstance(error, dict) and error.get("code") and error.get("message")):
            return f"{status} not the error shape: {response.text[:200]}"
        if "details" in error and status != 422:
            return f"{status} details on a non-422"
    return None


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
        labels = [label for label, _ in _places(op_id, first if index else sample, sample, index)]
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
    place = dict(_places(op_id, first if index else req, req, index))[label]
    response = await _send(t.http, place(odd))
    problem = response is not None and _wrong(response)
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
            await ws.send(_wire({"type": "ping"}))
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
                await ws.send(_wire({"type": "auth", "token": token}))
                while pending:
                    frame = pending.pop(0)
                    await ws.send(frame)
                    await ws.send(_wire({"type": "ping"}))
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
        for how, path in _body_places(move, move_schema):
            if path != ("type",) or not move_frames:
                move_frames.append(_in_frame(frame, how, ("move", *path)))
    move_frames.append(_in_frame(frame, "set", ("version",)))
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
    frames = [_wire(make(odd)) for make in _frame_places(table)[place] for odd in ODD]
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
            problem = await _opening(url, _wire({"type": "auth", "token": odd}))
        elif place == "auth type":
            problem = await _opening(url, _wire({"type": odd, "token": table.tokens[1]}))
        elif place == "query token":
            problem = await _opening(f"{url}?token={_url(odd)}", None)
        elif place == "query watch":
            problem = await _opening(f"{url}?watch={_url(odd)}", None)
        else:
            other = f"{server.ws_url}/api/rooms/{_url(odd)}/ws"
            problem = await _opening(other, _wire({"type": "auth", "token": table.tokens[1]}))
        if problem:
            wrong.append(f"{place} {odd[:12]!r}: {problem}")
    assert not wrong, "\n".join(wrong)
    assert not _errors_logged(caplog)
