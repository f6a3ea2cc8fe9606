"""Names with control and format characters, on every database: NUL made PostgreSQL answer
a plain-text 500, and the right-to-left overrides let a name display as another. Both are
refused with 422 in the error shape, on create and on join, and nothing changes; ordinary
names in any script (emoji sequences joined by U+200D included) still pass."""

from __future__ import annotations

import httpx
import pytest

from tests.kit.responses import error_code, ok
from tests.kit.servers import LiveServer

REFUSED = {
    "NUL": "Ann\x00",
    "escape": "\x1b[31mAnn",
    "newline": "Ann\nBob",
    "DEL": "Ann\x7f",
    "C1 control": "Ann\x85",
    "right-to-left override": "Ann\u202egnp.exe",
    "left-to-right embedding": "\u202aAnn",
    "pop directional formatting": "Ann\u202c",
    "right-to-left isolate": "\u2067Ann\u2069",
    "first strong isolate": "\u2068Ann",
    "right-to-left mark": "Ann\u200f",
    "zero-width space": "A\u200bnn",
    "byte order mark": "\ufeffAnn",
    "tag character": "Ann\U000e0041",
    "line separator": "Ann\u2028Bob",
}
ACCEPTED = ["Zoë", "Ελένη", "محمد", "李雷", "👩\u200d👩\u200d👧", "می\u200cخواهم", "Ann O'Neil"]


def _assert_name_refused(r: httpx.Response) -> None:
    assert r.status_code == 422, (r.status_code, r.text[:300])
    assert r.headers["content-type"].startswith("application/json")
    assert error_code(r) == "invalid_request"
    assert "name" in r.json()["error"]["message"]


@pytest.mark.parametrize("name", REFUSED.values(), ids=REFUSED.keys())
async def test_a_control_or_format_character_in_a_name_is_refused(
    server: LiveServer, name: str
) -> None:
    async with httpx.AsyncClient(base_url=server, timeout=60) as http:
        _assert_name_refused(await http.post("/api/rooms", json={"name": name}))
        created = ok(await http.post("/api/rooms", json={"name": "Host"}), 201)
        room = created["room"]
        before = ok(await http.get(f"/api/rooms/{room}"))
        _assert_name_refused(await http.post(f"/api/rooms/{room}/join", json={"name": name}))
        # Nothing changed: the seat is still free and a proper name can take it.
        assert ok(await http.get(f"/api/rooms/{room}")) == before
        joined = await http.post(f"/api/rooms/{room}/join", json={"name": "Guest"})
        assert ok(joined, 201)["seat"] == 1


async def test_names_in_any_script_are_kept(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server, timeout=60) as http:
        for name in ACCEPTED:
            created = ok(await http.post("/api/rooms", json={"name": name}), 201)
            room = created["room"]
            ok(await http.post(f"/api/rooms/{room}/join", json={"name": name}), 201)
            seats = ok(await http.get(f"/api/rooms/{room}"))["seats"]
            assert [s["name"] for s in seats] == [name, name]
