"""A whole match in engine form: the mutable `Game` of ints and lists that applies moves
in place, and the life of a hand between moves (dealing, end of turn, stock exhaustion,
scoring, match end, votes).

See `rules.fast` for the documented fast API bots use. The pydantic API (`rules.engine`)
applies to a copy of the `Game` a `GameState` carries (made from it on first use) and makes
the next state from it, so both forms share one implementation of every rule. A `Game`'s
attributes carry the names of `GameState`'s fields.

Engine moves are tuples (see `rules.fast`):
``(DRAW, SRC_STOCK | SRC_DISCARD)``, ``(MELD, ((card, ...), ...))``,
``(LAYOFF, meld_id, (card, ...), END_ANY | END_LOW | END_HIGH)``, ``(SWAP, meld_id, card)``,
``(DISCARD, card)``. Cards are ints (`rules.cards`); meld ids are ints (``"m7"`` is 7).
After a discard draw, `last_move` holds ``(DRAW, SRC_DISCARD, card)``: the card was face up.
Stock lists keep their top card LAST inside the engine (``pop()`` draws).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Literal, NamedTuple

from rules.cards import JOKER, card_name, cards_name
from rules.errors import (
    AlreadyDrawn,
    CannotDiscardDrawnCard,
    CardNotInHand,
    IllegalMove,
    InvalidMove,
    InvalidSwap,
    InvalidVote,
    MeldNotFound,
    MustDiscardToGoOut,
    MustDrawFirst,
    MustPlayJoker,
    NothingToDraw,
    NotOpened,
    NotYourTurn,
    OpeningBelow51,
    WrongPhase,
)
from rules.fastrules import (
    EX_KEEP_TOP_AFTER_TURN,
    EX_KEEP_TOP_ON_DRAW,
    EX_REBUILD_WHOLE,
    RUMMY_DOUBLE,
    RUMMY_NONE,
    RUMMY_PENALTY,
    FastRules,
)
from rules.melds import TMeld, can_take_natural, joker_slots, layoff_run, layoff_set, read_meld
from rules.shuffle import hand_seed, reshuffle_label, shuffle
from rules.state import PhaseName

ReasonName = Literal["out", "draw", "stalemate"]
FixedDeal = tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...]]

DRAW_PHASE, PLAY_PHASE, HAND_OVER, MATCH_OVER = 1, 2, 3, 4
PHASE_NAMES: dict[int, PhaseName] = {
    DRAW_PHASE: "draw",
    PLAY_PHASE: "play",
    HAND_OVER: "hand_over",
    MATCH_OVER: "match_over",
}
PHASE_INTS = {v: k for k, v in PHASE_NAMES.items()}
DRAW, MELD, LAYOFF, SWAP, DISCARD = 0, 1, 2, 3, 4
SRC_STOCK, SRC_DISCARD = 0, 1

FastMove = tuple[Any, ...]


class Result(NamedTuple):
    """How a hand ended (engine form of `HandResult`)."""

    reason: ReasonName
    winner: int | None
    points: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    rummy: bool


def _remove(hand: list[int], cards: Sequence[int]) -> list[int]:
    """A new hand without `cards`.

    Raises:
        CardNotInHand: a card (or one more copy of it) is not in the hand.
    """
    out = list(hand)
    for c in cards:
        try:
            out.remove(c)
        except ValueError:
            raise CardNotInHand(f"{card_name(c)} is not in your hand") from None
    return out


def _joker_pairs(nat: Sequence[int], distinct: bool, ace_high: bool) -> Iterator[tuple[int, int]]:
    """Index pairs of natural cards that make a meld with one joker (or two)."""
    for i, a in enumerate(nat):
        for j in range(i + 1, len(nat)):
            b = nat[j]
            if a % 13 == b % 13 and (a != b or not distinct):
                yield i, j
            elif a // 13 == b // 13 and a != b:
                lo, hi = sorted((a % 13, b % 13))
                # Q-K-A with the ace high; never K-A-2, so 2 and K are not a pair.
                if hi - lo <= 2 or (ace_high and lo == 0 and hi >= 11):
                    yield i, j


def jokers_can_land(
    after: Sequence[int], must: int, slots: int, drawn: int, distinct: bool, ace_high: bool
) -> bool:
    """Whether `must` jokers of the hand `after` can all be played this turn and still
    leave a card to discard, with `slots` places for a joker on the table.

    Exact for a pack of at most two jokers (rummy51): a joker goes onto the table or into
    one new meld with one natural card and the other joker, or with two natural cards. A
    bigger meld only leaves fewer cards to discard, and a lay-off never makes a place for a
    joker, so no other play can help.
    """
    jokers = after.count(JOKER)
    nat = [c for c in after if c != JOKER]
    # A joker taken from the discard pile this turn may not be discarded either.
    drawn_joker = 1 if drawn == JOKER else 0

    def leaves_discard(left: list[int], spare: int) -> bool:
        return spare - drawn_joker >= 1 or any(c != drawn or left.count(c) > 1 for c in left)

    if slots >= must and leaves_discard(nat, jokers - must):
        return True
    for k in (1, 2):
        table = max(0, must - k)
        if k > jokers or table > slots:
            continue
        spare = jokers - k - table
        if k == 2:
            for i in range(len(nat)):
                if leaves_discard(nat[:i] + nat[i + 1 :], spare):
                    return True
        for i, j in _joker_pairs(nat, distinct, ace_high):
            if leaves_discard([c for x, c in enumerate(nat) if x not in (i, j)], spare):
                return True
    return False


class Game:
    """A whole match in engine form. Mutable: `apply` changes it in place (or raises and
    changes nothing). Copy with `copy()` before a playout.

    Built in one place, `__init__`: a new match (then `deal()`), a stored `GameState`
    (`rules.convert.game_of`), a seat's view (`rules.legal.game_from_view`) and what that
    view shows of a game (`rules.legal.seen_by`); or copied (`copy()`).
    """

    __slots__ = (
        "r", "players", "seed", "limit", "match_number", "hand_number", "hand_seed",
        "fixed_deal", "reshuffles", "stock_exhaustions", "hands", "stock", "discard", "melds",
        "next_meld_id", "phase", "turn", "dealer", "scores", "turns_completed", "opened",
        "has_played", "drawn_from_discard", "jokers_taken", "laid_off_this_turn",
        "played_this_turn", "hand_result", "match_winner", "votes_next", "votes_new",
        "last_move",
    )  # fmt: skip

    r: FastRules
    players: int
    seed: bytes
    # rummy51: the penalty total that ends the match (RULES.md match length); 0 for none.
    limit: int
    match_number: int
    hand_number: int
    hand_seed: bytes
    fixed_deal: FixedDeal | None
    reshuffles: int
    stock_exhaustions: int
    hands: list[list[int]]
    stock: list[int]
    discard: list[int]
    melds: list[TMeld]
    next_meld_id: int
    phase: int
    turn: int
    dealer: int
    scores: list[int]
    turns_completed: int
    opened: list[bool]
    # Melded or laid off in an earlier turn of this hand (going rummy).
    has_played: list[bool]
    # The card taken from the discard pile this turn, or -1.
    drawn_from_discard: int
    # Jokers taken from the table this turn that must still be played (rummy51).
    jokers_taken: int
    laid_off_this_turn: bool
    played_this_turn: bool
    hand_result: Result | None
    match_winner: tuple[int, ...] | None
    votes_next: tuple[int, ...]
    votes_new: tuple[int, ...]
    last_move: tuple[int, tuple[Any, ...]] | None

    def __init__(
        self,
        r: FastRules,
        players: int,
        seed: bytes,
        *,
        limit: int | None = None,
        match_number: int = 1,
        hand_number: int = 1,
        hand_seed: bytes = b"",
        fixed_deal: FixedDeal | None = None,
        reshuffles: int = 0,
        stock_exhaustions: int = 0,
        hands: list[list[int]] | None = None,
        stock: list[int] | None = None,
        discard: list[int] | None = None,
        melds: list[TMeld] | None = None,
        next_meld_id: int = 1,
        phase: int = DRAW_PHASE,
        turn: int = 0,
        dealer: int | None = None,
        scores: list[int] | None = None,
        turns_completed: int = 0,
        opened: list[bool] | None = None,
        has_played: list[bool] | None = None,
        drawn_from_discard: int = -1,
        jokers_taken: int = 0,
        laid_off_this_turn: bool = False,
        played_this_turn: bool = False,
        hand_result: Result | None = None,
        match_winner: tuple[int, ...] | None = None,
        votes_next: tuple[int, ...] = (),
        votes_new: tuple[int, ...] = (),
        last_move: tuple[int, tuple[Any, ...]] | None = None,
    ) -> None:
        self.r = r
        self.players = players
        self.seed = seed
        self.limit = r.penalty_limit if limit is None else limit
        self.match_number = match_number
        self.hand_number = hand_number
        self.hand_seed = hand_seed
        self.fixed_deal = fixed_deal
        self.reshuffles = reshuffles
        self.stock_exhaustions = stock_exhaustions
        self.hands = hands if hands is not None else [[] for _ in range(players)]
        self.stock = stock if stock is not None else []
        self.discard = discard if discard is not None else []
        self.melds = melds if melds is not None else []
        self.next_meld_id = next_meld_id
        self.phase = phase
        self.turn = turn
        # RULES.md: first hand, the last seat deals and seat 0 starts.
        self.dealer = players - 1 if dealer is None else dealer
        self.scores = scores if scores is not None else [0] * players
        self.turns_completed = turns_completed
        self.opened = opened if opened is not None else [False] * players
        self.has_played = has_played if has_played is not None else [False] * players
        self.drawn_from_discard = drawn_from_discard
        self.jokers_taken = jokers_taken
        self.laid_off_this_turn = laid_off_this_turn
        self.played_this_turn = played_this_turn
        self.hand_result = hand_result
        self.match_winner = match_winner
        self.votes_next = votes_next
        self.votes_new = votes_new
        self.last_move = last_move

    def copy(self) -> Game:
        """An independent copy (melds are immutable and shared)."""
        # Spelled out: every API move and every playout copies a Game, and a loop of
        # getattr/setattr over the slots costs five times as much.
        g = Game.__new__(Game)
        g.r = self.r
        g.players = self.players
        g.seed = self.seed
        g.limit = self.limit
        g.match_number = self.match_number
        g.hand_number = self.hand_number
        g.hand_seed = self.hand_seed
        g.fixed_deal = self.fixed_deal
        g.reshuffles = self.reshuffles
        g.stock_exhaustions = self.stock_exhaustions
        g.hands = [list(h) for h in self.hands]
        g.stock = list(self.stock)
        g.discard = list(self.discard)
        g.melds = list(self.melds)
        g.next_meld_id = self.next_meld_id
        g.phase = self.phase
        g.turn = self.turn
        g.dealer = self.dealer
        g.scores = list(self.scores)
        g.turns_completed = self.turns_completed
        g.opened = list(self.opened)
        g.has_played = list(self.has_played)
        g.drawn_from_discard = self.drawn_from_discard
        g.jokers_taken = self.jokers_taken
        g.laid_off_this_turn = self.laid_off_this_turn
        g.played_this_turn = self.played_this_turn
        g.hand_result = self.hand_result
        g.match_winner = self.match_winner
        g.votes_next = self.votes_next
        g.votes_new = self.votes_new
        g.last_move = self.last_move
        return g

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
        self.stock = list(reversed(stock_top_first))
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
        self.stock = order[::-1]

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

    # ---- the reducer -------------------------------------------------------------------

    def apply(self, seat: int, move: FastMove) -> None:
        """Apply one engine move of `seat` in place.

        Checks in order: hand over? -> your turn? -> move allowed in this phase? -> legal?

        Raises:
            WrongPhase, NotYourTurn, MustDrawFirst, AlreadyDrawn and the other
            IllegalMove subclasses; the game is unchanged when it raises.
        """
        if self.phase >= HAND_OVER:
            raise WrongPhase("the hand is over: vote for the next hand or a new match")
        if seat != self.turn:
            raise NotYourTurn(f"it is seat {self.turn}'s turn, not seat {seat}'s")
        kind = move[0]
        if self.phase == DRAW_PHASE:
            if kind != DRAW:
                raise MustDrawFirst("draw a card from the stock or the discard pile first")
            self._draw(seat, move[1])
            if move[1] == SRC_DISCARD:
                move = (DRAW, SRC_DISCARD, self.drawn_from_discard)  # API.md v1.1: it was face up
        elif kind == DISCARD:
            self._discard(seat, move[1])
        elif kind == MELD:
            self._meld(seat, move[1])
        elif kind == LAYOFF:
            self._layoff(seat, move[1], move[2], move[3])
        elif kind == SWAP:
            self._swap(seat, move[1], move[2])
        elif kind == DRAW:
            raise AlreadyDrawn("you already drew a card this turn")
        else:
            raise InvalidMove(f"unknown move {move!r}")
        self.last_move = (seat, move)

    def _draw(self, seat: int, source: int) -> None:
        hand = self.hands[seat]
        if source == SRC_DISCARD:
            if not self.discard:
                raise NothingToDraw("the discard pile is empty")
            card = self.discard.pop()
            self.drawn_from_discard = card
        elif self.stock:
            card = self.stock.pop()
            if not self.stock:
                self.stock_exhaustions += 1
        elif self.r.exhaustion == EX_KEEP_TOP_ON_DRAW and self.discard:
            # RULES.md classic: the discard pile except its top card becomes the stock; if
            # the top card is all there is, the player takes it.
            top = self.discard.pop()
            if self.discard:
                self._reshuffle(self.discard)
                self.discard = [top]
                card = self.stock.pop()
                if not self.stock:
                    self.stock_exhaustions += 1
            else:
                card = top
                self.drawn_from_discard = card
        else:
            raise NothingToDraw("the stock is empty")
        hand.append(card)
        self.phase = PLAY_PHASE

    def _discard(self, seat: int, card: int) -> None:
        if self.jokers_taken:
            raise MustPlayJoker("play the joker you took from the table before discarding")
        hand = self.hands[seat]
        n = hand.count(card)
        if not n:
            raise CardNotInHand(f"{card_name(card)} is not in your hand")
        if card == self.drawn_from_discard and n == 1:
            raise CannotDiscardDrawnCard(
                f"{card_name(card)} was taken from the discard pile this turn"
            )
        hand.remove(card)
        self.discard.append(card)
        self.turns_completed += 1
        if not hand:
            self._go_out(seat)
        else:
            self._end_turn(seat)

    def _meld(self, seat: int, groups: Sequence[Sequence[int]]) -> None:
        r = self.r
        hand = self.hands[seat]
        if not groups:
            raise InvalidMove("a meld move needs at least one meld")
        flat = [c for g in groups for c in g]
        after = _remove(hand, flat)
        new = [read_meld(g, r.ace_high, r.distinct) for g in groups]
        if r.opening_min and not self.opened[seat]:
            total = sum(r.meld_value(m.stands) for m in new)
            rummy_try = r.rummy_skips_opening and len(after) == 1
            if total < r.opening_min and not rummy_try:
                raise OpeningBelow51(
                    f"a first meld must total at least {r.opening_min} points; "
                    f"{cards_name(flat)} total {total}"
                )
        must_after = max(0, self.jokers_taken - flat.count(JOKER))
        nid = self.next_meld_id
        new = [m.with_id(nid + i) for i, m in enumerate(new)]
        self._check_after(after, must_after, self.melds + new)
        self.hands[seat] = after
        self.melds.extend(new)
        self.next_meld_id = nid + len(new)
        self.opened[seat] = True
        self.jokers_taken = must_after
        self.played_this_turn = True
        if not after:
            self._go_out(seat)

    def _find(self, meld_id: int) -> int:
        for i, m in enumerate(self.melds):
            if m.id == meld_id:
                return i
        raise MeldNotFound(f"there is no meld m{meld_id} on the table")

    def _layoff(self, seat: int, meld_id: int, cards: Sequence[int], end: int) -> None:
        r = self.r
        if not r.layoff_before_open and not self.opened[seat]:
            raise NotOpened(f"you may lay off only after your first meld of {r.opening_min}")
        i = self._find(meld_id)
        if not cards:
            raise InvalidMove("a lay-off needs at least one card")
        after = _remove(self.hands[seat], cards)
        m = self.melds[i]
        freed = 0
        if m.is_run:
            new = layoff_run(m, cards, end, r.ace_high)
        else:
            new, freed = layoff_set(m, cards, r.distinct, r.free_jokers)
        if freed:
            after.extend([JOKER] * freed)
        must_after = max(0, self.jokers_taken - list(cards).count(JOKER))
        if r.must_play_joker:
            must_after += freed
        self._play_onto(seat, i, new, after, must_after)
        if not after:
            self._go_out(seat)

    def _swap(self, seat: int, meld_id: int, card: int) -> None:
        r = self.r
        if not r.joker_swap:
            raise InvalidSwap("this variant has no jokers to swap")
        if not self.opened[seat]:
            raise NotOpened(f"you may take a joker only after your first meld of {r.opening_min}")
        i = self._find(meld_id)
        hand = self.hands[seat]
        if card not in hand:
            raise CardNotInHand(f"{card_name(card)} is not in your hand")
        m = self.melds[i]
        if not m.is_run:
            raise InvalidSwap(f"m{meld_id} is a set: only a run's joker can be swapped")
        pos = -1
        for k, (c, s) in enumerate(zip(m.cards, m.stands, strict=True)):
            if c == JOKER and s == card:
                pos = k
                break
        if pos < 0:
            raise InvalidSwap(f"no joker in m{meld_id} stands for {card_name(card)}")
        after = list(hand)
        after.remove(card)
        after.append(JOKER)
        cards = m.cards[:pos] + (card,) + m.cards[pos + 1 :]
        new = TMeld(m.id, True, m.key, m.low, m.high, cards, m.stands)
        must_after = self.jokers_taken + (1 if r.must_play_joker else 0)
        self._play_onto(seat, i, new, after, must_after)

    def _play_onto(self, seat: int, i: int, new: TMeld, after: list[int], must_after: int) -> None:
        """Put `new` in place of table meld `i` and leave `after` in `seat`'s hand (a lay-off
        or a joker swap), once the hand it leaves strands nobody."""
        melds = list(self.melds)
        melds[i] = new
        self._check_after(after, must_after, melds)
        self.hands[seat] = after
        self.melds = melds
        self.jokers_taken = must_after
        self.laid_off_this_turn = True
        self.played_this_turn = True

    def after_problem(
        self, after: Sequence[int], must_after: int, melds: Sequence[TMeld]
    ) -> IllegalMove | None:
        """Why a meld, lay-off or swap leaving hand `after` would strand the player, or None.

        RULES.md: the drawn discard may not be the only card left to discard; rummy51: the
        last card must be discarded, and a joker taken this turn must still find a place.
        """
        n = len(after)
        drawn = self.drawn_from_discard
        if n == 0:
            if self.r.must_discard_out:
                return MustDiscardToGoOut("you must keep a card to discard when going out")
            return None
        if not must_after:
            if n >= 2 or after[0] != drawn:
                return None
            return CannotDiscardDrawnCard(
                f"{card_name(drawn)} was taken from the discard pile this turn and would be "
                "the only card left to discard"
            )
        slots = sum(joker_slots(m, self.r.ace_high) for m in melds)
        if not jokers_can_land(after, must_after, slots, drawn, self.r.distinct, self.r.ace_high):
            return MustPlayJoker(
                "the joker you would take could not be played this turn with a card left to discard"
            )
        return None

    def _check_after(self, after: Sequence[int], must_after: int, melds: Sequence[TMeld]) -> None:
        problem = self.after_problem(after, must_after, melds)
        if problem is not None:
            raise problem
