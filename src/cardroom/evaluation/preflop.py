"""Preflop hold'em equity over every board of the deck, from one table built once.

A board without a flush for either player is worth what its *rank multiset*
is worth: 2,598,960 boards fall into 6,175 rank classes. Heads-up, each class
is decided with two table lookups, and the number of live boards in a class
(boards avoiding every dealt card) is a product of binomials, so no board is
visited. Only boards holding three or more cards of one suit can give someone
a flush; those (disjoint lists, one per suit) are re-decided board by board.
Multiway pots use :func:`preflop_strengths`, one strength per board.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from math import comb

import numpy as np
from numpy.typing import NDArray

from cardroom.evaluation.batch import CARD_BITS, FLUSH_TABLE, KEYS, non_flush_table
from cardroom.evaluation.tables import RANK_SUM_BITS

I64 = NDArray[np.int64]
I32 = NDArray[np.int32]

_BINOMIAL = np.array([[comb(n, k) for k in range(5)] for n in range(5)], dtype=np.int64)


def combinations_array(n: int, k: int) -> NDArray[np.uint8]:
    """Every k-subset of range(n) in lexicographic order, as a (C(n, k), k) uint8 array."""
    combos = np.zeros((1, 0), dtype=np.uint8)
    for _ in range(k):
        last = combos[:, -1].astype(np.int64) if combos.shape[1] else np.full(len(combos), -1)
        counts = n - 1 - last
        rows = np.repeat(np.arange(len(combos)), counts)
        firsts = np.cumsum(counts) - counts
        nxt = last[rows] + 1 + np.arange(int(counts.sum())) - np.repeat(firsts, counts)
        combos = np.concatenate([combos[rows], nxt[:, None].astype(np.uint8)], axis=1)
    return combos


@dataclass(frozen=True)
class AllBoards:
    """Every five-card board of the full deck (2,598,960), for enumerating preflop.

    Per board: ``rank_sums``, ``bits`` (card mask, see ``CARD_BITS``), ``suit_counts``
    (4 bits a suit) and ``rank_class``; per rank class: ``class_sums`` and
    ``class_counts`` (cards of each rank). ``suited[s][k]`` lists the boards with
    at least k cards of suit s (k = 3, 4, 5), the only boards on which hole
    cards can make a flush in s.
    """

    rank_sums: I64
    bits: I64
    suit_counts: NDArray[np.int64]
    rank_class: NDArray[np.intp]
    class_sums: I64
    class_counts: NDArray[np.intp]
    suited: tuple[dict[int, NDArray[np.intp]], ...]


@cache
def all_boards() -> AllBoards:
    """The table of every board, built on first use (about a second) and kept."""
    boards = combinations_array(52, 5)
    rank_sums = KEYS[boards].sum(axis=1) & RANK_SUM_BITS
    class_sums, first, rank_class = np.unique(rank_sums, return_index=True, return_inverse=True)
    class_counts = np.zeros((len(class_sums), 13), dtype=np.intp)
    for column in (boards[first] >> 2).T:
        class_counts[np.arange(len(first)), column] += 1
    suits = boards & 3
    suit_counts = np.zeros(len(boards), dtype=np.int64)
    suited = []
    for suit in range(4):
        count = (suits == suit).sum(axis=1)
        suit_counts |= count.astype(np.int64) << (4 * suit)
        suited.append({k: np.flatnonzero(count >= k) for k in (3, 4, 5)})
    bits = CARD_BITS[boards].sum(axis=1)
    return AllBoards(
        rank_sums,
        bits,
        suit_counts,
        rank_class.reshape(-1),
        class_sums,
        class_counts,
        tuple(suited),
    )


def _hole_sum(hole: Sequence[int]) -> int:
    return int(KEYS[list(hole)].sum()) & RANK_SUM_BITS


def _flush_rows(table: AllBoards, hole: Sequence[int]) -> list[tuple[int, NDArray[np.intp]]]:
    """(suit, boards) on which ``hole`` makes a flush in that suit: five of it in seven cards."""
    suits = [c & 3 for c in hole]
    return [(s, table.suited[s][5 - suits.count(s)]) for s in range(4)]


def preflop_strengths(table: AllBoards, hole: Sequence[int]) -> I32:
    """Seven-card strength of ``hole`` with every board of the deck (spoiled boards too)."""
    out: I32 = non_flush_table(7)[table.rank_sums + _hole_sum(hole)]
    hole_bits = int(CARD_BITS[list(hole)].sum())
    for suit, rows in _flush_rows(table, hole):
        out[rows] = FLUSH_TABLE[((table.bits[rows] | hole_bits) >> (16 * suit)) & 0x1FFF]
    return out


def _strengths_on(table: AllBoards, rows: NDArray[np.intp], hole: Sequence[int]) -> I32:
    """Seven-card strength of ``hole`` with the boards ``rows`` only."""
    out: I32 = non_flush_table(7)[table.rank_sums[rows] + _hole_sum(hole)]
    hole_bits = int(CARD_BITS[list(hole)].sum())
    counts = table.suit_counts[rows]
    for suit in range(4):
        in_hole = sum(1 for c in hole if c & 3 == suit)
        flush = np.flatnonzero(((counts >> (4 * suit)) & 15) + in_hole >= 5)
        ranks = ((table.bits[rows[flush]] | hole_bits) >> (16 * suit)) & 0x1FFF
        out[flush] = FLUSH_TABLE[ranks]
    return out


def heads_up_preflop(
    table: AllBoards, first: Sequence[int], second: Sequence[int], out_of_deck: Sequence[int]
) -> tuple[int, int, int]:
    """Boards (first wins, second wins, split) over every board of the cards left.

    ``out_of_deck`` holds both hands and any dead cards.
    """
    gone = np.bincount(np.asarray(out_of_deck, dtype=np.intp) >> 2, minlength=13)
    # Live boards of each rank class: choose each rank's cards among those left.
    live = _BINOMIAL[4 - gone[None, :], table.class_counts].prod(axis=1)
    nf = non_flush_table(7)
    sign = np.sign(
        nf[table.class_sums + _hole_sum(first)].astype(np.int64)
        - nf[table.class_sums + _hole_sum(second)]
    )
    counts = np.array([live[sign > 0].sum(), live[sign < 0].sum(), live[sign == 0].sum()])
    # Re-decide the boards on which either hand may hold a flush (disjoint by suit).
    need = [5 - max(sum(1 for c in h if c & 3 == s) for h in (first, second)) for s in range(4)]
    rows = np.concatenate([table.suited[s][need[s]] for s in range(4)])
    rows = rows[(table.bits[rows] & int(CARD_BITS[list(out_of_deck)].sum())) == 0]
    was = sign[table.rank_class[rows]]
    now = np.sign(
        _strengths_on(table, rows, first).astype(np.int64) - _strengths_on(table, rows, second)
    )
    for i, outcome in enumerate((1, -1, 0)):
        counts[i] += int(np.count_nonzero(now == outcome)) - int(np.count_nonzero(was == outcome))
    return int(counts[0]), int(counts[1]), int(counts[2])
