"""Cards you put down by pointer: onto the discard pile, onto a meld's end; the legal targets
light up while dragging; a drop the server refuses springs back with the reason and changes
nothing on the server."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.async_api import expect

from tests.kit.browsers import meld, screenshot
from tests.kit.rooms import computer_room

pytestmark = pytest.mark.browser

HUMAN = ["AH", "2H", "3H", "4H", "9C", "9D", "9S", "QC", "QD", "KS"]
BOT = ["2S", "5S", "8S", "JS", "3D", "6D", "KD", "4C", "7C", "TC"]


def has_class(name: str) -> re.Pattern[str]:
    """A class list holding `name`."""
    return re.compile(rf"(^|\s){name}(\s|$)")


async def game_at(pages, http, width: int, **options: Any) -> tuple[Any, dict[str, Any]]:
    game = await computer_room(http, [HUMAN, BOT], discard=["5C"], stock_top=["8C", "6C", "6S"])
    ctx = await pages.context(viewport={"width": width, "height": 800}, **options)
    page = await pages.page(ctx, path=f"/r/{game['room']}#seat={game['token']}")
    await expect(page.locator("#hand .card")).to_have_count(10)
    # The socket's first view has landed too: a drag must not race its re-render.
    await expect(page.locator(".me .dot")).to_have_attribute("data-presence", "on")
    return page, game


async def server_view(http, game: dict[str, Any]) -> dict[str, Any]:
    r = await http.get(
        f"/api/rooms/{game['room']}/state", headers={"Authorization": f"Bearer {game['token']}"}
    )
    assert r.status_code == 200, r.text
    return dict(r.json())


async def grab(page, card) -> None:
    """Press on the card's visible left strip (the hand may overlap) and start dragging."""
    box = None
    while box is None:  # a re-render between finding the card and measuring it
        await expect(card).to_be_visible()
        box = await card.bounding_box()
    await page.mouse.move(box["x"] + 8, box["y"] + box["height"] / 2)
    await page.mouse.down()
    await page.mouse.move(box["x"] + 8, box["y"] - 30, steps=4)


async def hover_over(page, target) -> None:
    box = await target.bounding_box()
    await page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, steps=8)


async def drag(page, card, target) -> None:
    await grab(page, card)
    await hover_over(page, target)
    await page.mouse.up()


@pytest.mark.parametrize("width", [375, 1366])
async def test_drag_a_card_onto_a_meld_end_and_onto_the_discard_pile(pages, http, width) -> None:
    page, game = await game_at(pages, http, width)
    await page.locator('[data-action="draw"][data-source="stock"]').click()
    await expect(page.locator("#hand .card")).to_have_count(11)
    # A selection dragged onto the felt is laid down as one meld.
    for code in ("AH", "2H", "3H"):
        await page.locator(f'#hand .card[data-card="{code}"]').click()
    await grab(page, page.locator('#hand .card[data-card="2H"]'))
    await expect(page.locator("#flights .drag-ghost .card")).to_have_count(3)
    await expect(page.locator("#melds")).to_have_class(has_class("drop-ok"))
    await hover_over(page, page.locator("#melds"))
    await page.mouse.up()
    run = page.locator("#melds .meld.run")
    await expect(run.locator(".card")).to_have_count(3)
    await expect(page.locator("#hand .card")).to_have_count(8)

    # 4H selected by a tap shows the run's high end; dragged there, it is laid off.
    four = page.locator('#hand .card[data-card="4H"]')
    await four.click()
    high = run.locator('.end[data-end="high"]')
    await expect(high).to_be_visible()
    await grab(page, four)
    # While dragging, the targets `legal` lists light up: the run and the discard pile.
    await expect(run).to_have_class(has_class("drop-ok"))
    await expect(page.locator(".pile.discard")).to_have_class(has_class("drop-ok"))
    await hover_over(page, high)
    await screenshot(page, f"drag-to-meld-end-{width}", settled=False)
    await page.mouse.up()
    await expect(run.locator(".card")).to_have_count(4)
    await expect(page.locator("#hand .card")).to_have_count(7)
    await expect(run).not_to_have_class(has_class("drop-ok"))
    assert [m["cards"] for m in (await server_view(http, game))["melds"]] == [
        ["AH", "2H", "3H", "4H"]
    ]

    # An unselected card dragged onto the discard pile is discarded.
    await drag(page, page.locator('#hand .card[data-card="KS"]'), page.locator(".pile.discard"))
    # (The bot moves at once on the server and may take it: the hand is what tells.)
    await expect(page.locator("#hand .card")).to_have_count(6)
    await expect(page.locator('#hand .card[data-card="KS"]')).to_have_count(0)
    await expect(page.locator("#toast")).to_be_hidden()
    view = await server_view(http, game)
    assert len(view["hand"]) == 6 and "KS" not in view["hand"]
    assert view["turns_completed"] >= 1


@pytest.mark.parametrize("width", [375, 1366])
async def test_an_illegal_drop_springs_back_with_the_reason(pages, http, width) -> None:
    page, game = await game_at(pages, http, width)
    before = await server_view(http, game)
    toast = page.locator("#toast .toast-text")
    # Nothing is lit before the draw: a card dropped on the pile comes back, and says why.
    card = page.locator('#hand .card[data-card="QC"]')
    await grab(page, card)
    await expect(page.locator(".pile.discard")).not_to_have_class(has_class("drop-ok"))
    await hover_over(page, page.locator(".pile.discard"))
    await page.mouse.up()
    await expect(toast).to_have_text("Trek eerst een kaart.")
    await expect(page.locator("#flights .drag-ghost")).to_have_count(0)
    await expect(page.locator("#hand .card")).to_have_count(10)
    await expect(card).not_to_have_class(has_class("dragging"))
    after = await server_view(http, game)
    assert after["version"] == before["version"] and after["hand"] == before["hand"]

    # After the draw and a meld, a card that fits no meld is dropped on one: refused too.
    await page.locator('[data-action="draw"][data-source="stock"]').click()
    await meld(page, ["AH", "2H", "3H"])
    run = page.locator("#melds .meld.run")
    await expect(run.locator(".card")).to_have_count(3)
    before = await server_view(http, game)
    await grab(page, page.locator('#hand .card[data-card="9C"]'))
    await expect(run).not_to_have_class(has_class("drop-ok"))
    await hover_over(page, run)
    await page.mouse.up()
    await expect(toast).to_have_text("Deze kaart past niet bij die combinatie.")
    await expect(run.locator(".card")).to_have_count(3)
    await expect(page.locator('#hand .card[data-card="9C"]')).to_have_count(1)
    after = await server_view(http, game)
    assert after["version"] == before["version"] and after["melds"] == before["melds"]


async def test_a_finger_drags_a_card_onto_the_discard_pile(pages, http) -> None:
    page, game = await game_at(pages, http, 375, has_touch=True, is_mobile=True)
    cdp = await page.context.new_cdp_session(page)

    async def touch(kind: str, x: float, y: float) -> None:
        points = [] if kind == "touchEnd" else [{"x": x, "y": y}]
        await cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    await page.locator('[data-action="draw"][data-source="stock"]').tap()
    await expect(page.locator("#hand .card")).to_have_count(11)
    card = page.locator('#hand .card[data-card="KS"]')
    start, pile = await card.bounding_box(), await page.locator(".pile.discard").bounding_box()
    assert start and pile
    x, y = start["x"] + 8, start["y"] + start["height"] / 2
    tx, ty = pile["x"] + pile["width"] / 2, pile["y"] + pile["height"] / 2
    await touch("touchStart", x, y)
    for i in range(1, 11):
        await touch("touchMove", x + (tx - x) * i / 10, y + (ty - y) * i / 10)
    await expect(page.locator(".pile.discard")).to_have_class(has_class("drop-ok"))
    await touch("touchEnd", tx, ty)
    await expect(page.locator('#hand .card[data-card="KS"]')).to_have_count(0)
    await expect(page.locator("#hand .card")).to_have_count(10)
    view = await server_view(http, game)
    assert "KS" not in view["hand"] and view["turns_completed"] >= 1
