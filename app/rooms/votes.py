"""Who votes, and which votes would only repeat one already counted (docs/rooms.md, "Votes"): a
double click or a resent frame must not deal again."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import rules
from app.persist.rows import Snapshot
from app.rooms.entries import PLAYING

# The version at which a room's current hand was dealt (`Store.hand_started_at`).
DealtAt = Callable[[str, int], Awaitable[int]]


def voters(snap: Snapshot, seat: int, kind: rules.VoteKind) -> frozenset[int]:
    """The seats whose votes count. Bots always agree, so only humans vote; in a local room
    the holder decides. A seat played by a stand-in agrees to the next hand like a bot, but
    a new match (which wipes its owner's score) waits for its owner (app/turns/standin.py)."""
    if snap.mode == "local":
        return frozenset({seat})
    return frozenset(
        s.seat
        for s in snap.seats
        if s.bot is None and not (kind == "next_hand" and s.stand_in and s.seat != seat)
    )


async def is_spent(
    snap: Snapshot, seat: int, kind: rules.VoteKind, version: int | None, dealt_at: DealtAt
) -> bool:
    """Whether this vote would only repeat one already counted or carried out."""
    state = snap.state
    votes = state.votes.next_hand if kind == "next_hand" else state.votes.new_match
    if seat in votes:
        return True  # counted already: recording it again would only bump the version
    if version is None:
        return _repeats_last_deal(state, kind)
    # A vote made on a view of an earlier hand was about that hand: once a hand has been
    # dealt since (by this vote's twin or any other), it has nothing left to ask. The deal's
    # version is one indexed read, asked only by a vote made on an older view (reading the
    # whole log here made every such vote cost as much as the room's history).
    if version >= snap.version:
        return False
    return version < (await dealt_at(snap.id, snap.hand_seq) if snap.hand_seq else 0)


def _repeats_last_deal(state: rules.GameState, kind: rules.VoteKind) -> bool:
    """An unversioned vote arriving on a hand that its kind of vote has just dealt, before
    anyone moved in it, is taken as a repeat of the vote that dealt it (a v1 client
    double-clicking): "new_match" on a new match's untouched first hand, "next_hand" on an
    untouched later hand (where v1 answered 409 wrong_phase)."""
    if state.phase not in PLAYING or state.last_move is not None:
        return False
    if kind == "new_match":
        return state.match_number > 1 and state.hand_number == 1
    return state.hand_number > 1
