"""The table helpers' presentation arithmetic, run as the page runs it: ES modules in Chromium,
with the rule switches the server publishes at GET /api/variants."""

from __future__ import annotations

import pytest
from playwright.async_api import expect

pytestmark = pytest.mark.browser

SCRIPT = """
async () => {
  const h = await import("/web/js/helpers.js");
  const { store } = await import("/web/js/store.js");
  const r51 = store.rules("rummy51");
  const classic = store.rules("classic");
  const run = (cards) => ({ id: "m1", kind: "run", cards, stands_for: cards });
  const set = (cards) => ({ id: "m2", kind: "set", cards, stands_for: cards });
  const view = {
    seat: 0, turn: 0, phase: "draw", variant: "classic", hand: ["7H", "7S", "2C", "9D"],
    discard_top: "7D", melds: [], opened: [false, false], must_play: [],
  };
  return {
    fromServer: store.variants.some((v) => v.name === "rummy51" && v.opening_minimum === 51),
    jokerInRun: h.arrangeGroup(["5S", "JK", "7S"], r51),
    jokerFirst: h.arrangeGroup(["JK", "5S", "7S"], r51).cards,
    aceHigh: h.arrangeGroup(["QH", "KH", "AH"], r51).value,
    jokerSet: h.arrangeGroup(["9C", "9D", "JK"], r51).value,
    spareJoker: h.arrangeGroup(["QH", "KH", "JK"], r51),
    opening: h.openingTotal([["2H", "3H", "4H"], ["5S", "JK", "7S"]], r51),
    penaltyClassic: h.penaltyTotal(["AS", "KD", "7C"], classic),
    penalty51: h.penaltyTotal(["AS", "KD", "JK"], r51),
    highEnd: h.fitsMeld("TH", run(["7H", "8H", "9H"]), classic),
    lowEnd: h.fitsMeld("6H", run(["7H", "8H", "9H"]), classic),
    otherSuit: h.fitsMeld("TS", run(["7H", "8H", "9H"]), classic),
    fourth: h.fitsMeld("KH", set(["KS", "KD", "KC"]), classic),
    sameSuit: h.fitsMeld("KS", set(["KS", "KD", "JK"]), r51),
    noWrap: h.fitsMeld("2H", run(["QH", "KH", "AH"]), r51),
    aceLowOnly: h.fitsMeld("AH", run(["JH", "QH", "KH"]), classic),
    aceHighToo: h.fitsMeld("AH", run(["JH", "QH", "KH"]), r51),
    twoHigh: h.fitsGroup(["TH", "JH"], run(["7H", "8H", "9H"]), classic),
    gap: h.fitsGroup(["TH", "QH"], run(["7H", "8H", "9H"]), classic),
    jokerGap: h.fitsGroup(["TH", "JK", "QH"], run(["7H", "8H", "9H"]), r51),
    bothEnds: h.fitsGroup(["6H", "TH"], run(["7H", "8H", "9H"]), classic),
    tooMany: h.fitsGroup(["KH", "KS"], set(["KD", "KC", "JK"]), r51),
    lastSuit: h.fitsGroup(["KH"], set(["KD", "KC", "KS"]), classic),
    swap: h.swapTarget("QH", { kind: "run", cards: ["TH", "JH", "JK", "KH"],
                               stands_for: ["TH", "JH", "QH", "KH"] }, r51),
    noSwapClassic: h.swapTarget("QH", { kind: "run", cards: ["TH", "JH", "JK", "KH"],
                                        stands_for: ["TH", "JH", "QH", "KH"] }, classic),
    hintDraw: h.suggest(view, classic).key,
    hintStock: h.suggest({ ...view, discard_top: "KC" }, classic).key,
    hintMeld: h.suggest({ ...view, phase: "play", hand: ["7H", "7S", "7D", "9D"] }, classic),
    hintWait: h.suggest({ ...view, turn: 1 }, classic).key,
  };
}
"""


async def test_helpers_do_presentation_arithmetic(pages) -> None:
    page = await pages.page(path="/")
    await expect(page.locator("#lobby")).to_be_visible()
    await page.wait_for_function(
        "async () => (await import('/web/js/store.js')).store.variants.length > 0"
    )
    r = await page.evaluate(SCRIPT)
    assert r["fromServer"]
    assert r["jokerInRun"] == {"cards": ["5S", "JK", "7S"], "value": 18, "kind": "run"}
    assert r["jokerFirst"] == ["5S", "JK", "7S"]
    assert r["aceHigh"] == 30
    assert r["jokerSet"] == 27
    assert r["spareJoker"]["cards"] == ["QH", "KH", "JK"] and r["spareJoker"]["value"] == 30
    assert r["opening"] == 27
    assert r["penaltyClassic"] == 18
    assert r["penalty51"] == 46
    assert r["highEnd"] == {"low": False, "high": True}
    assert r["lowEnd"] == {"low": True, "high": False}
    assert r["otherSuit"] is None
    assert r["fourth"] == {"set": True}
    assert r["sameSuit"] is None
    assert r["noWrap"] is None
    assert r["aceLowOnly"] is None
    assert r["aceHighToo"] == {"low": False, "high": True}
    assert r["twoHigh"] is True and r["gap"] is False and r["jokerGap"] is True
    assert r["bothEnds"] is True and r["tooMany"] is False and r["lastSuit"] is True
    assert r["swap"] is True and r["noSwapClassic"] is False
    assert r["hintDraw"] == "hintDrawDiscard"
    assert r["hintStock"] == "hintDrawStock"
    assert r["hintMeld"]["key"] == "hintMeld" and sorted(r["hintMeld"]["cards"]) == [
        "7D",
        "7H",
        "7S",
    ]
    assert r["hintWait"] == "hintWait"
