"""`HEAD` on every GET route answers what `GET` answers, without the body."""

from __future__ import annotations

import httpx

from tests.kit.clients import Api
from tests.kit.responses import ok
from tests.kit.rooms import online_room
from tests.kit.servers import LiveServer


async def test_head_answers_like_get_without_a_body(live_server: LiveServer) -> None:
    # Uncompressed, so that `content-length` counts the bytes httpx hands back.
    identity = {"Accept-Encoding": "identity"}
    async with httpx.AsyncClient(base_url=live_server, timeout=30, headers=identity) as http:
        room, tokens = await online_room(Api(http))
        auth = {"Authorization": f"Bearer {tokens[0]}"}
        paths = [
            ("/", {}),
            (f"/r/{room}", {}),
            ("/web/js/api.js", {}),
            ("/healthz", {}),
            ("/openapi.json", {}),
            ("/api/variants", {}),
            (f"/api/rooms/{room}", {}),
            (f"/api/rooms/{room}/state", auth),
            (f"/api/rooms/{room}/log", auth),
            (f"/api/rooms/{room}/state", {}),  # 401 either way
            ("/api/rooms/nosuchroom", {}),  # 404 either way
            ("/api/rooms", {}),  # POST only: 405 either way
        ]
        for path, headers in paths:
            got = await http.get(path, headers=headers)
            head = await http.head(path, headers=headers)
            assert head.status_code == got.status_code, (path, head.status_code, got.status_code)
            assert head.content == b"", path
            assert head.headers.get("content-type") == got.headers.get("content-type"), path
            length = head.headers.get("content-length")
            assert length is None or int(length) == len(got.content), path
        assert (await http.head("/api/variants")).status_code == 200


async def test_head_adds_no_operations_to_the_openapi(live_server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=live_server, timeout=30) as http:
        schema = ok(await http.get("/openapi.json"))
    assert all("head" not in ops for ops in schema["paths"].values())
