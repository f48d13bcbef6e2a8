"""Properties every evaluator must have, checked by hypothesis over random cards."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.cards import CARDS, SHORT_DECK_CARDS, Card
from cardroom.evaluation import (
    EVALUATORS,
    EvaluationError,
    HandValue,
    badugi,
    front3,
    get_evaluator,
    high,
    low_27,
    low_a5,
    omaha_high,
    omaha_low,
    short_deck,
    soko,
)
from cardroom.evaluation.high import NO_WHEEL, STANDARD, evaluate_high, five_card_strength
from cardroom.evaluation.lowball import LOW_TOP
from cardroom.evaluation.naming import HIGH_CATEGORIES

# Per test, not a global profile: other areas' hypothesis tests keep their own settings.
SETTINGS = settings(max_examples=150, deadline=None)


def hands(
    size: int | tuple[int, int], deck: Sequence[Card] = CARDS
) -> st.SearchStrategy[list[Card]]:
    lo, hi = (size, size) if isinstance(size, int) else size
    return st.lists(st.sampled_from(deck), min_size=lo, max_size=hi, unique=True)


def relabel(cards: Sequence[Card], perm: Sequence[int]) -> list[Card]:
    """The same hand with suits renamed by ``perm``."""
    return [Card.of(c.rank, perm[c.suit]) for c in cards]


Pooled = Callable[[Sequence[Card]], HandValue | None]
POOLED: dict[str, tuple[Pooled, int | tuple[int, int], Sequence[Card]]] = {
    "high": (high, (5, 7), CARDS),
    "short_deck": (short_deck, (5, 7), SHORT_DECK_CARDS),
    "short_deck_trips": (lambda h: short_deck(h, True), (5, 7), SHORT_DECK_CARDS),
    "a5_low": (low_a5, (5, 7), CARDS),
    "a5_low8": (lambda h: low_a5(h, 8), (5, 7), CARDS),
    "27_low": (low_27, (5, 7), CARDS),
    "badugi": (badugi, 4, CARDS),
    "soko": (soko, 5, CARDS),
    "front3": (front3, 3, CARDS),
}


@pytest.mark.parametrize("family", sorted(POOLED))
def test_order_of_cards_and_names_of_suits_do_not_matter(family: str) -> None:
    rank, size, deck = POOLED[family]

    @SETTINGS
    @given(hands(size, deck), st.permutations(range(4)), st.randoms(use_true_random=False))
    def check(cards: list[Card], perm: list[int], rng: object) -> None:
        value = rank(cards)
        shuffled = list(cards)
        rng.shuffle(shuffled)  # type: ignore[attr-defined]
        again, renamed = rank(shuffled), rank(relabel(cards, perm))
        if value is None:
            assert again is None and renamed is None
            return
        assert again is not None and renamed is not None
        assert (again.strength, again.name) == (value.strength, value.name)
        assert (renamed.strength, renamed.category) == (value.strength, value.category)

    check()


@pytest.mark.parametrize("family", sorted(POOLED))
def test_cards_used_come_from_the_hand_and_make_the_same_value(family: str) -> None:
    rank, size, deck = POOLED[family]

    @SETTINGS
    @given(hands(size, deck))
    def check(cards: list[Card]) -> None:
        value = rank(cards)
        if value is None:
            return
        assert set(value.cards) <= set(cards)
        assert len(set(value.cards)) == len(value.cards)
        if family != "badugi":
            assert len(value.cards) == min(len(cards), 5)
            again = rank(value.cards)
            assert again is not None and again.strength == value.strength
            assert again.name == value.name

    check()


@pytest.mark.parametrize("family", ["high", "short_deck", "a5_low", "27_low"])
def test_best_of_more_cards_is_the_best_five(family: str) -> None:
    rank, _, deck = POOLED[family]

    @SETTINGS
    @given(hands((6, 7), deck))
    def check(cards: list[Card]) -> None:
        value = rank(cards)
        assert value is not None
        fives = [rank(five) for five in itertools.combinations(cards, 5)]
        assert value.strength == max(f.strength for f in fives if f is not None)

    check()


@SETTINGS
@given(hands((5, 7)))
def test_high_strength_layout(cards: list[Card]) -> None:
    value = high(cards)
    assert value.strength >> 20 == HIGH_CATEGORIES.index(value.category)
    ranks = [(value.strength >> shift) & 0xF for shift in (16, 12, 8, 4, 0)]
    if value.category in ("Straight", "Straight Flush"):
        wheel = [c.rank for c in value.cards] == [3, 2, 1, 0, 12]
        assert wheel or ranks == [c.rank for c in value.cards]
    else:
        assert ranks == [c.rank for c in value.cards]
    assert five_card_strength(value.cards) == value.strength


@SETTINGS
@given(hands((5, 7)))
def test_eight_or_better_is_the_unqualified_low_when_it_qualifies(cards: list[Card]) -> None:
    any_low, low8 = low_a5(cards), low_a5(cards, 8)
    assert any_low is not None
    ranks = [(c.rank + 1) % 13 + 1 for c in any_low.cards]  # ace = 1
    qualifies = len(set(ranks)) == 5 and max(ranks) <= 8
    assert (low8 is not None) == qualifies
    if low8 is not None:
        assert low8.strength == any_low.strength and low8.name == any_low.name


@SETTINGS
@given(hands((5, 7)))
def test_table_driven_high_is_the_table_free_reference(cards: list[Card]) -> None:
    # high() reads its strength from the lookup tables; evaluate_high() finds the hand
    # category by category without tables. Same strength, same cards, same name.
    assert high(cards) == evaluate_high(cards, STANDARD)


@SETTINGS
@given(hands(5))
def test_deuce_to_seven_table_path_is_the_reference(cards: list[Card]) -> None:
    value, reference = low_27(cards), evaluate_high(cards, NO_WHEEL)
    assert value.strength == LOW_TOP - reference.strength
    assert set(value.cards) == set(reference.cards)


@SETTINGS
@given(hands(5))
def test_deuce_to_seven_is_high_upside_down(cards: list[Card]) -> None:
    # Aside from A-2-3-4-5 (ace high in 2-7), 2-7 reverses the high order exactly.
    value = low_27(cards)
    assert value.strength == LOW_TOP - five_card_strength(cards, wheel=False)
    if sorted(c.rank for c in cards) != [0, 1, 2, 3, 12]:
        assert value.strength == LOW_TOP - high(cards).strength


@SETTINGS
@given(hands((8, 10)), st.integers(4, 5), st.integers(3, 5))
def test_omaha_uses_exactly_two_plus_three(cards: list[Card], n_hole: int, n_board: int) -> None:
    hole, board = cards[:n_hole], cards[n_hole : n_hole + n_board]
    if len(board) < 3:
        return
    hi, lo = omaha_high(hole, board), omaha_low(hole, board)
    combos = [list(t) + list(b) for t in itertools.combinations(hole, 2)
              for b in itertools.combinations(board, 3)]  # fmt: skip
    assert hi.strength == max(high(five).strength for five in combos)
    lows = [v for v in (low_a5(five, 8) for five in combos) if v is not None]
    assert (lo is None) == (not lows)
    for value in (hi, lo):
        if value is not None:
            assert len(set(value.cards) & set(hole)) == 2
            assert len(set(value.cards) & set(board)) == 3
    if lo is not None:
        assert lo.strength == max(v.strength for v in lows)


@SETTINGS
@given(hands(4))
def test_badugi_plays_the_largest_valid_set(cards: list[Card]) -> None:
    value = badugi(cards)
    used = value.cards
    assert len({c.rank for c in used}) == len(used) == len({c.suit for c in used})
    larger = [
        s
        for s in itertools.combinations(cards, len(used) + 1)
        if len({c.rank for c in s}) == len(s) == len({c.suit for c in s})
    ]
    assert not larger


@SETTINGS
@given(hands(3), hands(5))
def test_front_row_sits_on_the_high_scale(three: list[Card], five: list[Card]) -> None:
    front, row = front3(three), high(five)
    f_cat, r_cat = HIGH_CATEGORIES.index(front.category), HIGH_CATEGORIES.index(row.category)
    if f_cat != r_cat:
        assert (front < row) == (f_cat < r_cat)


def test_every_registered_evaluator_refuses_bad_cards() -> None:
    for evaluate in EVALUATORS.values():
        with pytest.raises(EvaluationError):
            evaluate([CARDS[0], CARDS[0]], [])  # a repeated card
        with pytest.raises(EvaluationError):
            evaluate([CARDS[0]], [])  # too few cards
        with pytest.raises(EvaluationError):
            evaluate([99, *CARDS[1:5]], [])  # not a card


def test_every_registered_evaluator_refuses_a_repeated_card_in_a_hand_of_its_size() -> None:
    # §1 one deck: a card dealt twice is refused, not ranked (a pair of one card).
    sizes = {"badugi": 4, "front3": 3}
    for name, evaluate in EVALUATORS.items():
        if name.startswith("omaha"):
            hole, board = [CARDS[40], CARDS[40], CARDS[41], CARDS[42]], list(CARDS[44:47])
        else:
            hole, board = [CARDS[40], CARDS[40], *CARDS[41 : 39 + sizes.get(name, 5)]], []
        with pytest.raises(EvaluationError, match="more than once"):
            evaluate(hole, board)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: high(CARDS[:8]), "5 to 7 cards, got 8"),
        (lambda: omaha_high(CARDS[:4], CARDS[3:8]), "both in the hole and on the board"),
        (lambda: omaha_high(CARDS[:4], CARDS[4:6]), "board needs 3 to 5"),
        (lambda: low_a5(CARDS[:5], qualifier=4), "qualifier"),
        (lambda: badugi(CARDS[:5]), "needs 4 cards"),
        (lambda: short_deck(CARDS[:7]), "not in this deck"),
        (lambda: get_evaluator("pineapple"), "no evaluator called 'pineapple'"),
        (lambda: high([True, *CARDS[1:5]]), "not a card"),
    ],
)
def test_bad_input_is_one_error_type_with_a_reason(
    call: Callable[[], object], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        call()


def test_hand_value_compares_by_strength_only() -> None:
    a = high(CARDS[4:9])
    b = HandValue(a.strength, "Other", "other", ())
    assert a.ties(b) and a <= b and a >= b and not a < b and not a > b
    assert str(a) == a.name
