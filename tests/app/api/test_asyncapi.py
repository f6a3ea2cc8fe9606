"""The websocket's AsyncAPI document (/asyncapi.json, docs/asyncapi.json) against what the
server really sends: a whole hand of each variant, a seat's socket and a spectator's, every
frame validated by `jsonschema` against the document's schemas."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from random import Random
from typing import Any

import httpx
import jsonschema  # type: ignore[import-untyped]
import pytest
from websockets.asyncio.client import connect

import bots
from app.api.asyncapi import asyncapi_form
from bots.client import to_view
from rules import legal_moves, move_to_json
from tests.kit.clients import Socket
from tests.kit.servers import LiveServer

DOCS = Path(__file__).resolve().parents[3] / "docs" / "asyncapi.json"


@pytest.fixture(scope="module")
def asyncapi(live_server: LiveServer) -> dict[str, Any]:
    answer = httpx.get(f"{live_server}/asyncapi.json", timeout=30)
    assert answer.status_code == 200
    document: dict[str, Any] = answer.json()
    return document


def _validator(document: dict[str, Any], action: str) -> jsonschema.Draft202012Validator:
    """A validator of every frame of the operation `action` ("send": the server's frames)."""
    [operation] = [o for o in document["operations"].values() if o["action"] == action]
    payloads = []
    for ref in operation["messages"]:
        name = ref["$ref"].rsplit("/", 1)[-1]
        payloads.append(document["components"]["messages"][name]["payload"])
    # The document is the root, so the payloads' "#/components/schemas/..." resolve in it.
    schema = {**document, "oneOf": payloads}
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def test_the_document_is_asyncapi_3_with_every_frame(asyncapi: dict[str, Any]) -> None:
    assert asyncapi["asyncapi"] == "3.0.0"
    [channel] = asyncapi["channels"].values()
    assert channel["address"] == "/api/rooms/{room}/ws"
    sent = {o["action"]: o for o in asyncapi["operations"].values()}
    names = {
        action: {
            asyncapi["components"]["messages"][m["$ref"].rsplit("/", 1)[-1]]["name"]
            for m in sent[action]["messages"]
        }
        for action in sent
    }
    assert names == {
        "send": {"state", "presence", "error", "pong", "chat", "rematch"},
        "receive": {"auth", "move", "vote", "ping", "chat"},
    }
    codes = {c["code"]: c for c in asyncapi["x-close-codes"]}
    for code in (4401, 4403, 4409, 4410, 4429, 1007, 1009, 1011, 1013):
        assert codes[code]["meaning"], code
    assert not codes[4401]["reconnect"] and codes[4409]["reconnect"]
    assert "Reconnecting" in asyncapi["info"]["description"]


def test_it_shares_the_openapi_schemas(live_server: LiveServer, asyncapi: dict[str, Any]) -> None:
    openapi = httpx.get(f"{live_server}/openapi.json", timeout=30).json()["components"]["schemas"]
    mine = asyncapi["components"]["schemas"]
    shared = set(mine) & set(openapi)
    assert {"RoomView", "WatchView", "SeatInfo", "Draw", "LayOff", "End", "ErrorDetail"} <= shared
    assert {name for name in shared if mine[name] != asyncapi_form(openapi[name])} == set()
    # Only the discriminators' form differs (AsyncAPI's is the tag's name).
    assert mine["LastMove"]["properties"]["move"]["discriminator"] == "type"
    assert {n for n in shared if mine[n] != openapi[n]} == {"LastMove"}


def test_the_docs_copy_is_the_served_one(live_server: LiveServer, asyncapi: dict[str, Any]) -> None:
    # Made with `python -m app.api.asyncapi > docs/asyncapi.json`: the same document, but
    # for its server, which `make run`'s address stands for.
    copy = json.loads(DOCS.read_text())
    assert copy["servers"]["this"]["host"] == "127.0.0.1:8000"
    served = asyncapi["servers"]["this"]
    assert served["host"] == live_server.removeprefix("http://") and served["protocol"] == "ws"
    assert {**copy, "servers": asyncapi["servers"]} == asyncapi
    [channel] = asyncapi["channels"].values()
    assert channel["servers"] == [{"$ref": "#/servers/this"}]


def test_client_frames_of_api_md_validate(asyncapi: dict[str, Any]) -> None:
    client = _validator(asyncapi, "receive")
    server = _validator(asyncapi, "send")
    for frame in (
        {"type": "auth", "token": "t"},
        {"type": "move", "move": {"type": "draw", "source": "stock"}, "version": 3},
        {"type": "vote", "vote": "next_hand"},
        {"type": "ping"},
        {"type": "chat", "text": "gg"},
    ):
        client.validate(frame)
    # docs/api.md v1.2's chat and rematch frames, which other branches send.
    message = {"id": 1, "seat": 0, "name": "Ann", "text": "hi", "at": "2026-12-06T20:00:00Z"}
    server.validate({"type": "chat", "message": message})
    server.validate({"type": "rematch", "room": "AbCdEfGhIjK"})
    with pytest.raises(jsonschema.ValidationError):
        client.validate({"type": "move", "move": {"type": "draw"}, "version": 3})


@pytest.mark.parametrize("variant", ["classic", "basic", "rummy51"])
async def test_every_frame_of_a_hand_is_as_the_document_says(
    live_server: LiveServer, asyncapi: dict[str, Any], variant: str
) -> None:
    validator = _validator(asyncapi, "send")
    async with httpx.AsyncClient(base_url=live_server, timeout=30) as http:
        created = await http.post(
            "/api/rooms",
            # A fixed deal: with a random one, seat 0 now and then goes rummy on its first
            # turn (about 1 in 4,000 in rummy51), and the bot's frames are never seen.
            json={
                "variant": variant,
                "players": 2,
                "mode": "computer",
                "bots": {"1": "medium"},
                "seed": 7,
            },
        )
    assert created.status_code == 201, created.text
    room, token = created.json()["room"], created.json()["token"]
    url = f"{live_server.ws_url}/api/rooms/{room}/ws"
    async with connect(url) as raw_seat, connect(url + "?watch=1") as raw_watch:
        seat, watch = Socket(raw_seat), Socket(raw_watch)
        await seat.send({"type": "auth", "token": token})
        await seat.send({"type": "ping"})
        await _play_a_hand(seat)
        await watch.until(lambda f: f["type"] == "state" and f["state"]["hand_result"])
    frames = seat.frames + watch.frames
    kinds = {f["type"] for f in frames}
    assert {"state", "presence", "pong", "error"} <= kinds, kinds
    for frame in frames:
        validator.validate(frame)
    views = [f["state"] for f in seat.frames if f["type"] == "state"]
    movers = [v["last_move"]["seat"] for v in views if v["last_move"]]
    assert 1 in movers, (movers, views[-1]["hand_result"])
    assert views[-1]["hand_result"] is not None


async def _play_a_hand(seat: Socket) -> None:
    """Seat 0 plays the medium bot's moves until the hand ends; one refused move on the way,
    for an error frame."""
    strategy, rng = bots.get_strategy("medium"), Random(1)
    refused = False
    acted: set[int] = set()
    async with asyncio.timeout(240):
        while True:
            frame = await seat.until(lambda f: f["type"] == "state")
            state = frame["state"]
            if state["hand_result"] is not None:
                return
            if state["turn"] != state["seat"] or state["phase"] not in ("draw", "play"):
                continue
            version = state["version"]
            if version in acted:
                continue  # the same view again (presence changed): already answered
            if not refused:
                refused = True
                await seat.send({"type": "move", "move": {"type": "swap"}, "version": version})
                await seat.until(lambda f: f["type"] == "error")
                continue  # the current state follows the error
            view = to_view(state)
            move = strategy.choose(view, list(legal_moves(view)), rng)
            acted.add(version)
            await seat.send({"type": "move", "move": move_to_json(move), "version": version})
