"""Cheating attempts over real HTTP and websockets: acting for another seat, replaying an old
message, taking a seat twice, joining a full room, guessing room ids and tokens, reading the
stock or a later hand from any response, and errors that would tell where a card is."""

from __future__ import annotations

import asyncio
import hashlib
import re
import sqlite3
from typing import Any

import httpx

import rules
from rules.shuffle import commitment, hand_seed
from tests.kit.clients import bearer, seat_socket
from tests.kit.deals import fixed_deal
from tests.kit.responses import error_code, ok
from tests.kit.rooms import online_room
from tests.kit.servers import LiveServer

DRAW = {"type": "draw", "source": "stock"}
# Seat 0 goes out in its first turn: draw, meld all ten, discard the card drawn.
OUT_HAND = ["AH", "2H", "3H", "4C", "4D", "4S", "7S", "8S", "9S", "TS"]
OUT_MELDS = [["AH", "2H", "3H"], ["4C", "4D", "4S"], ["7S", "8S", "9S", "TS"]]


async def _state(http: httpx.AsyncClient, room: str, token: str) -> dict[str, Any]:
    return dict(ok(await http.get(f"/api/rooms/{room}/state", headers=bearer(token))))


async def _move(
    http: httpx.AsyncClient, room: str, token: str, move: dict[str, Any], version: int, **extra: Any
) -> httpx.Response:
    return await http.post(
        f"/api/rooms/{room}/moves",
        json={"move": move, "version": version, **extra},
        headers=bearer(token),
    )


async def test_a_token_acts_only_for_its_own_seat(http: httpx.AsyncClient) -> None:
    room, tokens = await online_room(http, "basic", 3, seed=8001)
    other_room, other_tokens = await online_room(http, "basic", 3, seed=8001)
    before = await _state(http, room, tokens[0])
    version = before["version"]
    # Seat 0 is to move; seats 1 and 2 try to move in its place, however they dress it up.
    for token in tokens[1:]:
        for extra in ({}, {"seat": 0}, {"as_seat": 0}):
            r = await _move(http, room, token, DRAW, version, **extra)
            assert r.status_code == 409 and error_code(r) == "not_your_turn"
    # A seat of another room, even the one to move there, is refused here.
    r = await _move(http, room, other_tokens[0], DRAW, version)
    assert r.status_code == 403 and error_code(r) == "forbidden"
    for headers in ({}, {"Authorization": "Bearer"}, {"Authorization": tokens[0]}):
        r = await http.post(
            f"/api/rooms/{room}/moves", json={"move": DRAW, "version": version}, headers=headers
        )
        assert r.status_code == 401 and error_code(r) == "unauthorized"
    # Seat 1 cannot read seat 0's hand with its own token or a forged one.
    assert (await _state(http, room, tokens[1]))["seat"] == 1
    assert await _state(http, room, tokens[0]) == before
    assert (await _state(http, other_room, other_tokens[0]))["version"] == version


async def test_a_replayed_move_is_stale(live_server: LiveServer, http: httpx.AsyncClient) -> None:
    room, tokens = await online_room(http, "classic", 2, seed=8002)
    async with seat_socket(live_server, room, tokens[0]) as seat:
        version = (await seat.state())["version"]
        draw = {"type": "move", "move": DRAW, "version": version}
        await seat.send(draw)
        after_draw = await seat.state(version + 1)
        discard = {"type": "discard", "card": after_draw["hand"][0]}
        await seat.send({"type": "move", "move": discard, "version": version + 1})
        after = await seat.state(version + 2)
        # An eavesdropper (or a bug) sends the old frames again: both are stale.
        for frame in (draw, {"type": "move", "move": discard, "version": version + 1}):
            await seat.send(frame)
            error = await seat.until(lambda f: f["type"] == "error")
            assert error["error"]["code"] == "stale_version"
            assert (await seat.state())["version"] == version + 2
    # The same over REST, and the 409 carries the current view to resync.
    r = await _move(http, room, tokens[0], DRAW, version)
    assert r.status_code == 409 and error_code(r) == "stale_version"
    assert r.json()["state"]["version"] == version + 2
    assert r.json()["state"]["hand"] == after["hand"]
    assert (await _state(http, room, tokens[0]))["hand"] == after["hand"]


async def test_concurrent_joins_never_share_a_seat(http: httpx.AsyncClient) -> None:
    created = ok(await http.post("/api/rooms", json={"variant": "basic", "players": 4}), 201)
    room = created["room"]
    answers = await asyncio.gather(
        *(http.post(f"/api/rooms/{room}/join", json={"name": f"J{i}"}) for i in range(12))
    )
    joined = [r.json() for r in answers if r.status_code == 201]
    refused = [r for r in answers if r.status_code != 201]
    assert sorted(j["seat"] for j in joined) == [1, 2, 3]
    assert len({j["token"] for j in joined} | {created["token"]}) == 4
    assert len(refused) == 9 and all(error_code(r) == "room_full" for r in refused)
    for j in joined:
        assert (await _state(http, room, j["token"]))["seat"] == j["seat"]
    summary = ok(await http.get(f"/api/rooms/{room}"))
    assert [s["taken"] for s in summary["seats"]] == [True] * 4


async def test_a_full_room_refuses_joins_and_changes_nothing(http: httpx.AsyncClient) -> None:
    room, tokens = await online_room(http, "classic", 2, seed=8003)
    before = ok(await http.get(f"/api/rooms/{room}"))
    for _ in range(3):
        r = await http.post(f"/api/rooms/{room}/join", json={"name": "Mallory"})
        assert r.status_code == 409 and error_code(r) == "room_full"
    assert ok(await http.get(f"/api/rooms/{room}")) == before
    # Bot seats and local seats are taken too.
    for extra in ({"mode": "computer"}, {"mode": "local"}):
        created = ok(await http.post("/api/rooms", json={"variant": "basic", **extra}), 201)
        r = await http.post(f"/api/rooms/{created['room']}/join", json={})
        assert r.status_code == 409 and error_code(r) == "room_full"


async def test_two_sockets_of_one_seat_are_still_one_seat(
    live_server: LiveServer, http: httpx.AsyncClient
) -> None:
    room, tokens = await online_room(http, "classic", 2, seed=8004)
    async with (
        seat_socket(live_server, room, tokens[1]) as a,
        seat_socket(live_server, room, tokens[1]) as b,
    ):
        assert (await a.state())["seat"] == (await b.state())["seat"] == 1
        view = await _state(http, room, tokens[1])
        for sock in (a, b):
            await sock.send({"type": "move", "move": DRAW, "version": view["version"]})
            assert (await sock.until(lambda f: f["type"] == "error"))["error"][
                "code"
            ] == "not_your_turn"
    summary = ok(await http.get(f"/api/rooms/{room}"))
    assert [s["taken"] for s in summary["seats"]] == [True, True]


async def test_room_ids_and_tokens_are_long_random_and_stored_hashed(
    live_server: LiveServer, http: httpx.AsyncClient
) -> None:
    rooms, tokens = set(), set()
    for _ in range(20):
        created = ok(await http.post("/api/rooms", json={"variant": "classic"}), 201)
        rooms.add(created["room"])
        tokens.add(created["token"])
        # URL-safe base64: 6 bits a character; a room id carries >= 64 bits, a token >= 128.
        assert re.fullmatch(r"[A-Za-z0-9_-]{11,}", created["room"])
        assert re.fullmatch(r"[A-Za-z0-9_-]{22,}", created["token"])
    assert len(rooms) == len(tokens) == 20
    database = live_server.database_url.split("///", 1)[1]
    with sqlite3.connect(database) as db:
        stored = "\n".join(str(row) for row in db.execute("select * from seats"))
    for token in tokens:
        assert token not in stored
        assert hashlib.sha256(token.encode()).hexdigest() in stored


async def test_guessed_rooms_and_tokens_learn_nothing(http: httpx.AsyncClient) -> None:
    room, tokens = await online_room(http, "classic", 2, seed=8005)
    guesses = ["AAAAAAAAAAAA", room[:-1] + ("A" if room[-1] != "A" else "B"), room.upper()]
    for guess in guesses:
        if guess == room:
            continue
        for method, path, data in [
            ("GET", "", None),
            ("GET", "/state", None),
            ("GET", "/log", None),
            ("POST", "/join", {}),
            ("POST", "/moves", {"move": DRAW, "version": 0}),
        ]:
            r = await http.request(
                method, f"/api/rooms/{guess}{path}", json=data, headers=bearer(tokens[0])
            )
            assert r.status_code == 404 and error_code(r) == "room_not_found"
            assert room not in r.text and tokens[0] not in r.text
    # Wrong tokens all get the same answer, whatever they look like.
    answers = set()
    near = tokens[0][:-1] + ("A" if tokens[0][-1] != "A" else "B")
    for guess in [near, tokens[0].upper(), "x", "x" * 5000, "é", "' OR 1=1 --", "a b"]:
        header = f"Bearer {guess}".encode()  # raw UTF-8 bytes, as a hostile client sends
        r = await http.get(f"/api/rooms/{room}/state", headers={b"Authorization": header})
        assert r.status_code == 401, r.text
        answers.add(r.text)
    assert len(answers) == 1 and "hand" not in answers.pop()


async def test_errors_do_not_tell_where_a_card_is(http: httpx.AsyncClient) -> None:
    """A card the seat does not hold gets the same answer wherever it really is: in the
    opponent's hand, deep in the stock, on top of the stock or in the discard pile."""
    deal = fixed_deal(
        "basic",
        players=3,
        hands=[
            ["2C", "3C", "4C", "9D", "9H", "KS", "QH"],
            ["5C", "6C", "7C", "AD", "AH", "AS", "KD"],
        ],
        stock_top=["8C", "JD"],
        discard=["QS"],
    )
    room, tokens = await online_room(http, "basic", 3, deal=deal)
    stock_deep = deal["stock"][-1]
    seat2_card = deal["hands"][2][0]
    where = {
        "opponent": "5C",
        "another opponent": seat2_card,
        "stock top": "JD",  # 8C was drawn: JD is on top now
        "stock bottom": stock_deep,
        "discard": "QS",
    }
    version = (await _state(http, room, tokens[0]))["version"]
    r = await _move(http, room, tokens[0], DRAW, version)
    version = ok(r)["version"]
    shapes: dict[str, set[str]] = {}
    for place, card in where.items():
        moves: tuple[dict[str, Any], ...] = (
            {"type": "discard", "card": card},
            {"type": "meld", "melds": [["2C", "3C", card]]},
            {"type": "meld", "melds": [[card, "9D", "9H"]]},
        )
        for move in moves:
            r = await _move(http, room, tokens[0], move, version)
            assert r.status_code == 422, (place, r.text)
            # The answer, with the card's code blanked out, is the same for every place.
            shapes.setdefault(move["type"] + str(len(move.get("melds", []))), set()).add(
                re.sub(r"the \w+ of \w+ \(<card>\)", "<card>", r.text.replace(card, "<card>"))
            )
    for answers in shapes.values():
        assert len(answers) == 1, answers
    assert (await _state(http, room, tokens[0]))["version"] == version


async def test_the_stock_and_the_current_hand_stay_out_of_every_answer(
    live_server: LiveServer, http: httpx.AsyncClient
) -> None:
    deal = fixed_deal("classic", players=2, hands=[OUT_HAND], stock_top=["QC"])
    room, tokens = await online_room(http, "classic", 2, deal=deal)
    # During the hand, the log holds no hand at all.
    assert ok(await http.get(f"/api/rooms/{room}/log", headers=bearer(tokens[1])))["hands"] == []
    stock = deal["stock"]
    answers = [(await http.get(f"/api/rooms/{room}/state", headers=bearer(t))).text for t in tokens]
    answers.append((await http.get(f"/api/rooms/{room}")).text)
    for text in answers:
        # As a JSON string: a random room id may contain the two letters "QC" by chance.
        assert f'"{stock[0]}"' not in text or stock[0] in OUT_HAND
        # No run of the stock's cards, in order, appears anywhere.
        assert "".join(stock[:3]) not in text.replace('"', "").replace(",", "")
    # Seat 0 goes out; both vote for the next hand, dealt from the secret match seed.
    v = (await _state(http, room, tokens[0]))["version"]
    v = ok(await _move(http, room, tokens[0], DRAW, v))["version"]
    v = ok(await _move(http, room, tokens[0], {"type": "meld", "melds": OUT_MELDS}, v))["version"]
    ended = ok(await _move(http, room, tokens[0], {"type": "discard", "card": "QC"}, v))
    assert ended["phase"] == "hand_over"
    for token in tokens:
        ok(
            await http.post(
                f"/api/rooms/{room}/votes", json={"vote": "next_hand"}, headers=bearer(token)
            )
        )
    second = await _state(http, room, tokens[0])
    assert second["hand_number"] == 2 and second["commitment"]
    log = await http.get(f"/api/rooms/{room}/log", headers=bearer(tokens[1]))
    assert len(ok(log)["hands"]) == 1
    # Nothing in the first hand's log lets anyone compute the second hand's seed.
    candidates = set(re.findall(r"[0-9a-f]{64}", log.text))
    for candidate in candidates:
        for match in (1, 2):
            derived = hand_seed(bytes.fromhex(candidate), match, 2)
            assert commitment(derived) != second["commitment"]
    # ... and the second hand's own seed is nowhere either.
    real = live_server.app.state.service
    snap = await live_server.call(lambda: real.snapshot(room))
    assert snap.state.hand_seed not in log.text and snap.state.seed not in log.text
    assert commitment(bytes.fromhex(snap.state.hand_seed)) == second["commitment"]
    assert rules.seat_view(snap.state, 1).commitment == second["commitment"]
