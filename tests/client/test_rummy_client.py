"""rummy_client against a live server: the README's example runs as printed and passes
`mypy --strict` (the client is typed: py.typed), refusals come back as typed errors, the
socket's frames as typed models; and the client stands alone: importing it loads nothing
of the server, and its wheel installs two packages, `rummy_client` and `rummy_wire`."""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import rummy_client
from rummy_client import ApiError, Draw, RoomView, Rummy
from rummy_client.models import PongFrame, PresenceFrame, StateFrame
from tests.kit.servers import LiveServer

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
# What a script importing the client must not drag in: the server and its dependencies.
SERVER_SIDE = {"app", "rules", "bots", "fastapi", "starlette", "uvicorn", "sqlalchemy",
               "alembic", "cryptography", "limits", "aiosqlite"}  # fmt: skip


def _readme_example(server: str, where: Path) -> Path:
    [code] = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), re.S)[:1]
    path = where / "example.py"
    path.write_text(code.replace("http://127.0.0.1:8000", server))
    return path


def test_the_readme_example_runs_as_printed(live_server: LiveServer, tmp_path: Path) -> None:
    example = _readme_example(str(live_server), tmp_path)
    done = subprocess.run(
        [sys.executable, str(example)], capture_output=True, text=True, timeout=240, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("hand over: ") and "scores: (" in done.stdout


def test_the_readme_example_type_checks_strictly(tmp_path: Path) -> None:
    example = _readme_example("http://127.0.0.1:8000", tmp_path)
    done = subprocess.run(
        [str(BIN / "mypy"), "--strict", "--no-incremental", str(example)],
        capture_output=True,
        text=True,
        timeout=240,
        cwd=tmp_path,  # no project configuration: the installed client as a user has it
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_importing_the_client_loads_nothing_of_the_server() -> None:
    probe = "import rummy_client, sys; print(' '.join({m.split('.')[0] for m in sys.modules}))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    loaded = set(done.stdout.split())
    assert "rummy_wire" in loaded and loaded & SERVER_SIDE == set()


def test_the_client_wheel_installs_its_two_packages(tmp_path: Path) -> None:
    uv = BIN / "uv"
    done = subprocess.run(
        [str(uv), "build", "--wheel", "--out-dir", str(tmp_path), str(ROOT / "client")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    [wheel] = tmp_path.glob("rummy_client-*.whl")
    names = {n.split("/")[0] for n in zipfile.ZipFile(wheel).namelist()}
    assert {n for n in names if not n.endswith(".dist-info")} == {"rummy_client", "rummy_wire"}
    files = set(zipfile.ZipFile(wheel).namelist())
    assert {"rummy_client/py.typed", "rummy_wire/py.typed"} <= files


async def test_refusals_are_typed_errors(live_server: LiveServer) -> None:
    async with Rummy(live_server) as rummy:
        with pytest.raises(ApiError) as missing:
            await rummy.get_room("nosuchroom")
        assert (missing.value.status, missing.value.code) == (404, "room_not_found")
        seat = await rummy.create_room("basic", players=2, name="Ann")
        assert seat.created is not None and seat.created.invite_url.endswith(seat.seat.room)
        other = await rummy.join_room(seat.seat.room, "Bob")
        view = await seat.get_state()
        if view.turn != 0:
            seat, view = other, await other.get_state()  # the seat to draw first
        assert view.variant == "basic" and view.legal is not None
        drawn = await seat.post_move(Draw(source="stock"), view.version)
        assert drawn.version == view.version + 1 and drawn.last_move is not None
        assert drawn.last_move.move == {"type": "draw", "source": "stock"}
        with pytest.raises(ApiError) as stale:
            await seat.post_move(Draw(source="stock"), view.version)
        assert stale.value.code == "stale_version"
        assert isinstance(stale.value.state, RoomView)
        assert stale.value.state.version == drawn.version
        with pytest.raises(ApiError) as illegal:
            await seat.post_move(Draw(source="stock"), drawn.version)
        assert illegal.value.status == 409 or illegal.value.status == 422
        variants = await rummy.list_variants()
        assert {v.name for v in variants} == {"classic", "basic", "rummy51"}


async def test_the_socket_speaks_typed_frames(live_server: LiveServer) -> None:
    async with Rummy(live_server) as rummy:
        seat = await rummy.create_room("rummy51", players=2, name="Ann")
        other = await rummy.join_room(seat.seat.room, "Bob")
        if (await seat.get_state()).turn != 0:
            seat, other = other, seat  # the seat to draw first opens the socket
        async with seat.socket() as ws, asyncio.timeout(60):
            frames = ws.frames()
            first = await anext(frames)
            assert isinstance(first, StateFrame) and isinstance(first.state, RoomView)
            assert isinstance(await anext(frames), PresenceFrame)
            await ws.ping()
            assert isinstance(await anext(frames), PongFrame)
            version = first.state.version
            await ws.move(Draw(source="stock"), version)
            async for frame in frames:
                if isinstance(frame, StateFrame) and frame.state.version > version:
                    assert frame.state.hand and frame.state.phase == "play"
                    break
        assert isinstance(frame, StateFrame)
        mine = frame.state
        assert (await other.get_state()).hand_counts[mine.seat] == len(mine.hand)


def test_the_client_exports_what_docs_names() -> None:
    for name in ("Rummy", "SeatClient", "SeatSocket", "sockets", "simple_player", "ApiError"):
        assert hasattr(rummy_client, name), name
