"""The table's small kindnesses: a kept card order, the browser's language, bot names,
plain error sentences, plurals, focus, cues and a table that does not jump."""

from __future__ import annotations

import json

import pytest
from playwright.async_api import expect

from tests.kit.browsers import meld, screenshot
from tests.kit.deals import fixed_deal

pytestmark = pytest.mark.browser

HUMAN = ["AH", "2H", "3H", "4H", "9C", "9D", "9S", "QC", "QD", "QH"]
BOT = ["2S", "5S", "8S", "JS", "3D", "6D", "KD", "4C", "7C", "TC"]


async def computer_game(http, players: int = 2, **extra) -> dict:
    """Classic against one bot on a fixed deal; Rummy 51 (random deal) for more players."""
    body = {
        "variant": "classic" if players == 2 else "rummy51",
        "players": players,
        "mode": "computer",
        "name": "Anna",
        "bots": {str(i): "easy" for i in range(1, players)},
        **extra,
    }
    if players == 2:
        body["deal"] = fixed_deal(
            "classic", [HUMAN, BOT], discard=["5C"], stock_top=["8C", "6C", "6S"]
        )
    r = await http.post("/api/rooms", json=body)
    assert r.status_code == 201, r.text
    return r.json()


async def hand_codes(page) -> list[str]:
    return await page.locator("#hand .card").evaluate_all("els => els.map(e => e.dataset.card)")


async def test_the_order_a_player_made_survives_a_reload(pages, http) -> None:
    game = await computer_game(http)
    page = await pages.page(path=f"/r/{game['room']}#seat={game['token']}")
    await expect(page.locator("#hand .card")).to_have_count(10)
    dealt = await hand_codes(page)
    # Move the first card two places right by keyboard: an order no sort would make.
    first = page.locator("#hand .card").first
    await first.focus()
    await page.keyboard.press("Shift+ArrowRight")
    await page.keyboard.press("Shift+ArrowRight")
    moved = [dealt[1], dealt[2], dealt[0], *dealt[3:]]
    # Wait for the second step: after the first alone dealt[1] is already first.
    await expect(page.locator("#hand .card").nth(2)).to_have_attribute("data-card", dealt[0])
    assert await hand_codes(page) == moved

    await page.reload()
    await expect(page.locator("#hand .card")).to_have_count(10)
    assert await hand_codes(page) == moved
    # A drawn card joins the kept order at the end, and that too survives a reload.
    await page.locator('[data-action="draw"][data-source="stock"]').click()
    await expect(page.locator("#hand .card")).to_have_count(11)
    await page.reload()
    await expect(page.locator("#hand .card")).to_have_count(11)
    assert await hand_codes(page) == [*moved, "8C"]


async def test_the_interface_speaks_the_browsers_language_until_the_player_chooses(pages) -> None:
    english = await pages.page(path="/", locale="en-US")
    await expect(english.get_by_role("heading", name="New game")).to_be_visible()
    await expect(english.locator("html")).to_have_attribute("lang", "en")
    dutch = await pages.page(path="/", locale="nl-NL")
    await expect(dutch.get_by_role("heading", name="Nieuw spel")).to_be_visible()
    # The switch is a choice, and a choice outlasts a reload.
    await english.get_by_role("button", name="Nederlands").click()
    await expect(english.get_by_role("heading", name="Nieuw spel")).to_be_visible()
    await english.reload()
    await expect(english.get_by_role("heading", name="Nieuw spel")).to_be_visible()


async def test_each_bot_has_its_own_name_in_every_language(pages, http) -> None:
    """A bot's name is its own, like a person's: the one the record and the replay say too
    (tests/web/test_names.py), whatever the page's language."""
    game = await computer_game(http, players=4)
    page = await pages.page(path=f"/r/{game['room']}#seat={game['token']}")
    names = page.locator(".opponent .name")
    await expect(names).to_have_count(3)
    dutch = await names.all_inner_texts()
    assert len(set(dutch)) == 3, dutch
    assert not any("bot" in n.lower() for n in dutch), dutch
    await page.get_by_role("button", name="English").click()
    await expect(page.get_by_role("button", name="Nederlands")).to_be_visible()
    await expect(names).to_have_text(dutch)
    # Stable per seat: a reload names every seat as before.
    await page.reload()
    await expect(names).to_have_text(dutch)


async def test_errors_speak_one_language_and_a_lost_server_gets_a_sentence(pages, http) -> None:
    game = await computer_game(http)
    page = await pages.page(path=f"/r/{game['room']}#seat={game['token']}")
    toast = page.locator("#toast")
    # The server is unreachable: a sentence, not the browser's "Failed to fetch".
    await page.route("**/api/rooms/*/moves", lambda route: route.abort())
    await page.locator('[data-action="draw"][data-source="stock"]').click()
    await expect(toast).to_have_text("Geen verbinding met de server.×")
    await page.unroute("**/api/rooms/*/moves")
    await page.locator('[data-action="draw"][data-source="stock"]').click()
    await expect(page.locator("#hand .card")).to_have_count(11)

    # A move the server refuses (the request is rewritten on its way: the page itself only
    # sends what `legal` allows): the Dutch sentence alone, no English detail under it.
    async def wrong_card(route) -> None:
        body = json.loads(route.request.post_data or "{}")
        body["move"] = {"type": "discard", "card": "KS"}
        await route.continue_(post_data=json.dumps(body))

    await page.route("**/api/rooms/*/moves", wrong_card)
    await page.locator('#hand .card[data-card="AH"]').click()
    async with page.expect_response("**/api/rooms/*/moves") as answer:
        await page.get_by_role("button", name="Afleggen").click()
    refused = (await (await answer.value).json())["error"]
    await expect(toast).to_have_attribute("data-code", refused["code"])
    await expect(toast.locator(".toast-detail")).to_have_count(0)
    assert refused["message"] not in await toast.inner_text()
    await page.unroute("**/api/rooms/*/moves")

    await page.get_by_role("button", name="English").click()
    await page.route("**/api/rooms/*/moves", lambda route: route.abort())
    await page.get_by_role("button", name="Discard", exact=True).click()
    await expect(toast.locator(".toast-text")).to_have_text("Cannot reach the server.")


async def test_one_is_singular_in_both_languages(pages, http) -> None:
    game = await computer_game(http)
    page = await pages.page(path=f"/r/{game['room']}#seat={game['token']}")
    count = page.locator(".me .count")
    await expect(count).to_have_text("10 kaarten")
    await page.locator('[data-action="draw"][data-source="stock"]').click()
    await meld(page, ["AH", "2H", "3H", "4H"], ["9C", "9D", "9S"], ["QC", "QD", "QH"])
    await expect(count).to_have_text("1 kaart")
    await page.get_by_role("button", name="English").click()
    await expect(count).to_have_text("1 card")

    # A room waiting for one more player says "player", not "player(s)".
    online = await pages.page(path="/")
    await online.locator("#name").fill("Bea")
    await online.get_by_role("button", name="Spel maken").click()
    await expect(online.locator("#turn-line")).to_have_text("Wachten op 1 speler…")


async def test_focus_stays_in_the_hand_after_a_draw_unlike_a_selection(pages, http) -> None:
    game = await computer_game(http)
    page = await pages.page(path=f"/r/{game['room']}#seat={game['token']}")
    stock = page.locator('[data-action="draw"][data-source="stock"]')
    await expect(stock).to_be_enabled()
    await stock.focus()
    await page.keyboard.press("Enter")
    await expect(page.locator("#hand .card")).to_have_count(11)
    # The drawn card has the keyboard, so Space and Enter act on the hand at once.
    await expect(page.locator('#hand .card[data-card="8C"]')).to_be_focused()
    await page.keyboard.press(" ")
    drawn = page.locator('#hand .card[data-card="8C"]')
    await expect(drawn).to_have_attribute("aria-pressed", "true")

    def ring(selector: str) -> str:
        return f"""() => {{ const s = getComputedStyle(document.querySelector('{selector}'));
            return [s.outlineStyle, s.outlineColor, s.boxShadow].join(' | '); }}"""

    focused_selected = await page.evaluate(ring('#hand .card[data-card="8C"]'))
    await page.keyboard.press("ArrowLeft")
    other = await page.evaluate("document.activeElement.dataset.card")
    focused_only = await page.evaluate(ring(f'#hand .card[data-card="{other}"]'))
    selected_only = await page.evaluate(ring('#hand .card[data-card="8C"]'))
    assert focused_only.split(" | ")[0] == "dashed", focused_only
    assert selected_only.split(" | ")[0] != "dashed", selected_only
    assert focused_selected.split(" | ")[0] == "dashed", focused_selected
    assert focused_only != selected_only


async def test_every_player_of_a_local_game_is_named_in_the_lobby(pages) -> None:
    page = await pages.page(path="/")
    await page.get_by_label("Op dit apparaat").check()
    await page.locator("#name").fill("Anna")
    await page.get_by_label("Naam speler 2").fill("Bea")
    await page.get_by_role("button", name="Spel maken").click()
    cover = page.locator("#cover")
    await expect(cover.get_by_role("heading")).to_have_text("Geef het apparaat aan Anna")
    await page.locator("#reveal").click()
    await page.locator('[data-action="draw"][data-source="stock"]').click()
    await expect(page.locator("#hand .card")).to_have_count(11)
    await page.locator("#hand .card").first.click()
    await page.get_by_role("button", name="Afleggen").click()
    await expect(cover.get_by_role("heading")).to_have_text("Geef het apparaat aan Bea")
    await page.reload()
    await expect(cover.get_by_role("heading")).to_have_text("Geef het apparaat aan Bea")
    await page.locator("#reveal").click()
    await expect(page.locator(".me .name")).to_have_text("Bea (jij)")
    await expect(page.locator(".opponent .name")).to_have_text("Anna")
    await page.goto("/")
    await expect(page.locator('.saved-group[data-kind="local"] li')).to_contain_text("Anna · Bea")


async def heading_is(page, text: str) -> None:
    """The page's h1 as shown (the other language's half is hidden, not absent)."""
    await expect(page.get_by_role("heading", level=1)).to_have_text(text, use_inner_text=True)


async def test_the_verify_page_speaks_both_languages(pages) -> None:
    dutch = await pages.page(path="/web/verify.html", locale="nl-NL")
    await heading_is(dutch, "Controleer een spel")
    await expect(dutch.locator("label[for=room]")).to_have_text("Kamer", use_inner_text=True)
    await dutch.locator("#log").fill("{}")
    await dutch.get_by_role("button", name="Controleren").click()
    await expect(dutch.locator("#results li")).to_have_text(
        "kan niet controleren: geen logboek van een kamer: "
        'verwacht een object met een lijst "hands"'
    )
    # The switch changes the page and its results, and the choice is kept for the table.
    await dutch.get_by_role("button", name="English").click()
    await heading_is(dutch, "Verify a game")
    await expect(dutch.locator("#results li")).to_contain_text("cannot verify: not a room log")
    await dutch.goto("/")
    await expect(dutch.get_by_role("heading", name="New game")).to_be_visible()

    english = await pages.page(path="/web/verify.html", locale="en-US")
    await heading_is(english, "Verify a game")
    await expect(english.locator("label[for=room]")).to_have_text("Room", use_inner_text=True)


TONE_SPY = """
window.__tones = [];
class FakeAudio {
  constructor() { this.state = "running"; this.currentTime = 0; this.destination = {}; }
  createOscillator() {
    const osc = { frequency: { value: 0 }, connect: (g) => g, stop() {},
      start: () => window.__tones.push(osc.frequency.value) };
    return osc;
  }
  createGain() {
    return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect: (d) => d };
  }
  resume() {}
}
window.AudioContext = FakeAudio;
"""


async def test_your_turn_pulses_and_sounds_and_the_mute_switch_is_kept(pages, http) -> None:
    ctx = await pages.context()
    await ctx.add_init_script(TONE_SPY)
    game = await computer_game(http)
    page = await pages.page(ctx, path=f"/r/{game['room']}#seat={game['token']}")
    await expect(page.locator(".hand-wrap")).to_have_class("hand-wrap pulse")
    await page.locator('[data-action="draw"][data-source="stock"]').click()
    await expect(page.locator("#hand .card")).to_have_count(11)
    await expect(page.locator(".hand-wrap")).to_have_class("hand-wrap")
    # The draw was heard: one short tone of the draw cue.
    assert await page.evaluate("window.__tones") == [520]

    mute = page.locator("#mute")
    await expect(mute).to_have_attribute("aria-pressed", "false")
    await mute.click()
    await expect(mute).to_have_attribute("aria-pressed", "true")
    await page.reload()
    await expect(page.locator("#mute")).to_have_attribute("aria-pressed", "true")
    # The page is live again (its own dot lit) before a card is picked, and the pick took:
    # a click across the redraws of the socket opening was lost under load (see below).
    await expect(page.locator(".me .dot")).to_have_attribute("data-presence", "on")
    card = page.locator("#hand .card").first
    await card.click()
    await expect(card).to_have_attribute("aria-pressed", "true")
    await page.get_by_role("button", name="Afleggen").click()
    await expect(page.locator("#hand .card")).to_have_count(10)
    assert await page.evaluate("window.__tones") == []


async def test_a_player_who_leaves_gets_a_banner(pages) -> None:
    anna = await pages.page(path="/")
    await anna.locator("#name").fill("Anna")
    await anna.get_by_role("button", name="Spel maken").click()
    invite = await anna.locator("#invite-url").input_value()
    bob = await pages.page(path=invite)
    await bob.locator("#join-name").fill("Bob")
    await bob.locator("#join-button").click()
    dot = anna.locator('.opponent[data-seat="1"] .dot')
    await expect(dot).to_have_attribute("data-presence", "on")
    seat_url = bob.url
    banner = anna.locator(".banner.left-table")
    await expect(banner).to_have_count(0)
    await bob.close()
    await expect(banner).to_contain_text("Bob heeft de tafel verlaten.")
    bob = await pages.page(path=seat_url)
    await expect(dot).to_have_attribute("data-presence", "on")
    await expect(banner).to_have_count(0)


async def _box(page, selector: str) -> dict[str, float]:
    """`selector`'s box, read inside the page in one step: the table redraws its regions
    with replaceChildren, and Playwright's `bounding_box` of an element that is replaced
    while it measures reads None (seen once in CI)."""
    return await page.evaluate(
        "(s) => { const r = document.querySelector(s).getBoundingClientRect();"
        " return {x: r.x, y: r.y, width: r.width, height: r.height}; }",
        selector,
    )


@pytest.mark.parametrize("width", [375, 1366])
async def test_an_error_floats_over_the_table_without_moving_the_hand(pages, http, width) -> None:
    game = await computer_game(http)
    page = await pages.page(
        path=f"/r/{game['room']}#seat={game['token']}", viewport={"width": width, "height": 800}
    )
    await expect(page.locator("#hand .card")).to_have_count(10)
    await page.locator('[data-action="draw"][data-source="stock"]').click()
    await expect(page.locator("#hand .card")).to_have_count(11)
    before = await _box(page, "#hand")
    await screenshot(page, f"table-mid-hand-{width}")
    await page.route("**/api/rooms/*/moves", lambda route: route.abort())
    await page.locator("#hand .card").first.click()
    await page.get_by_role("button", name="Afleggen").click()
    await expect(page.locator("#toast")).to_be_visible()
    await screenshot(page, f"table-error-{width}")
    assert await _box(page, "#hand") == before


async def test_a_click_across_a_redraw_still_picks_the_card(pages, http) -> None:
    # The page redraws whenever news comes (a frame, presence, a toast): a click pressed
    # before a redraw and released after it must still pick the card, as a player clicking
    # while the computer's moves come in expects.
    game = await computer_game(http)
    page = await pages.page(path=f"/r/{game['room']}#seat={game['token']}")
    await page.locator('[data-action="draw"][data-source="stock"]').click()
    await expect(page.locator("#hand .card")).to_have_count(11)
    card = page.locator("#hand .card[data-card='QC']")
    box = await card.bounding_box()
    assert box is not None
    await page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    await page.mouse.down()
    # News in the middle of the tap: the page redraws on the next frame.
    await page.evaluate(
        """async () => {
            (await import('/web/js/store.js')).store.emit();
            await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
        }"""
    )
    await page.mouse.up()
    await expect(card).to_have_attribute("aria-pressed", "true")


async def test_a_press_that_never_ends_holds_the_redraw_one_second_at_most(pages, http) -> None:
    # A release and a new press in one task (a quick second tap) after a redraw was held:
    # the hold is timed from the new press, and ends even though that press never does.
    game = await computer_game(http)
    page = await pages.page(path=f"/r/{game['room']}#seat={game['token']}")
    await expect(page.locator("#hand .card")).to_have_count(10)
    await page.evaluate(
        """async () => {
            const frames = () => new Promise((done) =>
                requestAnimationFrame(() => requestAnimationFrame(done)));
            const press = (type) => document.dispatchEvent(new PointerEvent(type));
            document.querySelector("#hand .card").dataset.old = "1";
            press("pointerdown");
            (await import('/web/js/store.js')).store.emit();
            await frames();
            await new Promise((done) => setTimeout(done, 500));
            press("pointerup");
            press("pointerdown");
        }"""
    )
    # Redrawn: the marked node was replaced, within the new press's one second (and then
    # some, for a slow machine), although no release came.
    await expect(page.locator("#hand .card[data-old]")).to_have_count(0, timeout=5_000)
    assert await page.locator("#hand .card").count() == 10
