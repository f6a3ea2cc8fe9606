"""The server's shape stays what a newcomer can follow (issue 45): no import cycle among the
modules of app/ (type-only imports included), no module over 400 lines, no function over
60. app/persist/ is left out until its own restructuring lands (its sql <-> sqlite_writer
cycle and its 550-line sql.py are that work's)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LEFT_OUT = ("app.persist",)
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 60


def _modules() -> dict[str, Path]:
    found = {}
    for path in (ROOT / "app").rglob("*.py"):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        name = ".".join(parts)
        if not name.startswith(LEFT_OUT):
            found[name] = path
    return found


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The modules of `modules` that `name` imports, at run time or for types only."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            wanted = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*up, *([node.module] if node.module else [])])
            wanted = [base, *(f"{base}.{alias.name}" for alias in node.names)]
        else:
            continue
        for target in wanted:
            while target and target not in modules:
                target = target.rpartition(".")[0]
            # A module importing its own package's __init__ is no cycle of the code.
            if target and target != name and not name.startswith(target + "."):
                targets.add(target)
    return targets


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_app_has_no_import_cycle() -> None:
    modules = _modules()
    graph = {name: _imports(name, path, modules) for name, path in modules.items()}
    assert _cycles(graph) == []


def test_app_modules_and_functions_stay_small() -> None:
    too_long = []
    for path in _modules().values():
        text = path.read_text()
        where = path.relative_to(ROOT)
        if len(text.splitlines()) > MAX_MODULE_LINES:
            too_long.append(f"{where}: {len(text.splitlines())} lines")
        for node in ast.walk(ast.parse(text, str(path))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > MAX_FUNCTION_LINES:
                    too_long.append(f"{where}:{node.lineno} {node.name}: {lines} lines")
    assert too_long == []
