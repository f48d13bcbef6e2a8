"""The best-arrangement search against exhaustive enumeration, and the timeout fill."""

from __future__ import annotations

import os
from itertools import combinations

import pytest

from cardroom.cards import Deck, parse_cards
from cardroom.chinese import (
    VARIANTS,
    ChineseError,
    best_arrangement,
    evaluate_rows,
    fill_in_dealt_order,
    is_fouled,
)
from cardroom.chinese.arrange import SCALE, _candidates, _Scorer

HANDS = int(os.environ.get("CARDROOM_CHINESE_ARRANGE_HANDS", "4"))


def exhaustive_best(variant: str, cards: tuple[int, ...], in_fl: bool) -> int:
    """Best score over every standing arrangement (the search's objective), by brute force."""
    v = VARIANTS[variant]
    scorer = _Scorer(v, v.royalties, in_fl, 8)
    bottoms, mids, tops = _candidates(scorer, tuple(cards))  # type: ignore[arg-type]
    middle_of = {m.mask: m for m in mids}
    top_of = {t.mask: t for t in tops}
    best = None
    for b in bottoms:
        for m_mask, m in middle_of.items():
            if m_mask & b.mask:
                continue
            rest = [i for i in range(len(cards)) if not (b.mask | m_mask) >> i & 1]
            for idx in combinations(rest, 3):
                t = top_of[sum(1 << i for i in idx)]
                stands = (
                    m.strength <= b.strength and t.strength <= m.strength
                    if not scorer.low
                    else t.strength < b.strength
                )
                if stands:
                    score = scorer.exact(b, m, t)
                    best = score if best is None or score > best else best
    assert best is not None
    return best


@pytest.mark.parametrize("variant", ["ofc", "progressive", "pineapple27"])
@pytest.mark.parametrize("seed", range(HANDS))
def test_search_finds_the_exhaustive_optimum_for_13_cards(variant: str, seed: int) -> None:
    cards = Deck.standard(f"arrange-{seed}").deal(13)
    if variant == "pineapple27":  # make sure a ten-low middle exists
        low = parse_cards("2c 4d 6h 8s 9c")
        cards = low + tuple(c for c in Deck.standard(f"arrange-{seed}").cards if c not in low)[:8]
    in_fl = seed % 2 == 1
    result = best_arrangement(VARIANTS[variant], cards, in_fantasyland=in_fl)
    assert not result.fouled
    assert round(result.score * SCALE) == exhaustive_best(variant, cards, in_fl)


def test_search_finds_the_exhaustive_optimum_for_14_cards() -> None:
    cards = Deck.standard("arrange-14").deal(14)
    result = best_arrangement(VARIANTS["pineapple"], cards)
    assert round(result.score * SCALE) == exhaustive_best("pineapple", cards, False)


@pytest.mark.parametrize("n", [13, 14, 17])
@pytest.mark.parametrize("variant", ["ofc", "pineapple", "progressive", "turbo", "classic"])
def test_never_fouls_and_discards_the_rest(variant: str, n: int) -> None:
    cards = Deck.standard(f"{variant}{n}").deal(n)
    result = best_arrangement(VARIANTS[variant], cards, in_fantasyland=n % 2 == 0)
    v = VARIANTS[variant]
    assert not result.fouled
    assert not is_fouled(v, evaluate_rows(v, result.arrangement))
    assert len(result.discards) == n - 13
    assert sorted(result.arrangement.cards + result.discards) == sorted(cards)


def test_fantasyland_bonus_puts_queens_on_top() -> None:
    # QQ on top (7 + Fantasyland) beats keeping the queens for a bottom two pair.
    cards = parse_cards("Qc Qd 2h 2c 2d 5h 5s 8c 8d 9h 9s Ks Ac")
    result = best_arrangement(VARIANTS["ofc"], cards)
    top_ranks = sorted(c >> 2 for c in result.arrangement.top)
    assert top_ranks.count(10) == 2  # a pair of queens
    no_bonus = best_arrangement(VARIANTS["ofc"], cards, fantasyland_value=0)
    assert no_bonus.score < result.score


def test_pineapple27_without_a_ten_low_is_fouled_and_set_in_dealt_order() -> None:
    cards = parse_cards("Ac Ad Kc Kd Qc Qd Jc Jd Tc Td 9c 9d Ah As")
    result = best_arrangement(VARIANTS["pineapple27"], cards)
    assert result.fouled
    assert result.arrangement.bottom == cards[:5] and result.discards == cards[13:]


def test_pineapple27_prefers_the_nut_low_middle() -> None:
    cards = parse_cards("7d 5c 4h 3s 2c 8d Kc Kd Kh Ah Ad 9s 6c")
    result = best_arrangement(VARIANTS["pineapple27"], cards)
    assert sorted(c >> 2 for c in result.arrangement.middle) == [0, 1, 2, 3, 5]


def test_fill_in_dealt_order() -> None:
    cards = parse_cards("2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac")
    rows, discards = fill_in_dealt_order(cards)
    assert rows == {"bottom": cards[:5], "middle": cards[5:10], "top": cards[10:]}
    assert discards == ()
    rows, discards = fill_in_dealt_order(cards[:3], {"top": 3, "middle": 1, "bottom": 0}, 1)
    assert rows == {"bottom": (), "middle": cards[:1], "top": cards[1:2]}
    assert discards == cards[2:3]
    with pytest.raises(ChineseError):
        fill_in_dealt_order(cards, {"top": 3, "middle": 5, "bottom": 4})


@pytest.mark.parametrize("n", [12, 18])
def test_bad_card_counts_are_refused(n: int) -> None:
    with pytest.raises(ChineseError):
        best_arrangement(VARIANTS["ofc"], Deck.standard(1).deal(n))
    with pytest.raises(ChineseError):
        best_arrangement(VARIANTS["ofc"], [0] * 13)


def test_8_pineapple27_a_middle_of_exactly_ten_high_stands() -> None:
    # §8 Pineapple 2-7: the middle must not be stronger than 10-high, so T-9-8-7-5 (the
    # weakest such low) stands; here it is the only five ranks of ten or lower.
    cards = parse_cards("Td 9c 8h 7s 5c Jc Jd Qc Qd Kc Kd Ac Ad")
    result = best_arrangement(VARIANTS["pineapple27"], cards)
    assert not result.fouled
    assert sorted(c >> 2 for c in result.arrangement.middle) == [3, 5, 6, 7, 8]


def test_8_a_fantasyland_hand_keeps_trips_on_top_to_stay() -> None:
    # §8: staying in Fantasyland takes trips on top. Without the stay counted, KK on top
    # (8), a middle flush (8) and nines full (6) beat 555 (13), nines (2) and a flush (4).
    cards = parse_cards("9c 9d 9h Kc 5s 4c 5h Kd Qc 5d 8c 6c 7h")
    staying = best_arrangement(VARIANTS["ofc"], cards, in_fantasyland=True)
    assert [c >> 2 for c in staying.arrangement.top] == [3, 3, 3]
    no_bonus = best_arrangement(VARIANTS["ofc"], cards, in_fantasyland=True, fantasyland_value=0)
    assert sorted(c >> 2 for c in no_bonus.arrangement.top) == [5, 11, 11]


def test_8_pineapple27_the_nut_low_middle_counts_as_a_way_into_fantasyland() -> None:
    # §8 Pineapple 2-7: 7-5-4-3-2 in the middle enters Fantasyland as KK+ on top does.
    # QQ on top with the nut low (7 + 8 and Fantasyland) beats AA on top with a 9-high
    # middle (9 + 1 and Fantasyland); unless the low's way in is counted.
    cards = parse_cards("7c 5d 4h 3s 2c Qc 7h Ah 3h Ac Ks Qd 9h")
    result = best_arrangement(VARIANTS["pineapple27"], cards)
    assert sorted(c >> 2 for c in result.arrangement.middle) == [0, 1, 2, 3, 5]
    assert sorted(c >> 2 for c in result.arrangement.top) == [10, 10, 11]


def test_8_a_fantasyland_hand_keeps_quads_at_the_back_to_stay() -> None:
    # §8: quads or better on the bottom stays in Fantasyland. 3333 at the back with KK
    # on top (18 and the stay) beats KK, a wheel and threes full (18, no stay).
    cards = parse_cards("3c 3d 3h 3s 5c 7d Th Kc Kh Ah Qd 2d 2c 4h Tc")
    result = best_arrangement(VARIANTS["progressive"], cards, in_fantasyland=True)
    assert sorted(c >> 2 for c in result.arrangement.bottom)[:4] == [1, 1, 1, 1]
