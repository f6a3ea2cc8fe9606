"""`rummy verify <log.json>`: check that no hand of a room's log, or of a match record
(docs/record.md), was rigged.

The log (GET /api/rooms/{room}/log) reveals each finished hand's secret seed. For every
hand this module:

1. recomputes the commitment, SHA-256 of ``b"shake256-fisher-yates-v1:" + hand_seed``
   (rules/shuffle.py), and compares it with every commitment the player recorded while the
   hand was played (`--commitment`, or a `commitment` field a client saved in the log);
2. re-deals the hand from the seed by the published method (app/records/redeal.py, written out a
   second time rather than imported from the engine, so a rigged shuffle cannot vouch for
   itself). The result must be exactly the log's deal;
3. replays every move with `rules.replay` from that deal (stock reshuffles come from the
   same seed) and checks the moves were legal, the versions run without a gap and the
   outcome is the one the log states.

A match record's hand is checked the same way, read as the log hand it stands for
(app/records/format.py `log_entry`), and then the whole match (docs/api.md v1.3): numbered 0, 1,
2, ... from zero scores, each hand from the last, the deal passing on, its options and
names fitting its variant, and the match over exactly when its limit is reached
(app/records/checks.py). With `--key` or `--server` the server's Ed25519 signature must hold
too (app/records/signing.py): any change to a signed record fails it, and so does a record signed
with another key.

Each hand, the match and the signature are reported OK or with the first precise mismatch;
the exit code is 0 when every check passes, 1 otherwise (2 for a file that is not a log at
all, or a key that cannot be read).

What this proves: the server could not change a deal or the stock's order after showing
the commitment, and (signed) the record is the one the server issued. What it cannot
prove: that the server did not try many seeds before committing (players contribute no
entropy of their own).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

import rules
from app.records.checks import end_problems, fetch_key, options_problems, read_key
from app.records.format import InvalidRecord, log_entry, record_problems
from app.records.redeal import HEX_DIGITS, commitment_of, compare_deal, deal_from_seed
from app.records.signing import key_id, signature_problem
from rummy_wire.records import RECORD_FORMAT, MatchRecord, RecordHand


@dataclass
class HandReport:
    """The verdict on one hand of the log."""

    hand: int
    commitment: str | None = None
    moves: int = 0
    problems: list[str] = field(default_factory=list)
    # The hand replayed to its end, when its moves replay (a record's match end needs it).
    end: rules.GameState | None = None
    # What the line is about when it is not a hand: "match", "signature".
    label: str | None = None
    verdict: str | None = None  # the line of a check that passed, when not a hand's

    @property
    def ok(self) -> bool:
        return not self.problems

    def line(self) -> str:
        name = self.label or f"hand {self.hand}"
        if self.ok:
            done = self.verdict or f"commitment {self.commitment}  ({self.moves} moves)"
            return f"{name}: OK  {done}"
        return f"{name}: FAIL  " + "; ".join(self.problems)


def _hand_number(entry: Any) -> int:
    number = entry.get("hand") if isinstance(entry, dict) else None
    return number if isinstance(number, int) and not isinstance(number, bool) else -1


def verify_hand(entry: dict[str, Any], seen: Sequence[str] = ()) -> HandReport:
    """Check one hand of the log (a `hands[i]` object). `seen` are commitments the player
    recorded for this hand; each must match. A log is untrusted input: whatever it holds,
    this reports a problem rather than raising."""
    report = HandReport(hand=_hand_number(entry))
    try:
        _verify_hand(entry, seen, report)
    except Exception as exc:  # a log built to trip the rules up is a failed log, not a crash
        report.problems.append(f"the log does not hold together: {type(exc).__name__}: {exc}")
    return report


def _verify_hand(entry: dict[str, Any], seen: Sequence[str], report: HandReport) -> None:
    try:
        start = rules.GameState.model_validate(entry["start"])
    except (KeyError, TypeError, ValueError) as exc:
        report.problems.append(f"the hand's start is not a game state: {exc}")
        return
    if start.variant not in rules.VARIANTS:
        report.problems.append(f"unknown variant {start.variant!r}")
        return
    seed_hex = start.hand_seed.lower()
    if len(seed_hex) != 64 or not set(seed_hex) <= HEX_DIGITS:
        report.problems.append("the hand seed is not 32 bytes of hex: it was not revealed")
        return
    seed = bytes.fromhex(seed_hex)
    report.commitment = commitment_of(seed)
    recorded = [*seen]
    if isinstance(entry.get("commitment"), str):
        recorded.append(entry["commitment"])
    for value in recorded:
        if value.lower() != report.commitment:
            report.problems.append(
                f"commitment mismatch: the hand showed {value}, but its revealed seed "
                f"commits to {report.commitment}"
            )
    if start.fixed_deal is not None:
        report.problems.append("a fixed deal (test mode): the cards do not come from the seed")
    elif len(start.hands) != start.players:
        report.problems.append(f"{len(start.hands)} hands for {start.players} players")
    else:
        report.problems += compare_deal(start, deal_from_seed(start.variant, start.players, seed))
    if start.melds or start.turns_completed or start.hand_result is not None:
        report.problems.append("the start is not a fresh deal (melds, turns or a result)")
    left = (start.dealer + 1) % start.players
    if start.turn != left:
        report.problems.append(f"seat {start.turn} starts, but the dealer's left is {left}")
    report.problems += _check_play(entry, start, report)


def _check_play(entry: dict[str, Any], start: rules.GameState, report: HandReport) -> list[str]:
    problems: list[str] = []
    try:
        moves = [
            (int(m["seat"]), rules.parse_shown_move(m["move"]), int(m["version"]))
            for m in entry["moves"]
        ]
        votes = [int(v["version"]) for v in entry.get("votes", [])]
        # A stand-in's start or end takes a version too (docs/api.md v1.1, stand-in).
        votes += [int(v["version"]) for v in entry.get("stand_ins", [])]
        start_version = int(entry["start_version"])
        end_version = int(entry["end_version"])
    except (KeyError, TypeError, ValueError) as exc:
        return [f"the hand's moves are unreadable: {exc}"]
    report.moves = len(moves)
    versions = sorted([v for *_, v in moves] + votes)
    if end_version - start_version != len(versions) or versions != list(
        range(start_version + 1, end_version + 1)
    ):
        problems.append(
            f"the versions {start_version + 1}..{end_version} are not each used exactly once "
            "by the hand's moves and votes (an entry was added or removed)"
        )
    if [v for *_, v in moves] != sorted(v for *_, v in moves):
        problems.append("the moves are not in version order")
    try:
        rules.check_pickups(start, [(seat, move) for seat, move, _ in moves])
    except rules.IllegalMove as exc:
        problems.append(f"a draw misnames its card: {exc.message}")
    try:
        state = rules.replay(start, [(seat, move) for seat, move, _ in moves])
    except rules.IllegalMove:
        # Find the first illegal move, one at a time (slow, but only on failure).
        state = start
        for number, (seat, move, version) in enumerate(moves, 1):
            try:
                state = rules.replay(state, [(seat, move)])
            except rules.IllegalMove as exc:
                problems.append(
                    f"move {number} (version {version}, seat {seat}, "
                    f"{json.dumps(rules.move_to_json(move))}) is illegal: "
                    f"{exc.code}: {exc.message}"
                )
                return problems
    report.end = state
    stated = entry.get("result")
    end = state.hand_result
    got = end.model_dump(mode="json") if end is not None else None
    if stated != got:
        problems.append(
            f"the log states the result {json.dumps(stated)}, "
            f"but replaying its moves gives {json.dumps(got)}"
        )
    return problems


def verify_log(log: Any, seen: Mapping[int, Sequence[str]] | None = None) -> list[HandReport]:
    """Check every hand of a log (the JSON of GET /api/rooms/{room}/log).

    `seen` maps a hand number to the commitments the player recorded for it.

    Raises:
        ValueError: the document is not a room log.
    """
    if isinstance(log, dict) and log.get("format") == RECORD_FORMAT:
        return verify_record(log, seen)
    if not isinstance(log, dict) or not isinstance(log.get("hands"), list):
        raise ValueError('not a room log: expected an object with a "hands" list')
    seen = seen or {}
    return [
        verify_hand(entry, seen.get(_hand_number(entry), ()))
        if isinstance(entry, dict)
        else HandReport(hand=-1, problems=["a hand of the log is not an object"])
        for entry in log["hands"]
    ]


def verify_record(
    data: dict[str, Any], seen: Mapping[int, Sequence[str]] | None = None
) -> list[HandReport]:
    """Check every hand of a match record (`rummy-record/1`) like a log's, then the whole
    match (docs/api.md v1.3): the chain from hand to hand (scores from zero, numbering, dealers,
    app/records/format.py), its options and names, and where it ends (app/records/checks.py).
    The last report is the match's own (label "match").

    Raises:
        ValueError: the document is not a match record.
    """
    try:
        record = MatchRecord.model_validate({**data, "hands": []})
    except ValidationError as exc:
        raise ValueError(f"not a match record: {exc.errors()[0]['msg']}") from None
    if not isinstance(data.get("hands"), list):
        raise ValueError('not a match record: expected a "hands" list')
    seen = seen or {}
    reports: list[HandReport] = []
    hands: list[RecordHand] = []
    for raw in data["hands"]:
        number = raw.get("number") if isinstance(raw, dict) else None
        report = HandReport(hand=number if isinstance(number, int) else -1)
        try:
            hand = RecordHand.model_validate(raw)
            entry = log_entry(record, hand, len(hands))
        except (ValidationError, InvalidRecord) as exc:
            report.problems.append(f"the hand is not a record's hand: {exc}")
            reports.append(report)
            continue
        reports.append(verify_hand(entry, seen.get(hand.number, ())))
        hands.append(hand)
    match = HandReport(hand=-1, label="match", problems=options_problems(record))
    if len(hands) == len(reports):
        whole = record.model_copy(update={"hands": hands})
        located: list[tuple[int | None, str]] = [*record_problems(whole)]
        located += end_problems(whole, [r.end for r in reports])
        for index, problem in located:
            (match if index is None or not reports else reports[index]).problems.append(problem)
    match.verdict = f"{len(hands)} hands, scores {list(record.scores)}, " + (
        f"won by seat {' and '.join(map(str, record.match_winner))}"
        if record.match_winner
        else "still in play"
    )
    return [*reports, match]


def check_signature(document: Any, key: bytes) -> HandReport:
    """The report on a record's signature under the server's public `key`."""
    report = HandReport(hand=-1, label="signature", verdict=f"signed by key {key_id(key)}")
    if not isinstance(document, dict) or document.get("format") != RECORD_FORMAT:
        report.problems.append("only a match record is signed; this is a room's log")
    else:
        problem = signature_problem(document, key)
        if problem is not None:
            report.problems.append(problem)
    return report


def _parse_seen(values: Sequence[str]) -> dict[int, list[str]]:
    seen: dict[int, list[str]] = {}
    for value in values:
        hand, sep, digest = value.partition("=")
        if not sep or not (hand.strip().isascii() and hand.strip().isdigit()):
            raise ValueError(f"--commitment takes HAND=HEX, not {value!r}")
        seen.setdefault(int(hand), []).append(digest.strip())
    return seen


def run(args: argparse.Namespace) -> int:
    """The `rummy verify` command."""
    try:
        seen = _parse_seen(args.commitment or [])
        text = sys.stdin.read() if args.log == "-" else Path(args.log).read_text("utf-8")
        document = json.loads(text)
        key = read_key(args.key) if args.key else fetch_key(args.server) if args.server else None
        reports = verify_log(document, seen)
    except (OSError, ValueError) as exc:
        print(f"rummy verify: {exc}", file=sys.stderr)
        return 2
    if key is not None:
        reports.append(check_signature(document, key))
    for report in reports:
        print(report.line())
    unknown = sorted(set(seen) - {r.hand for r in reports})
    for hand in unknown:
        print(f"hand {hand}: FAIL  you recorded a commitment, but the log has no such hand")
    if not any(r.label is None for r in reports):
        print("the log holds no finished hand yet")
    if key is None and isinstance(document, dict) and "signature" in document:
        print("signature: not checked (--key or --server checks who issued the record)")
    ok = all(r.ok for r in reports) and not unknown
    print("all hands verified" if ok else "VERIFICATION FAILED")
    return 0 if ok else 1


def register(commands: Any) -> None:
    """Add `verify` to the `rummy` command's subparsers."""
    parser = commands.add_parser(
        "verify",
        help="check a room's hand log or a match record: commitments, deals recomputed from "
        "the seeds, replays, the whole match, and with --key/--server the server's signature",
        description=__doc__.split("\n\n")[0] if __doc__ else None,
    )
    parser.add_argument(
        "log",
        help="the JSON of GET /api/rooms/{room}/log or of a match record (.../record), "
        "or - for stdin",
    )
    parser.add_argument(
        "--commitment",
        action="append",
        metavar="HAND=HEX",
        help="a commitment you saw during hand HAND (repeatable)",
    )
    who = parser.add_mutually_exclusive_group()
    who.add_argument(
        "--key",
        metavar="BASE64URL",
        help="the server's public key (GET /api/server-key's `key`): a record's signature "
        "must hold under it",
    )
    who.add_argument(
        "--server",
        metavar="URL",
        help="read the server's public key from URL/api/server-key and check the signature",
    )
    parser.set_defaults(func=run)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="rummy")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["verify", *(argv if argv is not None else sys.argv[1:])])
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
