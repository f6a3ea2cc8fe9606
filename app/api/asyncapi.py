"""The websocket described in AsyncAPI 3.0, served at /asyncapi.json (a copy ships as
docs/asyncapi.json: `python -m app.api.asyncapi > docs/asyncapi.json`).

Its schemas are made from the frame models (client/rummy_wire/frames.py) by pydantic, as
FastAPI makes OpenAPI's from the same models: a schema both documents hold (`RoomView`,
`Draw`, ...) is the same in both (tests/app/api/test_asyncapi.py). The document describes the
server: `send` operations are its frames to a client, `receive` operations a client's
frames to it."""

from __future__ import annotations

import functools
import json
import re
from typing import Any

from fastapi import APIRouter, Request
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from rummy_wire.frames import CLIENT_FRAMES, SERVER_FRAMES

router = APIRouter()

ADDRESS = "/api/rooms/{room}/ws"
REF = "#/components/schemas/{model}"

# Close codes a client may see, what they mean, and whether to connect again
# (docs/operations.md "Limits", app/api/ws.py, app/api/outbox.py, app/guards/).
CLOSE_CODES: tuple[tuple[int, str, str, bool], ...] = (
    (1000, "normal", "the client or the server closed the socket in the normal way", True),
    (1001, "going_away", "the server is shutting down", True),
    (1007, "invalid_frame_data", "a text frame that is not UTF-8 (a client bug)", False),
    (1009, "message_too_big", "a frame over the server's frame size (64 KiB by default)", False),
    (
        1011,
        "internal_error",
        "the server could not send to this socket (a bug, or Redis gone "
        "too long): reconnect, and the first view resyncs",
        True,
    ),
    (1012, "service_restart", "the server restarts", True),
    (
        1013,
        "try_again_later",
        "the server is overloaded or not ready: reconnect after a backoff",
        True,
    ),
    (
        4401,
        "unauthorized",
        "a missing, unknown or late token (no auth frame within `ws_auth_seconds`, 5 s)",
        False,
    ),
    (4403, "forbidden", "a token of another room, or watching a room without spectators", False),
    (4404, "room_not_found", "no such room", False),
    (4408, "idle", "the client sent nothing (not even a ping) for `ws_idle_seconds`", True),
    (
        4409,
        "behind",
        "the client sent frames faster than it read its own: reconnect at once, "
        "the first view resyncs",
        True,
    ),
    (4410, "room_expired", "the room expired (7 days without activity)", False),
    (
        4429,
        "rate_limited",
        "too many frames from this address: reconnect after a backoff "
        "(an error frame `rate_limited` comes first)",
        True,
    ),
    (4503, "unavailable", "the database had no connection free in time: reconnect later", True),
)

RECONNECT = """\
Connecting: open `ws(s)://HOST/api/rooms/{room}/ws` with `?token=<seat token>`, or without it
and send `{"type": "auth", "token": "..."}` as the first frame within 5 s (the browser does,
so that no URL carries the token; meanwhile the socket holds no opening place, and an address
may keep a few waiting: one more is refused 429 with Retry-After). `?watch=1` opens a
spectator's socket: no token, only `ping` may be sent. A refusal at the opening (429, 503)
carries Retry-After: wait that long.

On every connect the server sends the current `state` (read from the database, never a stale
cache) and `presence`. After that, a `state` frame follows every change; a client that reads
slower than the room changes gets only the newest view. A move or vote refused gets an
`error` frame, then the current `state`; a refused chat frame gets its `error` frame alone
(chat changes no game state). Text follows one policy (docs/api.md v1.3): a frame with a lone
surrogate is refused with `invalid_text`.

Reconnecting: a client reconnects after any close whose code is marked `reconnect: true`
(`x-close-codes`), and after a network failure (1006), with a growing backoff (4409 and 1011
at once). It never acts on a version twice: the first `state` after a reconnect is the truth,
and a move sent before the socket dropped may have landed already (its `version` answers 409
`stale_version` if so). A close marked `reconnect: false` means the seat is lost for good
(4401, 4403, 4404, 4410) or the client is broken (1007, 1009). A seat away for
`away_seconds` may be played by a stand-in; its owner's next connect ends the stand-in.
Send `{"type": "ping"}` when idle (the server answers `pong`)."""


def _schemas() -> tuple[dict[str, Any], dict[type[BaseModel], str]]:
    """The frames' JSON Schemas as FastAPI makes the OpenAPI components (one route per
    frame: a server frame as an answer, a client frame as a body), so that every schema the
    two documents share is the same, down to FastAPI's own touches."""
    frames = APIRouter()
    for sent in SERVER_FRAMES:
        frames.add_api_route(f"/{sent.__name__}", _answer, response_model=sent)
    for taken in CLIENT_FRAMES:
        frames.add_api_route(f"/{taken.__name__}", _taker(taken), methods=["POST"])
    openapi = get_openapi(title="frames", version="1", routes=frames.routes)
    schemas: dict[str, Any] = openapi["components"]["schemas"]
    names = {m: _name_in(schemas, m) for m in (*SERVER_FRAMES, *CLIENT_FRAMES)}
    reached = _reached(schemas, set(names.values()))  # not FastAPI's 422 body, say
    return {name: asyncapi_form(schemas[name]) for name in sorted(reached)}, names


def asyncapi_form(schema: Any) -> Any:
    """An OpenAPI schema as AsyncAPI's Schema Object has it: the same, except that a
    discriminator is the tag's name alone (OpenAPI's object adds a mapping to the `$ref`s
    its `oneOf` lists anyway)."""
    if isinstance(schema, dict):
        return {
            key: value["propertyName"] if key == "discriminator" else asyncapi_form(value)
            for key, value in schema.items()
        }
    if isinstance(schema, list):
        return [asyncapi_form(value) for value in schema]
    return schema


def _reached(schemas: dict[str, Any], names: set[str]) -> set[str]:
    """`names` and every schema their `$ref`s lead to."""
    todo, seen = list(names), set(names)
    while todo:
        text = json.dumps(schemas[todo.pop()])
        for ref in re.findall(r'"#/components/schemas/([^"]+)"', text):
            if ref not in seen:
                seen.add(ref)
                todo.append(ref)
    return seen


async def _answer() -> None:  # pragma: no cover - never called: its route makes a schema
    return None


def _taker(model: type[BaseModel]) -> Any:
    async def take(body: Any) -> None:  # pragma: no cover - never called, as `_answer`
        return None

    take.__annotations__ = {"body": model, "return": None}  # a class, not a string
    return take


def _name_in(schemas: dict[str, Any], model: type[BaseModel]) -> str:
    name = model.__name__
    return name if name in schemas else f"{name}-Output"


def _message(model: type[BaseModel], name: str) -> dict[str, Any]:
    kind = model.model_fields["type"].annotation.__args__[0]  # type: ignore[union-attr]
    return {
        "name": kind,
        "title": name,
        "summary": " ".join((model.__doc__ or "").split("\n\n")[0].split()),
        "contentType": "application/json",
        "payload": {"$ref": REF.format(model=name)},
    }


# The socket's query string: a seat's token, or `watch` for a spectator.
QUERY = {
    "type": "object",
    "properties": {
        "token": {"type": "string", "description": "the seat token"},
        "watch": {"type": "boolean", "description": "open a spectator's socket (no token)"},
    },
}


@functools.cache
def document() -> dict[str, Any]:
    """The AsyncAPI 3.0 document of the websocket."""
    schemas, names = _schemas()
    messages = {names[m]: _message(m, names[m]) for m in (*SERVER_FRAMES, *CLIENT_FRAMES)}
    channel = "room"

    def refs(models: tuple[type[BaseModel], ...]) -> list[dict[str, str]]:
        return [{"$ref": f"#/channels/{channel}/messages/{names[m]}"} for m in models]

    return {
        "asyncapi": "3.0.0",
        "info": {
            "title": "rummy websocket",
            "version": "1.3",
            "description": "One socket per seat (or spectator) of a room: the seat's view "
            "after every change, presence, chat, and moves and votes the other way. The REST "
            "API is in /openapi.json; both documents share their schemas.\n\n" + RECONNECT,
        },
        "defaultContentType": "application/json",
        "channels": {
            channel: {
                "address": ADDRESS,
                "title": "A room's socket",
                "parameters": {"room": {"description": "the room's id"}},
                "messages": {name: {"$ref": f"#/components/messages/{name}"} for name in messages},
                "bindings": {"ws": {"query": QUERY}},
            }
        },
        "operations": {
            "sendServerFrames": {
                "action": "send",
                "title": "Frames the server sends",
                "channel": {"$ref": f"#/channels/{channel}"},
                "messages": refs(SERVER_FRAMES),
            },
            "receiveClientFrames": {
                "action": "receive",
                "title": "Frames a client sends",
                "channel": {"$ref": f"#/channels/{channel}"},
                "messages": refs(CLIENT_FRAMES),
            },
        },
        "components": {"schemas": schemas, "messages": messages},
        "x-close-codes": [
            {"code": code, "name": name, "meaning": meaning, "reconnect": again}
            for code, name, meaning, again in CLOSE_CODES
        ],
    }


# Where `make run` serves: the server of the copy in docs/asyncapi.json.
DEFAULT_HOST = "127.0.0.1:8000"


def with_server(host: str = DEFAULT_HOST, secure: bool = False) -> dict[str, Any]:
    """The document with its `servers`: the one it was fetched from (AsyncAPI 3.0's Server
    Object: host and protocol; the channel's address is the path)."""
    doc = document()
    server = {
        "host": host,
        "protocol": "wss" if secure else "ws",
        "title": "This rummy server",
        "description": "The server this document was fetched from: its REST API "
        f"({'https' if secure else 'http'}://{host}/openapi.json) shares the schemas.",
    }
    channels = {
        name: {**channel, "servers": [{"$ref": "#/servers/this"}]}
        for name, channel in doc["channels"].items()
    }
    return {**doc, "servers": {"this": server}, "channels": channels}


@router.get("/asyncapi.json", include_in_schema=False)
async def get_asyncapi(request: Request) -> JSONResponse:
    """The AsyncAPI document of the websocket (like /openapi.json, not listed in it)."""
    secure = request.url.scheme in ("https", "wss")
    return JSONResponse(with_server(request.url.netloc or DEFAULT_HOST, secure))


if __name__ == "__main__":
    print(json.dumps(with_server(), indent=2, ensure_ascii=False))
