"""The room service (`app.rooms.service.RoomService`) driven directly on the in-memory
store: no server, no database, no uvicorn. What a player would see comes back from the
same calls the routes make (`create`, `join`, `move`, `vote`, `hand_log`)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

import pytest

import rules
from app.config import Settings
from app.errors import RoomFull, StaleVersion
from app.hub import LocalHub
from app.persist import Writer
from app.rooms.service import RoomService
from tests.kit.deals import fixed_deal
from tests.kit.memory_store import MemoryStore

# Seat 0 draws the planted KS, melds its three runs and discards the KS: out in one turn.
HAND = ["AH", "2H", "3H", "4H", "5C", "6C", "7C", "8D", "9D", "TD"]
MELDS = [["AH", "2H", "3H", "4H"], ["5C", "6C", "7C"], ["8D", "9D", "TD"]]
DRAW = rules.parse_move({"type": "draw", "source": "stock"})
ROOMS = 16


class RecordingWriter:
    """A writer in front of another that notes which rooms each batch held."""

    def __init__(self, inner: Writer, fail: bool = False) -> None:
        self.inner = inner
        self.fail = fail
        self.batches: list[list[str]] = []

    async def commit_many(self, batch: Sequence) -> list[int | None]:
        self.batches.append([room.id for room, _, _ in batch])
        if self.fail:
            raise RuntimeError("the database went away mid-batch")
        return await self.inner.commit_many(batch)

    async def close(self) -> None:
        await self.inner.close()


def make_service(store: MemoryStore | None = None) -> RoomService:
    settings = Settings(allow_fixed_deals=True, database_url="sqlite+aiosqlite://")
    return RoomService(store or MemoryStore(), LocalHub(), settings)


async def online_room(service: RoomService) -> tuple[str, list[str]]:
    deal = rules.Deal.model_validate(
        fixed_deal("classic", players=2, hands=[HAND], stock_top=["KS"])
    )
    room, tokens = await service.create(
        variant="classic", players=2, mode="online", name="Ann", bots={}, seed=None, deal=deal
    )
    seat, token = await service.join(room, "Bob")
    assert seat == 1 and tokens[0] is not None
    return room, [tokens[0], token]


async def test_a_hand_played_on_the_memory_store_is_scored_logged_and_dealt_again() -> None:
    service = make_service()
    room, _ = await online_room(service)
    view = await service.move(room, 0, DRAW, 0)
    assert view.version == 1 and "KS" in view.hand
    view = await service.move(room, 0, rules.parse_move({"type": "meld", "melds": MELDS}), 1)
    assert view.hand == ("KS",)
    view = await service.move(room, 0, rules.parse_move({"type": "discard", "card": "KS"}), 2)
    assert view.phase == "hand_over" and view.hand_result is not None
    assert view.hand_result.winner == 0

    [hand] = await service.hand_log(room)
    assert (hand.hand, hand.start_version, hand.end_version) == (0, 0, 3)
    assert [m.version for m in hand.moves] == [1, 2, 3]
    assert hand.start.seed == "0" * len(hand.start.seed)  # the match seed stays hidden

    await service.vote(room, 0, "next_hand", None)
    view = await service.vote(room, 1, "next_hand", None)
    assert (view.version, view.hand_number, view.phase) == (5, 2, "draw")
    assert len(await service.hand_log(room)) == 1  # the new hand is not over


async def test_a_stale_version_is_refused_and_writes_nothing() -> None:
    store = MemoryStore()
    service = make_service(store)
    room, _ = await online_room(service)
    with pytest.raises(StaleVersion):
        await service.move(room, 0, DRAW, 7)
    assert await store.versions(room) == []
    assert (await service.view(room, 0)).version == 0


async def test_a_third_player_finds_the_room_full() -> None:
    service = make_service()
    room, _ = await online_room(service)
    with pytest.raises(RoomFull):
        await service.join(room, "Cy")


async def test_moves_of_many_rooms_at_once_are_written_in_one_batch() -> None:
    store = MemoryStore()
    recorder = RecordingWriter(store.writer)
    store.writer = recorder
    service = make_service(store)
    rooms = [room for room, _ in [await online_room(service) for _ in range(ROOMS)]]
    for room in rooms:
        await service.view(room, 0)  # cached, as a room in play is
    recorder.batches.clear()

    await asyncio.gather(*(service.play(room, 0, DRAW, 0) for room in rooms))

    # All arrived while nothing was being written: one transaction for all of them.
    assert [sorted(b) for b in recorder.batches] == [sorted(rooms)]
    for room in rooms:
        view = await service.view(room, 0)
        assert view.version == 1 and "KS" in view.hand


async def test_a_failed_batch_is_written_one_by_one(caplog: pytest.LogCaptureFixture) -> None:
    store = MemoryStore()
    store.writer = RecordingWriter(store.writer, fail=True)
    service = make_service(store)
    rooms = [room for room, _ in [await online_room(service) for _ in range(4)]]
    for room in rooms:
        await service.view(room, 0)
    with caplog.at_level(logging.WARNING, logger="rummy.committer"):
        await asyncio.gather(*(service.play(room, 0, DRAW, 0) for room in rooms))
    assert ["one by one" in r.getMessage() for r in caplog.records] == [True]
    for room in rooms:
        assert await store.versions(room) == [1]


async def test_a_seats_view_is_built_once_per_version(monkeypatch: pytest.MonkeyPatch) -> None:
    # Every socket and tab of a seat, and its REST answer, ask for the same view after each
    # move: it must be built and serialized once, not once per asker.
    import app.views
    from app.views import seat as seat_views

    built: list[int | None] = []  # the seats whose own fields were made
    shared: list[int] = []  # the versions whose shared fields were made
    real_private, real_shared = rules.private_fields, seat_views.build_spectator_view

    def counting(state, seat):  # type: ignore[no-untyped-def]
        built.append(seat)
        return real_private(state, seat)

    def counting_shared(snap, presence):  # type: ignore[no-untyped-def]
        shared.append(snap.version)
        return real_shared(snap, presence)

    monkeypatch.setattr(rules, "private_fields", counting)
    monkeypatch.setattr(seat_views, "build_spectator_view", counting_shared)
    service = make_service()
    room, _ = await online_room(service)
    await service.play(room, 0, DRAW, 0)
    texts = [await service.view_text(room, 0) for _ in range(3)]
    other = await service.view_text(room, 1)
    assert texts[0] is texts[1] is texts[2]
    assert (built, shared) == ([0, 1], [1])  # the seats' views share the rest
    assert '"KS"' in texts[0] and '"KS"' not in other  # each seat still gets its own
    await service.play(room, 0, rules.parse_move({"type": "meld", "melds": MELDS}), 1)
    assert await service.view_text(room, 0) != texts[0]
    assert (built[-1], shared[-1]) == (0, 2)
    # Built without validation, yet exactly what validation would have made of it.
    for seat in (0, 1, None):
        text = await service.view_text(room, seat)
        model = app.views.WatchView if seat is None else app.views.RoomView
        assert model.model_validate_json(text).model_dump_json() == text
