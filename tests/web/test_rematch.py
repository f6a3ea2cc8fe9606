"""Rematch in the browser: Anna presses "Rematch" at the match's end and moves to the new
room; Bob is told "Anna wants a rematch" and takes his seat with one button."""

from __future__ import annotations

import pytest
from playwright.async_api import expect

from tests.kit.deals import fixed_deal

pytestmark = pytest.mark.browser

HAND = ["AH", "2H", "3H", "4H", "5C", "6C", "7C", "8D", "9D", "TD"]
MELDS = [["AH", "2H", "3H", "4H"], ["5C", "6C", "7C"], ["8D", "9D", "TD"]]


async def test_anna_asks_bob_takes_his_seat(pages, http) -> None:
    deal = fixed_deal("basic", players=2, hands=[HAND], stock_top=["KS"])
    body = {"variant": "basic", "players": 2, "name": "Anna", "deal": deal}
    created = (await http.post("/api/rooms", json=body)).json()
    room, anna_token = created["room"], created["token"]
    bob_token = (await http.post(f"/api/rooms/{room}/join", json={"name": "Bob"})).json()["token"]
    anna = await pages.page(path=f"/r/{room}#seat={anna_token}", locale="en-GB")
    bob = await pages.page(path=f"/r/{room}#seat={bob_token}", locale="en-GB")
    await expect(anna.locator("#hand")).to_be_visible()
    await expect(bob.locator("#hand")).to_be_visible()
    headers = {"Authorization": f"Bearer {anna_token}"}
    moves = [
        {"type": "draw", "source": "stock"},
        {"type": "meld", "melds": MELDS},
        {"type": "discard", "card": "KS"},
    ]
    for version, move in enumerate(moves):
        r = await http.post(
            f"/api/rooms/{room}/moves", json={"move": move, "version": version}, headers=headers
        )
        assert r.status_code == 200, r.text
    await expect(anna.locator("#rematch")).to_have_text("Rematch")
    await expect(bob.locator("#rematch")).to_have_text("Rematch")
    await anna.locator("#rematch").click()
    await anna.wait_for_url(lambda url: room not in url and "#seat=" in url)
    new_room = anna.url.split("/r/")[1].split("#")[0]
    await expect(bob.locator("#rematch-offer")).to_contain_text("Anna wants a rematch")
    await bob.get_by_role("button", name="Take my seat").click()
    await bob.wait_for_url(lambda url: f"/r/{new_room}#seat=" in url)
    await expect(bob.locator("#hand")).to_be_visible()
    # The seats moved on by one: Bob sits in seat 0 of the rematch, Anna in seat 1.
    bob_new = bob.url.split("#seat=")[1]
    state = (
        await http.get(
            f"/api/rooms/{new_room}/state", headers={"Authorization": f"Bearer {bob_new}"}
        )
    ).json()
    assert state["seat"] == 0 and [s["name"] for s in state["seats"]] == ["Bob", "Anna"]
