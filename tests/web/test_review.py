"""The hand review on the hand-end screen: the three decisions the hard bot thinks cost the
most (GET /review, for this seat), each opening the replay just before it. A cost is the
change in the seat's net result of the hand: in a hand the seat won, what a better move
would have added, never "cost all N points at stake"."""

from __future__ import annotations

import math
import re
from typing import Any

import pytest
from playwright.async_api import expect

from tests.kit.browsers import PHONE, meld, screenshot
from tests.kit.rooms import computer_room, new_room


def cost_text(cost: float, spread: float, won: bool) -> str:
    """A cost as the page words it: under a point in words, else rounded as JavaScript's
    Math.round does (38.5 is 39), not as Python's round (38.5 is 38), with its uncertainty;
    in a hand the seat won, as what the better move would have added."""
    if cost < 1:
        return "Had minder dan een punt meer kunnen winnen" if won else "Kostte minder dan een punt"
    n = math.floor(cost + 0.5)
    text = f"Had ongeveer {n} punten meer kunnen winnen" if won else f"Kostte ongeveer {n} punten"
    return f"{text}, ± {math.floor(spread + 0.5)}" if spread >= 1 else text


pytestmark = pytest.mark.browser

HUMAN = ["AH", "2H", "3H", "4H", "9C", "9D", "9S", "QC", "QD", "QH"]
BOT = ["2S", "5S", "8S", "JS", "3D", "6D", "KD", "4C", "7C", "TC"]
# Anna draws the 1st, 3rd, 5th...: nothing she draws fits, nothing the bot draws makes a meld.
STOCK = ["6H", "9H", "8D", "AD", "JH", "QS", "TH", "KH", "6S"]
MELDS = [["AH", "2H", "3H", "4H"], ["9C", "9D", "9S"], ["QC", "QD", "QH"]]
SUIT = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
WIDE = {"width": 1366, "height": 900}
REFUSED = {"error": {"code": "wrong_phase", "message": "hand 0 is not a finished hand"}}
YOUR_DRAW = "Jij bent aan de beurt: trek een kaart."


def short(cards: list[str]) -> str:
    return " ".join(f"{'10' if c[0] == 'T' else c[0]}{SUIT[c[1]]}" for c in cards)


def in_words(move: dict[str, Any]) -> str | re.Pattern[str]:
    """The Dutch page's words for `move`; a draw from the pile names the card it took."""
    kind = move["type"]
    if kind == "draw" and move["source"] == "discard":
        return re.compile(r"^\S+ van de aflegstapel pakken$")
    if kind == "draw":
        return "van de trekstapel trekken"
    if kind == "meld":
        return f"{' · '.join(short(m) for m in move['melds'])} uitleggen"
    if kind == "layoff":
        return f"{short(move['cards'])} aanleggen"
    if kind == "swap":
        return f"een joker ruilen met {short([move['card']])}"
    return f"{short([move['card']])} afleggen"


async def drawn_card(page: Any) -> str:
    codes = await page.locator("#hand .card").evaluate_all("els => els.map((e) => e.dataset.card)")
    return next(c for c in codes if c not in HUMAN)


async def play_badly_then_go_out(page: Any) -> None:
    """Four turns of throwing the drawn card away without melding what is ready (the hard
    bot would lay the run down), then out."""
    for _ in range(4):
        await expect(page.locator("#turn-line")).to_have_text(YOUR_DRAW, timeout=30_000)
        await page.locator('[data-action="draw"][data-source="stock"]').click()
        await expect(page.locator("#hand .card")).to_have_count(11)
        await page.locator(f'#hand .card[data-card="{await drawn_card(page)}"]').click()
        await page.get_by_role("button", name="Afleggen").click()
        await expect(page.locator("#hand .card")).to_have_count(10)
    await expect(page.locator("#turn-line")).to_have_text(YOUR_DRAW, timeout=30_000)
    await page.locator('[data-action="draw"][data-source="stock"]').click()
    await expect(page.locator("#hand .card")).to_have_count(11)
    await meld(page, *MELDS)
    await expect(page.locator("#hand .card")).to_have_count(1)
    await page.locator("#hand .card").click()
    await page.get_by_role("button", name="Afleggen").click()
    await expect(page.locator("#hand-result")).to_have_text("Anna gaat uit!")


async def costliest(
    http: Any, room: str, token: str
) -> tuple[dict[str, Any], list[Any], float | None]:
    """What the server says for this seat: the last hand's log, its decisions that cost
    points against a better move, worst first (all of them, not just three), and the seat's
    net result of the hand."""
    auth = {"Authorization": f"Bearer {token}"}
    hand = (await http.get(f"/api/rooms/{room}/log", headers=auth)).json()["hands"][-1]
    r = await http.get(f"/api/rooms/{room}/review", params={"hand": hand["hand"]}, headers=auth)
    assert r.status_code == 200 and r.json()["status"] == "ready", r.text
    costly = [d for d in r.json()["decisions"] if d["better"] and d["cost"] > 0]
    ranked = sorted(costly, key=lambda d: (-d["cost"], d["version"]))
    return hand, ranked, r.json().get("net")


async def listed(review: Any) -> list[list[float]]:
    """[version, cost] of each decision the page lists, in its order."""
    items = review.locator("li.decision")
    js = "els => els.map((e) => [Number(e.dataset.version), Number(e.dataset.cost)])"
    return list(await items.evaluate_all(js))


async def test_a_won_hands_review_says_what_a_better_move_would_have_added(pages, http) -> None:
    game = await computer_room(http, [HUMAN, BOT], discard=["5C"], stock_top=STOCK)
    page = await pages.page(path=f"/r/{game['room']}#seat={game['token']}", viewport=WIDE)
    await play_badly_then_go_out(page)

    # A failing server leaves the end screen as it was, with a way to try again.
    review = page.locator("#review")
    await page.route("**/review?*", lambda route: route.abort())
    await page.get_by_role("button", name="Bespreek mijn hand").click()
    await expect(review).to_contain_text("Geen verbinding met de server.")
    await page.unroute("**/review?*")
    await page.route("**/review?*", lambda route: route.fulfill(status=409, json=REFUSED))
    await review.get_by_role("button", name="Opnieuw").click()
    await expect(review).to_contain_text("De bespreking is niet beschikbaar.")
    await expect(page.get_by_role("button", name="Volgende hand")).to_be_enabled()
    await page.unroute("**/review?*")
    await review.get_by_role("button", name="Opnieuw").click()
    await expect(review).to_have_attribute("data-status", "ready", timeout=60_000)

    # Anna went out: her result is her points minus Bob's, and nothing "cost" her points.
    hand, costly, net = await costliest(http, game["room"], game["token"])
    assert costly, "this deal is made for costly throws; the review found none"
    await expect(review.locator("h3")).to_have_text("Waar je meer had kunnen winnen")
    expected = costly[:3]
    items = review.locator("li.decision")
    await expect(items).to_have_count(len(expected))
    assert await listed(review) == [[d["version"], d["cost"]] for d in expected]
    for item, d in zip(await items.all(), expected, strict=True):
        await expect(item.locator(".decision-cost")).to_have_text(
            cost_text(d["cost"], d["spread"], won=True)
        )
        await expect(item.locator("dd.did")).to_have_text(in_words(d["move"]))
        await expect(item.locator("dd.better")).to_have_text(in_words(d["better"]))
        reason = item.locator(".decision-reason")
        await expect(reason).to_have_text(f"Waarom: {d['reasons']['nl']}")
        assert not (await reason.text_content() or "").endswith("..")
    # Never the v1.2 words of a capped cost, "kostte alle N punten die op het spel stonden".
    await expect(review).not_to_contain_text("op het spel")
    await expect(review).not_to_contain_text("ostte")
    assert net == hand["result"]["points"][0] > 0
    await expect(review.locator("#review-net")).to_contain_text(
        f"Resultaat van deze hand: +{net:g} (jouw punten min die van je tegenstander)."
    )
    await screenshot(page, "review-1366")

    # "Toon" opens the replay on the step before that decision: the table as it was then,
    # here with the card about to be thrown away still in the hand.
    at, worst = next((i, d) for i, d in enumerate(expected) if d["move"]["type"] == "discard")
    step = next(i for i, m in enumerate(hand["moves"]) if m["version"] == worst["version"])
    await items.nth(at).get_by_role("button", name="Toon").click()
    replay = page.locator("#replay")
    await expect(replay.locator(".replay-step")).to_have_text(
        f"Zet {step} van {len(hand['moves'])}"
    )
    mine = replay.locator('.replay-hand[data-seat="0"] .card')
    await expect(mine).to_have_count(11)
    cards = await mine.evaluate_all("els => els.map((e) => e.dataset.card)")
    assert sorted(cards) == sorted([*HUMAN, worst["move"]["card"]])
    focus = replay.locator(".replay-focus")
    await expect(focus).to_contain_text(f"Hierna koos Anna: {in_words(worst['move'])}.")
    better = in_words(worst["better"])
    await expect(focus).to_contain_text(
        f"Computer (moeilijk): {better}." if isinstance(better, str) else "Computer (moeilijk): "
    )
    await screenshot(page, "review-replay-1366")
    await page.set_viewport_size(PHONE)
    await screenshot(page, "review-replay-375")
    await replay.get_by_role("button", name="Sluiten").click()
    await screenshot(page, "review-375")

    # The other language: the server's reason in English, without asking again.
    await page.locator("#lang-switch").click()
    await expect(review.locator("h3")).to_have_text("Where you could have won more")
    await expect(items.first.locator(".decision-reason")).to_have_text(
        f"Why: {expected[0]['reasons']['en']}"
    )
    await expect(items.first.locator(".decision-cost")).to_contain_text("Could have won about")


async def test_local_play_reviews_each_seat_held_on_the_device(pages, http) -> None:
    made = await new_room(http, "local", [HUMAN, BOT], ["5C"], stock_top=["6H", "9H", "6S"])
    room, tokens = made["room"], made["tokens"]
    # Anna throws the 6H instead of laying her run down; Bob's turn is one draw and a throw.
    for seat, move in [
        (0, {"type": "draw", "source": "stock"}),
        (0, {"type": "discard", "card": "6H"}),
        (1, {"type": "draw", "source": "stock"}),
        (1, {"type": "discard", "card": "9H"}),
        (0, {"type": "draw", "source": "stock"}),
        (0, {"type": "meld", "melds": MELDS}),
        (0, {"type": "discard", "card": "6S"}),
    ]:
        auth = {"Authorization": f"Bearer {tokens[seat]}"}
        version = (await http.get(f"/api/rooms/{room}/state", headers=auth)).json()["version"]
        done = await http.post(
            f"/api/rooms/{room}/moves", headers=auth, json={"move": move, "version": version}
        )
        assert done.status_code == 200, done.text

    # The device that made the room holds both seats (the lobby keeps every token).
    page = await pages.page(path="/", viewport=PHONE)
    game = {"room": room, "seat": 0, "token": tokens[0], "mode": "local", "variant": "classic"}
    game |= {"tokens": {"0": tokens[0], "1": tokens[1]}, "playerNames": ["Anna", "Bob"]}
    await page.evaluate(
        "game => localStorage.setItem('rummy.games', JSON.stringify({[game.room]: game}))", game
    )
    await page.goto(f"/r/{room}#seat={tokens[0]}")
    await page.get_by_role("button", name="Bespreek mijn hand").click()
    review = page.locator("#review")
    await expect(review.locator("h3")).to_have_text("Waar Anna meer had kunnen winnen")
    await expect(review).to_have_attribute("data-status", "ready", timeout=60_000)
    _, anna, _ = await costliest(http, room, tokens[0])
    assert anna, "throwing the 6H with a run ready costs points"
    assert await listed(review) == [[d["version"], d["cost"]] for d in anna[:3]]

    await review.get_by_role("button", name="Bob").click()
    await expect(review.locator("h3")).to_have_text("De duurste beslissingen van Bob")
    await expect(review).to_have_attribute("data-status", "ready", timeout=60_000)
    _, bob, _ = await costliest(http, room, tokens[1])
    assert await listed(review) == [[d["version"], d["cost"]] for d in bob[:3]]
    if not bob:
        await expect(review.locator(".review-none")).to_have_text(
            "Geen dure beslissingen: de moeilijke computer had het niet beter gedaan."
        )
    await screenshot(page, "review-local-375")
