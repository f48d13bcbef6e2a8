"""Cards, notation, parsing errors and shuffling (RULEBOOK section 1)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.cards import (
    CARDS,
    SHORT_DECK_CARDS,
    Card,
    CardError,
    Deck,
    format_cards,
    parse_cards,
    random_order,
    seed_key,
    seeded_bytes,
    shuffled,
)


def test_notation_round_trips_every_card() -> None:
    assert len(CARDS) == 52
    for c in CARDS:
        assert Card.parse(str(c)) == c
    assert str(Card.parse("As")) == "As" and str(Card.parse("td")) == "Td"


def test_suit_order_clubs_lowest_spades_highest() -> None:
    suits = [Card.parse(f"A{s}").suit for s in "cdhs"]
    assert suits == [0, 1, 2, 3]
    assert Card.parse("2c").rank == 0 and Card.parse("Ah").rank == 12


def test_parse_list_forms() -> None:
    expected = (Card.parse("As"), Card.parse("Td"), Card.parse("9c"))
    assert parse_cards("As Td 9c") == expected
    assert parse_cards("AsTd9c") == expected
    assert parse_cards(["As", "Td", "9c"]) == expected
    assert format_cards(expected) == "As Td 9c"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1x", "not a rank"),
        ("Ax", "not a suit"),
        ("As As", "more than once"),
        ("As T", "two characters"),
    ],
)
def test_parse_errors_are_clear(text: str, message: str) -> None:
    with pytest.raises(CardError, match=message):
        parse_cards(text)


def test_wrong_count_is_an_error() -> None:
    with pytest.raises(CardError, match="expected 2 cards, got 3"):
        parse_cards("As Ks Qs", count=2)


def test_short_deck_has_36_cards_six_and_up() -> None:
    assert len(SHORT_DECK_CARDS) == 36
    assert min(c.rank for c in SHORT_DECK_CARDS) == 4
    assert len(Deck.short().cards) == 36


@settings(deadline=None)  # a loaded machine may pause one example past 200 ms
@given(st.integers())
def test_seed_reproduces_a_deck(seed: int) -> None:
    assert Deck.standard(seed).cards == Deck.standard(seed).cards
    assert sorted(Deck.standard(seed).cards) == list(CARDS)


def test_different_seeds_differ_and_csprng_is_default() -> None:
    assert Deck.standard(1).cards != Deck.standard(2).cards
    assert shuffled(CARDS) != shuffled(CARDS)  # 1 in 52! chance of a false failure


def test_deal_takes_from_the_top_and_refuses_too_many() -> None:
    deck = Deck.standard(3)
    top = deck.cards[:5]
    assert deck.deal(2) + deck.deal(3) == top
    assert deck.remaining == 47
    with pytest.raises(CardError, match="only 47 remain"):
        deck.deal(48)
    assert deck.remaining == 47


def test_card_index_bounds() -> None:
    with pytest.raises(CardError):
        Card(52)
    assert Card.of(12, 3) == Card.parse("As")


def test_1_a_seed_typed_as_text_is_the_integer_it_reads_as() -> None:
    # A command line passes text: "007", "7" and 7 must deal one deck.
    assert seed_key("007") == seed_key("7") == seed_key(7) == b"7"
    assert seed_key("-03") == seed_key(-3) == b"-3"
    assert Deck.standard("007").cards == Deck.standard(7).cards == Deck.standard("7").cards
    # Text that is not an integer is its own seed, never an integer's.
    assert seed_key("7.0") == b"7.0" and seed_key(" 7") == b" 7" and seed_key("+7") == b"+7"
    assert Deck.standard("seven").cards != Deck.standard(7).cards
    assert Deck.standard(b"seven").cards == Deck.standard("seven").cards  # text is its UTF-8


@pytest.mark.parametrize("seed", [True, 7.0, [7], None])
def test_a_seed_is_an_int_str_or_bytes(seed: object) -> None:
    with pytest.raises(CardError, match="a seed must be an int, str or bytes"):
        seed_key(seed)  # type: ignore[arg-type]


def test_a_seeded_deck_is_the_deck_stream_of_the_seed() -> None:
    # One shuffle: Fisher-Yates over SHAKE-128 bytes of the seed's "deck" stream.
    assert Deck.standard(5).cards == tuple(random_order(CARDS, seeded_bytes(5, "deck", 52)))
    assert Deck.short(5).cards == tuple(random_order(SHORT_DECK_CARDS, seeded_bytes(5, "deck", 36)))
    assert seeded_bytes(5, "deck", 52) == seeded_bytes(5, "deck", 52)
    assert seeded_bytes(5, "deck", 52) != seeded_bytes(5, "muck/0", 52)
    assert len(seeded_bytes(5, "deck", 52)) == 8 * 52
    with pytest.raises(CardError, match="random bytes"):
        random_order(CARDS[:20], b"too short")


def test_every_order_of_a_small_deck_is_equally_likely() -> None:
    four = CARDS[:4]
    orders = Counter(tuple(shuffled(four, seed=i)) for i in range(24_000))
    assert len(orders) == 24  # all 4! orders occur, made of the same four cards
    assert all(sorted(order) == list(four) for order in orders)
    assert min(orders.values()) > 800 and max(orders.values()) < 1200  # 1000 expected each
    csprng = Counter(tuple(shuffled(four)) for _ in range(2400))
    assert len(csprng) == 24 and max(csprng.values()) < 160  # 100 expected each


def test_every_card_reaches_the_top_about_equally_often() -> None:
    tops = Counter(Deck.standard(i).cards[0] for i in range(5200))
    assert set(tops) == set(CARDS)
    assert min(tops.values()) > 60 and max(tops.values()) < 145  # 100 expected each


def test_a_draw_in_the_last_incomplete_block_is_redrawn() -> None:
    # All bytes 0xFF: every 48-bit draw is 2^48 - 1, past the last multiple of each span
    # (2^48 is not a multiple of 52, 51...), so every swap takes a fresh draw instead of
    # favouring the low positions; the result is still a reproducible order of the cards.
    from cardroom.cards import _redraw

    raw = b"\xff" * (8 * 52)
    order = random_order(CARDS, raw)
    assert sorted(order) == list(CARDS) and order == random_order(CARDS, raw)
    assert order != random_order(CARDS, b"\xfe" + raw[1:])  # the redraws read the bytes
    words = bytearray(raw)
    draws = [_redraw(words, 51, 52) for _ in range(3)]
    assert len(set(draws)) == 1 and draws[0] < (1 << 48) - (1 << 48) % 52
