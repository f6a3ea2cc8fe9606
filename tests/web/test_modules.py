"""The page's modules, read as files (no browser): web/README.md names each one, so a
newcomer who opens `web/js/x.js` can find what it holds and a new module without a line
there fails here (as tests/test_structure.py does for docs/architecture.md); the modules
import one another without a cycle; and state lives in the store (web/js/store.js), not in
module-level variables, but for the few handles listed here."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
WEB = ROOT / "web"
JS = WEB / "js"
# A static import (`from "./store.js"`, `import "./x.js"`) or a dynamic one (`import("./x.js")`).
IMPORT = re.compile(r"""(?:\bfrom\s*|\bimport\s*\(?\s*)["'](\.{1,2}/[^"']+\.js)["']""")
# Module-level variables that are allowed, each a handle or a cache that nothing draws.
HANDLES = {
    ("main.js", "socket"),  # the room's open websocket, closed when the page takes another seat
    ("cues.js", "audio"),  # the AudioContext, made on the first cue
    ("i18n.js", "current"),  # the language t() speaks; the switch sets it and keeps the choice
    ("store.js", "nextId"),  # the counter naming a card's slot
    ("i18n.js", "LANGS"),  # the strings of each language once fetched
}
TOP_STATE = re.compile(
    r"^(?:let|var)\s+(\w+)|^const\s+(\w+)\s*=\s*(?:new\s+(?:Map|Set|WeakMap)\b|\{\s*\}|\[\s*\])",
    re.M,
)


def _modules() -> list[str]:
    return sorted(str(p.relative_to(WEB)) for p in JS.rglob("*.js"))


def test_the_readme_names_every_module() -> None:
    named = set(re.findall(r"`(js/[a-z0-9/_-]+\.js)`", (WEB / "README.md").read_text("utf-8")))
    modules = set(_modules())
    assert sorted(modules - named) == [], "modules without a line in web/README.md"
    assert sorted(named - modules) == [], "web/README.md names modules that are not there"


def _imports(module: str) -> set[str]:
    path = WEB / module
    found = set()
    for target in IMPORT.findall(path.read_text("utf-8")):
        found.add(str((path.parent / target).resolve().relative_to(WEB)))
    return found


def test_the_modules_import_one_another_without_a_cycle() -> None:
    graph = {m: _imports(m) for m in _modules()}
    assert all(t in graph for targets in graph.values() for t in targets)
    done: set[str] = set()
    cycles: list[list[str]] = []

    def visit(module: str, path: list[str]) -> None:
        if module in path:
            cycles.append([*path[path.index(module) :], module])
            return
        if module in done:
            return
        for target in sorted(graph[module]):
            visit(target, [*path, module])
        done.add(module)

    for module in graph:
        visit(module, [])
    assert cycles == []


def test_state_lives_in_the_store() -> None:
    found = set()
    for path in JS.rglob("*.js"):
        for match in TOP_STATE.finditer(path.read_text("utf-8")):
            found.add((path.name, match.group(1) or match.group(2)))
    assert sorted(found - HANDLES) == [], "module-level state: put it in a part of the store"
    assert sorted(HANDLES - found) == [], "a handle listed here is gone: take it off the list"
