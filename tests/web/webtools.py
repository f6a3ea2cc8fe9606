"""Constants and helpers of the browser tests (fixtures are in conftest.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 375, "height": 740}


async def screenshot(page: Any, name: str, settled: bool = True) -> Path:
    """A full-page PNG in SCREENSHOTS; `settled`: once no card is in flight (motion.js)."""
    if settled:
        from playwright.async_api import expect

        await expect(page.locator("#flights > *")).to_have_count(0)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    await page.screenshot(path=str(path), full_page=True)
    return path


async def meld(page: Any, *groups: list[str]) -> None:
    """Lay down `groups` in one "Uitleggen": each but the last staged with "+ Groep"."""
    for i, group in enumerate(groups):
        for code in group:
            await page.locator(f'#hand .card[data-card="{code}"]').click()
        if i < len(groups) - 1:
            await page.get_by_role("button", name="+ Groep").click()
    await page.get_by_role("button", name="Uitleggen").click()


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    """Whether two bounding boxes share any area."""
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )
