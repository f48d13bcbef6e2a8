"""Royalty tables, fouls and Fantasyland qualification, entry by entry."""

from __future__ import annotations

import pytest

from cardroom.chinese import (
    PINEAPPLE_27_ROYALTIES,
    STANDARD_ROYALTIES,
    VARIANTS,
    Arrangement,
    ChineseError,
    RoyaltyTable,
    evaluate_rows,
    is_fouled,
)
from cardroom.chinese.rows import fantasyland_next, row_royalties
from cardroom.chinese.royalties import RoyaltyTableError

OFC = VARIANTS["ofc"]
P27 = VARIANTS["pineapple27"]


def rows(top: str, middle: str, bottom: str) -> Arrangement:
    return Arrangement.of(top.split(), middle.split(), bottom.split())


def royalties(variant: str, top: str, middle: str, bottom: str) -> dict[str, int]:
    v = VARIANTS[variant]
    return row_royalties(v.royalties, v, evaluate_rows(v, rows(top, middle, bottom)))


# Bottom rows of each class, with middles and tops weak enough never to matter.
FIVE = {
    "two_pair": "Kc Kd 3h 3s 7c",
    "trips": "Kc Kd Kh 3s 7c",
    "straight": "9c Td Jh Qs Kc",
    "wheel": "Ac 2d 3h 4s 5c",
    "flush": "2h 7h 9h Jh Kh",
    "full_house": "Kc Kd Kh 3s 3c",
    "quads": "Kc Kd Kh Ks 3c",
    "straight_flush": "9s Ts Js Qs Ks",
    "royal_flush": "Ts Js Qs Ks As",
    "steel_wheel": "Ac 2c 3c 4c 5c",  # a straight flush, not a royal
}
BOTTOM = {"two_pair": 0, "trips": 0, "straight": 2, "wheel": 2, "flush": 4, "full_house": 6,
          "quads": 10, "straight_flush": 15, "royal_flush": 25, "steel_wheel": 15}  # fmt: skip
MIDDLE = {"two_pair": 0, "trips": 2, "straight": 4, "wheel": 4, "flush": 8, "full_house": 12,
          "quads": 20, "straight_flush": 30, "royal_flush": 50, "steel_wheel": 30}  # fmt: skip


JUNK_TOPS = ("2c 4d 6h", "2s 4c 6d", "3c 5d 7h", "3s 5c 7d", "2h 3d 4s")
JUNK_MIDDLES = ("3d 5h 7s 9d Jc", "2d 4h 6s 8d Tc", "2h 4s 6c 8h Td")
STRONG_BOTTOMS = (
    "Ts Js Qs Ks As",
    "Th Jh Qh Kh Ah",
    "Td Jd Qd Kd Ad",
    "Ac Ad Ah As 8c",
    "Kc Kd Kh Ks 8d",
)


def complete(**given: str) -> Arrangement:
    """Fill the rows not given with the first cards that do not clash."""
    pools = {"top": JUNK_TOPS, "middle": JUNK_MIDDLES, "bottom": STRONG_BOTTOMS}
    chosen = dict(given)
    used = {c for cards in given.values() for c in cards.split()}
    for row in ("top", "middle", "bottom"):
        if row not in chosen:
            chosen[row] = next(p for p in pools[row] if not used & set(p.split()))
            used |= set(chosen[row].split())
    return rows(chosen["top"], chosen["middle"], chosen["bottom"])


@pytest.mark.parametrize("cls", FIVE)
def test_bottom_royalty_of_every_class(cls: str) -> None:
    values = evaluate_rows(OFC, complete(bottom=FIVE[cls]))
    assert not is_fouled(OFC, values)
    assert row_royalties(OFC.royalties, OFC, values)["bottom"] == BOTTOM[cls]


@pytest.mark.parametrize("cls", FIVE)
def test_middle_royalty_of_every_class(cls: str) -> None:
    values = evaluate_rows(OFC, complete(middle=FIVE[cls]))
    assert not is_fouled(OFC, values)
    assert row_royalties(OFC.royalties, OFC, values)["middle"] == MIDDLE[cls]


TOP_PAIRS = {"66": 1, "77": 2, "88": 3, "99": 4, "TT": 5, "JJ": 6, "QQ": 7, "KK": 8, "AA": 9}


@pytest.mark.parametrize("rank", "23456789TJQKA")
def test_top_royalty_of_every_pair_and_trips(rank: str) -> None:
    kicker = "2" if rank != "2" else "3"
    for top, expected in (
        (f"{rank}c {rank}d {kicker}c", TOP_PAIRS.get(rank * 2, 0)),
        (f"{rank}c {rank}d {rank}h", 10 + "23456789TJQKA".index(rank)),
    ):
        # Straight flushes below: the top never fouls, whatever it holds.
        middle, bottom = ("2s 3s 4s 5s 6s", "7s 8s 9s Ts Js")
        values = evaluate_rows(OFC, rows(top, middle, bottom))
        assert not is_fouled(OFC, values)
        assert row_royalties(OFC.royalties, OFC, values)["top"] == expected


def test_8_a_top_pair_scores_by_its_pair_not_a_higher_kicker() -> None:
    # §8 top royalties: 66 = 1 ... QQ = 7, whatever the third card.
    assert royalties("ofc", "6c 6d Ah", "9s 8s 7s 6s 5s", "As Ks Qs Js Ts")["top"] == 1
    assert royalties("ofc", "Qc Qd Ah", "9s 8s 7s 6s 5s", "As Ks Qs Js Ts")["top"] == 7


def test_top_high_card_scores_nothing() -> None:
    assert royalties("ofc", "Ac Kd Qh", "9s 8s 7s 6s 5s", "As Ks Qs Js Ts")["top"] == 0


def test_standard_table_is_the_rulebook_table() -> None:
    assert STANDARD_ROYALTIES.top["66"] == 1 and STANDARD_ROYALTIES.top["AA"] == 9
    assert STANDARD_ROYALTIES.top["222"] == 10 and STANDARD_ROYALTIES.top["AAA"] == 22
    assert len(STANDARD_ROYALTIES.top) == 9 + 13


LOW_MIDDLES = {
    "7d 5c 4h 3s 2c": 8,  # the nut low
    "7d 6c 4h 3s 2c": 4,
    "7d 6c 5h 4s 2c": 4,
    "8d 5c 4h 3s 2c": 2,
    "8d 7c 6h 5s 3c": 2,
    "9d 5c 4h 3s 2c": 1,
    "9d 8c 7h 6s 4c": 1,
    "Td 5c 4h 3s 2c": 0,
    "Td 9c 8h 7s 5c": 0,  # the weakest middle that stands
}


@pytest.mark.parametrize("middle", LOW_MIDDLES)
def test_pineapple27_middle_royalties(middle: str) -> None:
    used = set(middle.split())
    top = "Qc Qd Kh"
    bottom = "As Ah Ad Ac Ks" if "Ks" not in used else "As Ah Ad Ac Kd"
    v = evaluate_rows(P27, rows(top, middle, bottom))
    assert not is_fouled(P27, v)
    assert row_royalties(P27.royalties, P27, v)["middle"] == LOW_MIDDLES[middle]


@pytest.mark.parametrize(
    "middle",
    [
        "Jd 5c 4h 3s 2c",  # jack high is stronger than ten high
        "Td 9c 8h 7s 6c",  # a straight
        "6d 5c 4h 3s 2c",  # a straight
        "2h 4h 6h 8h Th",  # a flush
        "7d 7c 4h 3s 2c",  # a pair
        "Ad 5c 4h 3s 2c",  # A-2-3-4-5 is ace high in 2-7
    ],
)
def test_pineapple27_middle_stronger_than_ten_high_fouls(middle: str) -> None:
    v = evaluate_rows(P27, rows("Qc Qd Jh", middle, "Kc Kd Kh Ks 9s"))
    assert is_fouled(P27, v)


def test_pineapple27_bottom_must_beat_top() -> None:
    low = "9d 5c 4h 3s 2c"
    assert not is_fouled(P27, evaluate_rows(P27, rows("Kc Kd 2d", low, "Ac Ad 3d 6h 8s")))
    assert is_fouled(P27, evaluate_rows(P27, rows("Ac Ad Kd", low, "Kc Ks 3d 6h 8s")))
    # No bottom >= middle order in 2-7: a weak bottom under a "stronger" middle is fine.
    assert not is_fouled(P27, evaluate_rows(P27, rows("2d 3d 4d", low, "Ac Kd Qd 8h 6s")))


@pytest.mark.parametrize(
    ("top", "middle", "bottom", "fouled"),
    [
        ("Qc Qd 2h", "Qh Qs 3c 4d 5h", "Ac Ad Kc Kd 9s", False),  # QQ2 vs QQ543: middle wins
        ("Qc Qd 5h", "Qh Qs 5c 3d 2d", "Ac Ad Kc Kd 9s", False),  # QQ5 vs QQ532: middle more
        ("Ac Kd 2h", "As Kh 5c 4d 3s", "Ah Ad Kc Ks 9s", False),  # AK2 vs AK543
        ("Kc Kd 2h", "Qh Qs 3c 4d 5h", "Ac Ad Kh Ks 9s", True),  # top pair beats middle pair
        ("Ac Kd 2h", "Qh Js 3c 4d 5h", "Ah Ad Kc Ks 9s", True),  # ace-high top over queen-high
        ("2c 3d 4h", "Ac Ad Kc Kd 9s", "Qh Qs 3c 4d 5h", True),  # middle beats bottom
        ("2c 3d 4h", "Ac Ad Kc Kd 9s", "Ah As Kh Ks 9d", False),  # bottom ties middle: allowed
        ("5c 5d 5h", "5s 6c 6d 6h 2d", "Ac Ad Ah As 9d", False),  # trips under a full house
        ("7c 7d 7h", "Ac Ad Ah 2s 3d", "Kc Kd Kh Ks 9d", False),
        ("Ac Ad Ah", "Kc Kd Kh 2s 3d", "Qc Qd Qh Qs 9d", True),  # AAA over KKK
    ],
)
def test_high_foul_rule(top: str, middle: str, bottom: str, fouled: bool) -> None:
    assert is_fouled(OFC, evaluate_rows(OFC, rows(top, middle, bottom))) is fouled


def fl(variant: str, top: str, middle: str, bottom: str, in_fl: bool = False) -> int:
    v = VARIANTS[variant]
    values = evaluate_rows(v, rows(top, middle, bottom))
    return fantasyland_next(v, values, is_fouled(v, values), in_fl)


STRONG = ("7s 8s 9s Ts Js", "2s 3s 4s 5s 6s")  # straight flushes: no top fouls them


@pytest.mark.parametrize(
    ("variant", "top", "expected"),
    [
        ("ofc", "Jc Jd 2h", 0),
        ("ofc", "Qc Qd 2h", 13),
        ("ofc", "7c 7d 7h", 13),
        ("turbo", "Qc Qd 2h", 13),
        ("pineapple", "Jc Jd 2h", 0),
        ("pineapple", "Qc Qd 2h", 14),
        ("pineapple", "Tc Td Th", 14),
        ("progressive", "Qc Qd 2h", 14),
        ("progressive", "Kc Kd 2h", 15),
        ("progressive", "Qc Qd Jh", 14),
        ("progressive", "Ah Ad 2h", 16),
        ("progressive", "2c 2d 2h", 17),
        ("progressive", "Tc Td Th", 17),
        ("classic", "Qc Qd Qh", 0),
    ],
)
def test_fantasyland_entry(variant: str, top: str, expected: int) -> None:
    bottom, middle = STRONG
    assert fl(variant, top, middle, bottom) == expected


def test_fouled_hand_never_enters_fantasyland() -> None:
    assert fl("ofc", "Ac Ad 2h", "Kc Kd 3h 4s 5s", "Qc Qd Qh Qs 9d") == 0
    assert fl("ofc", "Ac Ad Ah", "Kc Kd Kh Ks 2c", "Qc Qd Qh Qs 9d", in_fl=True) == 0


@pytest.mark.parametrize("variant", ["ofc", "turbo", "pineapple", "progressive"])
def test_fantasyland_stay_rules(variant: str) -> None:
    stay = 13 if variant in ("ofc", "turbo") else 14
    # Trips on top stay (progressive gives 14, not 17).
    assert fl(variant, "2c 2d 2h", *reversed(STRONG), in_fl=True) == stay
    # Quads on the bottom stay, even with nothing on top.
    assert fl(variant, "3c 4d 5h", "Kc Kd 9h 9s 2c", "Ac Ad Ah As 2d", in_fl=True) == stay
    # A full house bottom with aces on top is not enough to stay.
    assert fl(variant, "Ac Ad 5h", "Kc Kd 9h 9s 2c", "Qc Qd Qh 8s 8d", in_fl=True) == 0
    # A straight flush bottom is "quads or better".
    assert fl(variant, "3c 4h 5h", "Kc Kd 9h 9s 2c", "2d 3d 4d 5d 6d", in_fl=True) == stay


@pytest.mark.parametrize(
    ("top", "middle", "in_fl", "expected"),
    [
        ("Qc Qd 2h", "7d 5c 4h 3s 2c", False, 14),  # QQ is not enough; the nut low is
        ("Kc Kd 2h", "9d 5c 4h 3s 2d", False, 14),
        ("Kc Kd 2h", "7d 5c 4h 3s 2c", False, 15),  # both
        ("Ac Ad Ah", "7d 5c 4h 3s 2c", False, 15),
        ("Qc Qd 2h", "9d 5c 4h 3s 2d", False, 0),
        ("Ac Ad Ah", "7d 5c 4h 3s 2c", True, 14),  # repeat: only ever 14
        ("Ac Ad 2h", "7d 5c 4h 3s 2c", True, 0),  # the nut low does not repeat
    ],
)
def test_pineapple27_fantasyland(top: str, middle: str, in_fl: bool, expected: int) -> None:
    assert fl("pineapple27", top, middle, "Jh Js Jd Qh Qs", in_fl) == expected


def test_pineapple27_repeat_on_quads_bottom() -> None:
    assert fl("pineapple27", "3c 4d 6h", "9d 5c 4h 3s 2d", "Ac Ad Ah As Kd", True) == 14


def test_royalty_table_loads_from_data_and_refuses_bad_data() -> None:
    data = STANDARD_ROYALTIES.to_dict()
    assert RoyaltyTable.from_dict(data) == STANDARD_ROYALTIES
    assert RoyaltyTable.from_dict(PINEAPPLE_27_ROYALTIES.to_dict()) == PINEAPPLE_27_ROYALTIES
    for bad in (
        {"middle": {"two_pair": 1}},
        {"bottom": {"flush": -1}},
        {"bottom": {"flush": 1.5}},
        {"top": {"QK": 3}},
        {"middle_low": [["7543", 1]]},
        {"sides": {}},
    ):
        with pytest.raises(RoyaltyTableError):
            RoyaltyTable.from_dict(bad)
    assert issubclass(RoyaltyTableError, ChineseError)


def test_a_room_table_changes_the_royalties() -> None:
    table = RoyaltyTable.from_dict({"top": {"55": 1}, "bottom": {"flush": 7}})
    v = evaluate_rows(OFC, rows("5c 5d 2h", "Kc Kd 3h 4s 6s", "2s 7s 9s Js Ks"))
    assert row_royalties(table, OFC, v) == {"top": 1, "middle": 0, "bottom": 7}


@pytest.mark.parametrize(
    ("top", "middle", "bottom"),
    [
        ("Qc Qd", "2c 3c 4c 5c 6c", "7c 8c 9c Tc Jc"),  # two cards on top
        ("Qc Qd Qc", "2c 3c 4c 5c 6c", "7c 8c 9c Tc Jc"),  # a card twice
        ("Qc Qd Xc", "2c 3c 4c 5c 6c", "7c 8c 9c Tc Jc"),  # not a card
        ("Qc Qd Kc", "2c 3c 4c 5c", "7c 8c 9c Tc Jc Ac"),  # four in the middle, six at the back
    ],
)
def test_bad_arrangements_are_refused(top: str, middle: str, bottom: str) -> None:
    with pytest.raises(ChineseError):
        rows(top, middle, bottom)


def test_variant_table_data() -> None:
    # Seats: Chinese poker 4, the OFC family 3 with 4 allowed for plain OFC.
    assert {k: v.max_players for k, v in VARIANTS.items()} == {
        "classic": 4, "ofc": 4, "pineapple": 3, "turbo": 3, "progressive": 3, "pineapple27": 3,
    }  # fmt: skip
    assert [(s.deal, s.place) for s in VARIANTS["ofc"].streets] == [(5, 5)] + [(1, 1)] * 8
    assert [(s.deal, s.place) for s in VARIANTS["pineapple"].streets] == [(5, 5)] + [(3, 2)] * 4
    assert [(s.deal, s.place) for s in VARIANTS["turbo"].streets] == [(5, 5), (4, 4), (4, 4)]
    assert [(s.deal, s.place) for s in VARIANTS["classic"].streets] == [(13, 13)]
    classic = VARIANTS["classic"]
    assert classic.arrange_seconds is not None and 90 <= classic.arrange_seconds <= 120
    assert not classic.open_face and all(v.open_face for k, v in VARIANTS.items() if k != "classic")


def test_variant_data_is_checked() -> None:
    from dataclasses import replace

    with pytest.raises(ChineseError):
        replace(P27, middle_low_limit=None)
    with pytest.raises(ChineseError):
        replace(OFC, streets=OFC.streets[:-1])
