"""Cards, notation, parsing errors and shuffling (RULEBOOK section 1)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardroom.cards import (
    CARDS,
    SHORT_DECK_CARDS,
    Card,
    CardError,
    Deck,
    format_cards,
    parse_cards,
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
