"""Odd input for the hostile tests (tests/hostile/test_odd_strings.py): the strings that
break Python where schemathesis's random ones do not (digits that are not ASCII, NUL, a lone
surrogate, bidi and zero-width marks, 5,000 characters, "NaN", a path, markup), the places of
a request /openapi.json names (every parameter, the token, every leaf and map key of a body,
every property its schema names), how a request goes out byte for byte, and what in an
answer breaks the promise of docs/api.md ("Errors")."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx

from tests.kit.openapi import app_schema

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


def wire(value: Any) -> str:
    """JSON with ASCII escapes: a lone surrogate goes out as the text `\\ud800`."""
    return json.dumps(value)


def url_part(text: str) -> str:
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


SCHEMA = app_schema()


OPS = {
    op["operationId"]: (method, path, op)
    for path, ops in SCHEMA["paths"].items()
    for method, op in ops.items()
}


def resolve(schema: Any, value: Any) -> dict[str, Any]:
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
        fits = [b for b in branches if resolve(b, None).get("type") == kind] or branches
        if kind == "object":  # the object branch whose properties the value uses most
            fits.sort(key=lambda b: -len(set(value) & set(resolve(b, None).get("properties", {}))))
        schema = fits[0]
    return {}


def body_places(value: Any, schema: Any, path: Path_ = ()) -> Iterator[tuple[str, Path_]]:
    """("set", path) for every leaf, ("key", path) for every key of a map, ("add", path) for
    every property the schema names that the value leaves out; of a list, its first item, or
    its first and last when they are objects (a record's moves; a deal's 52 cards are alike)."""
    schema = resolve(schema, value)
    if isinstance(value, dict):
        props = schema.get("properties", {})
        extra = schema.get("additionalProperties")
        for key, item in value.items():
            if key not in props and isinstance(extra, dict):
                yield "key", (*path, key)
            yield from body_places(item, props.get(key, extra), (*path, key))
        for key in props:
            if key not in value:
                yield "add", (*path, key)
    elif isinstance(value, list) and value:
        items = schema.get("items")
        # Objects (a record's moves: a draw first, a discard last) differ; cards are alike.
        ends = {0, len(value) - 1} if isinstance(value[0], dict) else {0}
        for i in sorted(ends):
            yield from body_places(value[i], items, (*path, i))
    elif isinstance(value, str) or len(path) <= 2:
        # Every string; of the other leaves, the body's own and its objects' (players,
        # version, seat), not a record's every number.
        yield "set", path


def put_odd(body: Any, how: str, path: Path_, odd: str) -> Any:
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


def places_of(
    op_id: str, first: Req, req: Req, index: int
) -> Iterator[tuple[str, Callable[[str], Req]]]:
    """Every place of `req` (the op's base number `index`) an odd string can go, named."""
    _, _, op = OPS[op_id]
    if index == 0:
        for param in op.get("parameters", []):
            part = {"path": "params", "query": "query", "header": "headers"}[param["in"]]
            yield f"{param['in']} {param['name']}", in_param(first, part, param["name"])
        if any("HTTPBearer" in s for s in op.get("security", [])):
            yield "bearer token", in_param(first, "token", "")
    content = op.get("requestBody", {}).get("content", {}).get("application/json", {})
    if req.body is not None:
        for how, path in body_places(req.body, content.get("schema")):
            yield f"body {how} {'/'.join(map(str, path))}", in_body(req, how, path)


def in_param(req: Req, part: str, name: str) -> Callable[[str], Req]:
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


def in_body(req: Req, how: str, path: Path_) -> Callable[[str], Req]:
    return lambda odd: replace(req, body=put_odd(req.body, how, path, odd))


def in_frame(frame: Any, how: str, path: Path_) -> Callable[[str], Any]:
    return lambda odd: put_odd(frame, how, path, odd)


async def send(http: httpx.AsyncClient, req: Req) -> httpx.Response | None:
    """Send `req` as bytes on the wire; None when the client itself refuses (a NUL in a
    header)."""
    path = req.path
    for name, value in req.params.items():
        path = path.replace("{" + name + "}", url_part(value))
    if req.query:
        path += "?" + "&".join(f"{k}={url_part(v)}" for k, v in req.query.items())
    headers = {k.encode(): v.encode("utf-8", "surrogatepass") for k, v in req.headers.items()}
    if req.token is not None:
        headers[b"authorization"] = b"Bearer " + req.token.encode("utf-8", "surrogatepass")
    content = None
    if req.body is not None:
        content = wire(req.body).encode()
        headers[b"content-type"] = b"application/json"
    try:
        return await http.request(req.method.upper(), path, content=content, headers=headers)
    except httpx.LocalProtocolError:
        return None


def broken_promise(response: httpx.Response) -> str | None:
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
