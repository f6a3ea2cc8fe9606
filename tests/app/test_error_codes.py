"""`error.code` is one closed set (docs/api.md, "Errors"): every code the server can send,
over REST or the websocket, is in the `ErrorCode` enum of /openapi.json and /asyncapi.json,
and the enum is exactly the codes docs/api.md's error table explains.

The codes the server can send are found two ways: every error class of `app` and `rules`
(their `code`), with the statuses app/main.py names, and every code written in the source
(`code = "..."`, `"code": "..."`), so a code added by hand anywhere is found too."""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

import app
import rules
from app.errors import AppError
from tests.kit.servers import LiveServer

ROOT = Path(__file__).resolve().parents[2]
API_DOC = ROOT / "docs" / "api.md"
_CODE = re.compile(r"^[a-z][a-z0-9_]*$")


def _subclasses(cls: type[Any]) -> Iterator[type[Any]]:
    sub: type[Any]
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def _written_codes(package: Path) -> set[str]:
    """Every string written as an error's code in the source of `package`."""
    found: set[str] = set()
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                named = any(isinstance(t, ast.Name) and t.id == "code" for t in targets)
                value = node.value
                if named and isinstance(value, ast.Constant) and isinstance(value.value, str):
                    found.add(value.value)
            elif isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values, strict=True):
                    if (
                        isinstance(key, ast.Constant)
                        and key.value == "code"
                        and isinstance(value, ast.Constant)
                        and isinstance(value.value, str)
                    ):
                        found.add(value.value)
    return found


def sent_codes() -> set[str]:
    """Every code the server can send."""
    for package in (app, rules):
        for module in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            importlib.import_module(module.name)
    from app.main import _STATUS_CODES

    classes: set[type[Any]] = {*_subclasses(AppError), *_subclasses(rules.IllegalMove)}
    classes.add(rules.IllegalMove)
    codes = {str(cls.code) for cls in classes} | set(_STATUS_CODES.values())
    codes |= _written_codes(ROOT / "app") | _written_codes(ROOT / "rules")
    return {c for c in codes if _CODE.match(c)}


def documented_codes() -> set[str]:
    """The codes of docs/api.md's error table: its rows' first cells."""
    text = API_DOC.read_text(encoding="utf-8")
    section = text.split("\n## Errors", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `([a-z0-9_]+)` \|", section, flags=re.M))


def _enum(document: dict[str, Any]) -> set[str]:
    return set(document["components"]["schemas"]["ErrorCode"]["enum"])


def test_every_code_the_server_sends_is_in_the_enum_and_the_docs(live_server: LiveServer) -> None:
    openapi = httpx.get(f"{live_server}/openapi.json").json()
    asyncapi = httpx.get(f"{live_server}/asyncapi.json").json()
    enum, sent = _enum(openapi), sent_codes()
    assert len(sent) > 30  # the walk found the codes
    assert _enum(asyncapi) == enum
    assert sent - enum == set(), "sent, but not in the ErrorCode enum"
    assert enum - documented_codes() == set(), "in the enum, but not in docs/api.md's table"
    assert documented_codes() - enum == set(), "in docs/api.md's table, but not in the enum"
