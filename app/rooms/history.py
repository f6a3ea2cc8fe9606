"""The room's past as seats may read it: the finished hands (GET /log) and the moves of the
hand in play since a version (GET /recent). Only what every seat saw: the log's moves, whose
stock draws name no card, and each hand's deal with only that hand's own seed."""

from __future__ import annotations

import json

import rules
from app.persist.rows import LogEntry, Snapshot
from app.persist.store import Store
from app.rooms.port import STAND_IN
from rummy_wire.log import LogHand, LogMove, LogStandIn, LogVote, RecentMoves


async def moves_since(store: Store, snap: Snapshot, since: int) -> RecentMoves:
    """The moves of the hand in play made after version `since` (before it: none; a hand
    dealt since starts the list afresh), and the hand's stand-ins, whenever they were."""
    # The whole hand: a pickup's card is the discard before it (rules.discard_pickups).
    entries = await store.entries_since(snap.id, snap.hand_seq, 0)
    moves = _log_moves(entries, rules.hand_start(snap.state))
    return RecentMoves(
        room=snap.id,
        hand_number=snap.state.hand_number,
        since=since,
        moves=[m for m in moves if m.version > since],
        stand_ins=_stand_ins(entries),
    )


def _stand_ins(entries: list[LogEntry]) -> list[LogStandIn]:
    return [
        LogStandIn(version=e.version, seat=e.seat, stand_in=json.loads(e.move)["stand_in"])
        for e in entries
        if e.kind == STAND_IN
    ]


async def hand_log(store: Store, room_id: str) -> list[LogHand]:
    """Every finished hand of the room: its deal and every move, vote and stand-in."""
    hands = []
    for hand, entries in await store.finished_hands(room_id):
        start = rules.GameState.model_validate_json(hand.start)
        # The match seed derives every later hand: only this hand's own seed is shown.
        start = start.model_copy(update={"seed": "0" * len(start.seed)})
        moves = _log_moves(entries, start)
        votes = [
            LogVote(version=e.version, seat=e.seat, vote=json.loads(e.move)["vote"])
            for e in entries
            if e.kind == "vote"
        ]
        stand_ins = _stand_ins(entries)
        end = rules.replay(start, [(m.seat, m.move) for m in moves])  # a ShownDraw is a Draw
        hands.append(
            LogHand(
                hand=hand.seq,
                start=start,
                start_version=hand.start_version,
                end_version=hand.end_version or 0,
                moves=moves,
                votes=votes,
                stand_ins=stand_ins,
                result=end.hand_result,
            )
        )
    return hands


def _log_moves(entries: list[LogEntry], start: rules.GameState) -> list[LogMove]:
    """The moves among a hand's log entries (from `start`, the hand as dealt), as the log and
    the recent moves show them: discard draws name their card."""
    played = [(e, rules.parse_move(json.loads(e.move))) for e in entries if e.kind == "move"]
    shown = rules.name_pickups(start, [(e.seat, move) for e, move in played])
    return [
        LogMove(version=e.version, seat=e.seat, move=move)
        for (e, _), (_, move) in zip(played, shown, strict=True)
    ]
