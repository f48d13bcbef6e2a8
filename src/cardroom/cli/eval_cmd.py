"""``cardroom eval``: name a hand, or rank many hands read from standard input.

One hand: ``cardroom eval --game holdem --board "Ks 7d 7h 2c 9s" "Kh Kd"`` prints
its name. With ``--stdin`` every input line is ``HOLE | BOARD`` (the board part
optional) and every output line one JSON object::

    {"category": "Full House", "name": "Full House, Kings over Sevens",
     "cards": ["Kh", "Kd", "Ks", "7d", "7h"], "rank": 7060309}

``rank`` orders hands of the same game: larger is better, equal is a tie.
Hi-Lo games (omaha_hi_lo, stud_hi_lo, courchevel_hi_lo) print
``{"high": {...}, "low": {...}}`` with ``"low": null`` when no 8-or-better low
qualifies. A bad line prints ``{"line": N, "error": "..."}`` and the run goes
on; the exit code is then 1. A bad hand on the command line exits 2.

Games are the engine's (``cardroom play --help``) plus ``short_deck_trips``
(trips beat a straight) and ``front3`` (a Chinese poker top row); aliases such
as ``omaha-hilo``, ``shortdeck``, ``27`` and ``a5`` are accepted.
"""

from __future__ import annotations

import argparse
import io
import json
import re
import sys
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, TextIO

from cardroom.cli.errors import UsageError
from cardroom.cli.names import game_name
from cardroom.words import clipped

if TYPE_CHECKING:
    from cardroom.evaluation import Evaluator, HandValue
    from cardroom.games import Variant

EXTRA_GAMES: dict[str, str] = {
    "short_deck_trips": "short_deck",  # a table option of short_deck, ranked its own way
    "front3": "",  # the three-card top row of Chinese poker: not a game of the engine
}
"""Names ``eval`` knows beyond the engine's games -> the game it is a form of."""


@dataclass(frozen=True, slots=True)
class EvalGame:
    """How the command ranks one game: its halves and how many hole and board cards it takes."""

    high: Evaluator
    low: Evaluator | None = None  # a Hi-Lo game's 8-or-better half
    hole: tuple[int, int] | None = None  # allowed hole-card counts, when the game fixes them
    board: tuple[int, int] = (0, 0)


def _from_variant(variant: Variant, high: str | None = None) -> EvalGame:
    """The ranking rules of an engine game: its evaluators and card counts."""
    from cardroom.evaluation import get_evaluator

    low = get_evaluator(variant.low) if variant.low else None
    n = variant.hole_cards
    if variant.board_cards:
        hole, board = (n, n), (3, 5)
    elif variant.stud is not None:  # a stud hand is ranked from five cards up
        hole, board = (min(5, n), n), (0, 0)
    else:
        hole, board = (n, n), (0, 0)
    return EvalGame(get_evaluator(high or variant.high), low, hole, board)


@cache
def games() -> dict[str, EvalGame]:
    """Every game ``eval`` ranks, by the engine's name."""
    from cardroom.evaluation import get_evaluator
    from cardroom.games import VARIANTS

    table = {name: _from_variant(v) for name, v in VARIANTS.items()}
    table["short_deck_trips"] = _from_variant(VARIANTS["short_deck"], "short_deck_trips")
    table["front3"] = EvalGame(get_evaluator("front3"), None, (3, 3))
    return table


def game_names() -> tuple[str, ...]:
    """The names ``--game`` takes, without building any evaluator."""
    from cardroom.games import VARIANTS

    return (*VARIANTS, *EXTRA_GAMES)


def register(subparsers: Any) -> None:
    """Add the ``eval`` subcommand."""
    p = subparsers.add_parser(
        "eval",
        help="name a poker hand, or rank hands from stdin as JSON lines",
        description=(__doc__ or "").replace("``", ""),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    names = game_names()
    p.add_argument(
        "--game", required=True, type=game_name(names), metavar="GAME",
        help=f"which game's rules: {', '.join(names)}",
    )  # fmt: skip
    p.add_argument("--board", default="", help='board cards, e.g. "Ks 7d 7h 2c 9s"')
    p.add_argument("--stdin", action="store_true", help="read 'HOLE | BOARD' lines, print JSON")
    p.add_argument("cards", nargs="?", default="", help='the hand (hole cards), e.g. "Kh Kd"')
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Name one hand, or rank every line of standard input."""
    game = games()[args.game]
    if args.stdin:
        if isinstance(sys.stdin, io.TextIOWrapper):
            # Bytes that are not UTF-8 reach rank_lines as lone surrogates, one bad line,
            # as under the C locale, instead of stopping the loop (strict in other locales).
            sys.stdin.reconfigure(errors="surrogateescape")
        return rank_lines(game, sys.stdin, sys.stdout)
    try:
        high_value, low_value = evaluate(game, args.cards, args.board)
    except ValueError as exc:
        raise UsageError(clipped(exc)) from None
    assert high_value is not None  # every hand has a high (or a low-only game's) value
    if game.low is None:
        print(high_value.name)
    else:
        print(f"high: {high_value.name}")
        print(f"low: {low_value.name if low_value else 'none (no 8-or-better low)'}")
    return 0


def evaluate(game: EvalGame, hole_text: str, board_text: str) -> tuple[HandValue | None, ...]:
    """Parse and rank one hand: (high or only value, low value or None)."""
    from cardroom.cards import parse_cards

    hole, board = parse_cards(hole_text), parse_cards(board_text)
    if set(hole) & set(board):
        raise ValueError(f"card {min(set(hole) & set(board))} is both in the hand and on the board")
    if not hole:
        raise ValueError("no cards given")
    if game.hole and not game.hole[0] <= len(hole) <= game.hole[1]:
        lo, hi = game.hole
        wanted = str(lo) if lo == hi else f"{lo} to {hi}"
        raise ValueError(f"this game takes {wanted} hole cards, got {len(hole)}")
    if board and game.board == (0, 0):
        raise ValueError("this game has no board: give every card as the hand")
    if board and not game.board[0] <= len(board) <= game.board[1]:
        raise ValueError(f"a board has {game.board[0]} to {game.board[1]} cards, got {len(board)}")
    if game.board != (0, 0) and not board:
        raise ValueError("this game needs a board (--board, or 'HOLE | BOARD' on stdin)")
    low = game.low(hole, board) if game.low else None
    return game.high(hole, board), low


def as_json(value: HandValue | None) -> dict[str, Any] | None:
    """The JSON object of one hand value (None stays None)."""
    if value is None:
        return None
    return {
        "category": value.category,
        "name": value.name,
        "cards": [str(c) for c in value.cards],
        "rank": value.strength,
    }


_NOT_UTF8 = re.compile("[\udc80-\udcff]")
"""The lone surrogates a ``surrogateescape`` reader puts for bytes that are not UTF-8."""


def rank_lines(game: EvalGame, lines: TextIO, out: TextIO) -> int:
    """Rank each ``HOLE | BOARD`` line; one JSON line out per line in (blank lines skipped)."""
    failed = False
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        hole_text, _, board_text = line.partition("|")
        try:
            if _NOT_UTF8.search(line):
                raise ValueError(f"line {number} is not UTF-8 text")
            high_value, low_value = evaluate(game, hole_text, board_text)
            record = (
                as_json(high_value)
                if game.low is None
                else {"high": as_json(high_value), "low": as_json(low_value)}
            )
        except ValueError as exc:
            failed = True
            record = {"line": number, "error": clipped(exc)}
        out.write(json.dumps(record) + "\n")
    return 1 if failed else 0
