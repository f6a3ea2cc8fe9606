"""The OpenAPI document a client generator reads, from a live server: operation ids that read
as verbs, and schemas exact enough that a generated client needs no type checks."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

import rules
from tests.kit.openapi import OPERATIONS
from tests.kit.servers import LiveServer


@pytest.fixture(scope="module")
def openapi(live_server: LiveServer) -> dict[str, Any]:
    answer = httpx.get(f"{live_server}/openapi.json", timeout=30)
    assert answer.status_code == 200
    document: dict[str, Any] = answer.json()
    return document


def _schemas(openapi: dict[str, Any]) -> dict[str, Any]:
    schemas: dict[str, Any] = openapi["components"]["schemas"]
    return schemas


def test_operation_ids_are_the_verbs_a_person_would_write(openapi: dict[str, Any]) -> None:
    found = {
        (method, path): operation["operationId"]
        for path, methods in openapi["paths"].items()
        for method, operation in methods.items()
    }
    assert found == OPERATIONS


def test_every_answer_is_declared_with_a_schema(openapi: dict[str, Any]) -> None:
    # openapi-python-client types an answer without content as `Any`.
    for path, methods in openapi["paths"].items():
        for method, operation in methods.items():
            for status, answer in operation["responses"].items():
                content = answer.get("content")
                assert content, (method, path, status)
                for media in content.values():
                    assert media.get("schema"), (method, path, status)


def test_the_minimal_move_answer_is_declared(openapi: dict[str, Any]) -> None:
    minimal = openapi["paths"]["/api/rooms/{room}/moves"]["post"]["responses"]["204"]
    assert set(minimal["headers"]) == {
        "Rummy-Version",
        "Preference-Applied",
        "RateLimit",
        "RateLimit-Policy",
    }
    assert minimal["content"] == {"text/plain": {"schema": {"type": "string", "maxLength": 0}}}


def test_no_schema_leaves_a_value_untyped(openapi: dict[str, Any]) -> None:
    # A property or item without a type, a $ref or a union is `Any` to a generator.
    untyped: list[str] = []

    def visit(node: Any, where: str) -> None:
        if isinstance(node, dict):
            for key in ("properties", "$defs"):
                for name, sub in node.get(key, {}).items():
                    check(sub, f"{where}.{name}")
            if isinstance(node.get("items"), dict):
                check(node["items"], f"{where}[]")
            if isinstance(node.get("additionalProperties"), dict):
                check(node["additionalProperties"], f"{where}{{}}")
            for value in node.values():
                visit(value, where)
        elif isinstance(node, list):
            for value in node:
                visit(value, where)

    def check(schema: dict[str, Any], where: str) -> None:
        if not ({"type", "$ref", "anyOf", "oneOf", "allOf", "const", "enum"} & set(schema)):
            untyped.append(where)

    for name, schema in _schemas(openapi).items():
        visit(schema, name)
    assert untyped == []


def test_last_move_is_the_moves_union(openapi: dict[str, Any]) -> None:
    move = _schemas(openapi)["LastMove"]["properties"]["move"]
    assert move["discriminator"]["propertyName"] == "type"
    mapping = move["discriminator"]["mapping"]
    assert set(mapping) == {"draw", "meld", "layoff", "swap", "discard"}
    assert mapping["draw"] == "#/components/schemas/ShownDraw"
    assert {k: v for k, v in mapping.items() if k != "draw"} == {
        k: v
        for k, v in _schemas(openapi)["MoveRequest"]["properties"]["move"]["discriminator"][
            "mapping"
        ].items()
        if k != "draw"
    }
    # The tag must be sent: required although the models give it a default.
    for name in ("Draw", "ShownDraw", "Meld", "LayOff", "Swap", "Discard"):
        assert _schemas(openapi)[name]["required"][0] == "type", name


def test_one_end_enum_and_named_enums(openapi: dict[str, Any]) -> None:
    schemas = _schemas(openapi)
    text = json.dumps(schemas)
    assert schemas["End"] == {"type": "string", "enum": ["low", "high"]}
    assert '"enum": ["low", "high"]' not in text.replace(json.dumps(schemas["End"]), "", 1)
    for where in (schemas["LayOff"], schemas["LegalLayoff"]):
        assert where["properties"]["end"]["anyOf"][0] == {"$ref": "#/components/schemas/End"}
    assert set(schemas["VariantName"]["enum"]) == set(rules.VARIANTS)
    create = schemas["CreateRoomRequest"]["properties"]
    assert create["variant"]["$ref"] == "#/components/schemas/VariantName"
    assert create["mode"]["$ref"] == "#/components/schemas/Mode"
    assert create["bots"]["additionalProperties"] == {"$ref": "#/components/schemas/BotName"}
    assert schemas["RoomView"]["properties"]["variant"] == {
        "$ref": "#/components/schemas/VariantName"
    }


def test_bot_names_are_the_bots(openapi: dict[str, Any]) -> None:
    import bots

    schemas = _schemas(openapi)
    assert set(schemas["BotName"]["enum"]) == {*bots.STRATEGY_NAMES, *bots.LEVELS}
    assert set(schemas["BotLevel"]["enum"]) == set(bots.LEVELS)


def test_what_every_view_carries_is_required(openapi: dict[str, Any]) -> None:
    schemas = _schemas(openapi)
    for name in ("RoomView", "WatchView"):
        view = schemas[name]
        assert set(view["required"]) == set(view["properties"]), name
    for name in ("SeatInfo", "Votes", "Legal", "RoomOptions", "CreatedRoom"):
        assert set(schemas[name]["required"]) == set(schemas[name]["properties"]), name


def test_request_bodies_have_examples_the_schema_accepts(openapi: dict[str, Any]) -> None:
    from rummy_wire import requests

    for name in ("CreateRoomRequest", "JoinRequest", "MoveRequest", "VoteRequest"):
        examples = _schemas(openapi)[name]["examples"]
        assert examples, name
        for example in examples:
            getattr(requests, name).model_validate(example)  # raises when one is wrong
    assert _schemas(openapi)["StandInRequest"]["examples"] == [{"seat": 1}]


def test_the_server_takes_the_example_rooms(
    live_server: LiveServer, openapi: dict[str, Any]
) -> None:
    # Valid for the schema is not enough: classic seats two, so "players": 3 is refused.
    for example in _schemas(openapi)["CreateRoomRequest"]["examples"]:
        created = httpx.post(f"{live_server}/api/rooms", json=example, timeout=30)
        assert created.status_code == 201, (example, created.text)
        joined = httpx.post(f"{live_server}/api/rooms/{created.json()['room']}/join", json={})
        assert joined.status_code in (201, 409), joined.text  # 409: a computer room is full


def test_post_move_says_that_bot_turns_follow(openapi: dict[str, Any]) -> None:
    text = openapi["paths"]["/api/rooms/{room}/moves"]["post"]["description"]
    assert "computer, stand-in or timer turn" in text and "more than one" in text


def test_an_integer_is_a_json_integer(live_server: LiveServer) -> None:
    # JSON Schema's "integer" takes 60.0; true and "60" are no numbers.
    def create(turn_seconds: object) -> int:
        body = {"variant": "basic", "players": 2, "turn_seconds": turn_seconds}
        return httpx.post(f"{live_server}/api/rooms", json=body, timeout=30).status_code

    assert create(60.0) == 201
    assert [create(bad) for bad in (True, "60", 60.5, 601.0)] == [422] * 4


def _enums(node: Any, where: str = "") -> Iterator[tuple[str, tuple[Any, ...]]]:
    if isinstance(node, dict):
        if "enum" in node:
            yield where, tuple(sorted(map(str, node["enum"])))
        for key, sub in node.items():
            yield from _enums(sub, f"{where}.{key}")
    elif isinstance(node, list):
        for i, sub in enumerate(node):
            yield from _enums(sub, f"{where}[{i}]")


def test_one_enum_per_concept(openapi: dict[str, Any]) -> None:
    """A closed set of names is one named component, referred to wherever it is used: a
    generated client gets one enum type for `variant`, `phase`, `mode`, a bot's level, a
    draw's source, a vote and an error code, not one per field (docs/api.md)."""
    schemas = openapi["components"]["schemas"]
    named = {
        "VariantName",
        "Phase",
        "Mode",
        "BotName",
        "BotLevel",
        "DrawSource",
        "VoteKind",
        "ErrorCode",
        "End",
        "RoomStatus",
    }
    assert named <= set(schemas)
    seen: dict[tuple[Any, ...], list[str]] = {}
    for where, values in _enums(schemas):
        seen.setdefault(values, []).append(where)
    assert {v: w for v, w in seen.items() if len(w) > 1} == {}
    text = json.dumps(schemas)
    for field, enum in (("variant", "VariantName"), ("phase", "Phase"), ("mode", "Mode")):
        found = re.findall(rf'"{field}": (\{{[^{{}}]*\}})', text)
        assert found and all(enum in f for f in found), (field, found)


def test_every_operation_has_a_readable_summary(openapi: dict[str, Any]) -> None:
    for path, methods in openapi["paths"].items():
        for method, operation in methods.items():
            name = operation["operationId"]
            summary = operation["summary"]
            assert summary != name.replace("_", " ").title(), (method, path)
            assert summary[0].isupper() and not summary.endswith("."), summary


def test_the_error_code_is_one_closed_enum(openapi: dict[str, Any]) -> None:
    detail = openapi["components"]["schemas"]["ErrorDetail"]
    assert detail["properties"]["code"] == {"$ref": "#/components/schemas/ErrorCode"}
    codes = openapi["components"]["schemas"]["ErrorCode"]["enum"]
    assert "stale_version" in codes and "unsupported_media_type" in codes


def test_descriptions_point_to_the_contract_in_the_repo(live_server: LiveServer) -> None:
    """Every description in both documents that names the contract names the one a clone
    has, docs/api.md, never the docs/api.md a clone does not have."""
    for document in ("openapi.json", "asyncapi.json"):
        text = httpx.get(f"{live_server}/{document}").text
        assert "docs/api.md" not in text.replace("docs/api.md", ""), document
