"""Spectators in the browser: the lobby's option, and a third browser that opens the
invite of a full room, clicks "Kijken" and follows the table read-only, live."""

from __future__ import annotations

import pytest
from playwright.async_api import expect

from tests.kit.rooms import full_room

pytestmark = pytest.mark.browser


async def test_a_third_browser_watches_a_full_room_live(pages, http) -> None:
    room, anna_token = await full_room(http)
    anna = await pages.page(path=f"/r/{room}#seat={anna_token}")
    await expect(anna.locator("#turn-line")).to_have_text("Jij bent aan de beurt: trek een kaart.")

    guest = await pages.page(path=f"/r/{room}")
    await expect(guest.locator("#join")).to_contain_text("Deze kamer is vol.")
    await guest.get_by_role("button", name="Kijken").click()
    await expect(guest.locator("#watching")).to_have_text("Je kijkt mee")
    await expect(guest.locator("#turn-line")).to_have_text("Anna is aan de beurt.")
    # Read-only: both seats across the table, no hand, no buttons to act or vote with.
    await expect(guest.locator(".opponent .name")).to_have_text(["Anna", "Bob"])
    await expect(guest.locator(".opponent .count")).to_have_text(["10 kaarten", "10 kaarten"])
    await expect(guest.locator("#hand")).to_have_count(0)
    await expect(guest.locator(".actions")).to_have_count(0)
    await expect(guest.locator('[data-action="vote"]')).to_have_count(0)
    await expect(guest.locator('[data-action="draw"][data-source="stock"]')).to_be_disabled()
    assert guest.url.endswith(f"/r/{room}#watch")

    # A move arrives on the spectator's table as it happens.
    await anna.locator('[data-action="draw"][data-source="discard"]').click()
    await expect(guest.locator("#last-move")).to_have_text("Anna pakte 5♣ van de aflegstapel.")
    await expect(guest.locator(".opponent .count")).to_have_text(["11 kaarten", "10 kaarten"])

    # A reload keeps watching; the spectator is nobody's presence.
    await guest.reload()
    await expect(guest.locator("#watching")).to_be_visible()
    await expect(guest.locator('.opponent[data-seat="1"] [data-presence]')).to_have_attribute(
        "data-presence", "off"
    )


async def test_a_room_without_spectators_offers_no_watch(pages, http) -> None:
    room, _ = await full_room(http, spectators=False)
    guest = await pages.page(path=f"/r/{room}")
    await expect(guest.locator("#join")).to_contain_text("Deze kamer is vol.")
    await expect(guest.locator("#watch-button")).to_have_count(0)
    # The watch link itself says why (the server's 403 forbidden), not "another room".
    watcher = await pages.page(path=f"/r/{room}#watch")
    await expect(watcher.locator("#app")).to_contain_text(
        "In deze kamer mag niemand meekijken: wie het spel maakte, zette meekijken uit."
    )


async def test_the_lobby_creates_a_room_without_spectators(pages, http) -> None:
    page = await pages.page(path="/")
    await page.locator("#more-options").click()
    await expect(page.locator("#spectators")).to_be_checked()
    await page.locator("#spectators").uncheck()
    await page.locator("#create").click()
    await expect(page.locator("#invite")).to_be_visible()
    room = page.url.split("/r/")[1].split("#")[0]
    summary = (await http.get(f"/api/rooms/{room}")).json()
    assert summary["options"]["spectators"] is False
