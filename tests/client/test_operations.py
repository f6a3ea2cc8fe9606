"""rummy_client covers the whole REST API: a method for every operation id the server's
/openapi.json lists, and the social and record operations working through it against a live
server as an outside script would use them (a challenge with its invitations, chat, a
finished hand's record and replay, the key that signs it)."""

from __future__ import annotations

import httpx
import pytest

from rummy_client import ApiError, Rummy, SeatClient, simple_player
from tests.kit.servers import LiveServer

# The client's names for what is not a method of one seat or of the server: the websocket is
# `SeatClient.socket()` / `sockets()`, not a REST call.
NOT_REST = {"ws"}


def test_every_operation_of_the_openapi_document_has_a_client_method(
    live_server: LiveServer,
) -> None:
    document = httpx.get(f"{live_server}/openapi.json").json()
    operations = {op["operationId"] for path in document["paths"].values() for op in path.values()}
    assert len(operations) > 20
    missing = sorted(
        name
        for name in operations - NOT_REST
        if not (callable(getattr(Rummy, name, None)) or callable(getattr(SeatClient, name, None)))
    )
    assert not missing, f"operations with no rummy_client method: {missing}"


async def test_a_challenge_through_the_client_is_played_once_per_invitation(
    live_server: LiveServer,
) -> None:
    async with Rummy(live_server) as rummy:
        maker = await rummy.create_challenge("classic", bots={"1": "easy"}, name="Ann")
        made = maker.challenge
        assert made is not None and made.owner and made.invite
        friend = await rummy.play_challenge(made.challenge, made.invite, name="Bob")
        with pytest.raises(ApiError) as spent:
            await rummy.play_challenge(made.challenge, made.invite, name="Bob again")
        assert (spent.value.status, spent.value.code) == (409, "invite_spent")
        with pytest.raises(ApiError) as stranger:
            await rummy.invite_to_challenge(made.challenge, "not-the-owner", "Eve")
        assert stranger.value.code == "forbidden"
        more = await rummy.invite_to_challenge(made.challenge, made.owner, "Cas")
        assert more.name == "Cas" and more.invite in more.url
        result = await rummy.get_challenge(made.challenge)
        assert [e.name for e in result.entries] == ["Ann", "Bob"]
        assert {e.room for e in result.entries} == {maker.seat.room, friend.seat.room}
        # The same deals: neither human has moved yet, so both hold the same first hand.
        assert (await friend.get_state()).hand == (await maker.get_state()).hand


async def test_chat_record_replay_and_key_through_the_client(live_server: LiveServer) -> None:
    async with Rummy(live_server) as rummy:
        assert (await rummy.get_health()).status == "ok"
        seat = await rummy.create_room("classic", mode="computer", bots={"1": "easy"}, name="Ann")
        posted = await seat.post_chat("good luck")
        history = await seat.get_chat()
        assert [m.text for m in history.messages] == ["good luck"]
        assert (await seat.get_chat(since=posted.message.id)).messages == []
        with pytest.raises(ApiError) as early:
            await seat.rematch()
        assert (early.value.status, early.value.code) == (409, "wrong_phase")
        view = await seat.get_state()
        while view.hand_result is None:
            view = await seat.take_turn(view, simple_player)
        record = await seat.get_record()
        assert len(record.hands) == 1 and record.signature is not None
        assert record.signature.key_id == (await rummy.get_server_key()).id
        replay = await seat.get_replay()
        sent = await rummy.replay_record(record, hand=0)
        # The same hand, move by move (a record's moves carry no room versions).
        assert len(replay.steps) > 1
        assert [(s.move, s.hands) for s in sent.steps] == [(s.move, s.hands) for s in replay.steps]


async def test_a_record_keeps_the_rooms_chat_option(live_server: LiveServer) -> None:
    """The record said `"chat": true` for every room: the option lives in the room's social
    row, which the record did not read."""
    async with Rummy(live_server) as rummy:
        quiet = await rummy.create_room("classic", mode="computer", chat=False, name="Ann")
        talky = await rummy.create_room("classic", mode="computer", name="Ann")
        assert (await quiet.get_record()).options.chat is False
        assert (await talky.get_record()).options.chat is True
        assert (await rummy.get_room(quiet.seat.room)).options.chat is False
