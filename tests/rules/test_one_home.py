"""Every rule has one home, `rules/`: no other package keeps a rank-value table, a deck size,
a card codec or a meld check of its own (issue 12), nor works out which card is next to which
in a run or where the ace goes (issue 45: `rules.runs`). The check reads the source: Python by
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
# Ranks a run's ends turn on: the ace (1), the queen and king below a high ace, the high ace.
RUN_END_RANKS = {1, 12, 13, 14}


# The log verifier re-deals from the published method on purpose, without the engine, so
# that a rigged shuffle in the engine cannot vouch for itself (its module doc; the re-deal
# itself lives in app/records/redeal.py since issue 53).
INDEPENDENT = {"app/records/verify.py", "app/records/redeal.py", "web/js/verify-deal.js"}


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
    return found + _run_rules_in_python(tree, where)


def _is_rank_call(node: ast.AST) -> bool:
    func = node.func if isinstance(node, ast.Call) else None
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    return name == "rank_of"


def _rank_names(scope: ast.AST) -> set[str]:
    """Names a scope binds to a card's rank (``r = rank_of(c)``, ``r, s = rank_of(c), ...``)."""
    names: set[str] = set()
    for node in ast.walk(scope):
        if not isinstance(node, ast.Assign):
            continue
        for target in node.targets:
            pairs = [(target, node.value)]
            if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
                pairs = list(zip(target.elts, node.value.elts, strict=False))
            names |= {t.id for t, v in pairs if isinstance(t, ast.Name) and _is_rank_call(v)}
    return names


def _run_rules_in_python(tree: ast.Module, where: str) -> list[str]:
    """Run adjacency or the ace's rank worked out by hand: rank arithmetic (``rank_of(c) + 1``,
    ``abs(rank_of(o) - r)``), a rank compared with a run's end (``rank == 1``, ``{r, 1} in
    ({1, 13},)``), the high ace's 14, card ints subtracted to find a neighbour (``abs(a - b)
    <= 2``)."""
    found: set[str] = set()
    functions: list[ast.AST] = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]
    scopes = functions or [tree]
    for scope in scopes:
        names = _rank_names(scope)

        def is_rank(node: ast.AST, names: set[str] = names) -> bool:
            return _is_rank_call(node) or (isinstance(node, ast.Name) and node.id in names)

        for node in ast.walk(scope):
            line = f"{where}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Constant) and type(node.value) is int and node.value == 14:
                found.add(f"{line}: the high ace's rank 14")
            elif isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
                if is_rank(node.left) or is_rank(node.right):
                    found.add(f"{line}: run adjacency by rank arithmetic")
            elif isinstance(node, ast.Compare):
                inside = list(ast.walk(node))
                ints = {v for side in (node.left, *node.comparators) for v in _literal_ints(side)}
                if any(map(is_rank, inside)) and ints & RUN_END_RANKS:
                    found.add(f"{line}: the ace's or a run end's rank compared by hand")
                if ints & {1, 2} and any(_is_abs_difference(n) for n in inside):
                    found.add(f"{line}: neighbours found by card distance")
    return sorted(found)


def _literal_ints(node: ast.AST) -> set[object]:
    """The ints a comparison's side spells out: a number, or the numbers of a literal set,
    tuple or list (of them); not an index such as ``cards[-1]``."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return {node.value}
    if isinstance(node, (ast.Set, ast.Tuple, ast.List)):
        return {v for elt in node.elts for v in _literal_ints(elt)}
    return set()


def _is_abs_difference(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call)
        and getattr(node.func, "id", None) == "abs"
        and len(node.args) == 1
        and isinstance(node.args[0], ast.BinOp)
        and isinstance(node.args[0].op, ast.Sub)
    )


def test_app_bots_and_bench_ask_rules_for_cards_values_decks_and_melds() -> None:
    found = [x for path in _py_files() for x in _copies_in_python(path)]
    assert found == []


def test_the_check_sees_a_copy() -> None:
    sample = ROOT / "bench" / "engine.py"
    tree_copy = sample.read_text(encoding="utf-8") + (
        '\nDECK = {"classic": 52}\nVALUE = {r: 1 for r in "A23456789TJQK"}\n'
        "POINTS = {'A': 1, '2': 2, '3': 3, '4': 4, 'K': 10}\n"
        "def is_run(c): return c % 13\n"
        "def near(c, o): return abs(fast.rank_of(o) - fast.rank_of(c)) <= 2\n"
        "def top(ace_high): return 14 if ace_high else 13\n"
        "def start(x):\n    r = rank_of(x)\n    return 1 if r == 1 else 0\n"
        "def close(a, b): return 1 <= abs(a - b) <= 2\n"
    )
    tmp = ROOT / ".one-home-sample.py"
    tmp.write_text(tree_copy, encoding="utf-8")
    try:
        kinds = " ".join(_copies_in_python(tmp))
    finally:
        tmp.unlink()
    for words in (
        "pack number 52",
        "rank order",
        "keyed by rank",
        "arithmetic on 13",
        "rank arithmetic",
        "rank 14",
        "compared by hand",
        "card distance",
    ):
        assert words in kinds, words


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
