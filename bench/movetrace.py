"""Which project functions one REST discard runs through: the move path's breadth.

It starts the app in this process on a fresh SQLite file (migrated, as `rummy serve` does),
creates a two-seat local room, plays a warm-up turn (seat 0 draws and discards: the caches
are then as in steady state) and seat 1's draw, then traces seat 1's discard, one
`POST /api/rooms/{room}/moves` sent through the ASGI app (httpx's ASGITransport, the
guards' middleware included), with `sys.setprofile`. Prints how many distinct functions of
`rules/`, `app/` and `bots/` ran, how many calls they made, and the list (file:line name,
calls), so a change that widens the move path shows here.

    .venv/bin/python bench/movetrace.py [--variant basic] [--json]

Only the event loop's thread is traced: the SQLite writer is a process of its own.
"""

from __future__ import annotations

import argparse
import asyncio
import dis
import inspect
import json
import shutil
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PACKAGES = ("rules", "app", "bots")


def _project_file(filename: str) -> str | None:
    """`filename` relative to the repository when it is a module of `PACKAGES`, else None."""
    try:
        relative = Path(filename).resolve().relative_to(ROOT)
    except ValueError:
        return None
    return str(relative) if relative.parts[0] in PACKAGES else None


@contextmanager
def traced(calls: Counter[str]) -> Iterator[None]:
    """Count each project function's calls (a coroutine or generator resumed is no new call)."""
    names: dict[CodeType, tuple[str, int] | None] = {}

    def profile(frame: FrameType, event: str, _arg: object) -> None:
        if event != "call":
            return
        code = frame.f_code
        if code in names:
            known = names[code]
        else:
            where = _project_file(code.co_filename)
            known = names[code] = (
                None
                if where is None
                else (f"{where}:{code.co_firstlineno} {code.co_qualname}", _first_resume(code))
            )
        if known is not None and frame.f_lasti <= known[1]:
            calls[known[0]] += 1

    sys.setprofile(profile)
    try:
        yield
    finally:
        sys.setprofile(None)


def _first_resume(code: CodeType) -> int:
    """The offset at which a fresh frame of `code` starts running: a frame reported past it
    is a coroutine or generator being resumed, not called."""
    if not code.co_flags & (
        inspect.CO_COROUTINE | inspect.CO_GENERATOR | inspect.CO_ASYNC_GENERATOR
    ):
        return sys.maxsize
    for instruction in dis.get_instructions(code):
        if instruction.opname == "RESUME":
            return instruction.offset
    return sys.maxsize


async def trace(variant: str) -> Counter[str]:
    folder = tempfile.mkdtemp(prefix="movetrace-")
    try:
        return await _trace(variant, f"sqlite+aiosqlite:///{folder}/rummy.db")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


async def _trace(variant: str, url: str) -> Counter[str]:
    import httpx

    from app import migrate
    from app.config import Settings
    from app.db import create_engine
    from app.main import create_app

    engine = create_engine(url)
    await migrate.upgrade(engine)
    await engine.dispose()
    # The periodic tasks (turn timer, healing, purge) wait an hour: a scan that happened to
    # fall within the traced request is not the move's path, and made the figure vary.
    quiet = 3600.0
    settings = Settings(
        database_url=url,
        timer_interval_seconds=quiet,
        heal_interval_seconds=quiet,
        purge_interval_seconds=quiet,
    )
    app = create_app(settings)
    calls: Counter[str] = Counter()
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app, client=("127.0.0.1", 50000))
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            body = {"variant": variant, "players": 2, "mode": "local", "name": "trace"}
            created = (await client.post("/api/rooms", json=body)).json()
            room, tokens = created["room"], created["tokens"]

            async def play(seat: int, kind: str, *, trace: bool = False) -> None:
                """Seat `seat` draws from the stock or discards what its view allows."""
                auth = {"Authorization": f"Bearer {tokens[seat]}"}
                view = (await client.get(f"/api/rooms/{room}/state", headers=auth)).json()
                move: dict[str, Any] = {"type": "draw", "source": "stock"}
                if kind == "discard":
                    move = {"type": "discard", "card": view["legal"]["discard"][0]}
                url, payload = (
                    f"/api/rooms/{room}/moves",
                    {"move": move, "version": view["version"]},
                )
                if trace:
                    with traced(calls):
                        answer = await client.post(url, json=payload, headers=auth)
                else:
                    answer = await client.post(url, json=payload, headers=auth)
                answer.raise_for_status()

            await play(0, "draw")
            await play(0, "discard")  # the warm-up: every cache on the path is filled
            await play(1, "draw")
            await play(1, "discard", trace=True)
    return calls


# Comprehensions' own code objects: Python 3.12 inlines them (PEP 709), so they are no
# functions of their own there; counted apart so that the figure means the same on either.
COMPREHENSIONS = ("<listcomp>", "<setcomp>", "<dictcomp>", "<genexpr>")


def _area(name: str) -> str:
    """`app/rooms`, `app/persist`, `rules`...: the folder a traced function lives in."""
    parts = name.split(" ", 1)[0].split(":")[0].split("/")
    return "/".join(parts[:2]) if parts[0] == "app" and len(parts) > 2 else parts[0]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--variant", default="basic")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    calls = asyncio.run(trace(args.variant))
    functions = {n: c for n, c in calls.items() if not n.endswith(COMPREHENSIONS)}
    areas = Counter(_area(n) for n in functions)
    if args.json:
        figures = {
            "functions": len(functions),
            "calls": sum(functions.values()),
            "with_comprehensions": len(calls),
            "areas": areas,
            "list": calls,
        }
        print(json.dumps(figures, indent=1))
        return
    print(
        f"one REST discard: {len(functions)} distinct project functions, "
        f"{sum(functions.values())} calls ({len(calls)} with comprehensions and generator "
        "expressions)"
    )
    print("  by area: " + ", ".join(f"{area} {n}" for area, n in areas.most_common()))
    for name, n in sorted(calls.items()):
        print(f"  {n:3d}  {name}")


if __name__ == "__main__":
    main()
