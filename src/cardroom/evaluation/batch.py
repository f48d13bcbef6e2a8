"""Batch standard-high evaluation with numpy: arrays of card indexes in, strengths out.

The same tables as :mod:`cardroom.evaluation.fast` (see :mod:`.tables`), laid
out as numpy arrays. A hand's key is gathered two cards at a time from a table
of card pairs (reading each pair of ``uint8`` cards as one ``uint16``), summed,
and looked up once; the few hands holding a flush are finished separately.
Work proceeds in cache-sized blocks, on two threads for large inputs when a
core is idle (numpy releases the GIL inside its loops).

Every function takes integer arrays of cards 0..51 (any integer dtype; ``uint8``
avoids a copy) and returns ``int32`` strengths in the contract's encoding.
Cards outside 0..51 raise :class:`EvaluationError` (a ``ValueError``); cards
are assumed distinct within a hand (not checked: the dealer guarantees it).

>>> import numpy as np
>>> from cardroom.cards import parse_cards
>>> hands = np.array([parse_cards("As Ks Qs Js Ts 2c 2d"), parse_cards("Ah Ad Kc Ks 2h 3d 9c")])
>>> [int(s) >> 20 for s in high_batch(hands)]   # straight flush, two pair
[8, 2]
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from itertools import combinations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from cardroom.evaluation.hand_value import EvaluationError
from cardroom.evaluation.tables import (
    CARD_KEYS,
    FLUSH,
    FLUSH_BITS,
    NON_FLUSH,
    RANK_BITS_MASK,
    RANK_BITS_SHIFT,
    RANK_KEYS,
    RANK_SUM_BITS,
    SUIT_OFFSET,
    SUIT_SHIFT,
    low8_strength,
)

I32 = NDArray[np.int32]
I64 = NDArray[np.int64]

BLOCK = 1 << 16  # hands per block: fewer numpy calls, temporaries still fit the L2 cache
THREAD_MIN = 1 << 17  # below this many hands one thread is faster

KEYS = np.array(CARD_KEYS, dtype=np.int64)
"""Key of each card (see :mod:`.tables`), as an int64 array."""

_SINGLE = np.zeros(256, dtype=np.int64)
_SINGLE[:52] = KEYS
_PAIR = np.zeros(1 << 16, dtype=np.int64)
# A pair of uint8 cards (a, b) read as a little-endian uint16 is a + 256 * b.
_PAIR.reshape(256, 256)[:52, :52] = KEYS[None, :] + KEYS[:, None]
_PAIR_FIRST = _PAIR + SUIT_OFFSET  # the first pair of a hand carries the suit offset

FLUSH_TABLE = np.zeros(1 << 15, dtype=np.int32)
"""Strength of a flush by its rank mask, padded to any rank-bit sum (bits 23..37 of a key)."""
FLUSH_TABLE[: len(FLUSH)] = FLUSH

CARD_BITS = np.array([1 << (16 * (c & 3) + (c >> 2)) for c in range(52)], dtype=np.int64)
"""Each card's bit in a 64-bit card mask: 16 bits a suit, so a suit's ranks are one shift away."""

# The flush bit of a suit's counter, moved down to bit 4 * suit -> the shift to that suit's ranks.
_FLUSH_SHIFT = np.zeros(0x1001, dtype=np.int64)
_FLUSH_SHIFT[[1 << (4 * s) for s in range(4)]] = [16 * s for s in range(4)]

LOW8_TABLE = np.array([low8_strength(bits) for bits in range(1 << 15)], dtype=np.int32)
"""A-5 low 8-or-better of five cards by their rank-bit sum: 256 - low mask, 0 if none."""


@cache
def non_flush_table(size: int) -> I32:
    """``NON_FLUSH[size]`` as a dense int32 array indexed by rank-key sum (built on first use).

    Sized for any sum of ``size`` rank keys, so a hand that repeats a card (a dead
    board in an enumeration) reads a harmless zero instead of failing.
    """
    table = NON_FLUSH[size]
    out: I32 = np.zeros(size * max(RANK_KEYS) + 1, dtype=np.int32)
    out[np.fromiter(table.keys(), dtype=np.int64)] = np.fromiter(table.values(), dtype=np.int32)
    return out


def as_cards(cards: ArrayLike, width: int | tuple[int, ...] | None = None) -> NDArray[np.uint8]:
    """A C-contiguous ``uint8`` (n, width) copy or view of ``cards``; ``ValueError`` if invalid."""
    arr = np.asarray(cards)
    if arr.ndim == 1 and arr.size and width is not None:
        arr = arr.reshape(1, -1)
    if arr.ndim != 2:
        raise EvaluationError(f"expected a 2-d array of hands (n, cards), not shape {arr.shape}")
    allowed = (width,) if isinstance(width, int) else width
    if allowed is not None and arr.shape[1] not in allowed:
        counts = " or ".join(map(str, allowed))
        raise EvaluationError(f"expected {counts} cards a hand, got {arr.shape[1]}")
    if not np.issubdtype(arr.dtype, np.integer):
        raise EvaluationError(f"cards must be integers 0..51, got dtype {arr.dtype}")
    if arr.size and (int(arr.min()) < 0 or int(arr.max()) > 51):
        raise EvaluationError("cards must be integers 0..51")
    return np.ascontiguousarray(arr, dtype=np.uint8)


def _flush_rows(block: NDArray[np.uint8], keys: I64, rows: NDArray[np.intp]) -> I32:
    """Strengths of the hands ``rows`` of ``block``, each known to hold a flush."""
    cards = CARD_BITS[block[rows]].sum(axis=1)  # distinct cards: the sum is their mask
    shift = _FLUSH_SHIFT[(keys[rows] >> (SUIT_SHIFT + 3)) & 0x1111]
    result: I32 = FLUSH_TABLE[(cards >> shift) & 0x1FFF]
    return result


def _high_block(block: NDArray[np.uint8], out: I32, keys: I64, scratch: I64) -> None:
    """Evaluate one block of hands (n, 5..7) into ``out``, using the two key buffers."""
    m, width = block.shape
    flat = block.reshape(-1)
    for pair in range(width // 2):
        view = np.ndarray((m,), np.uint16, buffer=flat, offset=2 * pair, strides=(width,))
        if pair == 0:
            np.take(_PAIR_FIRST, view, out=keys)
        else:
            np.take(_PAIR, view, out=scratch)
            keys += scratch
    if width % 2:
        np.take(_SINGLE, flat[width - 1 :: width], out=scratch)
        keys += scratch
    np.bitwise_and(keys, FLUSH_BITS, out=scratch)
    rows = np.flatnonzero(scratch.astype(bool))
    np.bitwise_and(keys, RANK_SUM_BITS, out=scratch)
    np.take(non_flush_table(width), scratch, out=out)
    if rows.size:
        if width == 5:
            out[rows] = FLUSH_TABLE[(keys[rows] >> RANK_BITS_SHIFT) & RANK_BITS_MASK]
        else:
            out[rows] = _flush_rows(block, keys, rows)


def default_threads() -> int:
    """Two threads when the machine has a core to spare (by its load average), else one.

    On a busy machine a second thread only contends for the same core.
    """
    cores = os.cpu_count() or 1
    try:
        idle = cores - os.getloadavg()[0]
    except OSError:  # pragma: no cover - no load average on this platform
        idle = 0.0
    return 2 if cores >= 2 and idle >= 1.0 else 1


def _run_blocks(
    n: int, work: Callable[[int, int], None], threads: int | None, block: int = BLOCK
) -> None:
    """Call ``work(start, stop)`` over blocks of ``range(n)``, on threads for large ``n``."""
    if threads is None:
        threads = default_threads() if n >= THREAD_MIN else 1
    if threads <= 1:
        for start in range(0, n, block):
            work(start, min(n, start + block))
        return
    share = -(-n // threads)

    def part(i: int) -> None:
        for start in range(i * share, min(n, (i + 1) * share), block):
            work(start, min(n, (i + 1) * share, start + block))

    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(part, range(threads)))


def high_batch(cards: ArrayLike, threads: int | None = None) -> I32:
    """Strengths of n hands of 5, 6 or 7 cards each (shape (n, 5..7)): best five, standard high.

    ``threads`` defaults to :func:`default_threads` for large inputs; the result never
    depends on it.
    """
    hands = as_cards(cards, (5, 6, 7))
    n, width = hands.shape
    out = np.empty(n, dtype=np.int32)
    non_flush_table(width)  # build before the threads start

    def work(start: int, stop: int) -> None:
        size = stop - start
        keys = np.empty(size, dtype=np.int64)
        scratch = np.empty(size, dtype=np.int64)
        _high_block(hands[start:stop], out[start:stop], keys, scratch)

    _run_blocks(n, work, threads, BLOCK)
    return out


def _combo_keys(cards: NDArray[np.uint8], take: int, offset: int = 0) -> I64:
    """Keys of every ``take``-subset of each row's cards: shape (n, C(width, take))."""
    keys = KEYS[cards]
    subsets = list(combinations(range(cards.shape[1]), take))
    out = np.zeros((cards.shape[0], len(subsets)), dtype=np.int64) + offset
    for j, subset in enumerate(subsets):
        for i in subset:
            out[:, j] += keys[:, i]
    return out


def omaha_keys(hole: NDArray[np.uint8], board: NDArray[np.uint8]) -> I64:
    """Keys of every five-card Omaha hand (2 of the hole cards, 3 of the board): (n, P, T)."""
    pairs = _combo_keys(hole, 2, SUIT_OFFSET)
    triples = _combo_keys(board, 3)
    return pairs[:, :, None] + triples[:, None, :]


def omaha_high_from_keys(keys: I64) -> I32:
    """Best five-card high strength of each row of Omaha hand keys (n, P, T) -> (n,)."""
    strengths = non_flush_table(5)[keys & RANK_SUM_BITS]
    flush = np.flatnonzero((keys & FLUSH_BITS).astype(bool).reshape(-1))
    if flush.size:
        rank_bits = (keys.reshape(-1)[flush] >> RANK_BITS_SHIFT) & RANK_BITS_MASK
        strengths.reshape(-1)[flush] = FLUSH_TABLE[rank_bits]
    result: I32 = strengths.reshape(len(keys), -1).max(axis=1)
    return result


def omaha_low8_from_keys(keys: I64) -> I32:
    """Best A-5 8-or-better low of each row of Omaha hand keys (n, P, T); 0 = no low."""
    lows = LOW8_TABLE[(keys >> RANK_BITS_SHIFT) & RANK_BITS_MASK]
    result: I32 = lows.reshape(len(keys), -1).max(axis=1)
    return result


def _omaha(hole: ArrayLike, board: ArrayLike, finish: Callable[[I64], I32]) -> I32:
    holes = as_cards(hole, (4, 5))
    boards = as_cards(board, 5)
    if len(holes) != len(boards):
        raise EvaluationError(f"{len(holes)} hole-card rows but {len(boards)} boards")
    out = np.empty(len(holes), dtype=np.int32)
    non_flush_table(5)
    block = BLOCK // 32  # each hand has 60 or 100 five-card hands

    def work(start: int, stop: int) -> None:
        out[start:stop] = finish(omaha_keys(holes[start:stop], boards[start:stop]))

    _run_blocks(len(holes), work, None, block)
    return out


def omaha_high_batch(hole: ArrayLike, board: ArrayLike) -> I32:
    """Omaha high strengths: exactly two of 4 or 5 hole cards (n, 4|5) and three of (n, 5) board."""
    return _omaha(hole, board, omaha_high_from_keys)


def omaha_low8_batch(hole: ArrayLike, board: ArrayLike) -> I32:
    """Omaha A-5 8-or-better low: larger is better (256 - low mask, ace bit 0), 0 if no low.

    The encoding orders lows only; the named value comes from ``omaha_low``.
    """
    return _omaha(hole, board, omaha_low8_from_keys)
