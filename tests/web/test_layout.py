"""The table's layout: the other seats around the felt (one across for two players; left,
across and right for four), your hand in one row along the bottom without scrolling from
360 px up, and nothing moves the hand when help or an error appears. Screenshots of the
lobby, the table at 375 and 1366 px with two and four players and a hand end are saved in
test-artifacts/screenshots/ for a person to look at."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.async_api import expect

from tests.kit.browsers import meld, overlap, screenshot
from tests.kit.rooms import computer_room

pytestmark = pytest.mark.browser

HUMAN = ["AH", "2H", "3H", "4H", "9C", "9D", "9S", "QC", "QD", "QH"]
BOT = ["2S", "5S", "8S", "JS", "3D", "6D", "KD", "4C", "7C", "TC"]

ROW = """() => {
  const hand = document.getElementById("hand");
  const cards = [...hand.querySelectorAll(".card")].map((c) => c.getBoundingClientRect());
  return { scroll: hand.scrollWidth - hand.clientWidth, page: document.documentElement.scrollWidth,
    width: innerWidth, left: Math.min(...cards.map((b) => b.left)),
    right: Math.max(...cards.map((b) => b.right)), tops: cards.map((b) => b.top),
    height: cards[0].height, widths: cards.map((b, i) => i ? b.left - cards[i - 1].left : 0) };
}"""


async def computer(http, players: int) -> dict[str, Any]:
    """Classic on a fixed deal for two players; Rummy 51 on a random one for four."""
    if players == 2:
        return await computer_room(http, [HUMAN, BOT], discard=["5C"], stock_top=["8C", "6C"])
    return await computer_room(http, variant="rummy51", players=players)


async def seated(pages, http, players: int, width: int) -> Any:
    """Anna's table against `players - 1` bots at `width` px, her hand dealt."""
    game = await computer(http, players)
    page = await pages.page(
        path=f"/r/{game['room']}#seat={game['token']}", viewport={"width": width, "height": 800}
    )
    await expect(page.locator("#hand .card")).to_have_count(10 if players == 2 else 13)
    return page


async def box(page, selector: str) -> dict[str, float]:
    """The element's box; measured again when a re-render (a bot's move) replaced it."""
    for _ in range(20):
        await expect(page.locator(selector).first).to_be_visible()
        b = await page.locator(selector).first.bounding_box()
        if b:
            return dict(b)
    raise AssertionError(f"{selector} kept being replaced")


def middle(b: dict[str, float]) -> float:
    return b["x"] + b["width"] / 2


async def assert_one_row(page) -> None:
    row = await page.evaluate(ROW)
    assert row["scroll"] <= 0 and row["page"] <= row["width"], row
    assert row["left"] >= 0 and row["right"] <= row["width"], row
    # One row: the fan's arc lifts the edges a little, never a card's height.
    assert max(row["tops"]) - min(row["tops"]) < row["height"] / 2, row
    # Every card shows a strip to tap (its rank and suit).
    assert min(row["widths"][1:]) >= 18, row


async def test_the_lobby(pages) -> None:
    for width in (375, 1366):
        page = await pages.page(path="/", viewport={"width": width, "height": 800})
        await expect(page.get_by_role("heading", name="Nieuw spel")).to_be_visible()
        await screenshot(page, f"lobby-{width}")


@pytest.mark.parametrize("width", [360, 375, 1366])
async def test_four_players_sit_left_across_and_right(pages, http, width) -> None:
    page = await seated(pages, http, 4, width)
    places = ("left", "across", "right")
    left, across, right = [await box(page, f".opponent.at-{p}") for p in places]
    assert middle(left) < middle(across) < middle(right)
    # The seat after yours (in the order of play) is on your left.
    await expect(page.locator(".opponent.at-left")).to_have_attribute("data-seat", "1")
    await expect(page.locator(".opponent.at-right")).to_have_attribute("data-seat", "3")
    piles, hand = await box(page, ".piles"), await box(page, "#hand")
    assert across["y"] < piles["y"] < hand["y"]
    if width > 900:  # on a desktop the side seats flank the piles
        assert left["y"] + left["height"] > piles["y"] and right["x"] > piles["x"] + piles["width"]
    await assert_one_row(page)
    await assert_details_fit(page, width)
    await page.locator('[data-action="draw"][data-source="stock"]').click()
    await expect(page.locator("#hand .card")).to_have_count(14)
    await assert_one_row(page)
    await screenshot(page, f"table-4p-{width}")


async def assert_details_fit(page: Any, width: int) -> None:
    """The piles' counts leave their captions readable; four names leave the score sheet's
    last column inside its panel; the top bar's buttons are drawn icons (an emoji bell was an
    empty box without an emoji font), with their words beside them on a wide screen."""
    counts = await page.locator(".pile-count").all()
    captions = await page.locator(".piles figcaption").all()
    for count, caption in zip(counts, captions, strict=True):
        assert not overlap(await count.bounding_box(), await caption.bounding_box())
    sheet, panel = await box(page, ".sheet"), await box(page, "#scores")
    assert sheet["x"] + sheet["width"] <= panel["x"] + panel["width"] - 4, (sheet, panel)
    for button in await page.locator(".topbar .mute").all():
        await expect(button.locator("svg.icon")).to_have_count(1)
        label = button.locator(".icon-label")
        assert (await label.text_content() or "").strip()
        if width > 900:
            await expect(label).to_be_visible()


@pytest.mark.parametrize("width", [375, 1366])
async def test_two_players_sit_across_and_help_does_not_move_the_hand(pages, http, width) -> None:
    page = await seated(pages, http, 2, width)
    across, piles, hand = [await box(page, s) for s in (".opponent.at-across", ".piles", "#hand")]
    assert across["y"] + across["height"] <= piles["y"] < hand["y"]
    await page.locator('[data-action="draw"][data-source="stock"]').click()
    await meld(page, ["AH", "2H", "3H"])
    await expect(page.locator("#melds .meld")).to_have_count(1)
    await assert_one_row(page)
    await screenshot(page, f"table-2p-{width}")
    # A card that fits brings the lay-off help line: the hand stays where it was.
    before = await box(page, "#hand")
    await page.locator('#hand .card[data-card="4H"]').click()
    await expect(page.locator(".actions .help")).to_be_visible()
    assert await box(page, "#hand") == before
    # Out: the hand end, then the score sheet.
    await page.locator("#hand .card[data-card='4H']").click()
    await meld(page, ["9C", "9D", "9S"], ["QC", "QD", "QH"])
    await expect(page.locator("#hand .card")).to_have_count(2)
    await page.locator("#hand .card[data-card='4H']").click()
    await page.locator("#melds .meld.run").click()
    # The lay-off lands first: a card picked before its answer would be let go by it.
    await expect(page.locator("#hand .card")).to_have_count(1)
    await page.locator("#hand .card").first.click()
    await page.get_by_role("button", name="Afleggen").click()
    await expect(page.locator(".hand-end")).to_be_visible()
    await screenshot(page, f"hand-end-{width}")


@pytest.mark.parametrize("width", [375, 1366])
async def test_three_players_sit_left_and_right(pages, http, width) -> None:
    page = await seated(pages, http, 3, width)
    await expect(page.locator(".opponent.at-across")).to_have_count(0)
    left, right = [await box(page, f".opponent.at-{p}") for p in ("left", "right")]
    assert middle(left) < middle(right)
    await assert_one_row(page)
    await screenshot(page, f"table-3p-{width}")
