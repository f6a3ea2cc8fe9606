"""`expert`: plays to win, from the seat's view and its memory of the hand.

Every decision prices hands with `HandEval` (cheapest melds, leftovers weighted by points,
tempo and live outs) built on `Knowledge` (unseen cards, what each opponent took from and
declined on the pile, what would feed the next player). Weights differ per variant
(`PROFILES`, tuned by tournaments against greedy).

- draw: classic/basic weigh the top discard's sure price against a weighted sample of the
  unseen cards the stock may give; rummy51 takes it only when it melds or lays off now
  (or is the natural for a table run's joker), and does not search it;
- play: meld and lay off whatever lowers the hand's price. In classic and basic it keeps
  finished melds hidden while every opponent holds more than `hold_until` cards (they are
  lay-off targets for the opponent once down, and cost no tempo held, since it lays them all
  down in the turn it goes out; in basic that also scores going rummy, so there it holds down
  to 2 cards and, until it has played anything, holds its lay-offs too). In rummy51 it holds
  a legal opening in hand while every opponent has more than `hold_opening` cards, unless it
  goes out in this turn (its melds would be lay-off targets for three opponents; held, they
  cost it no turn); then it opens as soon as a legal opening does not raise its price (the
  remaining hand priced as opened),
  goes rummy when a legal meld move takes all but one card, and swaps a dead card for a
  run's joker, which it then plays (must_play). It prices a natural that a table run's joker
  stands for as that joker, and takes one from the pile: the joker is its own from the turn
  it opens, since greedy never swaps;
- discard: the card whose loss costs least plus what it would give the next player
  (`Knowledge.feed_chance`: table lay-offs, the cards that player took or declined);
- search (`bots.search`): where the static choice is in doubt (a draw whose top discard could
  matter, the discards within `margin` of the cheapest), each candidate is played out on the
  fast engine over determinized samples of the hidden cards (dealt consistently with memory)
  by the greedy rollout policy for a round of turns and priced by `HandEval` for every seat.
  It is bounded by `samples` and by an optional time budget (150 ms on the server;
  tournaments run without it to stay reproducible).
- penalty exposure: points weigh more as the nearest opponent gets close to going out, and
  (classic, `race` in `PROFILES`) the hand expects fewer turns to fill its melds: with
  the opponent a card or two from out, a card's outs are worth little and its points a lot,
  so it lays off and sheds points instead of waiting on draws.

Memory: one `MemoryBook` per strategy object, keyed by the hand's identity (see
`bots.memory`), so the server may share one object across rooms. Callers that see every state
may call `observe(view)` on each; `choose` observes its own view too.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from random import Random
from typing import TYPE_CHECKING

from bots.evaluate import HandEval
from bots.expertdraw import choose_draw, draw_in_doubt, sources, without
from bots.greedy import splitter_for
from bots.knowledge import Knowledge
from bots.memory import HandMemory, MemoryBook
from bots.search import evaluate
from bots.strategy import by_type, move_cards, require_moves, variant_of
from rules import Discard, Draw, Swap, playout
from rules.playout import JOKER, FastMove

if TYPE_CHECKING:
    from rules import Move, SeatView


# Weights per variant, tuned against greedy; the measurements behind each value are in the
# docs/computer-players.md (bench/tune.py and the
# paired bench/duplicate.py).
# - `race` shortens the turns our hand expects to fill its melds in to `race` times the card
#   count of the opponent nearest to going out (`HandEval`): in classic's two-player race a
#   card's outs are worth little once the opponent is a card or two from out, its points a
#   lot. Basic (two opponents, seven cards) and rummy51 lost with it and keep 0.
# - in rummy51's four-player race the card count (`tempo`) and not feeding the next player
#   matter most; points matter less.
DEFAULT_PROFILE = {
    "tempo": 8.0,
    "exposure": 1.0,
    "feed_weight": 8.0,
    "race": 0.9,
    "hold_until": 3.0,
}
# Holding finished melds (`_hold_melds`), a negative value meaning never:
# - `hold_until`: while every opponent has more cards than this; in classic 3 beat 2 (caught
#   holding too often), 4 and 6.
# - `rummy_hold`: a hand that has neither melded nor laid off holds its lay-offs too, so basic
#   goes rummy (double points), which greedy never does.
# - `hold_opening`: rummy51 keeps a legal opening in hand while every opponent has more cards
#   than this, unless it goes out this turn; laid down, its melds are lay-off targets for three
#   opponents. Lower values win more hands and fewer matches: a lost hand that never opened
#   pays for all 13 cards.
# - `sample_cap` (0: none): rummy51's samples cost the most (hands of 13 or more cards) and
#   more than 8 bought nothing, so the server's expert takes at most 8 there, as tournaments do.
PLAY_DEFAULTS = {"hold_until": 4.0, "rummy_hold": 0.0, "hold_opening": -1.0, "sample_cap": 0.0}
PROFILES = {
    "basic": {**DEFAULT_PROFILE, "race": 0.0, "hold_until": 2.0, "rummy_hold": 1.0},
    "rummy51": {
        "tempo": 20.0,
        "exposure": 0.3,
        "feed_weight": 16.0,
        "race": 0.0,
        "hold_opening": 4.0,
        "sample_cap": 8.0,
    },
}


class ExpertStrategy:
    name = "expert"

    def __init__(
        self,
        budget_ms: float | None = 150.0,
        *,
        samples: int = 10,
        draw_samples: int = 8,
        feed_weight: float | None = None,
        tempo: float | None = None,
        search: bool = True,
        candidates: int = 4,
        margin: float = 12.0,
        prior: float = 0.5,
        horizon: int | None = None,
        hold_until: int | None = None,
        opening_weight: float = 0.4,
        hold_opened: bool = False,
        exposure: float | None = None,
        sure_melds: bool = False,
        race: float | None = None,
        rummy_hold: bool | None = None,
        hold_opening: int | None = None,
        sample_cap: int | None = None,
        memory_size: int = 512,
    ) -> None:
        self.budget_ms = budget_ms
        self.samples = samples
        self.draw_samples = draw_samples
        self.feed_weight = feed_weight
        self.tempo = tempo
        self.search = search
        self.candidates = candidates
        self.margin = margin
        self.prior = prior
        self.horizon = horizon
        self.hold_until = hold_until
        self.opening_weight = opening_weight
        self.hold_opened = hold_opened
        self.exposure = exposure
        self.sure_melds = sure_melds
        self.race = race
        self.rummy_hold = rummy_hold
        self.hold_opening = hold_opening
        self.sample_cap = sample_cap
        self.book = MemoryBook(memory_size)

    # -- the Strategy protocol -------------------------------------------------------------

    def observe(self, view: SeatView) -> None:
        """Fold a state this seat was shown into the hand's memory (optional, idempotent)."""
        if view.phase in ("draw", "play"):
            self.book.observe(view)

    def choose(self, view: SeatView, legal: Sequence[Move], rng: Random) -> Move:
        require_moves(legal)
        if len(legal) == 1:
            move = legal[0]
        else:
            memory = self.book.observe(view)
            move = self._decide(view, legal, rng, memory)
        if view.phase in ("draw", "play"):
            self.book.get(view).note_own(view, move.model_dump(mode="json"))
        return move

    def suggest(self, view: SeatView, legal: Sequence[Move], rng: Random) -> Move:
        """The move `choose` would play, without remembering it as played (hints, reviews:
        the seat may play something else, which its next view will show)."""
        require_moves(legal)
        if len(legal) == 1:
            return legal[0]
        return self._decide(view, legal, rng, self.book.observe(view))

    def evaluation(self, view: SeatView, know: Knowledge) -> HandEval:
        """The hand prices this strategy decides by, for the seat of `view`."""
        prof = dict(PROFILES.get(view.variant, DEFAULT_PROFILE))
        for key in prof:
            if getattr(self, key) is not None:
                prof[key] = getattr(self, key)
        ev = HandEval(
            know,
            splitter_for(view.variant),
            exposure=prof["exposure"] * self._exposure(view),
            tempo=prof["tempo"],
            opening_weight=self.opening_weight,
            race=prof["race"],
        )
        ev.feed_weight = prof["feed_weight"]
        return ev

    # -- decisions -------------------------------------------------------------------------

    def _decide(
        self, view: SeatView, legal: Sequence[Move], rng: Random, memory: HandMemory
    ) -> Move:
        started = time.perf_counter()
        v = variant_of(view)
        know = Knowledge(view, memory, v)
        ev = self.evaluation(view, know)
        deadline = None if self.budget_ms is None else started + self.budget_ms / 1000.0
        draws = by_type(legal, Draw)
        if draws:
            static = choose_draw(
                view,
                draws,
                know,
                ev,
                rng,
                sure_melds=self.sure_melds,
                draw_samples=self.draw_samples,
            )
            if not self.search or len(draws) < 2 or not draw_in_doubt(view, know):
                return static
            lines = [[(playout.DRAW, playout.SRC_STOCK)], [(playout.DRAW, playout.SRC_DISCARD)]]
            values, used = self._search(view, know, ev, lines, rng, deadline)
            if not used:
                return static
            # The static choice wins ties: the search must show a gain to overturn it.
            src = static.source if isinstance(static, Draw) else "stock"
            bonus = [self.prior if m.source == src else 0.0 for m in sources(draws)]
            pick = max(range(2), key=lambda i: values[i] + bonus[i])
            return sources(draws)[pick]
        play = self._play(view, legal, know, ev)
        if play is not None:
            return play
        discards = by_type(legal, Discard)
        if not discards:
            return legal[0]
        scored = sorted(
            (
                (self._discard_cost(know, ev, c), m)
                for m in discards
                for c in [playout.code_to_int(m.card)]
            ),
            key=lambda t: t[0],
        )
        close = [m for cost, m in scored if cost <= scored[0][0] + self.margin][: self.candidates]
        if not self.search or len(close) < 2:
            return scored[0][1]
        lines = [[(playout.DISCARD, playout.code_to_int(m.card))] for m in close]
        values, used = self._search(view, know, ev, lines, rng, deadline)
        if not used:
            return close[0]
        values[0] += self.prior  # the static favourite keeps a small head start
        return close[max(range(len(close)), key=lambda i: values[i])]

    def _search(
        self,
        view: SeatView,
        know: Knowledge,
        ev: HandEval,
        lines: list[list[FastMove]],
        rng: Random,
        deadline: float | None,
    ) -> tuple[list[float], int]:
        """Each line's mean value over determinized rollouts (`bots.search.evaluate`)."""
        horizon = self.horizon or view.players
        cap = int(self._setting(view, "sample_cap"))
        samples = min(self.samples, cap) if cap > 0 else self.samples
        return evaluate(
            know, lines, rng, ev.cost, samples=samples, deadline=deadline, horizon=horizon
        )

    def _exposure(self, view: SeatView) -> float:
        """Points weigh more once an opponent is close to going out."""
        others = [n for s, n in enumerate(view.hand_counts) if s != view.seat]
        nearest = min(others) if others else 10
        return 1.0 if nearest > 4 else 1.5 if nearest > 2 else 2.2

    def _discard_cost(self, know: Knowledge, ev: HandEval, card: int) -> float:
        rest = without(know.hand, [card])
        return ev.cost(rest) + ev.feed_weight * know.feed_chance(card)

    def _play(
        self, view: SeatView, legal: Sequence[Move], know: Knowledge, ev: HandEval
    ) -> Move | None:
        hand = know.hand
        plays = [m for m in legal if m.type in ("meld", "layoff")]
        if view.must_play:
            with_joker = [m for m in plays if "JK" in move_cards(m)]
            plays = with_joker or plays
            if plays:
                return min(
                    plays, key=lambda m: ev.cost(without(hand, list(playout.ints(move_cards(m)))))
                )
        if not plays and not by_type(legal, Swap):
            return None
        v = know.v
        if self._hold_melds(view, know):
            # Melds kept in hand give the opponents nothing to lay off on.
            plays = [m for m in plays if m.type != "meld"]
            if (
                self._setting(view, "rummy_hold")
                and view.has_played
                and not view.has_played[view.seat]
            ):
                # basic: a lay-off would cost going rummy (double points) too.
                plays = []
        # Going out, or rummy51's going rummy: whatever empties the most of the hand now.
        after_meld = ev
        if v.opening_min and not ev.opened:
            # rummy51: an opening meld opens us, so price what stays as an opened hand.
            after_meld = ev.opened_copy()
        if plays:
            scored = [
                (
                    (after_meld if m.type == "meld" else ev).cost(
                        without(hand, list(playout.ints(move_cards(m))))
                    ),
                    -len(move_cards(m)),
                    i,
                    m,
                )
                for i, m in enumerate(plays)
            ]
            scored.sort(key=lambda t: (t[0], t[1], t[2]))
            best_cost, _, _, best = scored[0]
        else:
            best_cost, best = float("inf"), None
        swap = self._swap(view, legal, know, ev)
        if swap is not None and (best is None or best.type != "meld"):
            return swap
        if best is None:
            return None
        now = ev.cost(hand)
        # Melds held in hand still count against us: lay down anything that does not hurt.
        if best_cost <= now + (0.0 if v.opening_min else 1.0):
            return best
        return None

    def _setting(self, view: SeatView, key: str) -> float:
        """A play setting: the constructor's value if given, else the variant's profile's."""
        value = getattr(self, key)
        if value is not None:
            return float(value)
        return PROFILES.get(view.variant, DEFAULT_PROFILE).get(key, PLAY_DEFAULTS[key])

    def _hold_melds(self, view: SeatView, know: Knowledge) -> bool:
        """Keep finished melds hidden while nobody is close to going out.

        Laid-down melds are lay-off targets for everyone; held ones cost nothing in tempo (we
        lay them all down in the turn we go out) and only risk their points if an opponent
        goes out first, which takes them several turns from more than `hold_until` cards.
        In basic, a hand laid down all at once also scores double (going rummy): basic
        holds until an opponent is down to 2 cards, and its lay-offs too (`rummy_hold`).
        rummy51 holds its opening while every opponent has more than `hold_opening` cards;
        once opened, it lays its melds down (unless `hold_opened`).
        """
        if know.v.opening_min and not view.opened[view.seat]:
            threshold = self._setting(view, "hold_opening")
        elif know.v.opening_min and not self.hold_opened:
            return False
        else:
            threshold = self._setting(view, "hold_until")
        if threshold < 0:
            return False
        others = [n for s, n in enumerate(view.hand_counts) if s != view.seat]
        if not others or min(others) <= threshold or view.stock_count < 6:
            return False
        # Going out this turn: everything but one card melds, lays off or takes a joker.
        left = splitter_for(view.variant).leftovers(know.with_swaps(know.hand))
        return len([c for c in left if c not in know.targets]) > 1

    def _swap(
        self, view: SeatView, legal: Sequence[Move], know: Knowledge, ev: HandEval
    ) -> Move | None:
        """rummy51: take a run's joker for a card that is no use to us.

        The natural card cannot be laid off where the joker sits, the joker can go on any
        meld: the swap sheds a dead card, and more when the joker then completes a meld.
        """
        swaps = by_type(legal, Swap)
        if not swaps:
            return None
        sp = splitter_for(view.variant)
        hand = know.hand
        spare = sp.leftovers(hand)
        best: tuple[int, Move] | None = None
        for m in swaps:
            card = playout.code_to_int(m.card)
            if card not in spare:
                continue
            gain = len(spare) - len(sp.leftovers(without(hand, [card]) + [JOKER]))
            if best is None or gain > best[0]:
                best = (gain, m)
        return None if best is None else best[1]
