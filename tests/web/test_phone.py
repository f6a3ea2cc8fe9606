"""Small phones (360 px): a 13-14 card Rummy 51 hand shows the rank and suit of every card
(nothing lies over a card's corner index), no control is cut off by the screen's edge,
every control is at least 44 px each way, and the computer's level stays in the boxes of
the other seats."""

from __future__ import annotations

import pytest
from playwright.async_api import expect

from tests.kit.browsers import PHONE
from tests.kit.rooms import computer_room

pytestmark = pytest.mark.browser

PHONE_360 = {"width": 360, "height": 780}

# For each card of the hand: is the middle of its rank and of its suit that card's own?
CORNERS = """() => [...document.querySelectorAll("#hand .card")].map((card) => {
  const seen = (el) => {
    if (!el) return true; // a joker has no suit
    const b = el.getBoundingClientRect();
    const top = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
    return !!top && card.contains(top);
  };
  const rank = card.querySelector(".card-rank") || card.querySelector(".card-joker");
  const suit = card.querySelector(".card-suit");
  return { card: card.dataset.card, rank: seen(rank), suit: seen(suit) };
})"""

# Every control on screen: its box, and whether it lies inside the viewport.
CONTROLS = """() => [...document.querySelectorAll(
  "button, a[href], input, select, summary, [role=button]")]
  .filter((el) => el.getClientRects().length && getComputedStyle(el).visibility !== "hidden")
  .map((el) => { const b = el.getBoundingClientRect();
    return { what: el.outerHTML.slice(0, 90), left: b.left, right: b.right,
             width: b.width, height: b.height }; })"""


async def test_a_full_rummy51_hand_is_readable_and_every_control_fits(pages, http) -> None:
    game = await computer_room(http, variant="rummy51", players=4)
    page = await pages.page(
        path=f"/r/{game['room']}#seat={game['token']}", viewport=PHONE_360, has_touch=True
    )
    await expect(page.locator("#hand .card")).to_have_count(13)
    # The computer's level is named in every other seat's box.
    await expect(page.locator(".opponent .tag")).to_have_count(3)
    for tag in await page.locator(".opponent .tag").all():
        await expect(tag).to_be_visible()
        await expect(tag).to_contain_text("computer · makkelijk")
    await page.locator('[data-action="draw"][data-source="stock"]').click()
    await expect(page.locator("#hand .card")).to_have_count(14)
    await expect(page.locator("#flights > *")).to_have_count(0)
    corners = await page.evaluate(CORNERS)
    hidden = [c for c in corners if not (c["rank"] and c["suit"])]
    assert not hidden, hidden

    await page.locator("#hand .card").first.click(position={"x": 8, "y": 12})  # by its corner
    controls = await page.evaluate(CONTROLS)
    width = PHONE_360["width"]
    cut = [c for c in controls if c["left"] < 0 or c["right"] > width]
    assert not cut, cut
    small = [
        f"{c['what']} {c['width']:.0f}x{c['height']:.0f}"
        for c in controls
        if c["width"] < 44 or c["height"] < 44
    ]
    assert not small, "\n".join(small)


async def test_create_game_is_in_sight_and_the_table_opens_at_its_top(pages) -> None:
    """At 375 px "Create game" was about 1,000 px down the lobby, and the table made with it
    opened scrolled down with the lobby (in 2 runs of 3): the top bar and the opponent off
    screen. The page's frames are held (a paused clock) until the table's view is in, as in
    the runs where the table was drawn at once."""
    ctx = await pages.context(viewport=PHONE)
    await ctx.clock.install()
    page = await pages.page(ctx=ctx, path="/")
    create = page.get_by_role("button", name="Spel maken")
    await expect(create).to_be_enabled()
    box = await create.bounding_box()
    assert box is not None and box["y"] + box["height"] <= PHONE["height"], box
    await page.get_by_label("Tegen de computer").check()
    await page.locator("#name").fill("Anna")
    # A player who read the lobby to its end before pressing the button.
    await page.evaluate("window.scrollTo(0, document.scrollingElement.scrollHeight)")
    assert await page.evaluate("scrollY") > 300
    await page.clock.pause_at(await page.evaluate("Date.now()") + 1000)
    await create.click()
    await page.evaluate(
        """async () => {
          const { store } = await import("/web/js/store.js");
          const on = (done) => store.addEventListener("change", () => store.view && done());
          if (!store.view) await new Promise(on);
        }"""
    )
    await page.clock.run_for(100)  # the first frame: the table, drawn at once
    await page.clock.resume()
    await expect(page.locator("#hand .card")).to_have_count(10)
    assert await page.evaluate("scrollY") == 0
    # Whole in the screen, waited for: the opponent's seat can be drawn a frame after the hand.
    for part in (".topbar", ".opponent"):
        await expect(page.locator(part)).to_be_in_viewport(ratio=1)
