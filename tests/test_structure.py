"""The shape of the code a newcomer reads: no import cycles in rules/, app/, bots/ and the
client's two packages (client/rummy_client, client/rummy_wire; every import counts, the
ones under TYPE_CHECKING and inside functions too, since a cycle of type hints is still two
modules that cannot be understood apart), no part importing what it must not, modules and
functions short enough to read, and every module named in docs/architecture.md, so the map
stays the territory. The benches (bench/) and the tests' helpers (every module under tests/
that is not a test_*.py: the kit, the conftest.py files) are code a newcomer reads too: the
same cycle and size rules hold for them, and no module under tests/ imports a test module:
what tests share lives in the kit (tests/kit/)."""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Each package, and the folder it lives in: the client's are a distribution of their own.
PACKAGES = {
    "rules": ROOT,
    "app": ROOT,
    "bots": ROOT,
    "rummy_client": ROOT / "client",
    "rummy_wire": ROOT / "client",
}
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 60


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package, home in PACKAGES.items():
        for path in sorted((home / package).rglob("*.py")):
            parts = list(path.relative_to(home).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


@functools.cache
def _parsed(path: Path) -> ast.Module:
    """A module's syntax tree, parsed once for every test here."""
    return ast.parse(path.read_text(encoding="utf-8"))


def _helper_modules() -> dict[str, Path]:
    """bench/'s modules and tests/' helpers, by their path from the root (`bench.load`,
    `tests.kit.ports`, `tests.app.conftest`)."""
    found: dict[str, Path] = {}
    for folder in ("bench", "tests"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path.name.startswith("test_"):
                continue
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _flat_homes(path: Path) -> list[str]:
    """Where a plain `import x` in a bench or a test helper at `path` may find a sibling:
    its own folder when that is no package (a script's folder is first on the path, as
    bench/ is), and tests/ when that is no package (the helpers there are on the path)."""
    if ROOT / "bench" not in path.parents and ROOT / "tests" not in path.parents:
        return []
    folders = [path.parent, ROOT / "tests"] if ROOT / "tests" in path.parents else [path.parent]
    return list(
        dict.fromkeys(
            ".".join(folder.relative_to(ROOT).parts)
            for folder in folders
            if not (folder / "__init__.py").exists()
        )
    )


def _imported(module: str, path: Path, known: dict[str, Path]) -> Iterator[str]:
    """Every project module that `module` imports, resolved to the longest known name; a
    plain import of a sibling (bench/'s `from servers import free_port`) to that sibling."""
    homes = (
        _flat_homes(path)
        if ROOT / "bench" in path.parents or ROOT / "tests" in path.parents
        else []
    )
    for name in _import_names(module, path):
        first = name.partition(".")[0]
        home = next((h for h in homes if f"{h}.{first}" in known), None)
        if home is not None:
            name = f"{home}.{name}"
        while name and name not in known:
            name = name.rpartition(".")[0]
        # A module importing its own package's __init__ is how packages work, not a cycle.
        if name and name != module and not module.startswith(name + "."):
            yield name


def _import_names(module: str, path: Path) -> Iterator[str]:
    """The dotted names `module` imports, relative imports made absolute."""
    is_package = path.name == "__init__.py"
    for node in ast.walk(_parsed(path)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = module.split(".") if is_package else module.split(".")[:-1]
            if node.level > 1:
                base = base[: len(base) - (node.level - 1)]
            prefix = ".".join(base + [node.module or ""]).strip(".") if node.level else node.module
            prefix = prefix or ""
            names = [prefix] + [f"{prefix}.{alias.name}" for alias in node.names]
        else:
            continue
        yield from names


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            child = next(edges, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    cycles.append(sorted(component))
    return cycles


def test_the_cycle_finder_finds_a_cycle() -> None:
    # The finder itself, on a graph with one cycle of three and a tail: it must see it.
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set()}
    assert import_cycles(graph) == [["a", "b", "c"]]


def test_no_import_cycles() -> None:
    modules = _modules()
    graph = {name: set(_imported(name, path, modules)) for name, path in modules.items()}
    assert import_cycles(graph) == []


def test_no_import_cycles_in_the_benches_and_the_tests_helpers() -> None:
    # One graph with the product's modules: a cycle through them counts too.
    modules = {**_modules(), **_helper_modules()}
    graph = {name: set(_imported(name, path, modules)) for name, path in modules.items()}
    assert import_cycles(graph) == []


def test_a_sibling_imported_plainly_is_an_edge() -> None:
    # bench/'s scripts import each other as top-level modules: the cycle test must see
    # those edges, or it would pass over every cycle among them.
    modules = _helper_modules()
    edges = set(_imported("bench.load", modules["bench.load"], {**_modules(), **modules}))
    assert {"bench.load_client", "bench.load_report"} <= edges


# What each part may not import (docs/architecture.md, "What may import what"): the wire's
# models import nothing of the project, the typed client nothing but them (it installs
# alone: pip install ./client), the game nothing of the server or the bots, the bots nothing
# of the server, the room service nothing of the drivers that act through its port, and
# nothing but the composition root the edge.
FORBIDDEN = {
    "rummy_wire": ("app", "bots", "rules", "rummy_client"),
    "rummy_client": ("app", "bots", "rules"),
    "rules": ("app", "bots", "rummy_client"),
    "bots": ("app",),
    "app.persist": ("app.rooms", "app.turns", "app.api", "app.social", "app.views"),
    "app.hub": ("app.rooms", "app.turns", "app.api", "app.social"),
    "app.views": ("app.rooms", "app.turns", "app.api", "app.social"),
    "app.rooms": ("app.turns", "app.api", "app.social"),
    "app.turns": ("app.api", "app.social"),
    "app.social": ("app.api", "app.turns"),
}


def _breaks(importer: str, imported: str) -> bool:
    for part, forbidden in FORBIDDEN.items():
        if importer == part or importer.startswith(part + "."):
            if any(imported == f or imported.startswith(f + ".") for f in forbidden):
                return True
    # The edge (routes, the websocket) is mounted by the composition root alone.
    edge = imported == "app.api" or imported.startswith("app.api.")
    return edge and not (importer in ("app.main",) or importer.startswith("app.api"))


def test_no_part_reaches_back_up() -> None:
    modules = _modules()
    wrong = sorted(
        f"{name} -> {target}"
        for name, path in modules.items()
        for target in _imported(name, path, modules)
        if _breaks(name, target)
    )
    assert wrong == []


def test_the_product_imports_no_bench_and_no_test_code() -> None:
    # What ships (rules, app, bots, the client) must run without bench/ and tests/: a store
    # that only tests use lives in tests/kit/, and nothing in the product reaches for it.
    modules = {**_modules(), **_helper_modules()}
    wrong = sorted(
        f"{name} -> {target}"
        for name, path in _modules().items()
        for target in _imported(name, path, modules)
        if target.partition(".")[0] in ("bench", "tests")
    )
    assert wrong == []


def _test_module_imports(tree: ast.Module) -> list[str]:
    """The imports in `tree` that reach into a test module: a module named test_* anywhere in
    the dotted path (`from tests.web.test_legal import create`, `from .test_play import X`,
    `import tests.app.test_errors`) or a test_* name taken from a package (`from tests.web
    import test_axe`), each as "line: the statement"."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            parts = [part for alias in node.names for part in alias.name.split(".")]
        elif isinstance(node, ast.ImportFrom):
            parts = (node.module or "").split(".") + [alias.name for alias in node.names]
        else:
            continue
        if any(part.startswith("test_") for part in parts):
            found.append(f"{node.lineno}: {ast.unparse(node)}")
    return sorted(found, key=lambda line: int(line.partition(":")[0]))


def test_the_test_import_finder_sees_every_form() -> None:
    sample = """
from tests.web.test_legal import create
from tests.web import test_axe
import tests.app.test_errors
from .test_play import MELDS
from tests.kit.rooms import online_room
import tests.kit.deals
from tests import testing
def body():
    from tests.app.rooms.test_play import play_out_hand
"""
    lines = [line.partition(":")[0] for line in _test_module_imports(ast.parse(sample))]
    assert lines == ["2", "3", "4", "5", "10"]


def test_no_module_under_tests_imports_a_test_module() -> None:
    # A test module that imports another ties the two files together (moving or renaming
    # one breaks the other, and collecting one runs the other's module code); what both
    # need belongs in the kit, tests/kit/ (its __init__ says what each module holds).
    found = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in sorted((ROOT / "tests").rglob("*.py"))
        for line in _test_module_imports(_parsed(path))
    ]
    assert found == []


def test_modules_and_functions_are_short() -> None:
    long_modules, long_functions = [], []
    for path in [*_modules().values(), *_helper_modules().values()]:
        lines = len(path.read_text(encoding="utf-8").splitlines())
        where = path.relative_to(ROOT)
        if lines > MAX_MODULE_LINES:
            long_modules.append(f"{where}: {lines}")
        for node in ast.walk(_parsed(path)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    long_functions.append(f"{where}:{node.lineno} {node.name}: {length}")
    assert long_modules == []
    assert long_functions == []


def test_architecture_names_every_module() -> None:
    """docs/architecture.md names each module by its path (`app/rooms/moves.py`), so a
    newcomer who opens a file can find what it is for, and a new module without a line
    there fails here."""
    doc = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    named = set(re.findall(r"[a-z_]+(?:/[a-z_]+)*/[a-z_0-9]+\.py", doc))
    missing = sorted(
        str(path.relative_to(ROOT))
        for path in _modules().values()
        if str(path.relative_to(ROOT)) not in named and path.name != "__init__.py"
    )
    assert missing == []
