"""A challenge in two browsers: Anna makes it from the lobby, makes one link per friend, Bob
opens his and plays the same deals; both logs show the same hands dealt for every hand, and
the results page compares them hand by hand and says what makes it fair. Bob's link, used
again, is refused; a visitor with no link is told to ask for one (docs/api.md v1.3)."""

from __future__ import annotations

import json
import re

import httpx
import pytest
from playwright.async_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]


async def play_match(http: httpx.AsyncClient, room: str, token: str) -> list[dict]:
    """Seat 0 draws from the stock and throws its first legal card until the match ends;
    returns the room's log."""
    auth = {"Authorization": f"Bearer {token}"}
    view = (await http.get(f"/api/rooms/{room}/state", headers=auth)).json()
    for _ in range(3000):
        if view["phase"] == "match_over":
            return (await http.get(f"/api/rooms/{room}/log", headers=auth)).json()["hands"]
        if view["phase"] == "hand_over":
            r = await http.post(
                f"/api/rooms/{room}/votes", json={"vote": "next_hand"}, headers=auth
            )
        elif view["turn"] != 0:
            r = await http.get(f"/api/rooms/{room}/state", headers=auth)
        else:
            move = (
                {"type": "draw", "source": "stock"}
                if view["phase"] == "draw"
                else {"type": "discard", "card": view["legal"]["discard"][0]}
            )
            body = {"move": move, "version": view["version"]}
            r = await http.post(f"/api/rooms/{room}/moves", json=body, headers=auth)
        assert r.status_code == 200, r.text
        view = r.json()
    raise AssertionError("the match does not end")


async def test_two_browsers_play_one_challenge(pages, http) -> None:
    anna = await pages.page(path="/", locale="en-GB")
    await anna.locator("#name").fill("Anna")
    await anna.locator("#mode-computer").check()
    await anna.locator("#level").select_option("easy")
    await anna.get_by_role("button", name="Challenge a friend").click()
    await anna.wait_for_url("**/c/*")
    challenge = anna.url.split("/c/")[1]
    await expect(anna.locator("#challenge-fair")).to_contain_text("the same deals")
    await expect(anna.locator("#challenge-fair")).to_contain_text("may differ")
    first_link = anna.locator("#challenge-url")
    await expect(first_link).to_have_value(re.compile(rf"^{pages.base}/c/{challenge}\?invite=."))
    link = await first_link.input_value()
    # One more link, for Cleo: it shows beside the first, under her name.
    await anna.locator("#challenge-friend").fill("Cleo")
    await anna.get_by_role("button", name="Make a link").click()
    await expect(anna.locator("#challenge-links li")).to_have_count(2)
    await expect(anna.locator('#challenge-links li[data-invite="Cleo"] input')).to_have_value(
        re.compile(rf"^{pages.base}/c/{challenge}\?invite=.")
    )
    assert await anna.locator("#challenge-url-1").input_value() != link
    # Someone with only the challenge's address has no link of their own.
    stranger = await pages.page(path=f"/c/{challenge}", locale="en-GB")
    await expect(stranger.locator("#challenge-ask")).to_contain_text("a link of your own")
    await expect(stranger.locator("#challenge-play")).to_have_count(0)
    await anna.locator("#challenge-mine").click()
    await anna.wait_for_url("**/r/*#seat=*")
    await expect(anna.locator("#hand")).to_be_visible()
    anna_room, anna_token = anna.url.split("/r/")[1].split("#seat=")
    anna_log = await play_match(http, anna_room, anna_token)

    bob = await pages.page(path=link.removeprefix(pages.base), locale="en-GB")
    await expect(bob.locator("#challenge-table")).to_contain_text("Anna")
    await bob.locator("#challenge-name").fill("Bob")
    await bob.get_by_role("button", name="Play the same deals").click()
    await bob.wait_for_url("**/r/*#seat=*")
    await expect(bob.locator("#hand")).to_be_visible()
    bob_room, bob_token = bob.url.split("/r/")[1].split("#seat=")
    assert bob_room != anna_room
    bob_log = await play_match(http, bob_room, bob_token)

    common = min(len(anna_log), len(bob_log))
    assert common >= 1
    for a, b in zip(anna_log[:common], bob_log[:common], strict=True):
        for part in ("hands", "stock", "discard"):
            assert json.dumps(a["start"][part]) == json.dumps(b["start"][part])

    # The results page, side by side, one row per hand either played.
    await bob.goto(f"/c/{challenge}")
    rows = max(len(anna_log), len(bob_log))
    await expect(bob.locator("#challenge-table tbody tr")).to_have_count(rows)
    await expect(bob.locator("#challenge-table thead th")).to_have_text(
        ["Hand", "Anna", "Bob (link: Friend)"]
    )
    first = bob.locator('#challenge-table tbody tr[data-hand="0"] td')
    points = [str(h["result"]["points"][0]) for h in (anna_log[0], bob_log[0])]
    await expect(first).to_have_count(2)
    assert [await first.nth(i).get_attribute("data-points") for i in range(2)] == points
    await expect(bob.locator("#challenge-verdict")).to_contain_text("played these deals")
    await expect(bob.locator("#challenge-mine")).to_be_visible()

    # Bob's link a second time, in another browser: refused, and no entry is made.
    again = await pages.page(path=link.removeprefix(pages.base), locale="en-GB")
    await again.locator("#challenge-name").fill("Bob again")
    await again.get_by_role("button", name="Play the same deals").click()
    await expect(again.locator("#toast")).to_contain_text("used already")
    await again.get_by_role("button", name="Refresh").click()
    await expect(again.locator("#challenge-table thead th")).to_have_count(3)
