"""axe-core finds no serious or critical accessibility violation on the lobby, a table in
the middle of a hand, the hand end with its review open, its replay (a move, and the end
with the result) and a challenge's page, at 375 and 1366 px. axe-core comes from the test
extra's axe-playwright-python, which ships axe.min.js."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.async_api import expect

from tests.kit.browsers import axe_script
from tests.kit.deals import BOT, HUMAN
from tests.kit.rooms import computer_room

pytestmark = pytest.mark.browser


async def serious(page: Any, where: str) -> list[str]:
    """The serious and critical violations axe finds on the page as it is now."""
    await page.add_script_tag(path=str(axe_script()))
    # label-content-name-mismatch is experimental, so off unless asked for: a voice-control
    # user says what they see ("click 5♠"), which must be in the control's name.
    found = await page.evaluate(
        """async () => (await axe.run(document, {
          rules: { "label-content-name-mismatch": { enabled: true } },
        })).violations"""
    )
    return [
        f"{where}: {v['id']} ({v['impact']}) {[n['html'][:200] for n in v['nodes'][:4]]}"
        for v in found
        if v["impact"] in ("serious", "critical")
    ]


@pytest.mark.parametrize("width", [375, 1366])
async def test_no_serious_or_critical_violations(pages, http, width) -> None:
    # The pages' CSP refuses injected scripts; axe comes in with it bypassed.
    ctx = await pages.context(viewport={"width": width, "height": 800}, bypass_csp=True)
    problems: list[str] = []

    lobby = await pages.page(ctx=ctx, path="/")
    await expect(lobby.locator("#lobby-form")).to_be_visible()
    problems += await serious(lobby, "lobby")

    game = await computer_room(http, [HUMAN, BOT], discard=["8C"], stock_top=["9C"])
    page = await pages.page(ctx=ctx, path=f"/r/{game['room']}#seat={game['token']}")
    await page.locator('[data-action="draw"][data-source="stock"]').click()
    await expect(page.locator("#hand .card")).to_have_count(11)
    await page.locator('#hand .card[data-card="AH"]').click()
    await expect(page.get_by_role("heading", level=1)).to_have_count(1)
    problems += await serious(page, "table")

    for code in HUMAN[1:4]:  # AH is selected already: the run is AH 2H 3H 4H
        await page.locator(f'#hand .card[data-card="{code}"]').click()
    await page.get_by_role("button", name="+ Groep").click()
    for code in HUMAN[4:7]:
        await page.locator(f'#hand .card[data-card="{code}"]').click()
    await page.get_by_role("button", name="+ Groep").click()
    for code in HUMAN[7:]:
        await page.locator(f'#hand .card[data-card="{code}"]').click()
    await page.get_by_role("button", name="Uitleggen").click()
    await page.locator('#hand .card[data-card="9C"]').click()
    await page.get_by_role("button", name="Afleggen").click()
    await expect(page.locator("#hand-end")).to_be_visible()
    problems += await serious(page, "hand end")

    await page.get_by_role("button", name="Bespreek mijn hand").click()
    await expect(page.locator("#review")).to_have_attribute("data-status", "ready", timeout=60_000)
    problems += await serious(page, "hand end with its review")

    await page.get_by_role("button", name="Herhaling").click()
    await expect(page.locator("#replay")).to_be_visible()
    await page.get_by_role("button", name="Volgende", exact=True).click()
    problems += await serious(page, "replay")
    await page.keyboard.press("End")
    await expect(page.locator("#replay-result")).to_be_visible()
    problems += await serious(page, "replay's end")

    # A challenge's page as its maker sees it: one link per friend (docs/api.md v1.3).
    challenge = await pages.page(ctx=ctx, path="/")
    await challenge.locator("#name").fill("Anna")
    await challenge.locator("#mode-computer").check()
    await challenge.get_by_role("button", name="Daag een vriend uit").click()
    await challenge.wait_for_url("**/c/*")
    await expect(challenge.locator("#challenge-table")).to_be_visible()
    problems += await serious(challenge, "challenge")
    # Its share field is styled like the table's invitation (it was a bare input).
    share = challenge.locator("#challenge-url")
    assert (await share.bounding_box() or {}).get("height", 0) >= 44
    assert not problems, "\n".join(problems)
