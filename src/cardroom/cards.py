"""Cards, decks and shuffling (RULEBOOK section 1).

A :class:`Card` is an ``int`` from 0 to 51: ``rank * 4 + suit``, with ranks
``23456789TJQKA`` (0..12) and suits ``cdhs`` (0..3, clubs lowest). Being an
int, a card indexes lookup tables directly and hashes and compares fast; it
prints in the standard notation (``As``, ``Td``).

There is one shuffle (:func:`shuffled`): Fisher-Yates over random bytes from the
operating system's CSPRNG, or, for a seed, from SHAKE-128 of the seed. The same
seed gives the same deck to :class:`Deck`, to a hand of any game, to Chinese
poker and to ``cardroom deal --seed``.

>>> parse_cards("As Td")
(As, Td)
>>> Card.parse("2c") < Card.parse("2d") < Card.parse("3c")
True
>>> Deck.standard(seed=7).cards == Deck.standard(seed=7).cards
True
"""

from __future__ import annotations

import hashlib
import re
import secrets
import sys
from collections.abc import Iterable, Sequence

RANKS = "23456789TJQKA"
SUITS = "cdhs"
RANK_NAMES = (
    "Two",
    "Three",
    "Four",
    "Five",
    "Six",
    "Seven",
    "Eight",
    "Nine",
    "Ten",
    "Jack",
    "Queen",
    "King",
    "Ace",
)
RANK_PLURALS = tuple(name + ("es" if name == "Six" else "s") for name in RANK_NAMES)

_TOKEN = re.compile(r"\S\S")


class CardError(ValueError):
    """Raised for text that is not a valid card or card list; says what was wrong."""


class Card(int):
    """One card: an int 0..51 equal to ``rank * 4 + suit``."""

    __slots__ = ()

    def __new__(cls, value: int) -> Card:
        if not 0 <= int(value) < 52:
            raise CardError(f"card index {value} is outside 0..51")
        return super().__new__(cls, value)

    @classmethod
    def of(cls, rank: int, suit: int) -> Card:
        """The card of rank index ``rank`` (0 = deuce .. 12 = ace) and suit index ``suit``."""
        if not (0 <= rank < 13 and 0 <= suit < 4):
            raise CardError(f"no card has rank {rank} and suit {suit}")
        return CARDS[rank * 4 + suit]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse one card such as ``"As"`` or ``"td"`` (rank letters are case-insensitive)."""
        if len(text) != 2:
            raise CardError(f"{text!r} is not a card: expected a rank and a suit, like 'As'")
        rank = RANKS.find(text[0].upper())
        suit = SUITS.find(text[1].lower())
        if rank < 0:
            raise CardError(f"{text!r} is not a card: {text[0]!r} is not a rank of {RANKS}")
        if suit < 0:
            raise CardError(f"{text!r} is not a card: {text[1]!r} is not a suit of {SUITS}")
        return CARDS[rank * 4 + suit]

    @property
    def rank(self) -> int:
        """Rank index: 0 for a deuce up to 12 for an ace."""
        return int(self) >> 2

    @property
    def suit(self) -> int:
        """Suit index: 0 clubs, 1 diamonds, 2 hearts, 3 spades."""
        return int(self) & 3

    def __str__(self) -> str:
        return RANKS[int(self) >> 2] + SUITS[int(self) & 3]

    def __repr__(self) -> str:
        return self.__str__()


CARDS: tuple[Card, ...] = tuple(Card(i) for i in range(52))
"""All 52 cards in index order (2c 2d 2h 2s 3c ... As)."""

SHORT_DECK_CARDS: tuple[Card, ...] = tuple(c for c in CARDS if c.rank >= 4)
"""The 36 cards of Short Deck: sixes up to aces."""


def parse_cards(
    text: str | Iterable[str],
    count: int | None = None,
    *,
    allow_duplicates: bool = False,
) -> tuple[Card, ...]:
    """Parse cards written as ``"As Td 9c"``, ``"AsTd9c"`` or a list of tokens.

    Raises :class:`CardError` for an unknown token, a repeated card (unless
    ``allow_duplicates``) or, when ``count`` is given, the wrong number of cards.
    """
    tokens = _tokens(text) if isinstance(text, str) else [str(t).strip() for t in text]
    cards = tuple(Card.parse(token) for token in tokens)
    if not allow_duplicates:
        seen: set[int] = set()
        for c in cards:
            if c in seen:
                raise CardError(f"card {c} appears more than once")
            seen.add(c)
    if count is not None and len(cards) != count:
        raise CardError(f"expected {count} cards, got {len(cards)}")
    return cards


def _tokens(text: str) -> list[str]:
    compact = re.sub(r"[\s,]+", "", text)
    if len(compact) % 2:
        raise CardError(f"{text!r} is not a list of cards: every card is two characters")
    return _TOKEN.findall(compact)


def format_cards(cards: Iterable[int]) -> str:
    """Write cards in the standard notation, space separated."""
    return " ".join(str(CARDS[c]) for c in cards)


Seed = int | str | bytes
"""What may seed a shuffle (see :func:`seed_key` for when two seeds are the same)."""

_INTEGER_TEXT = re.compile(r"-?[0-9]+")


def seed_key(seed: Seed) -> bytes:
    """The bytes a seed stands for: the one rule for when two seeds are the same seed.

    An int is its decimal digits. Text made only of ASCII digits, with an optional
    leading minus, is the integer it reads as, so ``"007"``, ``"7"`` and ``7`` are one
    seed (a seed typed on a command line is text). Other text is its UTF-8 bytes;
    bytes are themselves. A bool or any other type raises :class:`CardError`.

    >>> seed_key("007") == seed_key(7) == seed_key("7") == b"7"
    True
    >>> seed_key("table 4")
    b'table 4'
    """
    if isinstance(seed, bool) or not isinstance(seed, int | str | bytes):
        raise CardError(f"a seed must be an int, str or bytes, not {type(seed).__name__}")
    if isinstance(seed, bytes):
        return seed
    if isinstance(seed, str) and not _INTEGER_TEXT.fullmatch(seed):
        return seed.encode()
    return str(int(seed)).encode()


def seeded_bytes(seed: Seed, stream: str, cards: int) -> bytes:
    """The random bytes that order ``cards`` cards for ``stream`` of a seed.

    SHAKE-128 of the seed's key (:func:`seed_key`) and the stream's name (``deck``
    for a deck, ``muck/0``... for a hand's reshuffles): the same seed gives the same
    orders on every machine and Python version, each stream independent of the
    others, for the cost of one hash.
    """
    return hashlib.shake_128(seed_key(seed) + b"/" + stream.encode()).digest(8 * cards)


_DRAW_BITS = 48
"""Bits of one draw: 6 of the 8 random bytes a card gets. A draw is rejected with odds
below 1 in 10^12 per card; changing the width would change every seeded deck."""


def random_order(cards: Sequence[Card], raw: bytes | None = None) -> list[Card]:
    """``cards`` shuffled by Fisher-Yates with 8 bytes of ``raw`` per card (the OS
    CSPRNG when ``raw`` is None): every order is exactly equally likely.

    The randomness comes in one call instead of one per card (shuffling is part
    of every hand the engine deals). Position ``i`` swaps with a uniform position
    ``j <= i``: a 48-bit draw taken modulo ``i + 1``, rejected (and redrawn, see
    :func:`_redraw`) in the rare case it falls in the last incomplete block, so
    that no position is favoured.
    """
    n = len(cards)
    words = bytearray(secrets.token_bytes(8 * n) if raw is None else raw[: 8 * n])
    if len(words) != 8 * n:
        raise CardError(f"ordering {n} cards takes {8 * n} random bytes, not {len(words)}")
    draws = _draws(words, n)
    out = list(cards)
    top = 1 << _DRAW_BITS
    for i in range(n - 1, 0, -1):
        span = i + 1
        draw = draws[i]
        j = draw % span
        # draw - j is where draw's block of span values starts; a block starting past
        # top - span is cut short (odds below 1 in 10^12 per card). One modulo, not two.
        if draw - j > top - span:
            j = _redraw(words, i, span) % span
        out[i], out[j] = out[j], out[i]
    return out


def _draws(words: bytearray, n: int) -> list[int]:
    """The 48-bit draws of ``n`` little-endian 8-byte words (their two high bytes dropped)."""
    words[6::8] = bytes(n)
    words[7::8] = bytes(n)
    if sys.byteorder == "little":
        return memoryview(words).cast("Q").tolist()
    # A big-endian machine reads the same numbers the slow way.
    return [int.from_bytes(words[k : k + 8], "little") for k in range(0, 8 * n, 8)]


def _redraw(words: bytearray, i: int, span: int) -> int:
    """A fresh draw below the largest multiple of ``span`` for position ``i``: SHAKE-128 of
    the shuffle's own bytes, the position and an attempt number (deterministic for a
    seeded shuffle, unpredictable for a CSPRNG one)."""
    top = 1 << _DRAW_BITS
    for attempt in range(1 << 16):
        tag = f"/{i}/{attempt}".encode()
        draw = int.from_bytes(hashlib.shake_128(bytes(words) + tag).digest(6), "little")
        if draw < top - top % span:
            return draw
    raise AssertionError("no fair draw in 65536 attempts")  # pragma: no cover - odds 10^-786432


def shuffled(cards: Sequence[Card], seed: Seed | None = None) -> list[Card]:
    """Return a shuffled copy of ``cards``: the one shuffle of the whole package.

    Without a seed the order comes from the operating system's CSPRNG
    (:mod:`secrets`), as real play requires. With a seed it is
    :func:`random_order` of the seed's ``deck`` stream (:func:`seeded_bytes`), so a
    test, a replay, ``cardroom deal --seed`` and a hand dealt with the same seed
    get the same deck.

    >>> shuffled(CARDS, seed=7) == shuffled(CARDS, seed="007") != shuffled(CARDS, seed=8)
    True
    """
    return random_order(cards, None if seed is None else seeded_bytes(seed, "deck", len(cards)))


class Deck:
    """An ordered stack of cards dealt from the top (index 0).

    ``Deck.standard(seed)`` and ``Deck.short(seed)`` build shuffled 52- and
    36-card decks. Dealing more cards than remain raises :class:`CardError`.
    """

    __slots__ = ("_cards", "_next")

    def __init__(self, cards: Iterable[Card]) -> None:
        self._cards: list[Card] = list(cards)
        if len(set(self._cards)) != len(self._cards):
            raise CardError("a deck may not hold the same card twice")
        self._next = 0

    @classmethod
    def standard(cls, seed: Seed | None = None) -> Deck:
        """A shuffled 52-card deck (CSPRNG unless seeded)."""
        return cls(shuffled(CARDS, seed))

    @classmethod
    def short(cls, seed: Seed | None = None) -> Deck:
        """A shuffled 36-card Short Deck (sixes to aces)."""
        return cls(shuffled(SHORT_DECK_CARDS, seed))

    @property
    def cards(self) -> tuple[Card, ...]:
        """The whole deck in dealing order, including cards already dealt."""
        return tuple(self._cards)

    @property
    def remaining(self) -> int:
        """How many cards are left to deal."""
        return len(self._cards) - self._next

    def deal(self, n: int = 1) -> tuple[Card, ...]:
        """Take ``n`` cards from the top."""
        if n < 0:
            raise CardError("cannot deal a negative number of cards")
        if n > self.remaining:
            raise CardError(f"cannot deal {n} cards: only {self.remaining} remain")
        out = tuple(self._cards[self._next : self._next + n])
        self._next += n
        return out

    def __len__(self) -> int:
        return self.remaining

    def __repr__(self) -> str:
        return f"Deck({self.remaining} of {len(self._cards)} remaining)"
