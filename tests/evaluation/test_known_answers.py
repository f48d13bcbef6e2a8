"""Known answers: every hand example of RULEBOOK §2 and of seeds 000, 003 (Greek) and 004."""

from __future__ import annotations

import itertools

import pytest

from cardroom.cards import Card, parse_cards
from cardroom.evaluation import (
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
from cardroom.evaluation.high import five_card_strength
from cardroom.evaluation.lowball import low_27_strength


def c(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


# --- standard high (seed 003 "Παραδείγματα", seed 000 card values) -----------------------


@pytest.mark.parametrize(
    ("winner", "loser"),
    [
        ("Qc Qd Qh 6s 6c", "Qs Qc Qd 5h 5s"),  # Q-Q-Q-6-6 beats Q-Q-Q-5-5
        ("Kh 7h 5h 3h 2h", "Qs Js Ts 8s 6s"),  # K-high flush beats Q-high flush
        ("Ac Ad Kh Tc 6s", "Ah As Qc Jd 5h"),  # A-A-K-T-6 beats A-A-Q-J-5
        ("Jc Jd Jh Ac Qd", "Js Jd Jh As 9c"),  # J-J-J-A-Q beats J-J-J-A-9
    ],
)
def test_seed_003_high_examples(winner: str, loser: str) -> None:
    assert high(c(winner)) > high(c(loser))


def test_standard_category_order() -> None:
    ladder = [
        "2c 4d 6h 8s Tc",  # high card
        "2c 2d 6h 8s Tc",  # pair
        "2c 2d 6h 6s Tc",  # two pair
        "2c 2d 2h 8s Tc",  # trips
        "Ac 2d 3h 4s 5c",  # wheel, the lowest straight
        "2c 3d 4h 5s 6c",  # six-high straight
        "Tc Jd Qh Ks Ac",  # broadway
        "2c 4c 6c 8c Tc",  # flush
        "2c 2d 2h 8s 8c",  # full house
        "2c 2d 2h 2s Tc",  # quads
        "Ac 2c 3c 4c 5c",  # steel wheel, the lowest straight flush
        "Tc Jc Qc Kc Ac",  # royal
    ]
    values = [high(c(hand)) for hand in ladder]
    assert all(a < b for a, b in itertools.pairwise(values))


def test_ace_is_low_only_in_the_wheel() -> None:
    assert high(c("Qc Kd Ah 2s 3c")).category == "High Card"  # no wrap-around straight
    assert high(c("Ac 2d 3h 4s 5c")).name == "Straight, Five high"


def test_equal_hands_split_and_suits_never_rank() -> None:
    a, b = high(c("As Ks Qd Jh 9c 3c 2d")), high(c("Ac Kc Qh Jd 9s 4h 2h"))
    assert a.ties(b) and not a < b and not b < a


def test_playing_the_board() -> None:
    evaluate = get_evaluator("high")
    board = c("Ts Js Qs Ks As")
    assert evaluate(c("2c 3d"), board) == evaluate(c("4h 5h"), board)
    assert evaluate(c("2c 3d"), board).name == "Royal Flush"


@pytest.mark.parametrize(
    ("hand", "name", "used"),
    [
        ("Kh Kd Ks 7c 7d 2c 3h", "Full House, Kings over Sevens", "Ks Kh Kd 7d 7c"),
        ("Qh Qd 5s 5c Kd 3c 2h", "Two Pair, Queens and Fives", "Qh Qd 5s 5c Kd"),
        ("As Ks Qs Js Ts 9s", "Royal Flush", "As Ks Qs Js Ts"),
        ("9h 8h 7h 6h 5h Ad", "Straight Flush, Nine high", "9h 8h 7h 6h 5h"),
        # §7 the cards shown are the suited ones, not the higher suits of the same ranks
        ("9h 8h 7h 6h 5h 9s 8s", "Straight Flush, Nine high", "9h 8h 7h 6h 5h"),
        ("9c 9d 9h 9s 2c Ad", "Four of a Kind, Nines", "9s 9h 9d 9c Ad"),
        ("Kh 7h 5h 3h 2h", "Flush, King high", "Kh 7h 5h 3h 2h"),
        ("6c 6d 6h Ks 2c", "Three of a Kind, Sixes", "6h 6d 6c Ks 2c"),
        ("Jc Jd 9h 4s 2c", "Pair of Jacks", "Jd Jc 9h 4s 2c"),
        ("Ac Td 9h 4s 2c", "High Card, Ace", "Ac Td 9h 4s 2c"),
    ],
)
def test_high_names_and_cards_used(hand: str, name: str, used: str) -> None:
    value = high(c(hand))
    assert value.name == name
    assert value.cards == c(used)


def test_high_strength_encoding_is_the_contract() -> None:
    # category << 20 | r1..r5 by multiplicity then rank; the wheel reads 5-4-3-2-A.
    assert high(c("Kh Kd Ks 7c 7d")).strength == 6 << 20 | 0xBBB55
    assert high(c("Qh Qd 5s 5c Kd")).strength == 2 << 20 | 0xAA33B
    assert high(c("Ac 2d 3h 4s 5c")).strength == 4 << 20 | 0x3210C


@pytest.mark.parametrize(
    "hand",
    [
        "Ac 2c 3c 4c 5c",
        "9h 8h 7h 6h 5h",
        "Ac 2d 3h 4s 5c",
        "Tc Jd Qh Ks Ac",
        "Kh 7h 5h 3h 2h",
        "9c 9d 9h 9s 2c",
        "Kh Kd Ks 7c 7d",
        "6c 6d 6h Ks 2c",
        "Qh Qd 5s 5c Kd",
        "Jc Jd 9h 4s 2c",
    ],
)
def test_five_card_strength_ranks_straights_flushes_and_the_wheel_as_high_does(hand: str) -> None:
    # §2, §8: Chinese poker's arranger ranks its five-card rows with five_card_strength.
    assert five_card_strength(c(hand)) == high(c(hand)).strength


def test_five_card_strength_without_the_wheel_reads_a_2_3_4_5_as_ace_high() -> None:
    # §2 deuce-to-seven: A-2-3-4-5 is ace high (a flush when suited), not a straight.
    assert five_card_strength(c("Ac 2d 3h 4s 5c"), wheel=False) == 0x0C3210
    assert five_card_strength(c("Ac 2c 3c 4c 5c"), wheel=False) == 5 << 20 | 0x0C3210


# --- Short Deck (RULEBOOK §2, seed 004 table, seed 000 list) --------------------------------

SEED_004_SHORT_DECK = [  # best first, the table of seed 004
    "Ah Kh Qh Jh Th",  # royal flush
    "9s 8s 7s 6s As",  # straight flush (the lowest, A-6-7-8-9 suited)
    "7c 7d 7h 7s Ac",  # four of a kind
    "6d 7d 8d Td Qd",  # flush
    "Ac Ad Kh Ks Kd",  # full house
    "6c 7d 8h 9s Tc",  # straight
    "7c 7d 7h Ts Qc",  # three of a kind
    "Ac Ad 6h 6s Tc",  # two pair
    "Ac Ad 6h 8s Tc",  # one pair
    "Ac Kd 6h 8s Tc",  # high card
]


def test_seed_004_short_deck_table() -> None:
    values = [short_deck(c(hand)) for hand in SEED_004_SHORT_DECK]
    assert all(a > b for a, b in itertools.pairwise(values))
    assert values[0].name == "Royal Flush"
    assert values[1].name == "Straight Flush, Nine high"


def test_seed_000_short_deck_order_trips_beat_straight() -> None:
    order = [  # best first, seed 000's list
        "Ah Kh Qh Jh Th",
        "7c 7d 7h 7s Ac",
        "6d 7d 8d Td Qd",
        "Ac Ad Kh Ks Kd",
        "7c 7d 7h Ts Qc",
        "6c 7d 8h 9s Tc",
        "Ac Ad 6h 6s Tc",
        "Ac Ad 6h 8s Tc",
        "Ac Kd 6h 8s Tc",
    ]
    values = [short_deck(c(hand), trips_beat_straight=True) for hand in order]
    assert all(a > b for a, b in itertools.pairwise(values))
    assert get_evaluator("short_deck_trips")(c(order[4]), ()) > get_evaluator("short_deck_trips")(
        c(order[5]), ()
    )


def test_short_deck_a6789_is_the_lowest_straight() -> None:
    low = short_deck(c("As 6d 7h 8c 9s"))
    assert low.name == "Straight, Nine high"
    assert low < short_deck(c("6s 7d 8h 9c Ts"))
    assert short_deck(c("As 6d 7h 8c 9s Kd Kh")).category == "Straight"
    assert short_deck(c("Ts Jd Qh Kc As")).name == "Straight, Ace high"
    # the wheel's ace low never hides a higher straight in the same seven cards
    assert short_deck(c("As 6d 7h 8c 9s Td Kh")).name == "Straight, Ten high"


def test_short_deck_kickers_and_a_full_house_of_two_trips() -> None:
    # §2 kickers break ties: the three highest side cards of a pair play, and only they.
    assert short_deck(c("Ac Ad Kh Qs Jc 9d 8h")) > short_deck(c("As Ah Kd Qc Tc 9s 8d"))
    assert short_deck(c("Ac Ad Kh Qs Jc 6d 7h")).ties(short_deck(c("As Ah Kd Qc Jd 8s 6c")))
    assert short_deck(c("Kc Kd Kh 7s 7c 7h 9d")).name == "Full House, Kings over Sevens"


def test_short_deck_refuses_small_cards() -> None:
    with pytest.raises(ValueError, match="not in this deck"):
        short_deck(c("2s 6d 7h 8c 9s"))


# --- A-5 low and 8-or-better (seed 004 "How Hi-Lo Pots Are Decided") -------------------------


def test_seed_004_comparing_lows() -> None:
    assert low_a5(c("7c 6d 5h 4s 3c"), 8) > low_a5(c("8c 5d 4h 3s 2c"), 8)
    assert low_a5(c("6c 4d 3h 2s Ac"), 8) > low_a5(c("6d 5h 3s 2c Ad"), 8)


def test_seed_004_qualifying() -> None:
    assert low_a5(c("As 2d 3h 4s 4c"), 8) is None  # a pair: only four ranks
    assert low_a5(c("As 2d 3h 4s 9c"), 8) is None  # a card above 8
    assert low_a5(c("As 2d 3h 4s 8c"), 8) is not None  # 8 itself qualifies
    wheel = low_a5(c("Ac 2c 3c 4c 5c"), 8)  # flushes and straights do not count
    assert wheel is not None and wheel.name == "5-4-3-2-A low"
    assert all(wheel >= low_a5(five, 8) for five in [c("6c 4d 3h 2s Ac"), c("5c 4d 3h 2s Ad")])


def test_wheel_is_best_low_and_can_be_the_high_too() -> None:
    seven = c("Ac 2d 3h 4s 5c Kd Kh")  # Stud Hi-Lo: high and low chosen separately
    assert high(seven).name == "Straight, Five high"
    low = low_a5(seven, 8)
    assert low is not None and low.name == "5-4-3-2-A low"


def test_razz_has_no_qualifier_and_pairs_are_bad() -> None:
    razz = get_evaluator("a5_low")
    assert razz(c("Kc Kd Qh Qs Jc Jd Tc"), ()) is not None
    assert get_evaluator("a5_low8")(c("Kc Kd Qh Qs Jc Jd Tc"), ()) is None
    assert low_a5(c("Kc Qd Jh 9s 8c")) > low_a5(c("Ac Ad 2h 3s 4c"))  # any no-pair beats a pair
    assert low_a5(c("Ac Ad 2h 3s 4c")).name == "Pair of Aces, 4-3-2"
    pair, two_pair = low_a5(c("Kc Kd Qh Js Tc")), low_a5(c("Ac Ad 2h 2s 3c"))
    assert pair is not None and two_pair is not None and pair > two_pair  # a pair beats two pair


def test_stud_hi_lo_low_evaluator_is_eight_or_better() -> None:
    # §2 Hi-Lo lows qualify 8-or-better: the registered "a5_low8" (Stud Hi-Lo) takes an 8, not a 9.
    low8 = get_evaluator("a5_low8")
    assert low8(c("9c 7d 5h 3s 2c Kd Kh"), ()) is None
    value = low8(c("8c 7d 5h 3s 2c Kd Kh"), ())
    assert value is not None and value.name == "8-7-5-3-2 low"


@pytest.mark.parametrize(
    ("hand", "name", "category"),
    [
        ("8s 6h 4d 2c Ah Kd Kc", "8-6-4-2-A low", "8 low"),
        ("7c 6d 5h 4s 3c", "7-6-5-4-3 low", "7 low"),
    ],
)
def test_a5_names(hand: str, name: str, category: str) -> None:
    value = low_a5(c(hand), 8)
    assert value is not None and (value.name, value.category) == (name, category)


@pytest.mark.parametrize(
    ("hand", "name"),
    [
        ("Kc Kd 7h 7s 2c", "Two Pair, Kings and Sevens, 2"),
        ("Kc Kd Kh 7s 2c", "Three of a Kind, Kings, 7-2"),
        ("Kc Kd Kh 7s 7c", "Full House, Kings over Sevens"),
        ("Kc Kd Kh Ks 2c", "Four of a Kind, Kings, 2"),
    ],
)
def test_razz_paired_hands_are_named_groups_first(hand: str, name: str) -> None:
    # §7 awards are named; a Razz hand without five ranks says its groups, then the rest.
    value = low_a5(c(hand))
    assert value is not None and value.name == name


# --- Omaha (seed 004 examples and low table) ---------------------------------------------


def test_seed_004_four_spades_in_hand_one_on_board_is_no_flush() -> None:
    value = omaha_high(c("As Ks 7s 2s"), c("9s Td 4c 3h Jd"))
    assert value.category != "Flush"
    assert value.name == "High Card, Ace"


def test_seed_004_four_hearts_on_board_one_in_hand_is_no_flush() -> None:
    value = omaha_high(c("Ah Kc 7d 2s"), c("9h Th 4h 3h Jd"))
    assert value.category != "Flush"


def test_omaha_uses_exactly_two_hole_cards() -> None:
    # Four aces in the hand make only a pair of aces; the board's trips are played with two.
    assert omaha_high(c("Ac Ad Ah As"), c("2c 7d 9h Js 4c")).name == "Pair of Aces"
    assert omaha_high(c("Ac Kd 4h 4s"), c("Qc Qd Qh Js 2c")).name == "Full House, Queens over Fours"
    # One four in the hand cannot pair the board's four while the board's queens play.
    assert omaha_high(c("Ac Kd 3h 4s"), c("Qc Qd Qh Js 4c")).name == "Three of a Kind, Queens"


SEED_004_OMAHA_LOW = [
    ("A 2 K K", "3 4 5 K Q", "5-4-3-2-A low"),
    ("A K Q J", "3 4 5 K Q", None),  # only the ace is low, and two hole cards must play
    ("A 2 K K", "3 K Q J 9", None),  # the board has only one low card
]


@pytest.mark.parametrize(("hole", "board", "best"), SEED_004_OMAHA_LOW)
def test_seed_004_omaha_low_table(hole: str, board: str, best: str | None) -> None:
    dealt: dict[str, int] = {}

    def suited(ranks: str) -> tuple[Card, ...]:  # the seed gives ranks only
        out = []
        for rank in ranks.split():
            dealt[rank] = dealt.get(rank, -1) + 1
            out.append(rank + "cdhs"[dealt[rank]])
        return c(" ".join(out))

    hole_cards, board_cards = suited(hole), suited(board)
    value = omaha_low(hole_cards, board_cards)
    assert (value.name if value else None) == best
    assert get_evaluator("omaha_low8")(hole_cards, board_cards) == value


def test_omaha_hi_lo_halves_may_use_different_hole_cards() -> None:
    hole, board = c("Ac 2d Kh Ks"), c("3c 4d 9h Kc Qd")
    hi, lo = omaha_high(hole, board), omaha_low(hole, board)
    assert hi.name == "Three of a Kind, Kings"
    assert lo is None  # the board shows only two low ranks
    board = c("3c 4d 8h Kc Qd")
    hi, lo = omaha_high(hole, board), omaha_low(hole, board)
    assert lo is not None and lo.name == "8-4-3-2-A low"
    assert set(hi.cards) & set(hole) == {c("Kh")[0], c("Ks")[0]}
    assert set(lo.cards) & set(hole) == {c("Ac")[0], c("2d")[0]}


def test_plo5_five_hole_cards() -> None:
    value = omaha_high(c("As Ks 2d 3c 7h"), c("Qs Js Ts 4c 5h"))
    assert value.name == "Royal Flush"


# --- 2-7 low (seed 003 DEUCE TO SEVEN, RULEBOOK §2) --------------------------------------


def test_seed_003_deuce_to_seven() -> None:
    best = low_27(c("7c 5d 4h 3s 2c"))
    assert best.name == "7-5-4-3-2 low"
    assert low_27(c("Ac 2d 3h 4s 5c")).category == "A low"  # ace high, not a straight
    assert low_27(c("Ac 2d 3h 4s 5c")) < low_27(c("Kc 5d 4h 3s 2c"))
    assert low_27(c("6c 5d 4h 3s 2c")).category == "Straight"  # straights count against
    assert low_27(c("7c 5c 4c 3c 2c")).category == "Flush"  # flushes count against
    assert low_27(c("7c 5c 4c 3c 2c")) < low_27(c("Ac Kd Qh Js 9c"))
    assert low_27(c("2c 2d 7h 8s 9c")) < low_27(c("Ac 2d 3h 4s 5c"))  # a pair is worse
    every = [low_27(c(h)) for h in ["8c 6d 4h 3s 2c", "7c 6d 4h 3s 2c", "7c 5d 4h 3s 2c"]]
    assert every == sorted(every)


def test_deuce_to_seven_suited_a_2_3_4_5_is_an_ace_high_flush() -> None:
    # §2: not a straight flush; as a flush it beats (is lower than) A-K-Q-J-9 suited.
    wheel, broadway = c("Ah 2h 3h 4h 5h"), c("As Ks Qs Js 9s")
    assert (low_27(wheel).category, low_27(wheel).name) == ("Flush", "Flush, Ace high")
    assert low_27(wheel) > low_27(broadway)
    assert low_27_strength(wheel) > low_27_strength(broadway)


def test_deuce_to_seven_paired_hands_are_named_by_the_pair() -> None:
    # §7 awards are named: a paired 2-7 hand is "Pair of Sevens", not a "7 low".
    value = low_27(c("7s 7h 4d 3c 2s"))
    assert (value.category, value.name) == ("Pair", "Pair of Sevens")


# --- Badugi (seed 000 rules) ---------------------------------------------------------------


def test_seed_000_badugi_rules() -> None:
    best = badugi(c("Ac 2d 3h 4s"))
    assert best.name == "badugi 4-3-2-A" and best.category == "Badugi"
    assert badugi(c("Ac 2d 3h 5s")) < best
    three = badugi(c("Kc Kd Kh 2s"))  # one king only
    assert three.category == "Two-card badugi"
    assert badugi(c("Kc Qd Jh 9s")) > badugi(c("Ac 2d 3h 3s"))  # more cards beat fewer
    assert badugi(c("7c 4d 2h 2c")).name == "three-card badugi 7-4-2"
    assert badugi(c("8c 4d 3h As")) > badugi(c("8d 5c 2h As"))  # then the next card
    assert badugi(c("8c 4d 3h As")).ties(badugi(c("8s 4h 3c Ad")))  # no ranking of suits
    assert badugi(c("Ac Ad Ah As")).name == "one-card badugi A"


# --- Soko (seed 003 ranking, RULEBOOK §2) ------------------------------------------------

SEED_003_SOKO = [  # best first
    "Ah Kh Qh Jh Th",  # royal flush
    "9h 8h 7h 6h 5h",  # straight flush
    "9c 9d 9h 9s 2c",  # four of a kind
    "Kc Kd Kh 2s 2c",  # full house
    "Kh 7h 5h 3h 2h",  # flush
    "9c 8d 7h 6s 5c",  # straight
    "Qc Qd Qh 7s 2c",  # three of a kind
    "Qc Qd 7h 7s 2c",  # two pair
    "Ah Kh 7h 3h 2c",  # 4-flush
    "Ac Kh Qd Js 3c",  # 4-straight
    "Ac Ad 9h 7s 2c",  # one pair
    "Ac Kd 9h 7s 2c",  # high cards
]


def test_seed_003_soko_ranking() -> None:
    values = [soko(c(hand)) for hand in SEED_003_SOKO]
    assert all(a > b for a, b in itertools.pairwise(values))
    assert [v.category for v in values[8:10]] == ["Four Flush", "Four Straight"]


def test_soko_readings() -> None:
    assert soko(c("Ac 2d 3h 4s 9c")).category == "Four Straight"  # A-2-3-4, ace low
    assert soko(c("Ac 2d 3h 4s 9c")) < soko(c("2d 3h 4s 5c 9d"))  # the lowest 4-straight
    assert soko(c("Qc Kd Ah 2s 7c")).category == "High Card"  # no wrap-around
    assert soko(c("5c 6d 8h 9s Kc")).category == "High Card"  # gaps are not a 4-straight
    assert soko(c("8h 8d 9h Th Jh")).category == "Four Flush"  # 4-flush beats the pair in it
    assert soko(c("Ah Kh 7h 3h 2c")) < soko(c("Ad Kd 7d 3d Qc"))  # then the odd card
    assert soko(c("9c Td Jh Qs 2c")) < soko(c("9c Td Jh Qs 3c"))  # 4-straight: odd card
    assert soko(c("2c 3d 4h 5s Kc")) < soko(c("3c 4d 5h 6s 2c"))  # top card first
    assert soko(c("Ah Kh 7h 3h 2c")).name == "Ace-high 4-flush"


# --- three-card front (seed 000 Chinese poker) --------------------------------------------


def test_seed_000_front_row() -> None:
    assert front3(c("Ac Ad Ah")).name == "Three of a Kind, Aces"  # the best front hand
    assert front3(c("2c 2d 2h")) > front3(c("Ac Ad Kh")) > front3(c("Ac Kd Qh"))
    assert front3(c("2c 3c 4c")).category == "High Card"  # no straights or flushes
    assert front3(c("2c 3c 4c")) < front3(c("5d 3h 2s"))
    assert front3(c("Qc Qd 2h")).name == "Pair of Queens"


def test_front_row_compares_with_five_card_rows_for_fouls() -> None:
    # middle >= front on the same scale: trips in front beat a middle pair (foul).
    assert front3(c("7c 7d 7h")) > high(c("Ac Ad Kh Qs Jc"))
    assert front3(c("7c 7d 7h")) > high(c("7s 8c 8d 2h 2s"))  # trips over two pair
    assert front3(c("7c 7d 7h")) < high(c("8s 8c 8d 2h 3s"))
    assert front3(c("Ac Ad Kh")) <= high(c("As Ah Kc 3s 2c"))
