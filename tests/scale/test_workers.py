"""`rummy serve --workers 2`: worker processes behind one port share rooms through Redis."""

from __future__ import annotations

from typing import Any

import pytest

from tests.kit.players import PLAYING, Chooser, SeatSocket, create_room, get_summary

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


async def test_workers_on_one_port_share_a_room(start_servers: Any) -> None:
    (server,) = start_servers(1, workers=2)
    room, tokens = await create_room(server.url, [server.url], seed=31)
    # Three sockets per seat: the kernel spreads them over the workers, and every one of
    # them must see every move, whichever worker accepted it.
    sockets = [await SeatSocket.open(server.url, room, i % 2, tokens[i % 2]) for i in range(6)]
    chooser = Chooser(seed=4)
    try:
        version = (await sockets[0].latest())["version"]
        for _ in range(16):
            views = [await s.state_at(version) for s in sockets]
            assert len({v["phase"] for v in views}) == 1
            if views[0]["phase"] not in PLAYING:
                break
            turn = views[0]["turn"]
            await sockets[turn].send_move(chooser.choose(views[turn]), version)
            version += 1
        final = [await s.state_at(version) for s in sockets]
        assert all(v["version"] == version for v in final)
        assert not any(s.errors for s in sockets)
        summary = await get_summary(server.url, room)
        assert [s["connected"] for s in summary["seats"]] == [True, True]
    finally:
        for s in sockets:
            await s.close()
