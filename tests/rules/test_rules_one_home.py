"""Every rule has one home, `rules/`: no other package keeps a rank-value table, a deck size,
a card codec or a meld check of its own (issue 12). The check reads the source: Python by
its syntax tree, the browser's JavaScript by pattern (comments and strings left out)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PY_DIRS = ("app", "bots", "bench")
RANK_LETTERS = set("A23456789TJQK")
# 52 cards, 53 codes, 106 in rummy51's pack: numbers only the rules may know.
PACK_NUMBERS = {52, 53, 106}
# Card ints are suit * 13 + rank - 1: arithmetic on 13 re-implements the codec or a meld check.
CARD_ARITHMETIC = (ast.Mult, ast.Mod, ast.FloorDiv)


# The log verifier re-deals from the published method on purpose, without the engine, so
# that a rigged shuffle in the engine cannot vouch for itself (its module doc).
INDEPENDENT = {"app/verify.py", "web/js/verify.js"}


def _py_files() -> list[Path]:
    files = (p for d in PY_DIRS for p in (ROOT / d).rglob("*.py"))
    return sorted(p for p in files if str(p.relative_to(ROOT)) not in INDEPENDENT)


def _copies_in_python(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[str] = []
    where = f"{path.relative_to(ROOT)}"
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Constant):
            if type(node.value) is int and node.value in PACK_NUMBERS:
                found.append(f"{where}:{line}: the pack number {node.value}")
            if isinstance(node.value, str) and "23456789T" in node.value:
                found.append(f"{where}:{line}: a rank order string")
        elif isinstance(node, ast.Dict):
            keys = {k.value for k in node.keys if isinstance(k, ast.Constant)}
            if len(keys & RANK_LETTERS) >= 5:
                found.append(f"{where}:{line}: a table keyed by rank")
        elif isinstance(node, ast.BinOp) and isinstance(node.op, CARD_ARITHMETIC):
            if any(isinstance(x, ast.Constant) and x.value == 13 for x in (node.left, node.right)):
                found.append(f"{where}:{line}: card arithmetic on 13")
        elif isinstance(node, ast.Name) and node.id in ("DECK_SIZE", "RANK_VALUE", "RANKS"):
            found.append(f"{where}:{line}: {node.id}")
    return found


def test_app_bots_and_bench_ask_rules_for_cards_values_decks_and_melds() -> None:
    found = [x for path in _py_files() for x in _copies_in_python(path)]
    assert found == []


def test_the_check_sees_a_copy() -> None:
    sample = ROOT / "bench" / "engine.py"
    tree_copy = sample.read_text(encoding="utf-8") + (
        '\nDECK = {"classic": 52}\nVALUE = {r: 1 for r in "A23456789TJQK"}\n'
        "POINTS = {'A': 1, '2': 2, '3': 3, '4': 4, 'K': 10}\n"
        "def is_run(c): return c % 13\n"
    )
    tmp = ROOT / ".one-home-sample.py"
    tmp.write_text(tree_copy, encoding="utf-8")
    try:
        kinds = " ".join(_copies_in_python(tmp))
    finally:
        tmp.unlink()
    for words in ("pack number 52", "rank order", "keyed by rank", "arithmetic on 13"):
        assert words in kinds


# ---- the browser ------------------------------------------------------------------------

JS_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
JS_STRING = re.compile(r"`(?:\\.|[^`\\])*`|\"(?:\\.|[^\"\\])*\"|'(?:\\.|[^'\\])*'")
# What web/js/helpers.js re-implemented: meld readings, lay-off fits, joker swaps.
JS_MELD_CHECKS = re.compile(
    r"\bfunction\s+(arrangeGroup|fitsMeld|fitsGroup|swapTarget|findMelds|runPositions|"
    r"isRun|isSet|validMeld)\b"
)
JS_PACK = re.compile(r"(?<![\w.])(52|53|106)(?![\w.])")
JS_RANK_TABLE = re.compile(r"\{\s*A\s*:\s*\d+\s*,\s*['\"]?2['\"]?\s*:")


def _copies_in_js() -> list[str]:
    found: list[str] = []
    for path in sorted((ROOT / "web" / "js").rglob("*.js")):
        if "lang" in path.parts or str(path.relative_to(ROOT)) in INDEPENDENT:
            continue  # translations are the rules in words for people
        raw = path.read_text(encoding="utf-8")
        code = JS_STRING.sub('""', JS_COMMENT.sub("", raw))
        where = path.relative_to(ROOT)
        found += [f"{where}: meld check {m.group(1)}" for m in JS_MELD_CHECKS.finditer(code)]
        found += [f"{where}: the pack number {m.group(1)}" for m in JS_PACK.finditer(code)]
        found += [f"{where}: a table keyed by rank" for _ in JS_RANK_TABLE.finditer(code)]
    return found


def test_the_browser_reads_legal_instead_of_checking_melds_itself() -> None:
    assert _copies_in_js() == []
