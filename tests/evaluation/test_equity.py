"""Equity against brute force: every board dealt out by hand and ranked by the slow evaluators.

The references here use ``cardroom.evaluation.high`` / ``omaha_high`` /
``omaha_low`` (the family evaluators, not the tables) and exact fractions;
preflop hold'em is checked against the batch evaluator over all 1,712,304
boards and against eval7's Monte Carlo.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import eval7
import numpy as np
import pytest

from cardroom.cards import CARDS, parse_cards
from cardroom.evaluation import EvaluationError, batch, high, omaha_high, omaha_low
from cardroom.evaluation.equity import Equity, combinations_array, equity


def brute_force(
    hands: list[tuple[int, ...]], board: tuple[int, ...], game: str
) -> tuple[list[Fraction], list[int], list[int], int]:
    """(shares, scoops, splits, boards) by dealing every completion of the board."""
    used = {c for h in hands for c in h} | set(board)
    deck = [c for c in range(52) if c not in used]
    shares = [Fraction(0)] * len(hands)
    scoops, splits, boards = [0] * len(hands), [0] * len(hands), 0
    for rest in combinations(deck, 5 - len(board)):
        full = board + rest
        boards += 1
        if game == "holdem":
            highs = [high(h + full).strength for h in hands]
        else:
            highs = [omaha_high(h, full).strength for h in hands]
        won = _split(highs, Fraction(1))
        if game == "omaha_hi_lo":
            lows = [omaha_low(h, full) for h in hands]
            if any(low is not None for low in lows):
                low_values = [-1 if low is None else low.strength for low in lows]
                won = [
                    a + b
                    for a, b in zip(
                        _split(highs, Fraction(1, 2)),
                        _split(low_values, Fraction(1, 2)),
                        strict=True,
                    )
                ]
        for p, part in enumerate(won):
            shares[p] += part
            scoops[p] += part == 1
            splits[p] += 0 < part < 1
    return [s / boards for s in shares], scoops, splits, boards


def _split(values: list[int], pot: Fraction) -> list[Fraction]:
    best = max(values)
    winners = [v == best for v in values]
    return [pot / sum(winners) if w else Fraction(0) for w in winners]


def check(hands: list[str], board: str, game: str) -> Equity:
    holes = [tuple(int(c) for c in parse_cards(h)) for h in hands]
    known = tuple(int(c) for c in parse_cards(board))
    got = equity(holes, known, game)
    shares, scoops, splits, boards = brute_force(holes, known, game)
    assert got.exact and got.boards == boards
    assert list(got.scoops) == scoops and list(got.splits) == splits
    assert got.shares == pytest.approx([float(s) for s in shares], abs=1e-12)
    assert sum(got.shares) == pytest.approx(1.0)
    return got


@pytest.mark.parametrize(
    ("hands", "board"),
    [
        (["As Ad", "Kc Kd"], "2c 7d Kh"),  # set over aces
        (["Ah Kh", "Qs Qc"], "2h 7h Jd 3c"),  # flush draw on the turn
        (["Ah 5c", "Ad 5d"], "2s 3h 4c"),  # chopped wheels, a diamond flush out
        (["As Ks", "7h 7d", "Qc Jc"], "Ts 9c 2s"),  # three-way
        (["2c 2d", "3c 3d", "4c 4d", "5h 6h"], "Ah Kd Qs Jc"),  # four-way on the turn
    ],
)
def test_holdem_exact_against_brute_force(hands: list[str], board: str) -> None:
    check(hands, board, "holdem")


@pytest.mark.parametrize("game", ["omaha", "omaha_hi_lo"])
@pytest.mark.parametrize(
    ("hands", "board"),
    [
        (["As 2d Kh 3h", "Kc Kd 7s 8s"], "4c 5d 9h"),
        (["Ah 2h 3c 4c", "Ad 2d Jc Js"], "5s 6s 7h Td"),  # counterfeit-prone lows
        (["As Ks Qh Jh 2c", "Ac 3d 4d 9h 9s"], "5c 6d 8s"),  # PLO5
    ],
)
def test_omaha_exact_against_brute_force(hands: list[str], board: str, game: str) -> None:
    check(hands, board, game)


def test_omaha_three_way_hilo_against_brute_force() -> None:
    check(["As 2s 3d Kd", "Ah 2h Qc Qs", "7c 8c 9d Td"], "4h 5h 6s", "omaha_hi_lo")


def enumerate_with_batch(holes: list[tuple[int, ...]], dead: tuple[int, ...] = ()) -> np.ndarray:
    """Strengths (players, boards) of every board of the cards left, by the batch evaluator."""
    used = {c for h in holes for c in h} | set(dead)
    deck = np.array([c for c in range(52) if c not in used], dtype=np.uint8)
    boards = deck[combinations_array(len(deck), 5)]
    return np.stack(
        [
            batch.high_batch(np.hstack([np.tile(np.array(h, np.uint8), (len(boards), 1)), boards]))
            for h in holes
        ]
    )


@pytest.mark.parametrize(
    ("hands", "dead"),
    [
        (("As Ad", "Kc Kd"), ""),
        (("Ah Kh", "Qh Jh"), ""),  # same suit: flush over flush
        (("2c 3c", "2d 3d"), ""),  # suited in different suits: the most flush boards
        (("7c 2d", "7d 2c"), ""),
        (("Ts 9s", "Ac Kd"), "Qs Js 2s 8h"),  # dead cards
    ],
)
def test_headsup_preflop_against_batch_evaluator(hands: tuple[str, str], dead: str) -> None:
    holes = [tuple(int(c) for c in parse_cards(h)) for h in hands]
    gone = tuple(int(c) for c in parse_cards(dead))
    got = equity(holes, dead=gone)
    first, second = enumerate_with_batch(holes, gone)
    wins = int((first > second).sum()), int((first < second).sum())
    ties = len(first) - sum(wins)
    assert got.exact and got.boards == len(first)
    assert got.scoops == wins and got.splits == (ties, ties)
    assert got.shares[0] == pytest.approx((wins[0] + ties / 2) / len(first), abs=1e-12)


def test_headsup_preflop_against_eval7_monte_carlo() -> None:
    got = equity(["As Ad", "Kc Kd"])
    hand = [eval7.Card(c) for c in ("As", "Ad")]
    theirs = eval7.py_hand_vs_range_monte_carlo(hand, eval7.HandRange("KcKd"), [], 400_000)
    assert got.shares[0] == pytest.approx(theirs, abs=0.005)


def test_monte_carlo_is_seeded_and_close_to_exact() -> None:
    hands = [parse_cards("As Ad Kh Qh"), parse_cards("Kc Kd 7s 8s")]
    exact = equity(hands, game="omaha_hi_lo", board=parse_cards("2c"), exact=True)
    first = equity(
        hands, game="omaha_hi_lo", board=parse_cards("2c"), exact=False, seed=3, samples=20_000
    )
    again = equity(
        hands, game="omaha_hi_lo", board=parse_cards("2c"), exact=False, seed=3, samples=20_000
    )
    other = equity(
        hands, game="omaha_hi_lo", board=parse_cards("2c"), exact=False, seed=4, samples=20_000
    )
    assert first == again and first != other
    assert not first.exact and first.boards == 20_000
    assert first.shares[0] == pytest.approx(exact.shares[0], abs=0.015)  # 4 sigma


def test_auto_exact_choice_and_progress() -> None:
    calls: list[tuple[int, int]] = []
    omaha_preflop = equity(
        [parse_cards("As Ad Kh Qh"), parse_cards("Kc Kd 7s 8s")],
        game="omaha",
        samples=5000,
        seed=1,
        progress=lambda d, t: calls.append((d, t)),
    )
    assert not omaha_preflop.exact and omaha_preflop.boards == 5000
    assert calls and calls[-1] == (5000, 5000)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)
    river = equity(["As Ad", "Kc Kd"], board="2c 7d Kh 3s 4s")
    assert river.exact and river.boards == 1 and river.shares == (0.0, 1.0)


def test_text_input_and_dead_cards() -> None:
    live = equity(["Ah Kh", "Qs Qc"], board="2h 7h Jd 3c")
    dead = equity(["Ah Kh", "Qs Qc"], board="2h 7h Jd 3c", dead="4h 5h 6h")
    assert live.boards == 44 and dead.boards == 41
    assert dead.shares[0] < live.shares[0]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"hands": ["As Ad"]}, "at least two hands"),
        ({"hands": ["As Ad", "As Kd"]}, "more than once"),
        ({"hands": ["As Ad Kd", "Qs Qd"]}, "hole cards are 2"),
        ({"hands": ["As Ad", "Qs Qd"], "game": "omaha"}, "4 or 5"),
        ({"hands": ["As Ad", "Qs Qd"], "game": "razz"}, "no equity"),
        ({"hands": ["As Ad", "Qs Qd"], "board": "2c 3c 4c 5c 6c 7c"}, "at most 5"),
        ({"hands": ["As Ad", "Qs Qd"], "board": "2c 3x"}, "not a"),
        ({"hands": [(51, 52), (1, 2)]}, "not a card"),
        ({"hands": ["As Ad", "Qs Qd"], "exact": False, "samples": 0}, "samples"),
    ],
)
def test_bad_input(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(EvaluationError, match=message):
        equity(**kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(("n", "k"), [(5, 0), (5, 5), (7, 3), (12, 4), (48, 1)])
def test_combinations_array(n: int, k: int) -> None:
    assert combinations_array(n, k).tolist() == [list(c) for c in combinations(range(n), k)]


def test_card_bits_layout() -> None:
    from cardroom.evaluation.equity import CARD_BITS

    for card in CARDS:
        assert int(CARD_BITS[card]) == 1 << (16 * card.suit + card.rank)


def test_three_way_preflop_against_batch_evaluator() -> None:
    holes = [tuple(int(c) for c in parse_cards(h)) for h in ("Ah Kh", "7c 7d", "Qs Js")]
    got = equity(holes)
    strengths = enumerate_with_batch(holes)
    winners = strengths == strengths.max(axis=0)
    shares = (winners / winners.sum(axis=0)).sum(axis=1) / strengths.shape[1]
    alone = winners & (winners.sum(axis=0) == 1)
    assert got.exact and got.boards == strengths.shape[1] == 1_370_754
    assert list(got.scoops) == alone.sum(axis=1).tolist()
    assert list(got.splits) == (winners & ~alone).sum(axis=1).tolist()
    assert list(got.shares) == pytest.approx(shares.tolist(), abs=1e-12)


def test_stderr_progress_waits_half_a_second_then_shows_each_percent(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from cardroom.evaluation import equity as equity_module

    clock = iter([0.0, 0.1, 1.0, 1.2])  # the repeated 50% never reads the clock
    monkeypatch.setattr(equity_module.time, "monotonic", lambda: next(clock))
    show = equity_module.stderr_progress("plo")
    show(10, 100)  # at 0.1 s: too soon to show
    show(50, 100)
    show(50, 100)  # same percentage: not repeated
    show(100, 100)
    err = capsys.readouterr().err
    assert "plo: 10%" not in err and err.count("50%") == 1 and err.endswith("100% of 100 boards\n")
    assert err.startswith("\rplo: ")
