"""``cardroom eval``: name a hand, or rank many hands read from standard input.

One hand: ``cardroom eval --game holdem --board "Ks 7d 7h 2c 9s" "Kh Kd"`` prints
its name. With ``--stdin`` every input line is ``HOLE | BOARD`` (the board part
optional) and every output line one JSON object::

    {"category": "Full House", "name": "Full House, Kings over Sevens",
     "cards": ["Kh", "Kd", "Ks", "7d", "7h"], "rank": 7060309}

``rank`` orders hands of the same game: larger is better, equal is a tie.
Hi-Lo games (omaha-hilo, stud-hilo) print ``{"high": {...}, "low": {...}}``
with ``"low": null`` when no 8-or-better low qualifies. A bad line prints
``{"line": N, "error": "..."}`` and the run goes on; the exit code is then 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from typing import Any, TextIO

from cardroom.cards import parse_cards
from cardroom.evaluation import Evaluator, HandValue, get_evaluator


@dataclass(frozen=True, slots=True)
class EvalGame:
    """How the command ranks one game: its halves and how many hole and board cards it takes."""

    high: Evaluator
    low: Evaluator | None = None  # a Hi-Lo game's 8-or-better half
    hole: tuple[int, int] | None = None  # allowed hole-card counts, when the game fixes them
    board: tuple[int, int] = (0, 5)


def _game(
    high: str,
    low: str | None = None,
    hole: tuple[int, int] | None = None,
    board: tuple[int, int] = (0, 5),
) -> EvalGame:
    return EvalGame(get_evaluator(high), get_evaluator(low) if low else None, hole, board)


FLOP = ((2, 2), (3, 5))  # hole and board card counts of Hold'em and Short Deck
OMAHA = ((4, 5), (3, 5))  # Omaha and PLO5
GAMES: dict[str, EvalGame] = {
    "holdem": _game("high", None, *FLOP),
    "shortdeck": _game("short_deck", None, *FLOP),
    "shortdeck-trips": _game("short_deck_trips", None, *FLOP),
    "omaha": _game("omaha_high", None, *OMAHA),
    "omaha-hilo": _game("omaha_high", "omaha_low8", *OMAHA),
    "stud": _game("high"),
    "stud-hilo": _game("high", "a5_low8"),
    "razz": _game("a5_low"),
    "soko": _game("soko"),
    "27": _game("27_low"),
    "a5": _game("a5_low"),
    "badugi": _game("badugi"),
    "front3": _game("front3"),
}


def register(subparsers: Any) -> None:
    """Add the ``eval`` subcommand."""
    p = subparsers.add_parser(
        "eval",
        help="name a poker hand, or rank hands from stdin as JSON lines",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--game", required=True, choices=sorted(GAMES), help="which game's rules")
    p.add_argument("--board", default="", help='board cards, e.g. "Ks 7d 7h 2c 9s"')
    p.add_argument("--stdin", action="store_true", help="read 'HOLE | BOARD' lines, print JSON")
    p.add_argument("cards", nargs="?", default="", help='the hand (hole cards), e.g. "Kh Kd"')
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Name one hand, or rank every line of standard input."""
    game = GAMES[args.game]
    if args.stdin:
        return rank_lines(game, sys.stdin, sys.stdout)
    try:
        high_value, low_value = evaluate(game, args.cards, args.board)
    except ValueError as exc:
        print(f"cardroom eval: {exc}", file=sys.stderr)
        return 2
    assert high_value is not None  # every hand has a high (or a low-only game's) value
    if game.low is None:
        print(high_value.name)
    else:
        print(f"high: {high_value.name}")
        print(f"low: {low_value.name if low_value else 'none (no 8-or-better low)'}")
    return 0


def evaluate(game: EvalGame, hole_text: str, board_text: str) -> tuple[HandValue | None, ...]:
    """Parse and rank one hand: (high or only value, low value or None)."""
    hole, board = parse_cards(hole_text), parse_cards(board_text)
    if set(hole) & set(board):
        raise ValueError(f"card {min(set(hole) & set(board))} is both in the hand and on the board")
    if not hole:
        raise ValueError("no cards given")
    if game.hole and not game.hole[0] <= len(hole) <= game.hole[1]:
        lo, hi = game.hole
        wanted = str(lo) if lo == hi else f"{lo} or {hi}"
        raise ValueError(f"this game takes {wanted} hole cards, got {len(hole)}")
    if board and not game.board[0] <= len(board) <= game.board[1]:
        raise ValueError(f"a board has {game.board[0]} to {game.board[1]} cards, got {len(board)}")
    if game.hole and not board:
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


def rank_lines(game: EvalGame, lines: TextIO, out: TextIO) -> int:
    """Rank each ``HOLE | BOARD`` line; one JSON line out per line in (blank lines skipped)."""
    failed = False
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        hole_text, _, board_text = line.partition("|")
        try:
            high_value, low_value = evaluate(game, hole_text, board_text)
            record = (
                as_json(high_value)
                if game.low is None
                else {"high": as_json(high_value), "low": as_json(low_value)}
            )
        except ValueError as exc:
            failed = True
            record = {"line": number, "error": str(exc)}
        out.write(json.dumps(record) + "\n")
    return 1 if failed else 0
