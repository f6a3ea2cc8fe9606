"""The scout of a challenge (docs/api.md v1.3 "Challenge invitations"): on a869841 anyone with a
challenge's link could play it as often as they liked, under any name, every entry dealt the
same cards, so a throw-away entry learnt the deals from its own log and the next entry
played them knowing. Now an entry starts only from an invitation, once; a second use is 409
`invite_spent`, none or a made-up one 403, and the results list every entry from its start,
the scout's abandoned one too, under its invitation's name."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from tests.kit.clients import bearer
from tests.kit.responses import error_code, ok
from tests.kit.servers import LiveServer


async def _challenge(http: httpx.AsyncClient) -> dict[str, Any]:
    made = {"variant": "classic", "players": 2, "bots": {"1": "greedy"}, "name": "Anna"}
    return dict(ok(await http.post("/api/challenges", json=made), 201))


async def test_a_scout_cannot_play_a_challenge_twice(live_server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=live_server, timeout=60) as http:
        anna = await _challenge(http)
        cid = anna["challenge"]
        play = f"/api/challenges/{cid}/play"
        link = {"name": "Sam", "invite": anna.get("invite")}

        # The scout has Anna's link: one entry, which it plays a little and abandons.
        scout = ok(await http.post(play, json=link), 201)
        view = ok(
            await http.get(f"/api/rooms/{scout['room']}/state", headers=bearer(scout["token"]))
        )
        move = {"move": {"type": "draw", "source": "stock"}, "version": view["version"]}
        ok(
            await http.post(
                f"/api/rooms/{scout['room']}/moves", json=move, headers=bearer(scout["token"])
            )
        )

        # Again with the same link, under another name: refused, and nothing is made.
        again = await http.post(play, json={**link, "name": "Not Sam"})
        assert again.status_code == 409 and error_code(again) == "invite_spent", again.text
        assert anna["challenge_url"].endswith(f"/c/{cid}?invite={anna['invite']}")
        # No link at all, or one made up: refused.
        for sent in ({"name": "Eve"}, {}, {"name": "Eve", "invite": "x" * 22}, {"invite": ""}):
            refused = await http.post(play, json=sent)
            assert refused.status_code == 403 and error_code(refused) == "forbidden", refused.text
        assert (await http.post(play)).status_code == 403

        # The abandoned entry is listed from its start, with the invitation's name.
        result = ok(await http.get(f"/api/challenges/{cid}"))
        entries = result["entries"]
        assert [(e["name"], e["invite_name"], e["finished"]) for e in entries] == [
            ("Anna", None, False),
            ("Sam", "Friend", False),
        ]
        assert entries[1]["room"] == scout["room"] and entries[1]["hands"] == []


async def test_only_the_owner_makes_invitations_each_good_once(live_server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=live_server, timeout=60) as http:
        anna = await _challenge(http)
        other = await _challenge(http)
        cid = anna["challenge"]
        invites = f"/api/challenges/{cid}/invites"
        # Without the owner secret, with a wrong one, with another challenge's: refused.
        no = await http.post(invites, json={"name": "Bob"})
        assert no.status_code == 401 and error_code(no) == "unauthorized"
        for wrong in ("not-the-owner", other["owner"], anna["token"], anna["invite"]):
            refused = await http.post(invites, json={"name": "Bob"}, headers=bearer(wrong))
            assert refused.status_code == 403 and error_code(refused) == "forbidden"
        missing = await http.post("/api/challenges/nope/invites", headers=bearer(anna["owner"]))
        assert missing.status_code == 404 and error_code(missing) == "challenge_not_found"

        made = ok(
            await http.post(invites, json={"name": "Bob"}, headers=bearer(anna["owner"])), 201
        )
        assert made["name"] == "Bob" and made["url"].endswith(f"/c/{cid}?invite={made['invite']}")
        # Another challenge's invitation does not open this one.
        play = f"/api/challenges/{cid}/play"
        wrong = await http.post(play, json={"invite": other["invite"]})
        assert wrong.status_code == 403 and error_code(wrong) == "forbidden"
        # Bob's link, used by two tabs at once: exactly one entry.
        raced = await asyncio.gather(
            *(
                http.post(play, json={"name": f"Bob {i}", "invite": made["invite"]})
                for i in range(4)
            )
        )
        assert sorted(r.status_code for r in raced) == [201, 409, 409, 409], [r.text for r in raced]
        entries = ok(await http.get(f"/api/challenges/{cid}"))["entries"]
        assert [e["invite_name"] for e in entries] == [None, "Bob"]
        # The other challenge still works with its own link.
        ok(
            await http.post(
                f"/api/challenges/{other['challenge']}/play", json={"invite": other["invite"]}
            ),
            201,
        )


@pytest.mark.parametrize("name", ["a\ud800b", "\u200b", "\u3164", "x" * 41])
async def test_invitation_names_follow_the_text_policy(live_server: LiveServer, name: str) -> None:
    import json

    async with httpx.AsyncClient(base_url=live_server, timeout=60) as http:
        anna = await _challenge(http)
        sent = await http.post(
            f"/api/challenges/{anna['challenge']}/invites",
            content=json.dumps({"name": name}),
            headers={**bearer(anna["owner"]), "content-type": "application/json"},
        )
        assert sent.status_code == 422, sent.text
