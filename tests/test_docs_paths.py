"""The docs name only what a clone has: every project path that README.md and docs/ name
(`app/guards/http.py`, `scripts/services.sh`, a link to another doc) exists in the
repository, so a reader who follows one finds the file, and a module moved without its
docs fails here."""

from __future__ import annotations

import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# The folders a project path starts with: every top-level folder of the clone, but those
# that only a run makes (`data/`: .gitignore names them).
_MADE = {line.strip().strip("/") for line in (ROOT / ".gitignore").read_text().splitlines()}
TOP = sorted(
    p.name
    for p in ROOT.iterdir()
    if p.is_dir() and not p.name.startswith((".", "_")) and p.name not in _MADE
)
_PATH = re.compile(
    r"(?<![\w./@-])((?:\.\.?/)?(?:" + "|".join(map(re.escape, [*TOP, ".ci"])) + r")/[\w./-]*)"
)
# A path out of the clone (`docs/api.md`): a reader of the clone has none.
_OUTSIDE = re.compile(r"(?<![\w./-])(\.\./[\w./-]+)")
_LINK = re.compile(r"\]\(([^)\s]+)\)")
_BARE_DOC = re.compile(r"(?<![\w./-])([A-Za-z][\w-]*\.md)\b")


def named_paths(doc: Path) -> set[str]:
    """The project paths `doc` names: paths under a top-level folder, relative links,
    and bare file names of docs (each relative to the repository's root)."""
    text = doc.read_text(encoding="utf-8")
    found = {m.rstrip(".,:;") for m in _PATH.findall(text) + _OUTSIDE.findall(text)}
    for target in _LINK.findall(text):
        target = target.split("#")[0]
        if target and "://" not in target and not target.startswith("mailto:"):
            found.add(os.path.relpath((doc.parent / target).resolve(), ROOT))
    for name in _BARE_DOC.findall(text):
        found.add(name if (ROOT / name).exists() else f"docs/{name}")
    # A path with a placeholder or a wildcard names a pattern, not a file.
    return {p for p in found if not re.search(r"[*<>{}]|\.\.\.", p)}


def test_every_named_path_exists() -> None:
    missing = sorted(
        f"{doc.relative_to(ROOT)}: {path}"
        for doc in DOCS
        for path in named_paths(doc)
        if not (ROOT / path).exists()
    )
    assert missing == []


def test_the_finder_finds_paths() -> None:
    # The finder itself, on a page that names a file, a folder, a link and a bare doc.
    found = named_paths(ROOT / "README.md")
    assert {"scripts/system-packages.sh", "docs/architecture.md", "docs/api.md"} <= found
