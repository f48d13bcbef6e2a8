"""The numpy batch evaluators against the one-call evaluator, eval7, treys and brute force.

``fast`` is itself checked against an independent brute force (test_fast.py);
here every batch result must equal it, and the order of eval7 and treys must
agree on every pair of hands (same ties, same order). Omaha hands are checked
against an explicit best-of-(2 hole x 3 board) search and the family
evaluators. Size: ``CARDROOM_BATCH_HANDS`` (CI default below; the full run
used 2000000).
"""

from __future__ import annotations

import os
from itertools import combinations

import eval7
import numpy as np
import pytest
import treys

from cardroom.cards import CARDS
from cardroom.evaluation import batch, fast, omaha_high, omaha_low

HANDS = int(os.environ.get("CARDROOM_BATCH_HANDS", "200000"))


def deal(count: int, size: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((count, 52)), axis=1)[:, :size].astype(np.uint8)


def dense_ranks(values: np.ndarray) -> np.ndarray:
    """Each value's place among the distinct values: equal for ties, ordered like the values."""
    return np.unique(values, return_inverse=True)[1].reshape(-1)


@pytest.mark.parametrize("size", [5, 6, 7])
def test_batch_equals_single(size: int) -> None:
    hands = deal(HANDS if size == 7 else HANDS // 4, size, size)
    got = batch.high_batch(hands)
    single = {5: fast.high5, 6: fast.high6, 7: fast.high7}[size]
    want = np.array([single(*map(int, hand)) for hand in hands], dtype=np.int32)
    assert np.array_equal(got, want)


def test_threads_do_not_change_results() -> None:
    hands = deal(300_000, 7, 11)
    assert np.array_equal(batch.high_batch(hands, threads=1), batch.high_batch(hands, threads=2))


def test_dtypes_and_a_single_hand() -> None:
    hands = deal(1000, 7, 12)
    want = batch.high_batch(hands)
    for dtype in (np.int64, np.int32, np.uint16, np.int8):
        assert np.array_equal(batch.high_batch(hands.astype(dtype)), want)
    assert np.array_equal(batch.high_batch(hands.T.copy().T), want)  # not C-contiguous
    assert batch.high_batch(hands[0]).tolist() == [want[0]]


def _eval7_values(hands: np.ndarray) -> np.ndarray:
    cards = [eval7.Card(str(c)) for c in CARDS]
    return np.array([eval7.evaluate([cards[c] for c in hand]) for hand in hands])


def test_order_and_ties_agree_with_eval7() -> None:
    hands = deal(HANDS // 2, 7, 13)
    ours = batch.high_batch(hands)
    assert np.array_equal(dense_ranks(ours), dense_ranks(_eval7_values(hands)))


def test_order_and_ties_agree_with_treys() -> None:
    hands = deal(HANDS // 8, 7, 14)
    cards = [treys.Card.new(str(c)) for c in CARDS]
    evaluator = treys.Evaluator()
    theirs = np.array(
        [-evaluator.evaluate([cards[c] for c in h[:2]], [cards[c] for c in h[2:]]) for h in hands]
    )
    assert np.array_equal(dense_ranks(batch.high_batch(hands)), dense_ranks(theirs))


def test_every_distinct_five_card_value_is_reached_in_order() -> None:
    """Across many five-card hands the 7,462 classes keep eval7's order exactly."""
    hands = deal(HANDS // 2, 5, 15)
    ours = batch.high_batch(hands)
    assert np.array_equal(dense_ranks(ours), dense_ranks(_eval7_values(hands)))


def omaha_reference(hole: tuple[int, ...], board: tuple[int, ...]) -> tuple[int, int]:
    """(best high, best A-5 8-or-better low as 256 - mask or 0) of exactly 2 + 3 cards."""
    best_high, best_low = 0, 0
    for two in combinations(hole, 2):
        for three in combinations(board, 3):
            five = two + three
            best_high = max(best_high, fast.high5(*five))
            low_ranks = {0 if c >> 2 == 12 else (c >> 2) + 1 for c in five}  # ace low = 0
            if len(low_ranks) == 5 and max(low_ranks) <= 7:
                best_low = max(best_low, 256 - sum(1 << r for r in low_ranks))
    return best_high, best_low


@pytest.mark.parametrize("hole_size", [4, 5])
def test_omaha_against_brute_force_and_family_evaluators(hole_size: int) -> None:
    cards = deal(1500, hole_size + 5, 16 + hole_size)
    hole, board = cards[:, :hole_size], cards[:, hole_size:]
    highs = batch.omaha_high_batch(hole, board)
    lows = batch.omaha_low8_batch(hole, board)
    family_high, family_low = [], []
    for i in range(len(cards)):
        h, b = tuple(map(int, hole[i])), tuple(map(int, board[i]))
        assert (int(highs[i]), int(lows[i])) == omaha_reference(h, b), (h, b)
        family_high.append(omaha_high(h, b).strength)
        low = omaha_low(h, b)
        family_low.append(-1 if low is None else low.strength)
        assert (low is None) == (lows[i] == 0)
    assert np.array_equal(highs, np.array(family_high))
    assert np.array_equal(dense_ranks(lows), dense_ranks(np.array(family_low)))


def test_omaha_low_known_answers() -> None:
    # hole As 2d Kh Kc, board 3c 4d 5h Qs Js: the wheel, the best low.
    hole = [[51, 1, 46, 44]]
    board = [[4, 9, 14, 43, 39]]
    assert batch.omaha_low8_batch(hole, board).tolist() == [256 - 0b11111]
    # Only one low card in the hole: no low, whatever the board.
    assert batch.omaha_low8_batch([[51, 46, 44, 40]], board).tolist() == [0]


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ([[0, 1, 2, 3]], "5 or 6 or 7 cards"),
        ([[0, 1, 2, 3, 4, 5, 52]], "0..51"),
        ([[0, 1, 2, 3, 4, 5, -1]], "0..51"),
        ([[0.0, 1, 2, 3, 4]], "integers"),
        ([[[0, 1, 2, 3, 4]]], "2-d"),
    ],
)
def test_bad_input(cards: list[object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        batch.high_batch(np.array(cards))


def test_bad_omaha_input() -> None:
    with pytest.raises(ValueError, match="4 or 5 cards"):
        batch.omaha_high_batch([[0, 1, 2]], [[4, 5, 6, 7, 8]])
    with pytest.raises(ValueError, match="boards"):
        batch.omaha_high_batch([[0, 1, 2, 3]], [[4, 5, 6, 7, 8], [9, 10, 11, 12, 13]])


@pytest.mark.parametrize("size", [5, 6, 7])
def test_flush_heavy_batch_equals_single(size: int) -> None:
    """Hands from two suits: most hold a flush, many beside a straight or pairs."""
    rng = np.random.default_rng(30 + size)
    pool = np.array([c for c in range(52) if c & 3 in (0, 2)], dtype=np.uint8)
    hands = pool[np.argsort(rng.random((HANDS // 8, len(pool))), axis=1)[:, :size]]
    single = {5: fast.high5, 6: fast.high6, 7: fast.high7}[size]
    want = np.array([single(*map(int, hand)) for hand in hands], dtype=np.int32)
    assert np.array_equal(batch.high_batch(hands), want)
    assert (want >> 20 >= 5).mean() > 0.03  # the flush path is really exercised (5 cards: 4%)
