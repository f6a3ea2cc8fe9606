"""The lobby, a local hot-seat game and a game against the computer."""

from __future__ import annotations

import pytest
from playwright.async_api import expect

from tests.kit.browsers import PHONE, meld, screenshot
from tests.kit.rooms import computer_room

pytestmark = pytest.mark.browser


async def test_lobby_and_rules_page(pages, http) -> None:
    page = await pages.page(path="/")
    await expect(page.get_by_role("heading", name="Nieuw spel")).to_be_visible()
    for label in ("Met een vriend spelen", "Op dit apparaat", "Tegen de computer"):
        await expect(page.locator("#lobby-form").get_by_text(label, exact=True)).to_be_visible()
    await expect(page.locator("#saved")).to_contain_text("browsergegevens wissen")
    await page.get_by_label("Tegen de computer").check()
    await expect(page.locator("#level")).to_be_visible()
    await page.locator("#name").fill("Anna")
    await screenshot(page, "lobby-desktop")
    # Each variant says whom it is for; the chosen one how long its match lasts, Rummy 51
    # with the limit chosen here.
    await expect(page.locator(".choice .pick")).to_have_text(
        [
            "Twee spelers, geen jokers: de makkelijkste start.",
            "Twee tot vier spelers, geen jokers: voor een groep.",
            "Twee tot vier spelers, met jokers en een opening van 51 punten: voor wie rummy kent.",
        ]
    )
    await expect(page.locator('.match-length[data-variant="classic"]')).to_have_text(
        "Een partij duurt tot iemand 100 punten heeft: meestal een paar handen."
    )
    await expect(page.locator(".match-length")).to_have_count(1)
    await page.get_by_label("Basic Rummy").check()
    await expect(page.locator('.match-length[data-variant="basic"]')).to_have_text(
        "Een partij duurt tot iemand 100 bij 2 spelers, 150 bij 3 spelers, 200 bij 4 spelers"
        " punten heeft: meestal een paar handen."
    )
    await page.get_by_label("Rummy 51").check()
    await page.locator("#limit").select_option("201")
    await expect(page.locator('.match-length[data-variant="rummy51"]')).to_contain_text(
        "na de hand waarin iemand 201 strafpunten haalt: met 3 of 4 spelers kan dat na één"
        " korte hand"
    )
    await page.get_by_role("link", name="Alle regels van Rummy 51").click()
    await expect(page.locator("#rules h1")).to_have_text("Rummy 51")
    await expect(page.locator("#rules")).to_contain_text("51 punten")
    await page.get_by_role("button", name="English").click()
    await expect(page.locator("#rules h1")).to_have_text("Rummy 51")
    await page.get_by_role("button", name="Nederlands").click()

    # A room that does not exist, and a seat code the server does not know, say so.
    await page.goto("/r/nosuchroom0000")
    await expect(page.locator("#app")).to_contain_text("Deze kamer bestaat niet (meer).")
    room = (await http.post("/api/rooms", json={"variant": "classic"})).json()["room"]
    await page.goto(f"/r/{room}#seat=not-a-token")
    await expect(page.locator("#app")).to_contain_text("Je plaatscode is onbekend.")


async def test_local_hot_seat_covers_between_turns(pages) -> None:
    page = await pages.page(path="/")
    await page.get_by_label("Op dit apparaat").check()
    await page.locator("#name").fill("Anna")
    await page.get_by_role("button", name="Spel maken").click()

    cover = page.locator("#cover")
    await expect(cover).to_be_visible()
    await expect(cover.get_by_role("heading")).to_have_text("Geef het apparaat aan Anna")
    await expect(page.locator("#hand")).to_have_count(0)
    await page.locator("#reveal").click()
    await expect(page.locator("#turn-line")).to_have_text("Jij bent aan de beurt: trek een kaart.")
    await page.locator('[data-action="draw"][data-source="stock"]').click()
    await expect(page.locator("#hand .card")).to_have_count(11)
    await page.locator("#hand .card").first.click()
    await page.get_by_role("button", name="Afleggen").click()

    await expect(cover).to_be_visible()
    await expect(cover).to_have_attribute("data-seat", "1")
    await expect(cover.get_by_role("heading")).to_have_text("Geef het apparaat aan Speler 2")
    await screenshot(page, "local-cover")
    await expect(page.locator("#hand")).to_have_count(0)
    await page.locator("#reveal").click()
    await expect(page.locator(".me .seatno")).to_have_text("plaats 2")
    await expect(page.locator("#hand .card")).to_have_count(10)
    await expect(page.locator("#turn-line")).to_have_text("Jij bent aan de beurt: trek een kaart.")

    # The game is saved in this browser, listed under local games.
    await page.goto("/")
    await expect(page.locator('.saved-group[data-kind="local"] li')).to_have_count(1)


HUMAN = ["AH", "2H", "3H", "4H", "9C", "9D", "9S", "QC", "QD", "QH"]
# No pair and no two cards of a suit within two ranks: one draw cannot make a meld.
BOT = ["2S", "5S", "8S", "JS", "3D", "6D", "KD", "4C", "7C", "TC"]


async def test_computer_game_plays_to_the_end_of_a_hand(pages, http) -> None:
    created = await computer_room(http, [HUMAN, BOT], discard=["5C"], stock_top=["8C", "6C", "6S"])
    page = await pages.page(path=f"/r/{created['room']}#seat={created['token']}")
    await expect(page.locator(".opponent .tag")).to_have_text("computer · makkelijk")
    await expect(page.locator("#turn-line")).to_have_text("Jij bent aan de beurt: trek een kaart.")
    # Keyboard play: Enter on a card acts (here: draw), Space selects, Enter discards.
    await page.locator("#hand .card").first.focus()
    await page.keyboard.press("Enter")
    drawn = page.locator('#hand .card[data-card="8C"]')
    await expect(drawn).to_be_visible()
    await expect(drawn).to_have_attribute("aria-label", "8♣, klaveren acht")
    await drawn.focus()
    await page.keyboard.press(" ")
    await expect(drawn).to_have_attribute("aria-pressed", "true")
    await page.keyboard.press("Enter")
    await expect(page.locator("#hand .card")).to_have_count(10)

    # The computer plays its turn; then it is ours again.
    await expect(page.locator("#last-move")).to_contain_text("af.", timeout=30_000)
    await expect(page.locator("#turn-line")).to_have_text("Jij bent aan de beurt: trek een kaart.")
    await page.locator('[data-action="draw"][data-source="stock"]').click()
    await expect(page.locator("#hand .card")).to_have_count(11)
    await meld(page, ["AH", "2H", "3H", "4H"], ["9C", "9D", "9S"], ["QC", "QD", "QH"])
    await expect(page.locator("#melds .meld")).to_have_count(3)
    await expect(page.locator("#hand .card")).to_have_count(1)
    await page.locator("#hand .card").click()
    await page.get_by_role("button", name="Afleggen").click()
    await expect(page.locator("#hand-result")).to_have_text("Anna gaat uit!")
    await expect(page.locator('.reveal[data-seat="1"] .reveal-cards .card')).to_have_count(10)

    # Step through the hand from the log.
    await page.get_by_role("button", name="Herhaling").click()
    replay = page.locator("#replay")
    await expect(replay.locator(".replay-step")).to_have_text("Begin van de hand")
    await expect(replay.locator(".replay-hand").first.locator(".card")).to_have_count(10)
    await replay.get_by_role("button", name="Volgende").click()
    await expect(replay.locator(".replay-text")).to_have_text("Anna trok van de trekstapel.")
    await expect(replay.locator(".replay-hand").first.locator(".card")).to_have_count(11)
    await replay.get_by_role("button", name="Sluiten").click()
    await expect(replay).to_be_hidden()


async def test_match_winner_and_new_round(pages, http) -> None:
    human = ["AH", "2H", "3H", "4H", "5C", "5D", "5S", "6C", "6D", "6S"]
    bot = ["TC", "TD", "TH", "TS", "JC", "JD", "JH", "JS", "QC", "QD"]  # 100 points
    created = await computer_room(http, [human, bot], discard=["8C"], stock_top=["9C"])
    page = await pages.page(path=f"/r/{created['room']}#seat={created['token']}", viewport=PHONE)
    await page.locator('[data-action="draw"][data-source="stock"]').click()
    await expect(page.locator("#hand .card")).to_have_count(11)
    await meld(page, human[:4], human[4:7], human[7:])
    await page.locator('#hand .card[data-card="9C"]').click()
    await page.get_by_role("button", name="Afleggen").click()

    await expect(page.locator("#match-winner")).to_have_text("Anna wint de partij!")
    await expect(page.locator("#match-reason")).to_have_text(
        "Anna kwam aan 100 punten; wie 100 haalt, wint de partij."
    )
    await expect(page.locator("#scores tr.total td").first).to_have_text("100")
    await expect(page.get_by_role("button", name="Volgende hand")).to_have_count(0)
    await screenshot(page, "hand-end-phone")
    # One way on at the match's end: the rematch, a new room at 0-0 (the computer comes too).
    await page.get_by_role("button", name="Revanche").click()
    await page.wait_for_url(lambda url: created["room"] not in url)
    await expect(page.locator("#hand-end")).to_be_hidden()
    await expect(page.locator("#scores tr.total td").first).to_have_text("0")
    await expect(page.locator("#hand .card")).to_have_count(10)


async def test_lobby_offers_rummy51s_limit_and_the_table_shows_it(pages, http) -> None:
    page = await pages.page(path="/")
    await expect(page.locator("#lobby-form")).to_be_visible()
    await expect(page.locator("#limit")).to_have_count(0)  # classic has no penalty limit
    await page.locator("#variant-rummy51").check()
    limit = page.locator("#limit")
    await expect(limit).to_have_value("101")
    options = await limit.locator("option").evaluate_all("els => els.map((e) => e.value)")
    assert options == ["101", "201", "301"]
    await limit.select_option("201")
    await page.get_by_label("Tegen de computer").check()
    await page.locator("#name").fill("Anna")
    await page.get_by_role("button", name="Spel maken").click()
    await expect(page.locator("#match-limit")).to_have_text(
        "De partij eindigt na de hand waarin iemand 201 strafpunten haalt."
    )
    room = page.url.split("/r/")[1].split("#")[0]
    summary = (await http.get(f"/api/rooms/{room}")).json()
    assert summary["variant"] == "rummy51" and summary["options"]["limit"] == 201
