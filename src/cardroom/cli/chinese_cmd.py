"""``cardroom chinese``: score a Chinese poker showdown, or arrange a hand.

Bad input prints ``error: ...`` on stderr and exits with status 1 (the command
line was right, the data on stdin was not).
"""

from __future__ import annotations

import argparse
import json
import reprlib
import sys
from typing import Any

from cardroom.words import clipped

SCORE_HELP = """\
Score one showdown read as a JSON object on standard input:

  {"variant": "ofc",
   "in_fantasyland": [false, true],
   "players": [
     {"top": ["Qh", "Qd", "2c"],
      "middle": ["Ah", "Kh", "Jh", "9h", "3h"],
      "bottom": ["2s", "3s", "4s", "5s", "6s"]},
     ...]}

variant         ofc, pineapple, progressive, turbo or classic
players         two or more players, each with exactly three rows: "top"
                (3 cards), "middle" and "bottom" (5 cards each)
cards           strings: rank 2-9 T J Q K A then suit c d h s ("Th", "2c");
                numbers are not cards
in_fantasyland  optional: one true/false per player

Prints {"players": [{"fouled", "royalties": {"top", "middle", "bottom"},
"points", "fantasyland_next"}, ...]}: points sum to zero over the players.
Example: cardroom chinese score < examples/showdown.json
"""

ARRANGE_HELP = """\
Arrange 13 to 17 cards read as a JSON object on standard input:

  {"variant": "pineapple", "cards": ["As", "Ad", ...], "in_fantasyland": false}

Prints the best {"top", "middle", "bottom"} rows, the "discard" cards, whether
it is "fouled" and its expected "score".
Example: cardroom chinese arrange < examples/arrange.json
"""


class InputError(ValueError):
    """The JSON on standard input is not a valid request."""


def register(subparsers: Any) -> None:
    """Add the ``chinese`` subcommand and its ``score`` and ``arrange`` actions."""
    p = subparsers.add_parser("chinese", help="Chinese poker and OFC: score or arrange hands")
    sub = p.add_subparsers(dest="chinese_command", metavar="ACTION", required=True)
    raw = argparse.RawDescriptionHelpFormatter
    score = sub.add_parser(
        "score", help="score a showdown read as JSON on stdin", description=SCORE_HELP,
        formatter_class=raw,
    )  # fmt: skip
    score.add_argument("--json", action="store_true", help="print JSON (the default output)")
    score.set_defaults(func=run_score)
    arrange = sub.add_parser(
        "arrange", help="best arrangement of 13-17 cards (JSON on stdin)",
        description=ARRANGE_HELP, formatter_class=raw,
    )  # fmt: skip
    arrange.add_argument("--json", action="store_true", help="print JSON (the default output)")
    arrange.set_defaults(func=run_arrange)


def _read() -> dict[str, Any]:
    try:
        data = json.loads(sys.stdin.read(), parse_constant=_no_constant, parse_int=_whole)
    except json.JSONDecodeError as exc:
        raise InputError(f"input is not JSON: {exc}") from None
    except RecursionError:  # json recurses once per nested array or object
        raise InputError("input is not JSON we read: values nested too deeply") from None
    except ValueError as exc:  # NaN, Infinity or an integer too long
        raise InputError(f"input is not JSON we read: {exc}") from None
    if not isinstance(data, dict):
        raise InputError("input must be one JSON object")
    return data


def _no_constant(name: str) -> None:
    """NaN and Infinity are not JSON (Python's reader takes them unless told)."""
    raise ValueError(f"{name} is not a JSON number")


def _whole(text: str) -> int:
    """A JSON integer, refused past 30 digits (no count of points needs more, and Python
    reads none past 4,300)."""
    if len(text.lstrip("-")) > 30:
        raise ValueError(f"an integer of {len(text)} digits is too long")
    return int(text)


def _fail(exc: Exception) -> int:
    print(f"error: {clipped(exc)}", file=sys.stderr)
    return 1


def _cards(value: Any, what: str) -> list[str]:
    """A list of card names; numbers (even valid card codes) are refused."""
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        shown = reprlib.repr(value)
        raise InputError(f'{what} must be a list of card names like "As", not {shown}')
    return value


def score_payload(data: dict[str, Any]) -> dict[str, Any]:
    """The ``score`` output for one input object; raises ``ChineseError`` or :class:`InputError`."""
    from cardroom.chinese import Arrangement, ChineseError, get_variant, score_hands

    variant = get_variant(str(data.get("variant", "")))
    players = data.get("players")
    if not isinstance(players, list):
        raise InputError('"players" must be a list of {"top", "middle", "bottom"} objects')
    arrangements = []
    for i, p in enumerate(players):
        if not isinstance(p, dict) or set(p) != {"top", "middle", "bottom"}:
            raise InputError(f'player {i} must have exactly "top", "middle" and "bottom"')
        rows = [_cards(p[r], f"player {i}: {r}") for r in ("top", "middle", "bottom")]
        try:
            arrangements.append(Arrangement.of(*rows))
        except ChineseError as exc:
            raise ChineseError(f"player {i}: {exc}") from None
    flags = data.get("in_fantasyland")
    if flags is not None and (
        not isinstance(flags, list) or not all(isinstance(f, bool) for f in flags)
    ):
        raise InputError('"in_fantasyland" must be a list of true/false, one per player')
    scores = score_hands(variant, arrangements, in_fantasyland=flags)
    return {
        "players": [
            {
                "fouled": s.fouled,
                "royalties": dict(s.royalties),
                "points": s.points,
                "fantasyland_next": s.fantasyland_next,
            }
            for s in scores
        ]
    }


def run_score(args: argparse.Namespace) -> int:
    """Score the showdown on stdin and print the JSON result."""
    from cardroom.chinese import ChineseError

    try:
        out = score_payload(_read())
    except (ChineseError, InputError) as exc:
        return _fail(exc)
    print(json.dumps(out))
    return 0


def run_arrange(args: argparse.Namespace) -> int:
    """Print the best arrangement of the cards on stdin."""
    from cardroom.chinese import ChineseError, best_arrangement, get_variant
    from cardroom.chinese.events import Place

    try:
        data = _read()
        variant = get_variant(str(data.get("variant", "")))
        cards = _cards(data.get("cards"), '"cards"')
        flag = data.get("in_fantasyland", False)
        if not isinstance(flag, bool):
            raise InputError('"in_fantasyland" must be true or false')
        hand = Place.of(0, discard=cards).discard
        best = best_arrangement(variant, hand, in_fantasyland=flag)
    except (ChineseError, InputError) as exc:
        return _fail(exc)
    out = best.arrangement.to_dict() | {
        "discard": [str(c) for c in best.discards],
        "fouled": best.fouled,
        "score": round(best.score, 3),
    }
    print(json.dumps(out))
    return 0
