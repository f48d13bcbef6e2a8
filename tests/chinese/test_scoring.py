"""Showdown scoring: the seed's examples, and random hands against an independent oracle.

The oracle ranks five-card rows with treys (and 2-7 lows with PokerKit),
ranks the top row by hand, reads royalties off the rulebook's words, and
scores pairs as the rulebook says; it shares no code with the package.
"""

from __future__ import annotations

import os
import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pokerkit import StandardLowHand
from treys import Card as TreysCard
from treys import Evaluator

from cardroom.cards import CARDS
from cardroom.chinese import VARIANTS, Arrangement, ChineseError, pairwise_points, score_hands

EXAMPLES = int(os.environ.get("CARDROOM_CHINESE_EXAMPLES", "300"))
TREYS = Evaluator()
RANKS = "23456789TJQKA"


def arr(top: str, middle: str, bottom: str) -> Arrangement:
    return Arrangement.of(top.split(), middle.split(), bottom.split())


def points(variant: str, *hands: Arrangement, **kw: object) -> list[int]:
    return [s.points for s in score_hands(VARIANTS[variant], hands, **kw)]  # type: ignore[arg-type]


# Three standing hands without royalties and one fouled hand, all disjoint.
WEAK = arr("2c 3d 5h", "4c 4d 7h 8s 9c", "6c 6d Jh Qs Kc")  # 532 / 44 / 66
STRONG = arr(
    "2d 3h 7c", "5c 5d 8h 9s Tc", "Jc Jd Qh Ks Ad"
)  # 732 / 55 / JJ: beats WEAK in all rows
FOULED = arr("Ac Ah 4h", "2h 3c 6h Ts Th", "Kh Kd 8c 9h 7d")  # AA over a pair of tens: fouled
MIXED = arr("Td 8d 2s", "Js Qd 7s 4s 3s", "As Qc 9d 6s 5s")  # beats WEAK top only


def test_seed_example_scoop_is_six() -> None:
    assert points("ofc", STRONG, WEAK) == [6, -6]


def test_rows_without_scoop_score_one_each() -> None:
    # MIXED wins the top (T high vs 5 high), loses middle (Q high vs 44) and bottom (A high vs 66).
    assert points("ofc", MIXED, WEAK) == [-1, 1]


def test_seed_example_foul_loses_six_to_each_standing_hand() -> None:
    assert points("ofc", FOULED, WEAK) == [-6, 6]
    assert points("ofc", FOULED, WEAK, STRONG) == [-12, 6 - 6, 6 + 6]


def test_foul_also_pays_the_opponents_royalties_and_scores_none() -> None:
    royal = arr("Qs Qd 2s", "3c 4c 5c 6c 7c", "Th Jh Qh Kh Ah")  # QQ 7, SF 30, royal 25
    fouled = arr("Ac Ad 3d", "Kc Ks 4d 5d 6d", "Jc Js 8s 9s 2h")
    scores = score_hands(VARIANTS["ofc"], [royal, fouled])
    assert scores[0].royalties == {"top": 7, "middle": 30, "bottom": 25}
    assert scores[1].fouled and scores[1].royalties == {"top": 0, "middle": 0, "bottom": 0}
    assert [s.points for s in scores] == [6 + 62, -(6 + 62)]


def test_two_fouled_hands_score_zero_against_each_other() -> None:
    other_foul = arr("Qc Qd 2s", "As 9d 7s 5s 3s", "Js Td 8d 6s 4s")  # QQ top over ace high
    assert points("ofc", FOULED, other_foul) == [0, 0]
    assert points("ofc", FOULED, other_foul, STRONG) == [-6, -6, 12]


def test_royalties_are_added_pairwise() -> None:
    # Top 66 (1) against nothing; bottom flush (4) against a straight (2).
    a = arr("6c 6d 2h", "8c 8d 9h Ts Jc", "2s 5s 7s 9s Ks")
    b = arr("Ac Kd 3h", "7c 7d 4h 4s 5c", "9c Td Jh Qs Kc")
    # Rows: top 66 beats AK3, middle 88 vs 7744 loses, bottom flush beats straight: +1.
    assert points("ofc", a, b) == [1 + (1 + 4) - 2, -(1 + (1 + 4) - 2)]


def test_tied_rows_score_nothing_and_spoil_the_scoop() -> None:
    a = arr("2c 3d 5h", "4c 4d 7h 8s 9c", "Ac Ad Kh Ks Qc")
    b = arr("2s 3h 5c", "4h 4s 7d 8d 9d", "Ah As Kc Kd Jc")  # ties top and middle
    assert points("ofc", a, b) == [1, -1]


def test_point_value_turns_units_into_integer_chips() -> None:
    scores = score_hands(VARIANTS["ofc"], [STRONG, WEAK, FOULED], point_value=25)
    assert [s.chips for s in scores] == [s.points * 25 for s in scores]
    assert sum(s.chips for s in scores) == 0
    for bad in (2.5, -1, True):
        with pytest.raises(ChineseError):
            score_hands(VARIANTS["ofc"], [STRONG, WEAK], point_value=bad)  # type: ignore[arg-type]


def test_classic_scores_royalties_too() -> None:
    # RULEBOOK section 8 adds royalties for the whole family; classic uses the standard table.
    a = arr("Qs Qd 2s", "3c 4c 5c 6c 7c", "Th Jh Qh Kh Ah")  # 7 + 30 + 25
    b = arr("2d 3d 4d", "8c 8d 9h 9s Td", "Jc Jd Js Ks Kd")  # full house at the back: 6
    assert points("classic", a, b) == [6 + 62 - 6, -(6 + 62 - 6)]
    assert points("ofc", a, b) == points("classic", a, b)


def test_pairwise_points_are_each_pair_apart_and_sum_to_the_points() -> None:
    hands = [STRONG, WEAK, FOULED, MIXED]
    matrix = pairwise_points(VARIANTS["ofc"], hands)
    assert matrix[0][1] == 6 and matrix[2][0] == -6 and matrix[2][1] == -6
    assert matrix[3][1] == -1 and matrix[1][3] == 1
    for i in range(4):
        assert matrix[i][i] == 0
        assert all(matrix[i][j] == -matrix[j][i] for j in range(4))
    assert [sum(row) for row in matrix] == points("ofc", *hands)


def test_showdown_refuses_shared_cards_and_bad_sizes() -> None:
    with pytest.raises(ChineseError, match="two hands"):
        score_hands(VARIANTS["ofc"], [STRONG, STRONG])
    with pytest.raises(ChineseError):
        score_hands(VARIANTS["ofc"], [STRONG])
    with pytest.raises(ChineseError):
        score_hands(VARIANTS["ofc"], [STRONG, WEAK], in_fantasyland=[True])


# ---------------------------------------------------------------- the oracle
def _treys(cards: tuple[int, ...]) -> int:
    """treys rank of five cards: 1 (royal) .. 7462, lower is better."""
    return int(TREYS.evaluate([TreysCard.new(str(CARDS[c])) for c in cards], []))


def _shape(ranks: list[int]) -> list[int]:
    return sorted(ranks, key=lambda r: (ranks.count(r), r), reverse=True)


def _top_key(cards: tuple[int, ...]) -> tuple[int, list[int]]:
    ranks = [c >> 2 for c in cards]
    return {3: 0, 2: 1, 1: 3}[len(set(ranks))], _shape(ranks)


def _five_class(cards: tuple[int, ...]) -> str:
    return str(TREYS.class_to_string(TREYS.get_rank_class(_treys(cards))))


_CATEGORY = {"High Card": 0, "Pair": 1, "Two Pair": 2, "Three of a Kind": 3}


def _middle_not_below_top(middle: tuple[int, ...], top: tuple[int, ...]) -> bool:
    cat = _CATEGORY.get(_five_class(middle), 9)
    tcat, tranks = _top_key(top)
    if cat != tcat:
        return cat > tcat
    return _shape([c >> 2 for c in middle]) >= tranks  # a missing kicker is lowest


def _is_low_ok(middle: tuple[int, ...]) -> bool:
    ranks = sorted(c >> 2 for c in middle)
    straight = len(set(ranks)) == 5 and ranks[4] - ranks[0] == 4
    flush = len({c & 3 for c in middle}) == 1
    return len(set(ranks)) == 5 and not straight and not flush and ranks[4] <= RANKS.index("T")


def _oracle_royalties(variant: str, a: Arrangement) -> int:
    total = 0
    ranks = [c >> 2 for c in a.top]
    best = max(ranks, key=lambda r: (ranks.count(r), r))
    if ranks.count(best) == 3:
        total += 10 + best
    elif ranks.count(best) == 2 and best >= RANKS.index("6"):
        total += best - RANKS.index("6") + 1
    names = ["Straight", "Flush", "Full House", "Four of a Kind", "Straight Flush", "royal"]
    bottom_units = dict(zip(names, [2, 4, 6, 10, 15, 25], strict=True))
    middle_units = dict(zip(names, [4, 8, 12, 20, 30, 50], strict=True)) | {"Three of a Kind": 2}
    for cards, units in ((a.bottom, bottom_units), (a.middle, middle_units)):
        if cards is a.middle and variant == "pineapple27":
            high = max(c >> 2 for c in cards)
            seven_low = sorted(c >> 2 for c in cards) == [0, 1, 2, 3, 5]
            total += 8 if seven_low else {5: 4, 6: 2, 7: 1}.get(high, 0)
            continue
        cls = "royal" if _treys(cards) == 1 else _five_class(cards)
        total += units.get(cls, 0)
    return total


def _oracle_fouled(variant: str, a: Arrangement) -> bool:
    if variant == "pineapple27":
        bottom_beats_top = _middle_not_below_top(a.bottom, a.top)  # 5 cards never tie 3
        return not (_is_low_ok(a.middle) and bottom_beats_top)
    return _treys(a.bottom) > _treys(a.middle) or not _middle_not_below_top(a.middle, a.top)


def _row_sign(variant: str, row: str, a: Arrangement, b: Arrangement) -> int:
    x, y = getattr(a, row), getattr(b, row)
    if row == "top":
        kx, ky = _top_key(x), _top_key(y)
        return (kx > ky) - (kx < ky)
    if row == "middle" and variant == "pineapple27":
        lx = StandardLowHand("".join(str(CARDS[c]) for c in x))
        ly = StandardLowHand("".join(str(CARDS[c]) for c in y))
        return (lx > ly) - (lx < ly)
    return (_treys(x) < _treys(y)) - (_treys(x) > _treys(y))


def oracle_points(variant: str, hands: list[Arrangement]) -> list[int]:
    fouled = [_oracle_fouled(variant, h) for h in hands]
    roy = [0 if f else _oracle_royalties(variant, h) for f, h in zip(fouled, hands, strict=True)]
    out = [0] * len(hands)
    for i, j in combinations(range(len(hands)), 2):
        if fouled[i] and fouled[j]:
            units = 0
        elif fouled[i]:
            units = -6 - roy[j]
        elif fouled[j]:
            units = 6 + roy[i]
        else:
            signs = [_row_sign(variant, r, hands[i], hands[j]) for r in ("top", "middle", "bottom")]
            units = sum(signs) + (3 if sum(signs) == 3 else -3 if sum(signs) == -3 else 0)
            units += roy[i] - roy[j]
        out[i] += units
        out[j] -= units
    return out


def _low_first(cards: list[int]) -> list[int]:
    """Five low cards of different ranks first (a 2-7 middle), then the rest, high last."""
    low: list[int] = []
    for c in sorted(cards):
        if len(low) < 5 and all(c >> 2 != d >> 2 for d in low):
            low.append(c)
    rest = sorted(c for c in cards if c not in low)
    return rest[:3] + low + rest[3:]


def _sorted_hand(cards: list[int], tidy: int, low: bool = False) -> Arrangement:
    """Rows from 13 cards; ``tidy`` puts the stronger five at the back (fewer fouls)."""
    if low and tidy:
        cards = _low_first(cards)
        tidy = 0
    top, middle, bottom = tuple(cards[:3]), tuple(cards[3:8]), tuple(cards[8:])
    if tidy and _treys(bottom) > _treys(middle):
        middle, bottom = bottom, middle
    if tidy > 1 and not _middle_not_below_top(middle, top):
        pool = sorted(top + middle, reverse=True)  # high cards into the middle
        middle, top = tuple(pool[:5]), tuple(pool[5:])
    return Arrangement(tuple(CARDS[c] for c in top), tuple(CARDS[c] for c in middle),
                       tuple(CARDS[c] for c in bottom))  # fmt: skip


@settings(max_examples=EXAMPLES, deadline=None)
@given(
    deck=st.permutations(range(52)),
    players=st.integers(2, 4),
    variant=st.sampled_from(["ofc", "pineapple", "progressive", "turbo", "classic", "pineapple27"]),
    tidy=st.lists(st.integers(0, 2), min_size=4, max_size=4),
    point_value=st.integers(0, 500),
)
def test_random_showdowns_match_the_oracle_and_sum_to_zero(
    deck: list[int], players: int, variant: str, tidy: list[int], point_value: int
) -> None:
    low = variant == "pineapple27"
    hands = [_sorted_hand(deck[13 * i : 13 * i + 13], tidy[i], low) for i in range(players)]
    scores = score_hands(VARIANTS[variant], hands, point_value=point_value)
    assert [s.points for s in scores] == oracle_points(variant, hands)
    assert [s.fouled for s in scores] == [_oracle_fouled(variant, h) for h in hands]
    assert sum(s.points for s in scores) == 0
    assert sum(s.chips for s in scores) == 0
    assert all(s.chips == s.points * point_value for s in scores)


BULK = int(os.environ.get("CARDROOM_CHINESE_BULK", "4000"))


def test_bulk_showdowns_match_the_oracle() -> None:
    """Plain seeded loop (faster than hypothesis) over BULK showdowns of 2-4 players."""
    rng = random.Random(20261129)
    variants = ["ofc", "pineapple", "progressive", "turbo", "classic", "pineapple27"]
    hands_seen = 0
    for _ in range(BULK):
        variant = rng.choice(variants)
        deck = rng.sample(range(52), 52)
        players = rng.randint(2, 4)
        low = variant == "pineapple27"
        hands = [
            _sorted_hand(deck[13 * i : 13 * i + 13], rng.randint(0, 2), low) for i in range(players)
        ]
        scores = score_hands(VARIANTS[variant], hands)
        assert [s.points for s in scores] == oracle_points(variant, hands)
        hands_seen += players
    assert hands_seen >= 2 * BULK


def test_8_score_hands_keeps_a_fantasyland_player_only_by_the_stay_rule() -> None:
    # §8: QQ on top sends a player to Fantasyland; one already there stays only with
    # trips on top or quads or better at the back, so the same hand scores 0 for him.
    queens = arr("Qh Qd 2s", "Kd Kh 3h 3s 4h", "Ac Ah Ad 8d 8h")  # QQ, kings up, full house
    entering = score_hands(VARIANTS["ofc"], [queens, WEAK], in_fantasyland=[False, False])
    staying = score_hands(VARIANTS["ofc"], [queens, WEAK], in_fantasyland=[True, False])
    assert entering[0].fantasyland_next == 13
    assert staying[0].fantasyland_next == 0


def test_8_two_rows_won_and_one_tied_is_no_scoop() -> None:
    # §8: the 3 extra units are for winning all three rows; two wins and a tie score 2.
    a = arr("2c 3d 6h", "4c 4d 7h 8s 9c", "Ac Ad Kh Ks Qc")
    b = arr("2s 3h 5c", "4h 4s 7d 8d 9d", "Ah As Kc Kd Jc")  # ties the middle only
    assert points("ofc", a, b) == [2, -2]
