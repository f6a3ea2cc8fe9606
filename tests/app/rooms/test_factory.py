"""The one room factory (app/rooms/setup.py `planned_room`): the lobby, a rematch and a
challenge's entry all make their rooms through it, so each gets every check (variant, player
count, penalty limit, bot names), a fresh id and the same first-turn deadline rule. A rematch
copies a room that passed these checks and a challenge's table is checked when it is made, so
no request reaches them with a bad plan: the refusals are shown on the factory itself."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from app.errors import InvalidRequest
from app.persist import NewSeat
from app.rooms.setup import new_match_seed, planned_room

NOW = datetime(2026, 1, 1, tzinfo=UTC)
HUMAN = NewSeat(name="Ann", token_hash="a" * 64, bot=None)
FREE = NewSeat(name=None, token_hash=None, bot=None)


def bot(name: str = "greedy") -> NewSeat:
    return NewSeat(name="Beth", token_hash=None, bot=name)


@pytest.mark.parametrize(
    ("variant", "seats", "limit", "said"),
    [
        ("poker", [HUMAN, bot()], None, "unknown variant"),
        ("classic", [HUMAN, bot(), bot()], None, "classic takes 2 to 2 players"),
        ("basic", [HUMAN], None, "basic takes 2 to 4 players"),
        ("rummy51", [HUMAN, bot()], 150, "limit"),
        ("classic", [HUMAN, bot()], 101, "limit"),
        ("classic", [HUMAN, bot("grandmaster")], None, "unknown strategy"),
    ],
)
def test_a_plan_the_rules_do_not_allow_is_refused(
    variant: str, seats: list[NewSeat], limit: int | None, said: str
) -> None:
    with pytest.raises(InvalidRequest, match=said):
        planned_room(
            NOW, variant=variant, mode="computer", seats=seats, match_seed=new_match_seed(),
            limit=limit,
        )  # fmt: skip


def test_every_room_gets_its_own_id_unless_its_plan_names_one() -> None:
    def made(room_id: str | None = None) -> str:
        seats = [HUMAN, bot()]
        return planned_room(NOW, variant="classic", mode="computer", seats=seats,
                            match_seed=new_match_seed(), room_id=room_id).id  # fmt: skip

    ids = {made() for _ in range(50)}
    assert len(ids) == 50 and all(len(i) == 12 for i in ids)
    assert made("given") == "given"


def first_turn_deadline(seats: list[NewSeat], turn_seconds: int | None) -> datetime | None:
    # This seed's first turn is seat 0's.
    room = planned_room(
        NOW, variant="basic", mode="online", seats=seats, match_seed=b"\x00" * 32,
        turn_seconds=turn_seconds,
    )  # fmt: skip
    assert room.state.turn == 0
    return room.turn_deadline


def test_the_first_turns_timer_starts_when_the_room_is_full_and_a_person_plays_first() -> None:
    assert first_turn_deadline([HUMAN, bot()], 30) == NOW + timedelta(seconds=30)
    assert first_turn_deadline([HUMAN, bot()], None) is None  # no timer
    assert first_turn_deadline([bot(), HUMAN], 30) is None  # the computer plays first
    assert first_turn_deadline([HUMAN, FREE], 30) is None  # a join starts it (RoomService.join)
