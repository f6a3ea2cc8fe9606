"""Every database session and transaction is opened in app/persist/: the rest of app/ and
bots/ read and write through the `Store` (app/persist/store.py), whose writes are defined
once and, on SQLite, ordered by the writer process. A module outside it that names
`AsyncSession`, `async_sessionmaker` or `engine.begin` bypasses both."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
BYPASS = re.compile(
    r"\bAsyncSession\b|\basync_sessionmaker\b|\bengine\.begin\(|\bengine\.connect\("
)
# Outside the store by design, each before any store exists: the engine and its sessions'
# factory are made in db.py (the store is built from them), migrate.py changes the schema,
# and keycheck.py reads one sealed row to check the key before the server starts.
MAKERS = {"app/db.py", "app/migrate.py", "app/keycheck.py"}


def bypasses(roots: tuple[str, ...]) -> list[str]:
    found = []
    for root in roots:
        for path in sorted((ROOT / root).rglob("*.py")):
            where = path.relative_to(ROOT).as_posix()
            if where.startswith("app/persist/") or where in MAKERS:
                continue
            for number, line in enumerate(path.read_text().splitlines(), 1):
                if BYPASS.search(line):
                    found.append(f"{where}:{number}: {line.strip()}")
    return found


def test_no_session_or_transaction_is_opened_outside_app_persist() -> None:
    assert bypasses(("app", "bots")) == []


def test_the_scan_finds_a_session_opened_elsewhere(tmp_path: Path) -> None:
    line = "async with self._sessions.begin() as session:  # AsyncSession"
    assert BYPASS.search(line) and BYPASS.search("async with engine.begin() as conn:")
    assert not BYPASS.search("await self._store.add_chat(room, seat, name, text, now)")
