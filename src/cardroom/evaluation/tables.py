"""Lookup tables for fast standard-high evaluation, generated from first principles.

The tables are generated when this module is first imported (only the
evaluators that need them import it) and kept in the user's cache directory
under a key of this file's source (see :mod:`.table_cache`), so later
processes read them back in milliseconds.

Every card has a 64-bit *key*; the key of a hand is the plain sum of its cards'
keys, so the key of hole cards plus board is the key of the hole cards plus
the key of the board. A key holds three fields::

    bits  0..22   rank-key sum    sum of RANK_KEYS[rank]; unique for every rank
                                  multiset of a given size (5, 6 or 7 cards)
    bits 23..37   rank-bit sum    sum of 1 << rank; it is the 13-bit rank mask
                                  when no rank repeats (always so within a flush)
    bits 40..55   suit counts     four 4-bit counters, one per suit

``FIRST_CARD_KEYS`` add 3 to every suit counter, so a suit holding five or more
of the cards sets bit 3 of its counter: ``key & FLUSH_BITS`` tests for a flush
with one AND (at most 3 + 7 = 10 fits the counter). Hands without a flush are
worth ``NON_FLUSH[size][rank-key sum]``; a flush is worth ``FLUSH[mask]`` of the
flush suit's rank mask (with five or more cards of one suit among at most
seven, neither four of a kind nor a full house is possible, so the flush table
alone decides).

Strengths are the contract's encoding:
``category << 20 | r1 << 16 | r2 << 12 | r3 << 8 | r4 << 4 | r5``.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from cardroom.evaluation.table_cache import cached

# Rank keys whose sums over any multiset of exactly n ranks (n <= 7, at most four
# of a rank) are all distinct (the SKPokerEval rank keys); checked at generation.
RANK_KEYS: tuple[int, ...] = (
    0,
    1,
    5,
    22,
    98,
    453,
    2031,
    8698,
    22854,
    83661,
    262349,
    636345,
    1479181,
)

RANK_SUM_BITS = 0x7FFFFF
RANK_BITS_SHIFT = 23
RANK_BITS_MASK = 0x7FFF
SUIT_SHIFT = 40
FLUSH_BITS = 0x8888 << SUIT_SHIFT
SUIT_OFFSET = 0x3333 << SUIT_SHIFT

(HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH_CATEGORY, FULL_HOUSE, QUADS, STRAIGHT_FLUSH) = (
    range(9)
)

# Straights as (rank mask, ranks from the top card down), best first; the wheel last.
STRAIGHTS: tuple[tuple[int, tuple[int, ...]], ...] = (
    *(
        (sum(1 << r for r in range(top, top - 5, -1)), tuple(range(top, top - 5, -1)))
        for top in range(12, 3, -1)
    ),
    ((1 << 12) | 0b1111, (3, 2, 1, 0, 12)),
)


def card_key(card: int) -> int:
    """The key of one card (0..51): its rank key, rank bit and one count in its suit."""
    rank, suit = card >> 2, card & 3
    return RANK_KEYS[rank] | (1 << (RANK_BITS_SHIFT + rank)) | (1 << (SUIT_SHIFT + 4 * suit))


CARD_KEYS: tuple[int, ...] = tuple(card_key(c) for c in range(52))
"""Key of each card, indexed by card."""

FIRST_CARD_KEYS: tuple[int, ...] = tuple(k + SUIT_OFFSET for k in CARD_KEYS)
"""Key of each card plus the suit-counter offset: use it for exactly one card of a hand."""


def strength_of(category: int, ranks: tuple[int, ...]) -> int:
    """The contract's strength integer for a category and its five ranks in reading order."""
    r1, r2, r3, r4, r5 = ranks
    return category << 20 | r1 << 16 | r2 << 12 | r3 << 8 | r4 << 4 | r5


def five_card_strength(ranks: tuple[int, ...], flush: bool) -> int:
    """Strength of exactly five cards given their ranks and whether they share a suit."""
    counts = Counter(ranks)
    # Reading order: by multiplicity, then rank, both descending.
    order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    reading = tuple(r for r in order for _ in range(counts[r]))
    shape = sorted(counts.values(), reverse=True)
    if len(counts) == 5:
        mask = sum(1 << r for r in ranks)
        for straight_mask, straight_ranks in STRAIGHTS:
            if mask == straight_mask:
                category = STRAIGHT_FLUSH if flush else STRAIGHT
                return strength_of(category, straight_ranks)
        return strength_of(FLUSH_CATEGORY if flush else HIGH_CARD, reading)
    category = {
        (4, 1): QUADS,
        (3, 2): FULL_HOUSE,
        (3, 1, 1): TRIPS,
        (2, 2, 1): TWO_PAIR,
        (2, 1, 1, 1): PAIR,
    }[tuple(shape)]
    return strength_of(category, reading)


def _rank_multisets() -> dict[int, list[tuple[tuple[int, ...], int]]]:
    """Multisets of 1..7 ranks (no rank more than four times) as (sorted ranks, rank-key sum)."""
    by_size: dict[int, list[tuple[tuple[int, ...], int]]] = {
        1: [((r,), RANK_KEYS[r]) for r in range(13)]
    }
    for size in range(2, 8):
        grown = []
        for ranks, total in by_size[size - 1]:
            last = ranks[-1]
            # Grow in sorted order so each multiset appears once; a fifth copy is skipped.
            start = last + 1 if size > 4 and ranks[-4] == last else last
            for r in range(start, 13):
                grown.append(((*ranks, r), total + RANK_KEYS[r]))
        by_size[size] = grown
    return by_size


def _build_non_flush() -> dict[int, dict[int, int]]:
    """For 5, 6 and 7 cards: rank-key sum -> best strength without a flush."""
    multisets = _rank_multisets()
    five = {total: five_card_strength(ranks, flush=False) for ranks, total in multisets[5]}
    tables: dict[int, dict[int, int]] = {5: five}
    for size in (6, 7):
        smaller, table = tables[size - 1], {}
        for ranks, total in multisets[size]:
            # The best five of n cards is the best over dropping each one of them.
            table[total] = max([smaller[total - RANK_KEYS[r]] for r in set(ranks)])
        tables[size] = table
    for size, table in tables.items():
        if len(table) != len(multisets[size]):  # pragma: no cover - a wrong key set
            raise AssertionError(f"rank keys collide for {size}-card hands")
    return tables


def _build_flush() -> list[int]:
    """Rank mask (five to seven ranks of one suit) -> strength of the best flush in it."""
    table = [0] * (1 << 13)
    by_size: dict[int, list[int]] = {5: [], 6: [], 7: []}
    for mask in range(1 << 13):
        bits = mask.bit_count()
        if bits in by_size:
            by_size[bits].append(mask)
    for mask in by_size[5]:
        ranks = tuple(r for r in range(12, -1, -1) if mask >> r & 1)
        table[mask] = five_card_strength(ranks, flush=True)
    for size in (6, 7):
        for mask in by_size[size]:
            table[mask] = max(table[mask & ~(1 << r)] for r in range(13) if mask >> r & 1)
    return table


HighTables = tuple[dict[int, dict[int, int]], list[int]]
TABLE_SIZES = {5: 6175, 6: 18395, 7: 49205}
"""How many rank multisets (no rank five times) there are of 5, 6 and 7 cards."""


def build_tables() -> HighTables:
    """``(NON_FLUSH, FLUSH)`` generated from first principles."""
    return _build_non_flush(), _build_flush()


def well_formed(tables: Any) -> bool:
    """Whether a value read back from the cache has the shape of :func:`build_tables`."""
    if not (isinstance(tables, tuple) and len(tables) == 2):
        return False
    non_flush, flush = tables
    return (
        isinstance(non_flush, dict)
        and {k: len(v) for k, v in non_flush.items() if isinstance(v, dict)} == TABLE_SIZES
        and isinstance(flush, list)
        and len(flush) == 1 << 13
    )


NON_FLUSH: dict[int, dict[int, int]]
"""``NON_FLUSH[n][rank-key sum]``: best strength of n cards (5..7) that hold no flush."""

FLUSH: list[int]
"""``FLUSH[rank mask]``: best strength of a flush whose suit holds those ranks (0 below 5)."""

NON_FLUSH, FLUSH = cached("high-tables", Path(__file__), build_tables, well_formed)

FLUSH_SUIT: dict[int, int] = {0x8 << (4 * s): s for s in range(4)}
"""``(key >> SUIT_SHIFT) & 0x8888`` of a hand with a flush -> the flush suit."""


def low8_strength(rank_bits: int) -> int:
    """A-5 low 8-or-better of five cards from their rank-bit sum; 0 if no qualifying low.

    The five ranks must differ (the rank-bit sum of five cards has five bits set
    exactly when they do) and all be eight or lower, ace low. A set of distinct
    ranks compares from its highest card down, which is the order of the mask
    itself, so ``256 - mask`` (ace bit 0 .. eight bit 7) is larger for the better
    low: 256 - 0b11111 (5-4-3-2-A, the wheel) is the best.
    """
    if rank_bits.bit_count() != 5 or rank_bits & ~(0x7F | 1 << 12):
        return 0
    mask = ((rank_bits & 0x7F) << 1) | (rank_bits >> 12 & 1)
    return 256 - mask
