"""The life of a hand between moves, in engine form: dealing, the end of a turn, stock
exhaustion, stalemates, going out and scoring, the match's end, and votes (RULES.md).

`HandGame` adds these to `GameFields`; `rules.engine.game.Game` adds the moves.
"""

from __future__ import annotations

from rules.cards import JOKER
from rules.engine.fields import (
    DRAW_PHASE,
    HAND_OVER,
    MATCH_OVER,
    FixedDeal,
    GameFields,
    ReasonName,
    Result,
)
from rules.engine.switches import (
    EX_KEEP_TOP_AFTER_TURN,
    EX_REBUILD_WHOLE,
    RUMMY_DOUBLE,
    RUMMY_NONE,
    RUMMY_PENALTY,
)
from rules.errors import InvalidVote, WrongPhase
from rules.melds import can_take_natural
from rules.shuffle import hand_seed, reshuffle_label, shuffle


class HandGame(GameFields):
    """A match's fields and what happens to them between moves (see the module doc)."""

    __slots__ = ()

    # ---- dealing -----------------------------------------------------------------------

    def deal(self, fixed: FixedDeal | None = None) -> None:
        """Deal the hand `hand_number` of match `match_number` (dealer already set).

        The deal derives from the hand seed unless `fixed` gives it (already validated).
        """
        self.hand_seed = hand_seed(self.seed, self.match_number, self.hand_number)
        self.fixed_deal = fixed
        if fixed is None:
            order = shuffle(list(self.r.deck), self.hand_seed, b"deal")
            size = self.r.hand_size[self.players]
            hands = tuple(tuple(order[i * size : (i + 1) * size]) for i in range(self.players))
            rest = order[self.players * size :]
            discard: tuple[int, ...] = (rest[0],)
            stock_top_first: tuple[int, ...] = tuple(rest[1:])
        else:
            hands, discard, stock_top_first = fixed
        self.hands = [list(h) for h in hands]
        self.discard = list(discard)
        self.stock = list(stock_top_first)
        self.melds = []
        self.next_meld_id = 1
        self.reshuffles = 0
        self.stock_exhaustions = 0
        self.phase = DRAW_PHASE
        self.turn = (self.dealer + 1) % self.players
        self.turns_completed = 0
        self.opened = [False] * self.players
        self.has_played = [False] * self.players
        self._reset_turn()
        self.hand_result = None
        self.match_winner = None
        self.votes_next = ()
        self.votes_new = ()
        self.last_move = None
        if not self.stock and not self.discard:
            self._end_hand("draw")  # (house) a deal that leaves nothing to draw

    def _reset_turn(self) -> None:
        self.drawn_from_discard = -1
        self.jokers_taken = 0
        self.laid_off_this_turn = False
        self.played_this_turn = False

    def _reshuffle(self, cards: list[int]) -> None:
        """Make `cards` the new stock, shuffled by the hand seed's k-th reshuffle stream."""
        self.reshuffles += 1
        order = shuffle(cards, self.hand_seed, reshuffle_label(self.reshuffles))
        self.stock = order

    # ---- end of a turn and of a hand ---------------------------------------------------

    def _end_turn(self, seat: int) -> None:
        """After a discard that left cards in hand (turns_completed already counted)."""
        r = self.r
        if self.played_this_turn:
            self.has_played[seat] = True
        if not self.stock:
            if r.exhaustion == EX_REBUILD_WHOLE:
                # RULES.md basic: first exhaustion rebuilds from the whole pile at the end of
                # the turn; the second ends the hand in a stalemate.
                if r.second_stalemate and self.stock_exhaustions >= 2:
                    self._end_hand("stalemate")
                    return
                pile = self.discard
                self.discard = []
                self._reshuffle(pile)
            elif r.exhaustion == EX_KEEP_TOP_AFTER_TURN and len(self.discard) > 1:
                top = self.discard.pop()
                self._reshuffle(self.discard)
                self.discard = [top]
        if r.turn_limit and self.turns_completed >= r.turn_limit:
            self._end_hand("draw")
            return
        if r.one_card_stalemate and self._nobody_can_go_out():
            self._end_hand("stalemate")
            return
        self.turn = (seat + 1) % self.players
        self.phase = DRAW_PHASE
        self._reset_turn()
        if not self.stock and not self.discard:
            self._end_hand("draw")  # (house) nothing at all left to draw

    def _nobody_can_go_out(self) -> bool:
        """basic: every hand holds one card and no card off the table fits any meld."""
        if any(len(h) != 1 for h in self.hands):
            return False
        ace_high = self.r.ace_high
        for pile in (*self.hands, self.stock, self.discard):
            for c in pile:
                if c == JOKER:
                    return False
                for m in self.melds:
                    if can_take_natural(m, c, ace_high):
                        return False
        return True

    def _go_out(self, seat: int) -> None:
        """`seat` has no cards left: score the hand (RULES.md scoring of each variant)."""
        r = self.r
        rummy = (
            r.rummy != RUMMY_NONE
            and not self.has_played[seat]
            and (r.rummy_allows_layoff or not self.laid_off_this_turn)
        )
        values = r.card_values
        left = [sum(values[c] for c in h) for h in self.hands]
        if r.penalty:
            extra = r.rummy_penalty if rummy and r.rummy == RUMMY_PENALTY else 0
            points = tuple(0 if i == seat else left[i] + extra for i in range(self.players))
        else:
            won = sum(left)
            if rummy and r.rummy == RUMMY_DOUBLE:
                won *= 2
            points = tuple(won if i == seat else 0 for i in range(self.players))
        self._finish(Result("out", seat, points, self._hands_tuple(), rummy))

    def _hands_tuple(self) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(h) for h in self.hands)

    def _end_hand(self, reason: ReasonName) -> None:
        self._finish(Result(reason, None, (0,) * self.players, self._hands_tuple(), False))

    def _finish(self, result: Result) -> None:
        r = self.r
        self.hand_result = result
        self.scores = [s + p for s, p in zip(self.scores, result.points, strict=True)]
        winners: tuple[int, ...] | None = None
        if r.penalty:
            if self.limit and max(self.scores) >= self.limit:
                low = min(self.scores)
                winners = tuple(i for i, s in enumerate(self.scores) if s == low)
        else:
            target = r.match_target.get(self.players, 0)
            top = max(self.scores)
            if target and top >= target:
                winners = tuple(i for i, s in enumerate(self.scores) if s == top)
        self.match_winner = winners
        self.phase = MATCH_OVER if winners else HAND_OVER
        self._reset_turn()

    # ---- votes -------------------------------------------------------------------------

    def vote(self, seat: int, kind: str, voters: frozenset[int]) -> None:
        """Record `seat`'s vote; act once every seat in `voters` voted the same.

        Raises:
            InvalidVote: unknown kind, a seat out of range or not among `voters`.
            WrongPhase: "next_hand" while the hand is not over (or the match is over).
        """
        if not 0 <= seat < self.players:
            raise InvalidVote(f"there is no seat {seat}")
        if kind not in ("next_hand", "new_match"):
            raise InvalidVote(f"unknown vote {kind!r}: vote next_hand or new_match")
        if voters and seat not in voters:
            raise InvalidVote(f"seat {seat} does not vote in this room")
        if kind == "next_hand" and self.phase != HAND_OVER:
            if self.phase == MATCH_OVER:
                raise WrongPhase("the match is over: vote for a new match")
            raise WrongPhase("the hand is still being played")
        nxt = tuple(s for s in self.votes_next if s != seat)
        new = tuple(s for s in self.votes_new if s != seat)
        if kind == "next_hand":
            nxt = tuple(sorted((*nxt, seat)))
        else:
            new = tuple(sorted((*new, seat)))
        self.votes_next, self.votes_new = nxt, new
        chosen = nxt if kind == "next_hand" else new
        if all(v in chosen for v in voters):
            if kind == "next_hand":
                self.hand_number += 1
                self.dealer = (self.dealer + 1) % self.players
            else:
                self.match_number += 1
                self.hand_number = 1
                self.dealer = self.players - 1
                self.scores = [0] * self.players
            self.deal()
