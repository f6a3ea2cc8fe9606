"""The table lights what the seat's `legal` lists (docs/api.md v1.1) and nothing else, and
rummy51's opening meter counts what the server counts: each test reads the seat's view over
HTTP and compares it with what the page shows."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.async_api import expect

from tests.kit.browsers import screenshot, select
from tests.kit.deals import fixed_deal
from tests.kit.responses import ok
from tests.kit.rooms import computer_room

pytestmark = pytest.mark.browser

LIT = """() => ({
  fits: [...document.querySelectorAll('#melds .meld.fits')].map((e) => e.dataset.meld).sort(),
  ends: [...document.querySelectorAll('#melds .meld .end')]
    .map((e) => `${e.dataset.meld}:${e.dataset.end}`).sort(),
  swaps: [...document.querySelectorAll('#melds .meld .swap')].map((e) => e.dataset.meld).sort(),
})"""


def expected(legal: dict[str, Any], cards: list[str]) -> dict[str, list[str]]:
    """What the page should light for `cards` selected: the melds every card may be laid off
    onto, and for a single card its run ends and joker swaps."""
    per = [{x["meld"] for x in legal["layoffs"] if x["card"] == c} for c in cards]
    single = cards[0] if len(cards) == 1 else None
    return {
        "fits": sorted(set.intersection(*per)),
        "ends": sorted(
            f"{x['meld']}:{x['end']}" for x in legal["layoffs"] if x["card"] == single and x["end"]
        ),
        "swaps": sorted(x["meld"] for x in legal["swaps"] if x["card"] == single),
    }


async def test_a_selected_card_lights_exactly_the_melds_and_ends_legal_lists(
    pages, http, api
) -> None:
    hand = ["7H", "8H", "9H", "KS", "KD", "KC", "TH", "6H", "KH", "5C"]
    created = await computer_room(http, [hand, []], ["4C"], ["2D"], variant="classic")
    page = await pages.page(path=f"/r/{created['room']}#seat={created['token']}")
    view = ok(await api.state(created["room"], created["token"]))
    assert view["legal"]["draw"] == ["stock", "discard"]
    await expect(page.locator('[data-action="draw"][data-source="stock"]')).to_be_enabled()
    await expect(page.locator('[data-action="draw"][data-source="discard"]')).to_be_enabled()
    await page.locator('[data-action="draw"][data-source="stock"]').click()
    await expect(page.locator("#hand .card")).to_have_count(11)
    for group in (["9H", "7H", "8H"], ["KC", "KS", "KD"]):
        await select(page, group)
        await expect(page.get_by_role("button", name="+ Groep")).to_be_enabled()
        await page.get_by_role("button", name="+ Groep").click()
    await page.get_by_role("button", name="Uitleggen").click()
    await expect(page.locator("#melds .meld")).to_have_count(2)
    legal = ok(await api.state(created["room"], created["token"]))["legal"]
    assert legal["layoffs"], legal  # the deal leaves something to lay off
    selections = [[c] for c in ("TH", "6H", "KH", "5C", "2D")] + [["TH", "6H"], ["KH", "5C"]]
    for cards in selections:
        await select(page, cards)
        lit = await page.evaluate(LIT)
        assert lit == expected(legal, cards), cards
        discard = page.get_by_role("button", name="Afleggen", exact=True)
        if len(cards) == 1 and cards[0] in legal["discard"]:
            await expect(discard).to_be_enabled()
        else:
            await expect(discard).to_be_disabled()
    # Lit for TH: the run's high end, and that is where the server puts it.
    await select(page, ["TH"])
    await screenshot(page, "table-classic-lit-layoff")
    await page.locator('#melds .end[data-end="high"]').click()
    await expect(page.locator("#melds .meld.run .card")).to_have_count(4)
    melds = ok(await api.state(created["room"], created["token"]))["melds"]
    run = next(m for m in melds if m["kind"] == "run")
    assert run["cards"] == ["7H", "8H", "9H", "TH"]


async def test_rummy51_opening_meter_agrees_with_the_server_over_jokers(pages, http, api) -> None:
    # 2H-3H-4H (9) + 8C-8D-8S (24) + 5S-6S-JK: the joker is 4S (15, total 48: refused) or
    # 7S (18, total 51: accepted), as the server reads the meld; the meter must say which.
    hand = ["2H", "3H", "4H", "8C", "8D", "8S", "5S", "6S", "JK", "JK", "QC", "QD", "KH"]
    created = await computer_room(http, [hand, []], ["4C"], ["9D"], variant="rummy51")
    page = await pages.page(path=f"/r/{created['room']}#seat={created['token']}")
    await page.locator('[data-action="draw"][data-source="stock"]').click()
    await expect(page.locator("#hand .card")).to_have_count(14)
    view = ok(await api.state(created["room"], created["token"]))
    listed = view["legal"]["opening"]
    assert listed["needed"] == 51 and listed["opened"] is False

    def value_of(cards: list[str]) -> int:
        return next(m["value"] for m in listed["melds"] if sorted(m["cards"]) == sorted(cards))

    meter = page.locator("#opening-meter")
    total = 0
    for group in (["2H", "3H", "4H"], ["8C", "8D", "8S"], ["5S", "6S", "JK"]):
        await select(page, group)
        total += value_of(group)
        await expect(meter).to_have_attribute("data-value", str(total))
        await expect(meter).to_have_text(
            f"Opening: {total} / 51" + ("genoeg om te openen" if total >= 51 else "")
        )
        await page.get_by_role("button", name="+ Groep").click()
    assert total in (48, 51)
    await screenshot(page, "table-rummy51-opening-meter")
    await page.get_by_role("button", name="Uitleggen").click()
    if total < 51:
        toast = page.locator("#toast")
        await expect(toast).to_have_attribute("data-code", "opening_below_51")
        after = ok(await api.state(created["room"], created["token"]))
        assert after["melds"] == [] and after["version"] == view["version"]
        # One more meld, with the second joker in a set (QC-QD-JK: 30), opens.
        await select(page, ["QC", "QD", "JK"])
        total += value_of(["QC", "QD", "JK"])
        await expect(meter).to_have_attribute("data-value", str(total))
        await page.get_by_role("button", name="Uitleggen").click()
    await expect(page.locator("#opening-meter")).to_have_count(0)
    after = ok(await api.state(created["room"], created["token"]))
    assert after["opened"][0] is True
    # The joker stands where the meter counted it: 4S for 48 (plus the set), 7S for 51.
    run = next(m for m in after["melds"] if "5S" in m["cards"])
    assert ("7S" if total == 51 else "4S") in run["stands_for"], run


async def test_rummy51_swap_is_offered_exactly_where_legal_lists_it(pages, http, api) -> None:
    # Seat 0 opens with a run whose joker stands for QH, then draws QH a turn later; the test
    # plays seat 1 over HTTP so the stock order stays the deal's.
    hand = ["TH", "JH", "JK", "KH", "9S", "9D", "9C", "8H", "2C", "5D", "7S", "4S", "3D"]
    body = {
        "variant": "rummy51",
        "players": 2,
        "mode": "online",
        "name": "Anna",
        "deal": fixed_deal("rummy51", [hand, []], discard=["4C"], stock_top=["6H", "2D", "QH"]),
    }
    created = (await http.post("/api/rooms", json=body)).json()
    guest = (await http.post(f"/api/rooms/{created['room']}/join", json={"name": "Bob"})).json()
    page = await pages.page(path=f"/r/{created['room']}#seat={created['token']}")
    await page.locator('[data-action="draw"][data-source="stock"]').click()
    await expect(page.locator("#hand .card")).to_have_count(14)
    for group in (["KH", "JK", "TH", "JH"], ["9C", "9S", "9D"]):
        await select(page, group)
        await page.get_by_role("button", name="+ Groep").click()
    await page.get_by_role("button", name="Uitleggen").click()
    await expect(page.locator("#melds .meld")).to_have_count(2)
    joker = page.locator("#melds .card.joker-as")
    await expect(joker).to_have_attribute("aria-label", "joker, staat voor harten vrouw")
    await select(page, ["2C"])
    await page.get_by_role("button", name="Afleggen", exact=True).click()
    await expect(page.locator("#hand .card")).to_have_count(6)

    auth = {"Authorization": f"Bearer {guest['token']}"}
    moves = f"/api/rooms/{created['room']}/moves"
    version = ok(await api.state(created["room"], created["token"]))["version"]
    for move in ({"type": "draw", "source": "stock"}, {"type": "discard", "card": "2D"}):
        r = await http.post(moves, json={"move": move, "version": version}, headers=auth)
        assert r.status_code == 200, r.text
        version += 1
    await page.locator('[data-action="draw"][data-source="stock"]').click()
    await expect(page.locator('#hand .card[data-card="QH"]')).to_have_count(1)
    legal = ok(await api.state(created["room"], created["token"]))["legal"]
    assert [s["card"] for s in legal["swaps"]] == ["QH"]
    for code in ("QH", "8H", "6H", "5D"):
        await select(page, [code])
        assert await page.evaluate(LIT) == expected(legal, [code]), code
    await select(page, ["QH"])
    await page.get_by_role("button", name="Joker ruilen").click()
    await expect(page.locator('#hand .card[data-card="JK"]')).to_be_visible()
    await expect(page.locator("#melds .card.joker-as")).to_have_count(0)
    await expect(page.locator(".meter.warn")).to_contain_text("Speel je joker deze beurt nog uit")
