"""Seats that stay alive in the browser: the guest closes the page, the host sees the
banner and its countdown, lets the computer play for the guest, the bot plays, and the
guest reopens the invite link and gets the seat back. The shared server's clock is moved
forward for the minute of waiting, and put back afterwards."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from playwright.async_api import expect

from app.clock import utcnow
from tests.kit.browsers import PHONE
from tests.kit.deals import ANNA, BOB, fixed_deal

pytestmark = pytest.mark.browser

WIDE = {"width": 1366, "height": 900}
# basic: Anna goes out at once, and 100 points end the match.
RUMMY = ["AH", "2H", "3H", "4H", "5C", "6C", "7C", "8D", "9D", "TD"]
RUMMY_MELDS = [["AH", "2H", "3H", "4H"], ["5C", "6C", "7C"], ["8D", "9D", "TD"]]


class FakeClock:
    def __init__(self) -> None:
        self.offset = timedelta()

    def __call__(self) -> datetime:
        return datetime.now(UTC) + self.offset


async def anna_and_bob(http) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """A classic online room of Anna and Bob, Anna to draw: its id, Anna's and Bob's seats."""
    cards = fixed_deal("classic", [ANNA, BOB], discard=["5C"], stock_top=["QD", "8D", "2H", "3H"])
    body = {"variant": "classic", "players": 2, "name": "Anna", "deal": cards}
    created = (await http.post("/api/rooms", json=body)).json()
    room = created["room"]
    joined = (await http.post(f"/api/rooms/{room}/join", json={"name": "Bob"})).json()
    return room, created, joined


async def test_the_computer_plays_for_a_guest_who_left_until_the_guest_is_back(
    pages, http, live_server
) -> None:
    room, created, joined = await anna_and_bob(http)
    clock = FakeClock()
    live_server.set_clock(clock)
    try:
        # Anna's browser keeps its own time for the countdown: it is moved on with the server's.
        anna_ctx = await pages.context()
        await anna_ctx.clock.install()
        anna = await pages.page(ctx=anna_ctx, path=f"/r/{room}#seat={created['token']}")
        bob_ctx = await pages.context()
        bob = await pages.page(ctx=bob_ctx, path=f"/r/{room}#seat={joined['token']}")
        await expect(bob.locator("#hand .card")).to_have_count(10)
        dot = anna.locator('.opponent[data-seat="1"] .dot')
        await expect(dot).to_have_attribute("data-presence", "on")
        await bob.close()

        banner = anna.locator('.banner.left-table[data-seat="1"]')
        await expect(banner).to_contain_text("Bob heeft de tafel verlaten.")
        countdown = banner.locator(".countdown")
        await expect(countdown).to_contain_text("Over ")
        assert 0 < int(await countdown.get_attribute("data-seconds") or 0) <= 60
        ask = anna.get_by_role("button", name="Laat de computer voor Bob spelen")
        await expect(ask).to_have_count(0)

        clock.offset = timedelta(seconds=61)
        await anna.clock.fast_forward(61_000)
        await ask.click()
        # The seat's tag says it, and the banner once, in a sentence of its own.
        tag = anna.locator('.opponent[data-seat="1"] .tag.stand-in')
        await expect(tag).to_have_text("gespeeld door de computer")
        await expect(anna.locator(".banner.stand-in")).to_have_text(
            "De computer speelt voor Bob tot Bob terug is."
        )

        # Anna plays a turn; the computer answers for Bob at once.
        await anna.locator('[data-action="draw"][data-source="stock"]').click()
        await anna.locator('#hand .card[data-card="QD"]').first.click()
        await anna.get_by_role("button", name="Afleggen").click()
        await expect(anna.locator("#last-move")).to_contain_text("Bob")
        await expect(anna.locator("#turn-line")).to_have_text(
            "Jij bent aan de beurt: trek een kaart."
        )

        # Bob opens the invite link again: this browser remembers his seat.
        bob = await pages.page(ctx=bob_ctx, path=f"/r/{room}")
        await expect(bob.locator("#hand .card")).to_have_count(10)
        assert bob.url.endswith(f"/r/{room}#seat={joined['token']}")
        await expect(tag).to_have_count(0)
        await expect(anna.locator(".banner.stand-in")).to_have_count(0)
        await expect(dot).to_have_attribute("data-presence", "on")
        # Bob reads what happened while he was away: Anna's turn and the computer's for him.
        missed = bob.locator("#missed")
        await expect(missed).to_contain_text("Terwijl je weg was")
        await expect(missed.locator(".missed-line").first).to_have_text(
            "2 beurten gespeeld door Anna en de computer voor jou."
        )
        await bob.get_by_role("button", name="Gezien").click()
        await expect(missed).to_have_count(0)
    finally:
        live_server.set_clock(utcnow)


async def test_the_lobby_sets_a_turn_timer_and_the_table_shows_its_clock(pages, http) -> None:
    anna = await pages.page(path="/")
    await anna.locator("#name").fill("Anna")
    await anna.locator("#more-options").click()
    await anna.locator("#turn-seconds").select_option("60")
    await anna.get_by_role("button", name="Spel maken").click()
    invite = await anna.locator("#invite-url").input_value()
    room = invite.rsplit("/", 1)[1]
    summary = (await http.get(f"/api/rooms/{room}")).json()
    assert summary["options"]["turn_seconds"] == 60
    clock = anna.locator("#turn-clock")
    await expect(clock).to_have_count(0)  # no clock while the room waits for Bob
    joined = await http.post(f"/api/rooms/{room}/join", json={"name": "Bob"})
    assert joined.status_code == 201
    await expect(clock).to_be_visible()
    assert 0 < int(await clock.get_attribute("data-seconds") or 0) <= 60
    # The turn line says whose turn it is; the clock beside it only how long is left.
    await expect(clock).to_have_text(re.compile(r"^Nog \d+ s$"))
    status = await anna.locator(".status").inner_text()
    assert status.count("beurt") == 1, status


async def test_no_one_left_a_match_that_is_over_for_the_rematch(pages, http) -> None:
    """Anna presses Rematch: Bob, still on the match-over screen, sees her offer and not
    "Anna left the table; in 57 s the computer may play for them"."""
    deal = fixed_deal("basic", players=2, hands=[RUMMY], stock_top=["KS"])
    body = {"variant": "basic", "players": 2, "name": "Anna", "deal": deal}
    created = (await http.post("/api/rooms", json=body)).json()
    room = created["room"]
    joined = (await http.post(f"/api/rooms/{room}/join", json={"name": "Bob"})).json()
    anna = await pages.page(path=f"/r/{room}#seat={created['token']}", viewport=WIDE)
    bob = await pages.page(path=f"/r/{room}#seat={joined['token']}", viewport=WIDE)
    await expect(bob.locator("#hand")).to_be_visible()
    await expect(anna.locator("#hand")).to_be_visible()
    auth = {"Authorization": f"Bearer {created['token']}"}
    out = [{"type": "draw", "source": "stock"}, {"type": "meld", "melds": RUMMY_MELDS}]
    for version, move in enumerate([*out, {"type": "discard", "card": "KS"}]):
        r = await http.post(
            f"/api/rooms/{room}/moves", json={"move": move, "version": version}, headers=auth
        )
        assert r.status_code == 200, r.text
    # Bob reads the match-over screen; then Anna goes on to the rematch.
    await expect(bob.locator("#rematch")).to_be_visible()
    await anna.locator("#rematch").click()
    await anna.wait_for_url(lambda url: room not in url)
    await expect(bob.locator("#rematch-offer")).to_contain_text("Anna wil een revanche")
    # Anna's socket of the old room is closed: Bob's page has heard she is gone.
    await expect(bob.locator('.opponent[data-seat="0"] .dot')).to_have_attribute(
        "data-presence", "off"
    )
    await expect(bob.locator("#banners .banner")).to_have_count(0)


async def test_a_spectator_sees_who_left_once_without_a_countdown(pages, http, live_server) -> None:
    room, created, joined = await anna_and_bob(http)
    clock = FakeClock()
    live_server.set_clock(clock)
    try:
        guest_ctx = await pages.context(viewport=PHONE)
        await guest_ctx.clock.install()
        guest = await pages.page(ctx=guest_ctx, path=f"/r/{room}#watch")
        players = [
            await pages.page(path=f"/r/{room}#seat={token}", viewport=PHONE)
            for token in (created["token"], joined["token"])
        ]
        for page in players:
            await expect(page.locator("#hand .card")).to_have_count(10)
        dots = guest.locator(".opponent .dot")
        await expect(dots).to_have_count(2)
        for page in players:
            await page.close()
        banner = guest.locator("#banners .banner")
        await expect(banner).to_have_text("Anna en Bob hebben de tafel verlaten.")
        # Long past the stand-in wait: still one line, no countdown stuck at "0 s".
        clock.offset = timedelta(seconds=120)
        await guest.clock.fast_forward(120_000)
        await expect(banner).to_have_text("Anna en Bob hebben de tafel verlaten.")
        await expect(guest.locator(".countdown")).to_have_count(0)
    finally:
        live_server.set_clock(utcnow)
