"""Your turn while you look elsewhere: with the permission granted, Chromium shows a
notification when the turn arrives in a hidden tab; the lobby marks which saved rooms
wait for this player."""

from __future__ import annotations

import pytest
from playwright.async_api import expect

from tests.kit.deals import fixed_deal

pytestmark = pytest.mark.browser

# The page cannot be hidden on demand in a headless browser: the test decides what
# `document.hidden` says, and keeps every notification the page makes (the real one too).
SPY = """
(() => {
  window.__hidden = false;
  Object.defineProperty(Document.prototype, "hidden", { get: () => window.__hidden });
  Object.defineProperty(Document.prototype, "visibilityState", {
    get: () => (window.__hidden ? "hidden" : "visible"),
  });
  const Real = window.Notification;
  window.__shown = [];
  window.__asked = 0;
  class Spy extends Real {
    constructor(title, options) {
      super(title, options);
      window.__shown.push({ title, body: options && options.body });
    }
    static requestPermission() {
      window.__asked += 1;
      return Real.requestPermission();
    }
    static get permission() { return Real.permission; }
  }
  window.Notification = Spy;
})();
"""


HAND = ["AH", "2H", "3H", "4H", "5C", "6C", "7C", "8D", "9D", "TD"]
MELDS = [["AH", "2H", "3H", "4H"], ["5C", "6C", "7C"], ["8D", "9D", "TD"]]


async def _room(http, variant: str = "classic", hands=None) -> tuple[str, str, str]:
    """An online room of Anna and Bob, Anna to draw: its id and both tokens."""
    deal = fixed_deal(variant, players=2, hands=hands, stock_top=["KS"])
    body = {"variant": variant, "players": 2, "name": "Anna", "deal": deal}
    created = (await http.post("/api/rooms", json=body)).json()
    joined = await http.post(f"/api/rooms/{created['room']}/join", json={"name": "Bob"})
    assert joined.status_code == 201, joined.text
    return created["room"], created["token"], joined.json()["token"]


async def _move(http, room, token, move, version) -> dict:
    r = await http.post(
        f"/api/rooms/{room}/moves",
        json={"move": move, "version": version},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert r.status_code == 200, r.text
    return r.json()


async def _turn(http, room, token, version) -> None:
    """Draw from the stock and throw the first card that may go."""
    view = await _move(http, room, token, {"type": "draw", "source": "stock"}, version)
    await _move(
        http, room, token, {"type": "discard", "card": view["legal"]["discard"][0]}, version + 1
    )


async def test_a_hidden_tab_is_notified_of_its_turn(pages, http) -> None:
    room, anna_token, bob_token = await _room(http)
    ctx = await pages.context(locale="en-GB")
    await ctx.grant_permissions(["notifications"], origin=pages.base)
    await ctx.add_init_script(SPY)
    anna = await pages.page(ctx, path=f"/r/{room}#seat={anna_token}")
    await expect(anna.locator("#hand")).to_be_visible()
    await expect(anna.locator("#notify")).to_have_count(0)  # granted: nothing to ask
    # Anna's turn comes while she looks: no notification. She plays it.
    await _turn(http, room, anna_token, 0)
    await expect(anna.locator("#turn-line")).to_contain_text("Bob")
    assert await anna.evaluate("window.__shown") == []
    # Her tab goes to the background; Bob plays; her turn comes back.
    await anna.evaluate("window.__hidden = true")
    await _turn(http, room, bob_token, 2)
    await anna.wait_for_function("window.__shown.length >= 1")
    await anna.wait_for_timeout(300)
    shown = await anna.evaluate("window.__shown")
    assert shown == [{"title": "Your turn", "body": "It is your turn at the rummy table."}]
    assert "Your turn" in await anna.title()


# A browser that has not been asked yet: headless Chromium answers "denied" by itself, so
# the page is shown "default" until it asks, and "granted" after.
NOT_ASKED = """
(() => {
  window.__perm = "default";
  const Real = window.Notification;
  Object.defineProperty(Real, "permission", { get: () => window.__perm });
  Real.requestPermission = () => {
    window.__asked += 1;
    window.__perm = "granted";
    return Promise.resolve("granted");
  };
})();
"""


async def test_the_bell_asks_for_the_permission(pages, http) -> None:
    room, anna_token, _ = await _room(http)
    ctx = await pages.context(locale="en-GB")
    await ctx.add_init_script(SPY)
    await ctx.add_init_script(NOT_ASKED)
    page = await pages.page(ctx, path=f"/r/{room}#seat={anna_token}")
    await expect(page.locator("#hand")).to_be_visible()
    bell = page.get_by_role("button", name="Notify me")
    await expect(bell).to_have_attribute("title", "Notify me when it is my turn")
    await expect(bell.locator("svg.icon")).to_have_count(1)  # drawn: no emoji font needed
    await bell.click()
    await page.wait_for_function("window.__asked === 1")
    await expect(bell).to_have_count(0)  # answered: nothing left to ask


async def test_the_lobby_marks_each_saved_room(pages, http) -> None:
    mine, anna_mine, _ = await _room(http)
    theirs, anna_theirs, _ = await _room(http)
    await _turn(http, theirs, anna_theirs, 0)
    done, anna_done, _ = await _room(http, "basic", hands=[HAND])
    for version, move in enumerate(
        [
            {"type": "draw", "source": "stock"},
            {"type": "meld", "melds": MELDS},
            {"type": "discard", "card": "KS"},
        ]
    ):
        await _move(http, done, anna_done, move, version)
    page = await pages.page(path=None, locale="en-GB")
    for room, token in ((mine, anna_mine), (theirs, anna_theirs), (done, anna_done)):
        await page.goto(f"/r/{room}#seat={token}")
        await expect(page.locator("#hand, #hand-end").first).to_be_visible()
    await page.goto("/")
    status = lambda room: page.locator(f'li[data-room="{room}"] .saved-status')  # noqa: E731
    await expect(status(mine)).to_have_text("your turn")
    await expect(status(theirs)).to_have_text("waiting for Bob")
    await expect(status(done)).to_have_text("finished")
