"""Passwords are read as RFC 8265's OpaqueString reads them (NFC, other spaces as the
space): one password typed on two keyboards is one password."""

from __future__ import annotations

import unicodedata

from argon2 import PasswordHasher

from cardroom.store.passwords import Passwords, password_problem

CHEAP = Passwords(time_cost=1, memory_cost=1024, parallelism=1)
TYPED = "Pässwörd-café 1"


def test_a_password_typed_composed_or_decomposed_is_one_password() -> None:
    # A macOS file name, a paste or an input method may give "ä" as "a" and a combining
    # diaeresis: the player registered one way could not log in the other.
    composed = unicodedata.normalize("NFC", TYPED)
    decomposed = unicodedata.normalize("NFD", TYPED)
    assert composed != decomposed
    for registered, typed in ((composed, decomposed), (decomposed, composed)):
        assert CHEAP.verify(CHEAP.hash(registered), typed), (registered, typed)
    assert not CHEAP.verify(CHEAP.hash(composed), unicodedata.normalize("NFD", "Passwörd-café 1"))


def test_a_no_break_space_is_a_space() -> None:
    # Option-space on a Mac types U+00A0; RFC 8265 maps every space to U+0020.
    assert CHEAP.verify(CHEAP.hash("a long password"), "a\u00a0long\u2002password")


def test_a_hash_made_of_the_typed_form_before_still_verifies() -> None:
    # Hashes stored before passwords were normalised are of the form typed then.
    decomposed = unicodedata.normalize("NFD", TYPED)
    legacy = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1).hash(decomposed)
    assert CHEAP.verify(legacy, decomposed)


def test_the_length_is_the_normalised_password_s() -> None:
    assert password_problem("e\u0301" * 4) is not None  # four letters, typed in eight
    assert password_problem("\u00e9" * 8) is None
