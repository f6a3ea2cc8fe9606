"""The public API around the rules: variants, deals and seeds, views, votes, replays and
determinization."""

from __future__ import annotations

import hashlib
import random

import pytest

import rules
from rules.cards import Card
from rules.reducer import deck_of
from tests.kit.deals import fixed_deal
from tests.kit.scenarios import discard, draw, game, meld, play


def test_variants_registry_publishes_every_switch() -> None:
    assert set(rules.VARIANTS) == {"classic", "basic", "rummy51"}
    dumped = rules.get_variant("rummy51").model_dump()
    assert dumped["opening_minimum"] == 51 and dumped["jokers"] == 2
    assert dumped["card_values"]["A"] == 11 and dumped["card_values"]["JK"] == 25
    assert rules.get_variant("basic").match_target == {2: 100, 3: 150, 4: 200}
    assert rules.get_variant("classic").turn_limit == 200
    with pytest.raises(KeyError, match="known variants"):
        rules.get_variant("gin")
    with pytest.raises(KeyError):
        rules.new_game("gin", 2, seed=b"x")


def test_card_codes_round_trip() -> None:
    for code in {*deck_of("rummy51")}:
        assert str(Card.parse(code)) == code
    assert repr(Card.parse("TD")) == "Card.parse('TD')"
    with pytest.raises(ValueError):
        Card.parse("1S")


def test_the_same_seed_deals_the_same_hand_and_another_seed_does_not() -> None:
    a = rules.new_game("classic", 2, seed=b"one")
    assert rules.new_game("classic", 2, seed=b"one") == a
    assert rules.new_game("classic", 2, seed=b"two").hands != a.hands
    assert sorted(c for h in a.hands for c in h) + sorted(a.stock + a.discard) != []


def test_a_fixed_deal_must_be_exactly_the_pack() -> None:
    deal = rules.Deal.model_validate(
        fixed_deal("classic", [["AS", "2S"], ["3S", "4S"]], ["5S"], full_hands=False)
    )
    rules.new_game("classic", 2, seed=b"x", deal=deal)
    short = rules.Deal(hands=deal.hands, discard=deal.discard, stock=deal.stock[:-1])
    doubled = rules.Deal(hands=deal.hands, discard=deal.discard, stock=(*deal.stock, "AS"))
    joker = rules.Deal(hands=deal.hands, discard=deal.discard, stock=(*deal.stock[:-1], "JK"))
    three = rules.Deal(hands=(*deal.hands, ("KD",)), discard=deal.discard, stock=deal.stock)
    for bad in (short, doubled, joker, three):
        with pytest.raises(rules.IllegalMove) as info:
            rules.new_game("classic", 2, seed=b"x", deal=bad)
        assert info.value.code == "invalid_deal"


def test_state_round_trips_through_json() -> None:
    s = game("rummy51", [["2S", "3S", "4S", "JK", "QH"], ["5C"]], ["9D"])
    s = play(s, 0, draw())
    assert rules.GameState.model_validate_json(s.model_dump_json()) == s
    assert rules.GameState.model_validate(s.model_dump(mode="json")) == s
    assert (s.variant, s.players, s.phase, s.turn, s.dealer, s.hand_number) == (
        "rummy51", 2, "play", 0, 1, 1)  # fmt: skip
    assert s.scores == (0, 0) and s.hand_result is None and s.match_winner is None


def test_seat_view_shows_one_hand_and_the_public_table_only() -> None:
    s = rules.new_game("basic", 3, seed=b"view")
    v = rules.seat_view(s, 1)
    assert v.hand == s.hands[1] and v.hand_counts == (7, 7, 7)
    assert v.stock_count == len(s.stock) and v.discard_top == s.discard[-1]
    text = v.model_dump_json()
    assert s.seed not in text and s.hand_seed not in text
    assert s.stock[0] not in v.hand or s.stock[0] in s.hands[1]
    assert not set(s.hands[0]) & set(v.hand)
    for seat in (-1, 3, 7):
        with pytest.raises(rules.IllegalMove):
            rules.seat_view(s, seat)


def test_commitment_is_sha256_of_method_and_hand_seed() -> None:
    s = rules.new_game("classic", 2, seed=b"commit")
    v = rules.seat_view(s, 0)
    seed = bytes.fromhex(s.hand_seed)
    assert v.commitment == hashlib.sha256(b"shake256-fisher-yates-v1:" + seed).hexdigest()


def test_each_hand_has_its_own_seed_derived_from_the_match_seed() -> None:
    s = game("classic", [["7H", "8H", "9H"], ["AS", "2D", "KC"]], ["3D"], ["2S"])
    s = play(s, 0, draw(), meld(["7H", "8H", "9H"]), discard("2S"))
    first = s.hand_seed
    s2 = rules.vote(s, 0, "next_hand", frozenset({0}))
    assert s2.hand_seed != first and s2.seed == s.seed
    again = rules.vote(s, 0, "next_hand", frozenset({0}))
    assert again.hands == s2.hands  # reproducible from the seed


def test_last_move_of_a_stock_draw_names_no_card() -> None:
    s = game("classic", [["7H", "8H", "KS"], ["2C", "3C", "QD"]], ["5D"], ["6S"])
    s = play(s, 0, draw())
    v = rules.seat_view(s, 1)
    assert v.last_move is not None and v.last_move.model_dump() == {
        "seat": 0, "move": {"type": "draw", "source": "stock"}}  # fmt: skip
    assert "6S" not in v.model_dump_json()


def test_after_the_hand_every_hand_is_revealed() -> None:
    s = game("classic", [["7H", "8H", "9H"], ["AS", "2D", "KC"]], ["3D"], ["2S"])
    s = play(s, 0, draw(), meld(["7H", "8H", "9H"]), discard("2S"))
    v = rules.seat_view(s, 0)
    assert v.hand_result is not None and v.hand_result.hands == ((), ("AS", "2D", "KC"))


def test_legal_moves_is_empty_for_a_seat_not_to_act_and_after_the_hand() -> None:
    s = game("classic", [["7H", "8H", "9H"], ["AS", "2D", "KC"]], ["3D"], ["2S"])
    assert list(rules.legal_moves(rules.seat_view(s, 1))) == []
    assert [m.model_dump() for m in rules.legal_moves(rules.seat_view(s, 0))] == [
        {"type": "draw", "source": "stock"}, {"type": "draw", "source": "discard"}]  # fmt: skip
    s = play(s, 0, draw(), meld(["7H", "8H", "9H"]), discard("2S"))
    assert list(rules.legal_moves(rules.seat_view(s, 0))) == []


def test_legal_moves_lists_melds_with_and_without_jokers_and_both_ends() -> None:
    s = game("rummy51", [["9H", "TH", "JH", "QH", "KH", "AH", "JK", "5C"], ["2S"]], ["3D"])
    s = play(s, 0, draw())
    melds = [m.melds for m in rules.legal_moves(rules.seat_view(s, 0)) if m.type == "meld"]
    assert (("9H", "TH", "JH", "QH", "KH", "AH"),) in melds
    assert (("JK", "9H", "TH", "JH", "QH", "KH"),) in melds  # joker as the 8
    assert (("9H", "TH", "JH", "QH", "KH"),) not in melds  # 49: below the opening


def test_votes_need_every_voter_and_fit_the_phase() -> None:
    s = game("basic", [["7H", "8H", "9H"], ["AS"], ["2D"]], ["3D"], ["2S"])
    voters = frozenset({0, 2})
    bad = [(0, "next_hand", "wrong_phase"), (1, "new_match", "invalid_vote"),
           (0, "fold", "invalid_vote"), (5, "new_match", "invalid_vote")]  # fmt: skip
    for seat, kind, code in bad:
        with pytest.raises(rules.IllegalMove) as info:
            rules.vote(s, seat, kind, voters)
        assert info.value.code == code
    s = play(s, 0, draw(), meld(["7H", "8H", "9H"]), discard("2S"))
    s = rules.vote(s, 0, "next_hand", voters)
    s = rules.vote(s, 2, "new_match", voters)
    assert s.phase == "hand_over" and s.votes.next_hand == (0,) and s.votes.new_match == (2,)
    s = rules.vote(s, 0, "new_match", voters)
    assert s.phase == "draw" and s.scores == (0, 0, 0)
    assert s.votes.next_hand == () and s.votes.new_match == ()


def test_a_new_match_after_the_match_ends() -> None:
    s = game("classic", [["7H", "8H", "9H"], ["AS", "2D", "KC"]], ["3D"], ["2S"])
    s = rules.GameState.model_validate(s.model_dump() | {"scores": (95, 0)})
    s = play(s, 0, draw(), meld(["7H", "8H", "9H"]), discard("2S"))
    assert s.phase == "match_over"
    with pytest.raises(rules.IllegalMove) as info:
        rules.vote(s, 0, "next_hand", frozenset({0, 1}))
    assert info.value.code == "wrong_phase"
    s = rules.vote(rules.vote(s, 0, "new_match", frozenset({0, 1})), 1, "new_match",
                   frozenset({0, 1}))  # fmt: skip
    assert (s.phase, s.scores, s.hand_number, s.match_winner) == ("draw", (0, 0), 1, None)


def _random_hand(variant: str, players: int, seed: int, stop: int | None = None) -> tuple[
        rules.GameState, rules.GameState, list[tuple[int, rules.Move]]]:  # fmt: skip
    rng = random.Random(seed)
    s = rules.new_game(variant, players, seed=seed.to_bytes(4, "big"))
    start = rules.hand_start(s)
    log: list[tuple[int, rules.Move]] = []
    while s.phase in ("draw", "play") and (stop is None or len(log) < stop):
        move = rng.choice(list(rules.legal_moves(rules.seat_view(s, s.turn))))
        log.append((s.turn, move))
        s = rules.apply(s, s.turn, move)
    return start, s, log


@pytest.mark.parametrize("variant", ["classic", "basic", "rummy51"])
def test_replay_of_the_hand_start_rebuilds_the_state(variant: str) -> None:
    start, s, log = _random_hand(variant, 2, 7)
    assert rules.hand_start(s) == start
    assert rules.replay(start, log) == s
    nxt = rules.vote(s, 0, "next_hand", frozenset({0})) if s.phase == "hand_over" else s
    if nxt.hand_number == 2:
        assert rules.hand_start(nxt) == nxt
        assert rules.hand_start(nxt).scores == s.scores


def test_hand_start_of_a_fixed_deal_is_that_deal() -> None:
    s = game("classic", [["7H", "8H", "KS"], ["2C", "3C", "QD"]], ["5D"], ["6S"])
    moved = play(s, 0, draw(), discard("KS"))
    assert rules.hand_start(moved) == s


@pytest.mark.parametrize(("variant", "players"), [("classic", 2), ("basic", 3), ("rummy51", 4)])
def test_determinize_with_the_true_hidden_cards_rebuilds_the_state(
    variant: str, players: int
) -> None:
    _, s, _ = _random_hand(variant, players, 3, stop=41)
    seat = (s.turn + 1) % players
    view = rules.seat_view(s, seat)
    others = [[] if i == seat else list(h) for i, h in enumerate(s.hands)]
    d = rules.determinize(view, others, s.stock, s.discard, seed=b"guess")
    assert (d.hands, d.stock, d.discard, d.melds) == (s.hands, s.stock, s.discard, s.melds)
    assert (d.turn, d.phase, d.opened, d.drawn_from_discard) == (
        s.turn, s.phase, s.opened, s.drawn_from_discard)  # fmt: skip
    assert rules.seat_view(d, seat).model_dump(exclude={"commitment"}) == view.model_dump(
        exclude={"commitment"})  # fmt: skip
    # Moves go on from the guess like from the real state.
    for move in rules.legal_moves(rules.seat_view(d, d.turn)):
        rules.apply(d, d.turn, move)


def test_determinize_checks_card_conservation() -> None:
    _, s, _ = _random_hand("classic", 2, 5, stop=10)
    seat = s.turn
    view = rules.seat_view(s, seat)
    other = 1 - seat
    others: list[list[str]] = [[], []]
    others[other] = list(s.hands[other])
    bad = list(others)
    bad[other] = [*s.hands[other][:-1], s.hands[seat][0]]
    for args in [
        (bad, s.stock, s.discard),
        (others, s.stock[:-1], s.discard),
        (others, s.stock, (*s.discard[:-1], "XX")),
        ([[], [], []], s.stock, s.discard),
    ]:
        with pytest.raises(rules.IllegalMove) as info:
            rules.determinize(view, *args, seed=b"x")  # type: ignore[arg-type]
        assert info.value.code == "invalid_deal"


def test_legal_moves_lists_lay_offs_at_both_ends_and_joker_swaps() -> None:
    open_a = (["QS", "QD", "QH"], ["7S", "8S", "9S"])
    hand_a = [*open_a[0], *open_a[1], "6S", "TS", "TC", "JK", "4D"]
    hand_b = ["9C", "JK", "JC", "QC", "KC", "AC", "5H", "6H"]
    s = game("rummy51", [hand_a, hand_b], ["2C"], ["KD", "5S", "3D"])
    s = play(s, 0, draw(), meld(*open_a), discard("KD"))
    s = play(s, 1, draw(), meld(["9C", "JK", "JC", "QC", "KC", "AC"]), discard("5S"))
    s = play(s, 0, draw())
    dumps = [rules.move_to_json(m) for m in rules.legal_moves(rules.seat_view(s, 0))]
    lay = [(d["meld"], tuple(d["cards"]), d.get("end")) for d in dumps if d["type"] == "layoff"]
    assert ("m2", ("6S",), None) in lay and ("m2", ("TS",), None) in lay
    assert ("m2", ("JK",), "low") in lay and ("m2", ("JK",), "high") in lay
    assert ("m2", ("6S", "7S"), None) not in lay  # 7S is not in the hand
    assert ("m2", ("TS", "JK"), "high") in lay  # a longer run of cards at one end
    assert ("m1", ("JK",), None) in lay  # a joker closes the set of queens
    assert {"type": "swap", "meld": "m3", "card": "TC"} in dumps
    for d in dumps:
        rules.apply(s, 0, rules.parse_move(d))


def test_error_messages_name_cards_in_plain_words_but_never_the_stock() -> None:
    s = game("classic", [["7H", "8H", "KS"], ["2C", "3C", "QD"]], ["5D"], ["6S"])
    for move in (discard("KS"), meld(["7H", "8H", "KS"]), draw("discard")):
        try:
            rules.apply(play(s, 0, draw()) if move.type != "draw" else s, 1, move)
        except rules.IllegalMove as exc:
            assert "6S" not in exc.message and "six of spades" not in exc.message
    s = play(s, 0, draw())
    with pytest.raises(rules.IllegalMove) as info:
        rules.apply(s, 0, meld(["7H", "8H", "KS"]))
    assert "the king of spades (KS)" in info.value.message
    assert "6S" not in info.value.message


def test_a_published_start_without_the_match_seed_still_replays_the_hand() -> None:
    start, s, log = _random_hand("rummy51", 2, 11)
    public = start.model_copy(update={"seed": "00" * 8})
    replayed = rules.replay(public, log)
    assert replayed.model_dump(exclude={"seed"}) == s.model_dump(exclude={"seed"})
    assert s.reshuffles >= 1 and replayed.hand_result == s.hand_result  # reshuffled


@pytest.mark.parametrize(("variant", "players", "stop"), [("classic", 2, 30), ("rummy51", 3, 31)])
def test_legal_moves_depend_on_the_view_only(variant: str, players: int, stop: int) -> None:
    _, s, _ = _random_hand(variant, players, 21, stop=stop)
    assert s.phase == "play"
    seat = s.turn
    view = rules.seat_view(s, seat)
    hidden = [c for i, h in enumerate(s.hands) if i != seat for c in h] + list(s.stock)
    random.Random(1).shuffle(hidden)
    others: list[list[str]] = []
    for i, h in enumerate(s.hands):
        others.append([] if i == seat else hidden[: len(h)])
        hidden = hidden if i == seat else hidden[len(h) :]
    guess = rules.determinize(view, others, hidden, s.discard, seed=b"other")
    assert guess.hands != s.hands or guess.stock != s.stock
    assert list(rules.legal_moves(rules.seat_view(guess, seat))) == list(rules.legal_moves(view))
