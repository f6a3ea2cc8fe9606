"""No rules in the browser (issue 45): web/js draws what the server sends. It applies no
move (a replay's steps come from `rules.replay_steps` on the server), invents no meld id,
and plans no hint of its own: a hint comes from GET /hint or the page says it has none.

The checks read web/js by pattern, beside tests/rules/test_one_home.py (which keeps
rank tables and meld checks out); a sample of what the page once did shows they see it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.async_api import expect

from tests.kit.rooms import computer_room

ROOT = Path(__file__).resolve().parents[2]
JS_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
# A module that reads which kind of move it holds ...
MOVE_KIND = re.compile(
    r"""\.type\s*===?\s*["'](?:draw|meld|layoff|swap|discard)["']"""
    r"""|case\s+["'](?:draw|meld|layoff|swap|discard)["']"""
)
# ... and takes cards out of a hand or a pile, or puts them on one, applies moves.
MOVES_CARDS = re.compile(
    r"\.splice\(\s*[^,()]+,\s*1\s*\)"
    r"|\b\w*(?:stock|discard|pile|hand)\w*\.(?:shift|pop|unshift)\("
    r"|\b\w*(?:discard|pile|hand)\w*\.push\("
)
# A meld id made up in the page ("m" and a count): only the server numbers melds.
MELD_ID = re.compile(r"`m\$\{")
# A hint is the server's (hintServer) or none (hintFailed): any other hint key is a planner.
HINT_KEY = re.compile(r"""key:\s*["'](hint\w*)["']""")
PLANNER = re.compile(r"\bexport\s+(?:async\s+)?function\s+(\w*(?:suggest|plan|best)\w*)", re.I)

SAMPLE = """
function removeCards(hand, cards) { const i = hand.indexOf(c); if (i >= 0) hand.splice(i, 1); }
export function buildReplay(log) {
  if (move.type === "draw") { const card = state.discard.pop(); hand.push(card); }
  state.melds.push({ id: `m${state.melds.length + 1}`, cards });
}
export function suggest(view) { return { key: "hintMeld", params: {}, cards }; }
"""


def _rules_in(name: str, raw: str) -> list[str]:
    code = JS_COMMENT.sub("", raw)
    found = []
    if MOVE_KIND.search(code):
        found += [f"{name}: applies a move ({m.group(0)})" for m in MOVES_CARDS.finditer(code)]
    found += [f"{name}: makes up a meld id" for _ in MELD_ID.finditer(code)]
    found += [
        f"{name}: plans a hint ({m.group(1)})"
        for m in HINT_KEY.finditer(code)
        if m.group(1) not in ("hintServer", "hintFailed")
    ]
    found += [f"{name}: plans a hint ({m.group(1)})" for m in PLANNER.finditer(code)]
    return found


def test_the_page_applies_no_move_and_plans_no_hint() -> None:
    found = []
    for path in sorted((ROOT / "web" / "js").rglob("*.js")):
        if "lang" not in path.parts:
            found += _rules_in(str(path.relative_to(ROOT)), path.read_text(encoding="utf-8"))
    assert found == []


def test_the_check_sees_what_the_page_once_did() -> None:
    kinds = " ".join(_rules_in("sample.js", SAMPLE))
    assert "applies a move (.splice(i, 1))" in kinds
    assert "applies a move (discard.pop(" in kinds
    assert "makes up a meld id" in kinds
    assert "plans a hint (hintMeld)" in kinds and "plans a hint (suggest)" in kinds


@pytest.mark.browser
async def test_a_failed_hint_says_so(pages, http) -> None:
    created = await computer_room(http, [["7H", "8H", "9H"], []], ["4C"], ["2D"])
    page = await pages.page(path=None)
    await page.route("**/hint?*", lambda route: route.fulfill(status=503, body="{}"))
    await page.goto(f"/r/{created['room']}#seat={created['token']}")
    await page.get_by_role("button", name="Tip", exact=True).click()
    await expect(page.locator("#hint")).to_contain_text(
        "er is nu geen tip te krijgen; probeer het zo nog eens."
    )
    await expect(page.locator('[data-action="take-hint"]')).to_have_count(0)
