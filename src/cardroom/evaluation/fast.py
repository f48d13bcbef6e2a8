"""One-call standard-high evaluation of 5, 6 or 7 cards in pure Python, by table lookup.

Returns the contract's ``strength`` integer only (larger is better, equal is a
split), the same number ``cardroom.evaluation.high`` gives, at a fraction of
the cost: the showdown and equity code call this. Cards are ints 0..51
(:class:`~cardroom.cards.Card` works too). Cards are not checked here: pass
distinct valid cards (the engine deals them); ``high_strength`` checks the count.

>>> from cardroom.cards import parse_cards
>>> high_strength(parse_cards("As Ks Qs Js Ts 2c 2d")) >> 20   # straight flush
8
>>> high7(*parse_cards("Kh Kd Kc 7s 7h 2c 3d")) == high5(*parse_cards("Kh Kd Kc 7s 7h"))
True
>>> keys = [CARD_KEYS[c] for c in parse_cards("Kh Kd Kc 7s 7h 2c 3d")]
>>> high7_keys(*keys) == high7(*parse_cards("Kh Kd Kc 7s 7h 2c 3d"))
True
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence

from cardroom.evaluation.hand_value import EvaluationError
from cardroom.evaluation.tables import (
    CARD_KEYS,
    FIRST_CARD_KEYS,
    FLUSH,
    FLUSH_BITS,
    FLUSH_SUIT,
    NON_FLUSH,
    RANK_BITS_MASK,
    RANK_BITS_SHIFT,
    RANK_SUM_BITS,
    SUIT_OFFSET,
    SUIT_SHIFT,
)

# Lists index faster than tuples of the same ints in CPython's specialised bytecode.
_K = list(CARD_KEYS)
_K0 = list(FIRST_CARD_KEYS)
_NF5, _NF6 = NON_FLUSH[5], NON_FLUSH[6]


def _dense(table: dict[int, int]) -> array[int]:
    """A dict of rank-key sums as a flat int array: indexing it beats a dict lookup."""
    dense = array("i", bytes(4 * (max(table) + 1)))
    for total, strength in table.items():
        dense[total] = strength
    return dense


# Seven cards are the hot case (hold'em and stud showdowns): a flat array of 7.8 M
# entries (31 MB) instead of a dict of 49,205; five and six cards keep their dicts.
_NF7 = _dense(NON_FLUSH[7])
# The hot functions spell these constants as literals (a constant loads faster than a global).
if (FLUSH_BITS, RANK_SUM_BITS, RANK_BITS_SHIFT, RANK_BITS_MASK, SUIT_OFFSET) != (
    0x88880000000000,
    0x7FFFFF,
    23,
    0x7FFF,
    0x33330000000000,
):  # pragma: no cover - guards an edit of the key layout
    raise ImportError("fast.py literals disagree with the key layout of tables.py")


def _flush_strength(key: int, cards: tuple[int, ...]) -> int:
    """Strength of a hand known to hold a flush: the flush table of that suit's ranks."""
    suit = FLUSH_SUIT[(key >> SUIT_SHIFT) & 0x8888]
    mask = 0
    for card in cards:
        if card & 3 == suit:
            mask |= 1 << (card >> 2)
    return FLUSH[mask]


# The hot functions take the tables as keyword-only defaults: locals load fastest.
def high7(
    a: int,
    b: int,
    c: int,
    d: int,
    e: int,
    f: int,
    g: int,
    *,
    _k: list[int] = _K,
    _k0: list[int] = _K0,
    _nf: array[int] = _NF7,
) -> int:
    """Strength of the best five of seven cards (two hole cards and a board, a stud hand)."""
    key = _k0[a] + _k[b] + _k[c] + _k[d] + _k[e] + _k[f] + _k[g]
    if key & 0x88880000000000:  # FLUSH_BITS
        return _flush_strength(key, (a, b, c, d, e, f, g))
    return _nf[key & 0x7FFFFF]  # RANK_SUM_BITS


def high6(
    a: int,
    b: int,
    c: int,
    d: int,
    e: int,
    f: int,
    *,
    _k: list[int] = _K,
    _k0: list[int] = _K0,
    _nf: dict[int, int] = _NF6,
) -> int:
    """Strength of the best five of six cards (hole cards and a turn board)."""
    key = _k0[a] + _k[b] + _k[c] + _k[d] + _k[e] + _k[f]
    if key & 0x88880000000000:  # FLUSH_BITS
        return _flush_strength(key, (a, b, c, d, e, f))
    return _nf[key & 0x7FFFFF]  # RANK_SUM_BITS


def high5(
    a: int,
    b: int,
    c: int,
    d: int,
    e: int,
    *,
    _k: list[int] = _K,
    _k0: list[int] = _K0,
    _nf: dict[int, int] = _NF5,
    _fl: list[int] = FLUSH,
) -> int:
    """Strength of exactly five cards."""
    key = _k0[a] + _k[b] + _k[c] + _k[d] + _k[e]
    if key & 0x88880000000000:  # FLUSH_BITS
        # Five cards of one suit: their rank-bit sum is their rank mask.
        return _fl[(key >> 23) & 0x7FFF]  # RANK_BITS_SHIFT, RANK_BITS_MASK
    return _nf[key & 0x7FFFFF]  # RANK_SUM_BITS


def _flush_strength_of_keys(key: int, keys: tuple[int, ...]) -> int:
    """Strength of a hand of card keys known to hold a flush."""
    suit_bit = FLUSH_SUIT[(key >> SUIT_SHIFT) & 0x8888] * 4 + SUIT_SHIFT
    mask = 0
    for card_key in keys:
        if card_key >> suit_bit & 1:
            mask |= (card_key >> RANK_BITS_SHIFT) & 0x1FFF
    return FLUSH[mask]


def high7_keys(
    a: int, b: int, c: int, d: int, e: int, f: int, g: int, *, _nf: array[int] = _NF7
) -> int:
    """:func:`high7` of seven cards given by their keys (``CARD_KEYS[card]``).

    The fastest calling convention: a hand held as card keys (as treys holds
    its own card integers) skips one table lookup per card.
    """
    key = a + b + c + d + e + f + g + 0x33330000000000  # SUIT_OFFSET
    if key & 0x88880000000000:  # FLUSH_BITS
        return _flush_strength_of_keys(key, (a, b, c, d, e, f, g))
    return _nf[key & 0x7FFFFF]  # RANK_SUM_BITS


def high5_keys(
    a: int, b: int, c: int, d: int, e: int, *, _nf: dict[int, int] = _NF5, _fl: list[int] = FLUSH
) -> int:
    """:func:`high5` of five cards given by their keys (``CARD_KEYS[card]``)."""
    key = a + b + c + d + e + 0x33330000000000  # SUIT_OFFSET
    if key & 0x88880000000000:  # FLUSH_BITS
        return _fl[(key >> 23) & 0x7FFF]  # RANK_BITS_SHIFT, RANK_BITS_MASK
    return _nf[key & 0x7FFFFF]  # RANK_SUM_BITS


def high_strength(cards: Sequence[int]) -> int:
    """Strength of the best five of 5, 6 or 7 cards.

    Another count raises :class:`EvaluationError` (a ``ValueError``).
    """
    n = len(cards)
    if n == 7:
        a, b, c, d, e, f, g = cards
        return high7(a, b, c, d, e, f, g)
    if n == 6:
        a, b, c, d, e, f = cards
        return high6(a, b, c, d, e, f)
    if n == 5:
        a, b, c, d, e = cards
        return high5(a, b, c, d, e)
    raise EvaluationError(f"standard high needs 5 to 7 cards, got {n}")


def hand_key(cards: Sequence[int]) -> int:
    """The summed key of some cards (without the suit offset): keys of parts add up."""
    return sum(_K[c] for c in cards)


def strength_from_key(key: int, cards: Sequence[int]) -> int:
    """Strength of the 5..7 ``cards`` whose summed :func:`hand_key` is ``key``.

    Lets a caller add a precomputed board key to each player's hole-card key;
    ``cards`` are read only when the hand holds a flush.
    """
    n = len(cards)
    if not 5 <= n <= 7:
        raise EvaluationError(f"standard high needs 5 to 7 cards, got {n}")
    key += FIRST_CARD_KEYS[0] - CARD_KEYS[0]
    if key & FLUSH_BITS:
        return _flush_strength(key, tuple(cards))
    return NON_FLUSH[n][key & RANK_SUM_BITS]
