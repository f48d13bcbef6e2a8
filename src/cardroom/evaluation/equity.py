"""All-in equity: each player's expected share of the pot over the boards still to come.

Exact by enumerating every board, or Monte Carlo from a seeded generator (the
same seed gives the same answer). Hold'em adds the hole cards' key to each
board's key (the key of hole cards plus board is the sum of the two, see
:mod:`.tables`). Preflop uses a table of every board of the deck, built once
(:mod:`.preflop`): heads-up decides each of the 6,175 board rank classes once
and re-decides only the boards that can hold a flush. Omaha (4 or 5 hole
cards, exactly two used) is high or high-low 8-or-better: with a qualifying
low the pot halves, each half split among its tied winners.

>>> from cardroom.cards import parse_cards
>>> e = equity([parse_cards("As Ad"), parse_cards("Kc Kd")])
>>> e.boards, e.exact, round(e.shares[0], 4)
(1712304, True, 0.8195)
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from math import comb

import numpy as np
from numpy.typing import NDArray

from cardroom.cards import parse_cards
from cardroom.evaluation.batch import (
    CARD_BITS,
    FLUSH_TABLE,
    KEYS,
    non_flush_table,
    omaha_high_from_keys,
    omaha_low8_from_keys,
)
from cardroom.evaluation.hand_value import EvaluationError
from cardroom.evaluation.preflop import (
    all_boards,
    combinations_array,
    heads_up_preflop,
    preflop_strengths,
)
from cardroom.evaluation.tables import FLUSH_BITS, RANK_SUM_BITS, SUIT_OFFSET, SUIT_SHIFT

Progress = Callable[[int, int], None]
I64 = NDArray[np.int64]
I32 = NDArray[np.int32]

GAMES = {"holdem": (2,), "omaha": (4, 5), "omaha_hi_lo": (4, 5)}
"""Games with equity, and the hole-card counts each allows."""

EXACT_BUDGET = 30_000_000
"""``exact=None`` enumerates when boards x players x five-card hands per board is at most this."""

BLOCK = 1 << 16  # boards per block (hold'em); Omaha blocks hold as many five-card hands


@dataclass(frozen=True, slots=True)
class Equity:
    """Equity of each player, in the order the hands were given."""

    shares: tuple[float, ...]  # expected fraction of the pot; sums to 1
    scoops: tuple[int, ...]  # boards on which the player wins the whole pot alone
    splits: tuple[int, ...]  # boards on which the player gets part of the pot, not all
    boards: int  # boards counted: every board (exact) or the samples
    exact: bool


def stderr_progress(label: str = "equity") -> Progress:
    """A progress callback: a percentage on stderr, shown once a run takes over half a second."""
    started = time.monotonic()
    shown = [-1]  # the last percentage printed

    def show(done: int, total: int) -> None:
        percent = 100 * done // max(total, 1)
        if percent == shown[0] or time.monotonic() - started < 0.5:
            return
        shown[0] = percent
        end = "\n" if done >= total else ""
        print(f"\r{label}: {percent}% of {total:,} boards", end=end, file=sys.stderr)

    return show


def holdem_strengths(board_keys: I64, board_bits: I64, hole: Sequence[int]) -> I32:
    """Seven-card strength of ``hole`` with each board (given by key and card mask)."""
    keys = board_keys + (int(KEYS[list(hole)].sum()) + SUIT_OFFSET)
    out: I32 = non_flush_table(7)[keys & RANK_SUM_BITS]
    rows = np.flatnonzero((keys & FLUSH_BITS).astype(bool))
    if rows.size:
        counters = (keys[rows] >> SUIT_SHIFT) & 0x8888
        suit = (counters > 0x8).astype(np.int64) + (counters > 0x80) + (counters > 0x800)
        cards = board_bits[rows] | int(CARD_BITS[list(hole)].sum())
        out[rows] = FLUSH_TABLE[(cards >> (16 * suit)) & 0x1FFF]
    return out


def _omaha_strengths(boards: NDArray[np.uint8], hole: Sequence[int], low: bool) -> I32:
    """Omaha high (or 8-or-better low) strength of ``hole`` with each board (B, 5)."""
    keys = KEYS[np.asarray(hole, dtype=np.intp)]
    pairs = np.array([keys[i] + keys[j] for i in range(len(hole)) for j in range(i + 1, len(hole))])
    board_keys = KEYS[boards]
    triples = np.stack(
        [board_keys[:, i] + board_keys[:, j] + board_keys[:, m] for i, j, m in _TRIPLES], axis=1
    )
    five = triples[:, None, :] + (pairs + SUIT_OFFSET)[None, :, None]
    return omaha_low8_from_keys(five) if low else omaha_high_from_keys(five)


_TRIPLES = [tuple(int(x) for x in t) for t in combinations_array(5, 3)]


class _Tally:
    """Running counts over blocks of boards, kept as integers until the end.

    ``parts[p, j, k]`` counts boards on which player p wins part j of the pot
    (0: the whole pot, no qualifying low; 1: the high half; 2: the low half)
    tied with k - 1 others.
    """

    def __init__(self, players: int) -> None:
        self.parts = np.zeros((players, 3, players + 1), dtype=np.int64)
        self.scoops = np.zeros(players, dtype=np.int64)
        self.splits = np.zeros(players, dtype=np.int64)

    def add(self, high: list[I32], low: list[I32] | None) -> None:
        """Count one block: each player's strengths with the same boards."""
        if low is None and len(high) == 2:
            difference = high[0] - high[1]
            won = int(np.count_nonzero(difference > 0)), int(np.count_nonzero(difference < 0))
            self.add_heads_up(won, len(difference) - won[0] - won[1])
            return
        strengths = np.stack(high)
        high_winners = strengths == strengths.max(axis=0)
        high_count = high_winners.sum(axis=0)
        if low is None:
            has_low = np.zeros(strengths.shape[1], dtype=bool)
            low_winners = np.zeros_like(high_winners)
            low_count = np.zeros_like(high_count)
        else:
            lows = np.stack(low)
            best_low = lows.max(axis=0)
            has_low = best_low > 0
            low_winners = (lows == best_low) & has_low
            low_count = low_winners.sum(axis=0)
        for k in range(1, len(high) + 1):
            tied = high_count == k
            self.parts[:, 0, k] += (high_winners & (tied & ~has_low)).sum(axis=1)
            self.parts[:, 1, k] += (high_winners & (tied & has_low)).sum(axis=1)
            self.parts[:, 2, k] += (low_winners & (low_count == k)).sum(axis=1)
        alone = high_winners & (high_count == 1) & (~has_low | (low_winners & (low_count == 1)))
        self.scoops += alone.sum(axis=1)
        self.splits += ((high_winners | low_winners) & ~alone).sum(axis=1)

    def add_live(self, high: list[I32], spoiled: NDArray[np.bool_], live_count: int) -> None:
        """Count the boards not ``spoiled`` (high only): a spoiled board holds a dealt card."""
        if len(high) == 2:
            difference = high[0] - high[1]
            np.putmask(difference, spoiled, 0)  # a spoiled board is neither a win nor a tie
            first = int(np.count_nonzero(difference > 0))
            second = int(np.count_nonzero(difference)) - first
            self.add_heads_up((first, second), live_count - first - second)
        else:
            rows = np.flatnonzero(~spoiled)
            self.add([h[rows] for h in high], None)

    def add_heads_up(self, won: tuple[int, int], tied: int) -> None:
        """Two players, high only: boards won by each and boards split."""
        for p in (0, 1):
            self.parts[p, 0, 1] += won[p]
            self.parts[p, 0, 2] += tied
            self.scoops[p] += won[p]
            self.splits[p] += tied

    def result(self, boards: int, exact: bool) -> Equity:
        """The equity of the boards counted so far."""
        ties = np.arange(self.parts.shape[2], dtype=np.float64)
        ties[0] = 1.0  # column 0 is always empty
        weights = np.array([1.0, 0.5, 0.5])[:, None] / ties[None, :]
        shares = (self.parts * weights).sum(axis=(1, 2)) / boards
        return Equity(
            shares=tuple(float(x) for x in shares),
            scoops=tuple(int(x) for x in self.scoops),
            splits=tuple(int(x) for x in self.splits),
            boards=boards,
            exact=exact,
        )


def equity(
    hands: Sequence[Sequence[int] | str],
    board: Sequence[int] | str = (),
    game: str = "holdem",
    *,
    dead: Sequence[int] | str = (),
    exact: bool | None = None,
    samples: int = 200_000,
    seed: int | None = None,
    progress: Progress | bool | None = None,
) -> Equity:
    """Equity of each hand (hole cards, as cards or text like ``"As Kd"``) all in.

    ``game`` is ``holdem``, ``omaha`` or ``omaha_hi_lo`` (the engine's game names);
    ``board`` holds 0 to 5 cards dealt already and ``dead`` cards known to be out of play. With
    ``exact=None`` every board is counted when that is quick enough, else
    ``samples`` random boards from ``seed``. ``progress`` is a callback
    ``(boards done, boards total)`` or ``True`` for a percentage on stderr.
    Bad input raises :class:`EvaluationError`.
    """
    holes, known, out = _checked(hands, board, dead, game)
    deck = np.array([c for c in range(52) if c not in set(out)], dtype=np.uint8)
    need = 5 - len(known)
    total = comb(len(deck), need)
    per_board = len(holes) * (1 if game == "holdem" else comb(len(holes[0]), 2) * 10)
    if exact is None:
        exact = total * per_board <= EXACT_BUDGET
    if not exact and samples < 1:
        raise EvaluationError(f"samples must be at least 1, got {samples}")
    report = stderr_progress() if progress is True else (progress or None)
    tally = _Tally(len(holes))
    counted = total if exact else samples
    block = BLOCK if game == "holdem" else max(1, BLOCK // per_board)
    if exact and game == "holdem" and need == 5:
        table = all_boards()
        if len(holes) == 2:
            first, second, split = heads_up_preflop(table, holes[0], holes[1], out)
            tally.add_heads_up((first, second), split)
        else:
            spoiled = (table.bits & int(CARD_BITS[list(out)].sum())) != 0
            tally.add_live([preflop_strengths(table, h) for h in holes], spoiled, total)
        if report:
            report(total, total)
        return tally.result(total, exact=True)
    rng = np.random.default_rng(seed)
    combos = combinations_array(len(deck), need) if exact else None
    for start in range(0, counted, block):
        size = min(block, counted - start)
        picks: NDArray[np.integer]
        if combos is not None:
            picks = combos[start : start + size]
        else:
            picks = np.argpartition(rng.random((size, len(deck))), need - 1, axis=1)[:, :need]
        boards = np.concatenate(
            [np.tile(np.array(known, dtype=np.uint8), (size, 1)), deck[picks]], 1
        )
        tally.add(*_block_strengths(game, holes, boards))
        if report:
            report(start + size, counted)
    return tally.result(counted, exact)


def _block_strengths(
    game: str, holes: list[tuple[int, ...]], boards: NDArray[np.uint8]
) -> tuple[list[I32], list[I32] | None]:
    """High strengths (and lows for hi-lo) of every hole-card set with each board."""
    if game == "holdem":
        keys, bits = KEYS[boards].sum(axis=1), CARD_BITS[boards].sum(axis=1)
        return [holdem_strengths(keys, bits, h) for h in holes], None
    high = [_omaha_strengths(boards, h, low=False) for h in holes]
    low = [_omaha_strengths(boards, h, low=True) for h in holes] if game == "omaha_hi_lo" else None
    return high, low


def _cards(cards: Sequence[int] | str) -> tuple[int, ...]:
    if isinstance(cards, str):
        try:
            return tuple(int(c) for c in parse_cards(cards, allow_duplicates=True))
        except ValueError as error:
            raise EvaluationError(str(error)) from None
    for c in cards:
        if isinstance(c, bool) or not isinstance(c, int | np.integer) or not 0 <= c < 52:
            raise EvaluationError(f"{c!r} is not a card")
    return tuple(int(c) for c in cards)


def _checked(
    hands: Sequence[Sequence[int] | str],
    board: Sequence[int] | str,
    dead: Sequence[int] | str,
    game: str,
) -> tuple[list[tuple[int, ...]], tuple[int, ...], tuple[int, ...]]:
    """Hole cards, board and every card out of the deck; ``EvaluationError`` if inconsistent."""
    if game not in GAMES:
        raise EvaluationError(f"no equity for game {game!r}; games: {', '.join(GAMES)}")
    holes = [_cards(h) for h in hands]
    known, gone = _cards(board), _cards(dead)
    if len(holes) < 2:
        raise EvaluationError(f"equity needs at least two hands, got {len(holes)}")
    for hole in holes:
        if len(hole) not in GAMES[game]:
            wanted = " or ".join(map(str, GAMES[game]))
            raise EvaluationError(f"{game} hole cards are {wanted} cards, got {len(hole)}")
    if len(known) > 5:
        raise EvaluationError(f"a board has at most 5 cards, got {len(known)}")
    out = tuple(c for h in holes for c in h) + known + gone
    if len(set(out)) != len(out):
        repeated = sorted({c for c in out if out.count(c) > 1})
        raise EvaluationError(f"cards appear more than once: {repeated}")
    if 52 - len(out) < 5 - len(known):
        raise EvaluationError("not enough cards left to complete the board")
    return holes, known, out
