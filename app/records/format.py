"""Match records (docs/api.md, docs/record.md): a finished match, self-contained, in the
versioned format `rummy-record/1`, built from the room's hand log; and the way back from a
record's hand, or a log's, to the start and moves that `rules` replays.

A record holds only what the log already reveals after each hand (the deal, the seed, every
move), the players' names and the room's options. No token, no room id.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import rules
from app.errors import InvalidRequest
from app.persist.rows import Snapshot
from app.views import LogHand, LogMove, RoomOptions
from rummy_wire.records import MatchRecord, RecordHand, RecordMove


class InvalidRecord(InvalidRequest):
    """A record or log that is not one, or whose moves do not fit its deal."""

    code = "invalid_record"


def _record_hand(hand: LogHand) -> RecordHand:
    start = hand.start
    assert hand.result is not None  # only finished hands are recorded
    return RecordHand(
        number=start.hand_number - 1,  # counted from 1 in its match by the rules
        seed=start.hand_seed,
        commitment=rules.spectator_view(start).commitment or "",
        dealer=start.dealer,
        start_scores=start.scores,
        deal=rules.Deal(hands=start.hands, discard=start.discard, stock=start.stock),
        moves=[RecordMove(seat=m.seat, move=m.move) for m in hand.moves],
        result=hand.result,
    )


def build_record(snap: Snapshot, log: Sequence[LogHand], options: RoomOptions) -> MatchRecord:
    """The record of the room's latest match with a finished hand: every hand of it that
    ended (a hand a new-match vote abandoned did not). Empty before any hand is over."""
    finished = [h for h in log if h.result is not None]
    match = max((h.start.match_number for h in finished), default=None)
    hands = [_record_hand(h) for h in finished if h.start.match_number == match]
    winner: list[int] | None = None
    if hands:
        last = hands[-1]
        scores = tuple(a + b for a, b in zip(last.start_scores, last.result.points, strict=True))
        winner = _match_winner(snap, [h for h in finished if h.start.match_number == match][-1])
    else:
        scores = (0,) * snap.players
    return MatchRecord(
        variant=snap.variant,
        options=options,
        players=[s.name or f"Player {s.seat + 1}" for s in snap.seats],
        hands=hands,
        scores=scores,
        match_winner=winner,
    )


def _match_winner(snap: Snapshot, last: LogHand) -> list[int] | None:
    """Who won the match `last` ended, if it ended one: the room's state says so for its
    current match; a match a new-match vote replaced is asked of its last hand's replay."""
    state = snap.state
    if state.match_number != last.start.match_number:
        state = rules.replay(last.start, [(m.seat, m.move) for m in last.moves])
    elif state.hand_number != last.start.hand_number:
        return None  # a later hand of this match is being played: not over
    return list(state.match_winner) if state.match_winner else None


def record_start(record: MatchRecord, hand: RecordHand, position: int) -> rules.GameState:
    """The hand as dealt, ready for `rules.replay` (its stock reshuffles from its seed);
    `position` is its place among the match's hands (0: the first).

    Raises:
        InvalidRecord: the hand does not fit the record's variant and players.
    """
    try:
        return rules.hand_from_deal(
            record.variant,
            len(record.players),
            deal=hand.deal,
            hand_seed=hand.seed,
            dealer=hand.dealer,
            scores=hand.start_scores,
            limit=record.options.limit
            if rules.get_variant(record.variant).penalty_limits
            else None,
            hand_number=1 + position,
        )
    except (KeyError, ValueError) as exc:  # rules' InvalidDeal/InvalidSetup are ValueErrors
        raise InvalidRecord(f"hand {hand.number}: {exc}") from None


def replay_of(
    record: MatchRecord, hand: RecordHand
) -> tuple[rules.GameState, list[tuple[int, rules.Move]]]:
    """A record's hand as `rules.replay` takes it: the start and the (seat, move) pairs."""
    start = record_start(record, hand, record.hands.index(hand))
    moves: list[tuple[int, rules.Move]] = [(m.seat, m.move) for m in hand.moves]
    _check_pickups(start, moves, hand.number)
    return start, moves


def log_moves(hand: LogHand) -> tuple[list[tuple[int, rules.Move]], list[int | None]]:
    """A log hand's (seat, move) pairs and their versions.

    Raises:
        InvalidRecord: a draw names a card it did not take."""
    logged: list[LogMove] = hand.moves
    moves: list[tuple[int, rules.Move]] = [(m.seat, m.move) for m in logged]
    _check_pickups(hand.start, moves, hand.hand)
    return moves, [m.version for m in logged]


def _check_pickups(
    start: rules.GameState, moves: list[tuple[int, rules.Move]], number: int
) -> None:
    try:
        rules.check_pickups(start, moves)
    except rules.IllegalMove as exc:
        raise InvalidRecord(f"hand {number}: {exc.message}") from None


def pick(numbers: Sequence[int], wanted: int | None) -> int:
    """The index of hand `wanted` among `numbers` (the last hand when None).

    Raises:
        WrongPhase: no such finished hand.
    """
    if not numbers:
        raise rules.WrongPhase("no hand is over yet: there is nothing to replay")
    if wanted is None:
        return len(numbers) - 1
    if wanted not in numbers:
        raise rules.WrongPhase(f"hand {wanted} is not a finished hand here")
    return numbers.index(wanted)


def log_entry(record: MatchRecord, hand: RecordHand, position: int) -> dict[str, Any]:
    """A record's hand in the shape of a log's hand (GET .../log), so that `rummy verify`
    checks both the same way; its moves numbered 1, 2, ... as versions.

    Raises:
        InvalidRecord: the hand does not fit the record's variant and players.
    """
    start = record_start(record, hand, position)
    return {
        "hand": hand.number,
        "start": start.model_dump(mode="json"),
        "commitment": hand.commitment,
        "start_version": 0,
        "end_version": len(hand.moves),
        "moves": [
            {"version": i, "seat": m.seat, "move": rules.move_to_json(m.move)}
            for i, m in enumerate(hand.moves, 1)
        ],
        "votes": [],
        "result": hand.result.model_dump(mode="json"),
    }


def record_problems(record: MatchRecord) -> list[tuple[int, str]]:
    """What does not add up between a record's hands: (index of the hand, problem). The
    hands are numbered 0, 1, 2, ... with none missing; the first starts at zero scores,
    dealt by the last seat (the rules' first dealer), and each next one starts with the
    scores the one before ended with, dealt by the next seat; `scores` is where the last
    hand left them (docs/api.md v1.3: the whole chain, not each hand alone)."""
    problems: list[tuple[int, str]] = []
    players = len(record.players)
    if len(record.scores) != players:
        problems.append((len(record.hands) - 1, f"{len(record.scores)} scores for {players}"))
    for i, hand in enumerate(record.hands):
        if hand.number != i:
            problems.append((i, f"the hand is numbered {hand.number}, but it is hand {i}"))
    if record.hands:
        first = record.hands[0]
        if any(first.start_scores):
            problems.append((0, f"the match starts at the scores {list(first.start_scores)}"))
        if first.dealer != players - 1:
            problems.append(
                (
                    0,
                    f"seat {first.dealer} deals first, but a match's first dealer is "
                    f"seat {players - 1}",
                )
            )
    for i, (before, hand) in enumerate(zip(record.hands, record.hands[1:], strict=False), 1):
        ended = [a + b for a, b in zip(before.start_scores, before.result.points, strict=False)]
        if list(hand.start_scores) != ended:
            problems.append(
                (
                    i,
                    f"the hand starts at the scores {list(hand.start_scores)}, but the hand "
                    f"before ended at {ended}",
                )
            )
        if hand.dealer != (before.dealer + 1) % players:
            problems.append((i, f"seat {hand.dealer} deals after seat {before.dealer}"))
    if record.hands:
        last = record.hands[-1]
        ended = [a + b for a, b in zip(last.start_scores, last.result.points, strict=False)]
        if list(record.scores) != ended:
            problems.append(
                (
                    len(record.hands) - 1,
                    f"the record states the scores {list(record.scores)}, "
                    f"but its last hand ended at {ended}",
                )
            )
    return problems
