"""No import cycles in `rules/` or `bots/` (issue 45): every import counts, those under
`if TYPE_CHECKING:` and inside functions included, so each package reads bottom-up."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("rules", "bots")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(source: str, module: str, is_package: bool) -> set[str]:
    """Every module name an import statement of `source` names (relative ones resolved)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = module.split(".")[: None if is_package else -1]
                parent = parent[: len(parent) - node.level + 1]
                base = ".".join([*parent, *([node.module] if node.module else [])])
            out.add(base)
            out |= {f"{base}.{a.name}" for a in node.names}
    return out


def import_graph(sources: dict[str, tuple[str, bool]]) -> dict[str, set[str]]:
    """module -> the modules of `sources` it imports (a package's own parents left out)."""
    graph: dict[str, set[str]] = {m: set() for m in sources}
    for module, (source, is_package) in sources.items():
        for name in _imports(source, module, is_package):
            while name and name not in sources:
                name = name.rpartition(".")[0]
            if name and name != module and not module.startswith(name + "."):
                graph[module].add(name)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = [stack.pop()]
            while part[-1] != v:
                part.append(stack.pop())
            if len(part) > 1:
                found.append(sorted(part))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def _sources() -> dict[str, tuple[str, bool]]:
    files = (p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py"))
    return {
        _module_name(p): (p.read_text(encoding="utf-8"), p.name == "__init__.py") for p in files
    }


def test_rules_and_bots_have_no_import_cycles() -> None:
    assert cycles(import_graph(_sources())) == []


def test_the_check_sees_a_type_only_cycle() -> None:
    sources = _sources()
    legal, _ = sources["rules.legal"]
    view, _ = sources["rules.view"]
    # rules.legal imports rules.view; a type-only import back closes a cycle.
    sources["rules.view"] = (
        view
        + "\nfrom typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from rules import legal\n",
        False,
    )
    assert "rules.view" in legal
    assert ["rules.legal", "rules.view"] in cycles(import_graph(sources))
