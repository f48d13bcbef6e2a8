"""Alias rules (RULEBOOK §10.1): charset, length, case-insensitive key, offensive words."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardroom.ledger import AliasError, WordList, alias_key, offensive_match, validate_alias


@pytest.mark.parametrize("alias", ["abc", "Ace_High", "river-rat", "x" * 16, "Player_1", "T-800"])
def test_good_aliases_pass(alias: str) -> None:
    assert validate_alias(alias) == alias


@pytest.mark.parametrize("alias", ["ab", "", "x" * 17])
def test_length_is_3_to_16(alias: str) -> None:
    with pytest.raises(AliasError, match="3 to 16"):
        validate_alias(alias)


@pytest.mark.parametrize("alias", ["has space", "dot.ted", "émile", "tab\tx", "ǅxx", "a+b", "ab\n"])
def test_only_letters_digits_dash_underscore(alias: str) -> None:
    with pytest.raises(AliasError, match="only letters"):
        validate_alias(alias)


@given(st.text(alphabet="abcXYZ019-_.! é", min_size=0, max_size=20))
def test_charset_rule_matches_a_plain_reference(alias: str) -> None:
    allowed = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")
    expected = 3 <= len(alias) <= 16 and set(alias) <= allowed
    try:
        validate_alias(alias, WordList(frozenset(), frozenset()))
    except AliasError:
        assert not expected
    else:
        assert expected


def test_uniqueness_key_ignores_case() -> None:
    assert alias_key("AceHigh") == alias_key("acehigh") == alias_key("ACEHIGH")
    assert alias_key("ace-high") != alias_key("ace_high")


@pytest.mark.parametrize(
    "alias",
    [
        "fuck",
        "FuCk_you",
        "fuuuuck",
        "sh1t",
        "5hit",
        "b1tch",
        "bit-ch",
        "big_ass",
        "a55",
        "T1T",
        "x_s3x_x",
        "sex4u",
        "Scunthorpe",
        "KKK",
        "k-k-k",
        "r4pe",
        "h1tl3r",
    ],
)
def test_offensive_aliases_are_refused_through_disguises(alias: str) -> None:
    with pytest.raises(AliasError, match="offensive"):
        validate_alias(alias)


@pytest.mark.parametrize(
    "alias",
    [
        "classic",
        "Cassandra",
        "therapist",
        "grapefruit",
        "analyst",
        "titan",
        "t1tan",
        "torpedo",
        "cockpitless",
        "Essex",
        "as-12",
        "kicker",
        "dickens",
    ],
)
def test_innocent_words_containing_short_bad_words_pass(alias: str) -> None:
    assert offensive_match(alias) is None
    assert validate_alias(alias) == alias


def test_word_list_is_data() -> None:
    words = WordList.parse(["# comment", "", "Donk", "=fish"])
    assert words == WordList(frozenset({"donk"}), frozenset({"fish"}))
    assert offensive_match("bigd0nker", words) == "donk"
    assert offensive_match("fish_42", words) == "fish"
    assert offensive_match("catfish", words) is None
