"""rules/ stays pure: no I/O frameworks, no app code, no global randomness or clock."""

from __future__ import annotations

import ast
from pathlib import Path

import rules

FORBIDDEN = {"app", "bots", "fastapi", "sqlalchemy", "httpx", "websockets", "random",
             "secrets", "time", "datetime", "os", "socket", "asyncio"}  # fmt: skip


def test_rules_imports_nothing_impure() -> None:
    root = Path(rules.__file__).parent
    seen: dict[str, set[str]] = {}
    for path in sorted(root.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names = [node.module]
            else:
                continue
            for name in names:
                seen.setdefault(name.split(".")[0], set()).add(path.name)
    assert "pydantic" in seen and "hashlib" in seen  # the walk found the imports
    bad = {name: files for name, files in seen.items() if name in FORBIDDEN}
    assert bad == {}
