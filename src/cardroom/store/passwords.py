"""Password hashing with argon2id (slow, salted; RULEBOOK §10.1).

A password is read as RFC 8265's OpaqueString profile reads it (:func:`normalise`):
every space character is the space and the text is NFC, so one password typed on two
keyboards (an "ä" composed or as "a" and a combining mark; a Mac's option-space, a
no-break space) is one password, as NIST SP 800-63B asks of a verifier.
"""

from __future__ import annotations

import unicodedata

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

MIN_PASSWORD_LENGTH = 8
MAX_PASSWORD_LENGTH = 256


def normalise(password: str) -> str:
    """``password`` as it is hashed and counted: spaces as U+0020, then NFC."""
    spaced = "".join(" " if unicodedata.category(c) == "Zs" else c for c in password)
    return unicodedata.normalize("NFC", spaced)


class Passwords:
    """Hashes and verifies passwords with argon2id.

    The defaults are argon2-cffi's recommended cost (RFC 9106 low-memory
    profile); tests pass a cheap ``time_cost``/``memory_cost`` for speed.
    """

    def __init__(self, time_cost: int = 3, memory_cost: int = 65536, parallelism: int = 4) -> None:
        self._hasher = PasswordHasher(
            time_cost=time_cost, memory_cost=memory_cost, parallelism=parallelism, type=Type.ID
        )

    def hash(self, password: str) -> str:
        """A salted argon2id hash in PHC string form (``$argon2id$...``)."""
        return str(self._hasher.hash(normalise(password)))

    def verify(self, stored_hash: str, password: str) -> bool:
        """Whether ``password`` matches ``stored_hash``; never raises for a mismatch.

        A hash stored before passwords were normalised is of the form typed then: a
        password typed in another form is tried as typed too (two hashes; a typed
        password is nearly always normal already, so nearly always one)."""
        normal = normalise(password)
        return self._matches(stored_hash, normal) or (
            normal != password and self._matches(stored_hash, password)
        )

    def _matches(self, stored_hash: str, password: str) -> bool:
        try:
            return bool(self._hasher.verify(stored_hash, password))
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    def needs_rehash(self, stored_hash: str) -> bool:
        """Whether ``stored_hash`` was made with weaker parameters than these."""
        return bool(self._hasher.check_needs_rehash(stored_hash))


def password_problem(password: str) -> str | None:
    """Why ``password`` is unacceptable, or ``None`` (its length as :func:`normalise`
    reads it: "é" typed as "e" and a combining mark is one character)."""
    password = normalise(password)
    if len(password) < MIN_PASSWORD_LENGTH:
        return f"password must be at least {MIN_PASSWORD_LENGTH} characters"
    if len(password) > MAX_PASSWORD_LENGTH:
        return f"password must be at most {MAX_PASSWORD_LENGTH} characters"
    return None
