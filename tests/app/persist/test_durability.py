"""`rummy serve` as a process: kill -9 it mid-hand, start it again on the same database,
and every acknowledged move is still there and the game goes on."""

from __future__ import annotations

import os
import signal
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from tests.kit.clients import Api
from tests.kit.deals import MELDS, OUT_IN_ONE_TURN, fixed_deal
from tests.kit.ports import free_port
from tests.kit.processes import RUMMY, wait_serving
from tests.kit.responses import ok
from tests.kit.rooms import online_room


def _stderr_text(process: subprocess.Popen[bytes]) -> str:
    return process.stderr.read().decode() if process.stderr else ""


@contextmanager
def serve(database: Path, port: int) -> Iterator[subprocess.Popen[bytes]]:
    env = {
        **os.environ,
        "RUMMY_DATABASE_URL": f"sqlite+aiosqlite:///{database}",
        "RUMMY_ALLOW_FIXED_DEALS": "1",
    }
    process = subprocess.Popen(
        [RUMMY, "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        wait_serving(f"http://127.0.0.1:{port}", process, lambda: _stderr_text(process))
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()
        if process.stderr:
            process.stderr.close()


async def test_acknowledged_moves_survive_kill_9(tmp_path: Path) -> None:

    database, port = tmp_path / "durable.db", free_port()
    deal = fixed_deal("classic", players=2, hands=OUT_IN_ONE_TURN["classic"], stock_top=["KS"])
    with serve(database, port) as process:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http:
            api = Api(http)
            room, tokens = await online_room(api, variant="classic", deal=deal)
            ok(await api.move(room, tokens[0], {"type": "draw", "source": "stock"}, 0))
            acked = ok(
                await api.move(room, tokens[0], {"type": "meld", "melds": MELDS["classic"]}, 1)
            )
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
    with serve(database, port):
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http:
            api = Api(http)
            view = ok(await api.state(room, tokens[0]))
            assert view == {**acked, "seats": view["seats"]}
            assert view["version"] == 2 and view["hand"] == ["KS"]
            done = ok(await api.move(room, tokens[0], {"type": "discard", "card": "KS"}, 2))
            assert done["phase"] == "hand_over" and done["hand_result"]["winner"] == 0
            log = ok(await api.log(room, tokens[1]))
            assert [m["version"] for m in log["hands"][0]["moves"]] == [1, 2, 3]
