"""What is left of the table's helpers (web/js/legal.js), run as the page runs them: ES
modules in Chromium, reading a `legal` object shaped like docs/api.md v1.1's and the variants
that GET /api/variants publishes. They look things up; they judge nothing."""

from __future__ import annotations

import pytest
from playwright.async_api import expect

pytestmark = pytest.mark.browser

SCRIPT = """
async () => {
  const l = await import("/web/js/legal.js");
  const { store } = await import("/web/js/store.js");
  const r51 = store.rules("rummy51");
  const classic = store.rules("classic");
  const legal = {
    draw: [], discard: ["2C", "7H", "KD"], must_play: [], opening: null,
    swaps: [{ card: "QH", meld: "m2" }],
    layoffs: [{ card: "TH", meld: "m1", end: "high" }, { card: "6H", meld: "m1", end: "low" },
              { card: "KS", meld: "m3", end: null }, { card: "TH", meld: "m4", end: "low" }],
    melds: [["7S", "7D", "7C"], ["JK", "5S", "6S"]],
  };
  const opening = { needed: 51, opened: false,
                    melds: [{ cards: ["2H", "3H", "4H"], value: 9 },
                            { cards: ["5S", "6S", "JK"], value: 18 }] };
  const before = { ...legal, melds: [], layoffs: [], opening };
  return {
    fromServer: Boolean(r51.opening_values) && r51.card_values.JK === 25,
    same: l.sameCards(["7S", "JK", "5S"], ["5S", "7S", "JK"]),
    twice: l.sameCards(["JK", "JK", "5S"], ["JK", "5S", "5S"]),
    listed: l.legalMeld(legal, ["5S", "6S", "JK"]),
    notListed: l.legalMeld(legal, ["5S", "6S", "7S"]),
    isMeld: l.isMeld(legal, ["7C", "7S", "7D"]),
    capped: l.isMeld({ ...legal, melds: Array(64).fill(["AS", "2S", "3S"]) }, ["QH", "KH", "AH"]),
    notCapped: l.isMeld(legal, ["QH", "KH", "AH"]),
    beforeOpening: l.isMeld(before, ["4H", "2H", "3H"]),
    ends: l.layoffsOf(legal, "TH"),
    fitsOne: [...l.layoffMelds(legal, ["TH"])],
    fitsBoth: [...l.layoffMelds(legal, ["TH", "6H"])],
    fitsNone: [...l.layoffMelds(legal, ["TH", "KS"])],
    swap: [...l.swapMelds(legal, "QH")],
    noSwap: [...l.swapMelds(legal, "TH")],
    meter: l.openingTotal(before, [["3H", "2H", "4H"], ["JK", "6S", "5S"], ["9C", "9D"]]),
    meterOpened: l.openingTotal({ ...before, opening: { ...opening, opened: true } },
                                [["2H", "3H", "4H"]]),
    penaltyClassic: l.penaltyTotal(["AS", "KD", "7C"], classic),
    penalty51: l.penaltyTotal(["AS", "KD", "JK"], r51),
    penaltyUnknown: l.penaltyTotal(["AS"], store.rules("no-such-variant")),
    // The page plans no hint of its own: GET /hint does, or the page says it has none.
    planner: Object.keys(l).filter((name) => /suggest|plan|hint/i.test(name)),
  };
}
"""


async def test_the_helpers_read_legal_and_the_variants(pages) -> None:
    page = await pages.page(path="/")
    await expect(page.locator("#lobby")).to_be_visible()
    # The lobby's Create button is enabled once GET /api/variants has answered. (A predicate
    # for wait_for_function must not be async: a Promise is truthy, so it would not wait.)
    await expect(page.locator("#create")).to_be_enabled()
    r = await page.evaluate(SCRIPT)
    assert r["fromServer"]
    assert r["same"] is True and r["twice"] is False
    assert r["listed"] == ["JK", "5S", "6S"]  # in the server's order, which the move sends
    assert r["notListed"] is None
    assert r["isMeld"] is True and r["notCapped"] is False
    assert r["capped"] is True  # a full list may have left the selection out
    assert r["beforeOpening"] is True
    assert r["ends"] == [
        {"card": "TH", "meld": "m1", "end": "high"},
        {"card": "TH", "meld": "m4", "end": "low"},
    ]
    assert sorted(r["fitsOne"]) == ["m1", "m4"]
    assert r["fitsBoth"] == ["m1"] and r["fitsNone"] == []
    assert r["swap"] == ["m2"] and r["noSwap"] == []
    assert r["meter"] == 27  # 9 + 18; an unlisted group counts nothing
    assert r["meterOpened"] == 0
    assert r["penaltyClassic"] == 18 and r["penalty51"] == 46 and r["penaltyUnknown"] == 0
    assert r["planner"] == []
