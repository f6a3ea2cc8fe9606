"""How rummy51's hands are raced: who opens when, who wins from where, what the loser holds.

The expert's rummy51 tuning kept asking the same questions of the hands (does it open sooner
than greedy, does the first seat to open win, how close are the hands it loses) and each was
answered by a throwaway script. This plays `bench/duplicate.py`'s deals (same seeds, the
tested bot in every seat in turn, `--set` for its settings) and prints, for the tested player
and for the field:

- `hands_won`: the share of its hands it went out in;
- `opened`: the share it opened in, and `open_turn`: its median turn of opening (0 is its
  first turn), over the hands it opened;
- `opened_first` and the share of those it won (`won_when_first`), and the share of the
  other hands it won (`won_otherwise`);
- `lost_never_opened`, `lost_1_3_left`: of its lost hands, the share in which it never opened
  and the share it ended holding 1 to 3 cards;
- `from_discard`: the share of its draws taken from the discard pile;
- `winner_turn`: the winner's median turn of going out (counted like `open_turn`, so the
  turn in which a seat goes out is its `winner_turn + 1`-th).

    python bench/race.py --players expert,greedy,greedy,greedy --deals 200 --seed 7

Deterministic for a seed and any `--jobs`, like `bench/duplicate.py`.
"""

from __future__ import annotations

import json
import statistics
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from duplicate import Settings, deal_arguments, play_hand

import rules
from bots.tournament import parse_settings
from rules import playout


@dataclass
class SeatRecord:
    """One seat's hand: its draws, when it opened (its turn index) and how it ended."""

    draws: int = 0
    from_discard: int = 0
    open_turn: int | None = None
    left: int = 0
    out_turn: int | None = None  # set for the seat that went out, and only for it

    @property
    def won(self) -> bool:
        return self.out_turn is not None


@dataclass
class HandWatch:
    """Follows one hand move by move (`play_hand`'s `watch`)."""

    players: int
    first_opener: int = -1
    seats: list[SeatRecord] = field(init=False)

    def __post_init__(self) -> None:
        self.seats = [SeatRecord() for _ in range(self.players)]

    def __call__(self, before: rules.GameState, seat: int, after: rules.GameState) -> None:
        g0, g1 = playout.game_from_state(before), playout.game_from_state(after)
        rec = self.seats[seat]
        if g0.phase == playout.DRAW_PHASE:
            rec.draws += 1
            if g1.drawn_from_discard != -1:
                rec.from_discard += 1
        if g1.opened[seat] and not g0.opened[seat] and rec.open_turn is None:
            rec.open_turn = rec.draws - 1
            if self.first_opener < 0:
                self.first_opener = seat
        result = g1.hand_result
        if result is not None and g0.hand_result is None:
            for s, r in enumerate(self.seats):
                r.left = len(result.hands[s])
            if result.winner is not None and result.reason == "out":
                winner = self.seats[result.winner]
                winner.out_turn = winner.draws - 1


Played = tuple[int, int, list[SeatRecord]]


def _deal(args: tuple[str, list[str], int, int, Settings]) -> list[Played]:
    """Deal `deal` once with the tested player in each seat: (its seat, the seat that opened
    first or -1, every seat's record) for each."""
    variant, players, seed, deal, settings = args
    out: list[Played] = []
    for hero in range(len(players)):
        watch = HandWatch(len(players))
        play_hand(variant, players, seed, deal, hero, settings, watch)
        out.append((hero, watch.first_opener, watch.seats))
    return out


def summarise(records: Sequence[tuple[SeatRecord, bool]]) -> dict[str, float | int | None]:
    """The figures of one player over its seats' records (each with: it opened first)."""
    hands = len(records)
    out_turns = [r.out_turn for r, _ in records if r.out_turn is not None]
    lost = [r for r, _ in records if not r.won]
    first = [r for r, f in records if f]
    other = [r for r, f in records if not f]
    opened = [r.open_turn for r, _ in records if r.open_turn is not None]
    draws = sum(r.draws for r, _ in records)

    def share(part: int, whole: int) -> float | None:
        return round(part / whole, 4) if whole else None

    return {
        "hands": hands,
        "hands_won": share(len(out_turns), hands),
        "opened": share(len(opened), hands),
        "open_turn": statistics.median(opened) if opened else None,
        "opened_first": share(len(first), hands),
        "won_when_first": share(sum(r.won for r in first), len(first)),
        "won_otherwise": share(sum(r.won for r in other), len(other)),
        "lost_never_opened": share(sum(r.open_turn is None for r in lost), len(lost)),
        "lost_1_3_left": share(sum(1 <= r.left <= 3 for r in lost), len(lost)),
        "from_discard": share(sum(r.from_discard for r, _ in records), draws),
        "winner_turn": statistics.median(out_turns) if out_turns else None,
    }


def main() -> int:
    args = deal_arguments(__doc__.split("\n\n")[0]).parse_args()
    players = [p.strip() for p in args.players.split(",")]
    settings = parse_settings(args.set)
    work = [(args.variant, players, args.seed, d, settings) for d in range(args.deals)]
    with ProcessPoolExecutor(args.jobs) as pool:
        per_deal = list(pool.map(_deal, work))
    tested: list[tuple[SeatRecord, bool]] = []
    field_: list[tuple[SeatRecord, bool]] = []
    for deal in per_deal:
        for hero, first, seats in deal:
            for s, rec in enumerate(seats):
                (tested if s == hero else field_).append((rec, s == first))
    for label, records in ((players[0], tested), ("field", field_)):
        row = {"variant": args.variant, "player": label, "settings": settings}
        row.update(summarise(records))
        print(json.dumps(row), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
