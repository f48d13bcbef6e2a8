"""``cardroom chinese``: score a Chinese poker showdown, or arrange a hand.

``cardroom chinese score --json`` reads one JSON object on stdin::

    {"variant": "ofc", "in_fantasyland": [false, true],
     "players": [{"top": ["Qh", "Qd", "2c"], "middle": [...5], "bottom": [...5]}, ...]}

and prints ``{"players": [{"fouled", "royalties": {"top", "middle", "bottom"},
"points", "fantasyland_next"}, ...]}``. ``cardroom chinese arrange --json``
reads ``{"variant": ..., "cards": [13 to 17 cards], "in_fantasyland": bool}``
and prints the best arrangement and its discards. Bad input prints an error
on stderr and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from cardroom.chinese import (
    Arrangement,
    ChineseError,
    best_arrangement,
    get_variant,
    score_hands,
)
from cardroom.chinese.events import Place

_BAD_INPUT = 2


def register(subparsers: Any) -> None:
    """Add the ``chinese`` subcommand and its ``score`` and ``arrange`` actions."""
    p = subparsers.add_parser("chinese", help="Chinese poker and OFC: score or arrange hands")
    sub = p.add_subparsers(dest="chinese_command", metavar="ACTION", required=True)
    score = sub.add_parser("score", help="score a showdown read as JSON on stdin")
    score.add_argument("--json", action="store_true", help="print JSON (the default output)")
    score.set_defaults(func=run_score)
    arrange = sub.add_parser("arrange", help="best arrangement of 13-17 cards (JSON on stdin)")
    arrange.add_argument("--json", action="store_true", help="print JSON (the default output)")
    arrange.set_defaults(func=run_arrange)


def _read() -> dict[str, Any]:
    try:
        data = json.loads(sys.stdin.read())
    except json.JSONDecodeError as exc:
        raise ChineseError(f"input is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ChineseError("input must be one JSON object")
    return data


def _fail(exc: Exception) -> int:
    print(f"error: {exc}", file=sys.stderr)
    return _BAD_INPUT


def score_payload(data: dict[str, Any]) -> dict[str, Any]:
    """The ``score`` output for one input object; raises :class:`ChineseError`."""
    variant = get_variant(str(data.get("variant", "")))
    players = data.get("players")
    if not isinstance(players, list):
        raise ChineseError('"players" must be a list of {"top", "middle", "bottom"} objects')
    arrangements = []
    for i, p in enumerate(players):
        if not isinstance(p, dict) or set(p) != {"top", "middle", "bottom"}:
            raise ChineseError(f'player {i} must have exactly "top", "middle" and "bottom"')
        rows = [p[r] for r in ("top", "middle", "bottom")]
        if not all(isinstance(r, list) for r in rows):
            raise ChineseError(f"player {i}: each row is a list of cards")
        try:
            arrangements.append(Arrangement.of(*rows))
        except ChineseError as exc:
            raise ChineseError(f"player {i}: {exc}") from None
    flags = data.get("in_fantasyland")
    if flags is not None and (
        not isinstance(flags, list) or not all(isinstance(f, bool) for f in flags)
    ):
        raise ChineseError('"in_fantasyland" must be a list of true/false, one per player')
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
    try:
        out = score_payload(_read())
    except ChineseError as exc:
        return _fail(exc)
    print(json.dumps(out))
    return 0


def run_arrange(args: argparse.Namespace) -> int:
    """Print the best arrangement of the cards on stdin."""
    try:
        data = _read()
        variant = get_variant(str(data.get("variant", "")))
        cards = data.get("cards")
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
            raise ChineseError('"cards" must be a list of card names like "As"')
        flag = data.get("in_fantasyland", False)
        if not isinstance(flag, bool):
            raise ChineseError('"in_fantasyland" must be true or false')
        hand = Place.of(0, discard=cards).discard
        best = best_arrangement(variant, hand, in_fantasyland=flag)
    except ChineseError as exc:
        return _fail(exc)
    out = best.arrangement.to_dict() | {
        "discard": [str(c) for c in best.discards],
        "fouled": best.fouled,
        "score": round(best.score, 3),
    }
    print(json.dumps(out))
    return 0
