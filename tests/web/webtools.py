"""Constants and helpers of the browser tests (fixtures are in conftest.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 375, "height": 740}


async def screenshot(page: Any, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    await page.screenshot(path=str(path), full_page=True)
    return path
