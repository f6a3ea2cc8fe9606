"""GET /api/rooms/{room}/hint: the hard bot's move for the seat on turn, and why."""

from __future__ import annotations

import rules
from bots.client import to_view
from tests.kit.clients import Api
from tests.kit.responses import error_code, ok


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def test_a_hint_is_a_legal_move_with_reasons_in_both_languages(api: Api) -> None:
    created = ok(await api.create(variant="rummy51", players=2, mode="local", seed=4), 201)
    room, tokens = created["room"], created["tokens"]
    for _ in range(6):  # a draw, then the plays and the discard of the turn
        view = ok(await api.state(room, tokens[0]))
        if view["turn"] != 0 or view["phase"] not in ("draw", "play"):
            break
        hint = ok(await api.http.get(f"/api/rooms/{room}/hint", headers=_auth(tokens[0])))
        legal = list(rules.legal_moves(to_view(view)))
        move = rules.parse_move(hint["move"])
        assert move in legal
        assert hint["reasons"]["en"] and hint["reasons"]["nl"]
        assert hint["reason"] == hint["reasons"]["en"]
        ok(await api.move(room, tokens[0], hint["move"], view["version"]))
    dutch = await api.http.get(f"/api/rooms/{room}/hint?lang=nl", headers=_auth(tokens[1]))
    assert ok(dutch)["reason"] == ok(dutch)["reasons"]["nl"]


async def test_no_hint_on_another_seats_turn_or_without_a_token(api: Api) -> None:
    created = ok(await api.create(variant="classic", mode="local", seed=5), 201)
    room, tokens = created["room"], created["tokens"]
    other = await api.http.get(f"/api/rooms/{room}/hint", headers=_auth(tokens[1]))
    assert error_code(other, 409) == "not_your_turn"
    assert error_code(await api.http.get(f"/api/rooms/{room}/hint"), 401) == "unauthorized"
