"""Chat in the browser: two players and a spectator, text that is never HTML, quick
phrases, the unread count, a mute that outlives a reload, the drawer on a phone, and the
lobby's chat option."""

from __future__ import annotations

import pytest
from playwright.async_api import expect

from tests.kit.browsers import PHONE, overlap
from tests.kit.rooms import full_room, new_room

WIDE = {"width": 1366, "height": 900}

pytestmark = pytest.mark.browser

SCRIPT = "<script>window.pwned=1</script><img src=x onerror=window.pwned=2>"


async def test_chat_between_two_players_and_a_spectator(pages, http) -> None:
    room, anna_token = await full_room(http)
    joined = await http.get(f"/api/rooms/{room}")
    assert joined.json()["options"]["chat"] is True
    anna = await pages.page(path=f"/r/{room}#seat={anna_token}", locale="en-GB")
    await expect(anna.locator("#chat-tab")).to_be_visible()
    guest = await pages.page(path=f"/r/{room}#watch", locale="en-GB")
    await expect(guest.locator("#chat-tab")).to_be_visible()

    await anna.locator("#chat-tab").click()
    await expect(anna.locator("#chat-panel")).to_be_visible()
    await anna.get_by_role("button", name="Good luck!").click()
    # Sent one after the other, as a person would: two posts in flight may be numbered
    # either way by the server.
    await expect(anna.locator(".chat-text")).to_have_text(["Good luck!"])
    await anna.locator("#chat-text").fill(SCRIPT)
    await anna.get_by_role("button", name="Send").click()
    await expect(anna.locator(".chat-text")).to_have_text(["Good luck!", SCRIPT])
    # The spectator's tab counts what came while it was closed; the text arrives as text.
    await expect(guest.locator("#chat-unread")).to_have_text("2")
    await guest.locator("#chat-tab").click()
    await expect(guest.locator(".chat-text")).to_have_text(["Good luck!", SCRIPT])
    await expect(guest.locator("#chat-unread")).to_have_count(0)
    await expect(guest.locator(".chat-readonly")).to_be_visible()
    await expect(guest.locator("#chat-text")).to_have_count(0)
    for page in (anna, guest):
        assert await page.evaluate("window.pwned") is None
        assert await page.locator(".chat-list script, .chat-list img").count() == 0

    # Mute Anna: her messages go, and stay gone after a reload.
    await guest.get_by_role("button", name="Mute Anna").click()
    await expect(guest.locator(".chat-text")).to_have_count(0)
    await guest.reload()
    await guest.locator("#chat-tab").click()
    await expect(guest.get_by_role("button", name="Unmute Anna")).to_be_visible()
    await expect(guest.locator(".chat-text")).to_have_count(0)
    await guest.get_by_role("button", name="Unmute Anna").click()
    await expect(guest.locator(".chat-text")).to_have_text(["Good luck!", SCRIPT])


async def test_on_a_phone_the_chat_is_a_drawer_that_covers_nothing(pages, http) -> None:
    room, anna_token = await full_room(http)
    anna = await pages.page(path=f"/r/{room}#seat={anna_token}", viewport=PHONE, locale="nl-NL")
    await expect(anna.locator("#chat-tab")).to_be_visible()
    await expect(anna.locator("#chat-panel")).to_be_hidden()
    await anna.locator("#chat-tab").click()
    await anna.get_by_role("button", name="Veel succes!").click()
    await expect(anna.locator(".chat-text")).to_have_text(["Veel succes!"])
    # The page makes room for the open drawer: the hand can scroll clear of it.
    height = await anna.evaluate("document.scrollingElement.scrollHeight")
    await anna.evaluate("window.scrollTo(0, document.scrollingElement.scrollHeight)")
    hand = await anna.locator("#hand").bounding_box()
    panel = await anna.locator("#chat").bounding_box()
    assert hand is not None and panel is not None and height > 0
    assert hand["y"] + hand["height"] <= panel["y"], (hand, panel)


async def test_the_lobby_turns_chat_off(pages, http) -> None:
    page = await pages.page(path="/", locale="en-GB")
    await page.locator("#more-options").click()  # folded away: most games keep chat on
    await page.locator("#chat-option").uncheck()
    await page.locator("#create").click()
    await expect(page.locator("#hand")).to_be_visible()
    room = page.url.split("/r/")[1].split("#")[0]
    summary = (await http.get(f"/api/rooms/{room}")).json()
    assert summary["options"]["chat"] is False
    await expect(page.locator("#chat-tab")).to_have_count(0)


async def test_on_a_wide_screen_the_chat_covers_nothing(pages, http) -> None:
    """Closed (the tab) and open (the column), the chat sits in a gutter the table leaves
    it: it covers no seat, pile, score sheet or the hand."""
    room, anna_token = await full_room(http)
    anna = await pages.page(
        path=f"/r/{room}#seat={anna_token}", viewport={"width": 1366, "height": 832}
    )
    await expect(anna.locator("#chat-tab")).to_be_visible()
    # The table is drawn once the socket's first view arrives: measure after that.
    await expect(anna.locator(".opponent").first).to_be_visible()
    await expect(anna.locator("#hand .card").first).to_be_visible()
    for opened in (False, True):
        if opened:
            await anna.locator("#chat-tab").click()
            await expect(anna.locator("#chat-panel")).to_be_visible()
        chat = await anna.locator("#chat").bounding_box()
        assert chat is not None
        for part in ("#scores", "#hand", ".opponent", ".pile.discard", ".pile.stock"):
            box = await anna.locator(part).first.bounding_box()
            assert box is not None, part
            assert not overlap(chat, box), (opened, part, chat, box)


async def test_the_host_can_mute_a_friend_who_joined_after_the_page_opened(pages, http) -> None:
    """The chat's list of names follows the table: no reload needed to mute a late joiner."""
    created = (await http.post("/api/rooms", json={"variant": "classic", "name": "Anna"})).json()
    anna = await pages.page(
        path=f"/r/{created['room']}#seat={created['token']}", viewport=WIDE, locale="en-GB"
    )
    await expect(anna.locator("#invite")).to_be_visible()
    await anna.locator("#chat-tab").click()
    await expect(anna.locator(".chat-mutes button")).to_have_count(0)
    joined = await http.post(f"/api/rooms/{created['room']}/join", json={"name": "Bob"})
    bob = joined.json()["token"]
    await expect(anna.locator(".opponent .name")).to_have_text("Bob")
    await anna.get_by_role("button", name="Mute Bob").click()
    said = await http.post(
        f"/api/rooms/{created['room']}/chat",
        json={"text": "hello"},
        headers={"Authorization": f"Bearer {bob}"},
    )
    assert said.status_code == 201, said.text
    await expect(anna.get_by_role("button", name="Unmute Bob")).to_be_visible()
    await expect(anna.locator(".chat-text")).to_have_count(0)


async def test_a_game_on_one_device_or_against_the_computer_alone_has_no_chat(pages, http) -> None:
    for mode in ("local", "computer"):
        made = await new_room(http, mode)
        page = await pages.page(path=f"/r/{made['room']}#seat={made['token']}", viewport=PHONE)
        await expect(page.locator("#hand .card").first).to_be_visible()
        await expect(page.locator(".opponent .name")).to_have_count(1)
        # The chat would be drawn once the room's summary is in: after every request.
        await page.wait_for_load_state("networkidle")
        await expect(page.locator("#chat, #chat-tab")).to_have_count(0)
