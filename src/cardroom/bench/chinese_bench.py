"""``cardroom bench chinese``: best-arrangement time and whole OFC hands per second.

``arrange_N`` sets N random cards (13 for an OFC Fantasyland, 14 to 17 for
the Pineapple games) with :func:`cardroom.chinese.best_arrangement` and
reports the mean and worst milliseconds; the room's Fantasyland timeout
needs the worst case well under a second or two. ``hands`` plays whole
Pineapple hands for three seats through ``apply`` (timeout placements).
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from cardroom.cards import Deck
from cardroom.chinese import VARIANTS, ChineseHand, best_arrangement
from cardroom.cli.errors import positive_int


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options: how many random hands per size."""
    parser.add_argument(
        "--hands", type=positive_int, default=20, help="random hands per card count"
    )


def measure(hands: int) -> dict[str, Any]:
    """Milliseconds per arrangement for 13..17 cards, and full hands per second."""
    out: dict[str, Any] = {}
    for n, key in ((13, "ofc"), (14, "pineapple"), (15, "progressive"), (17, "progressive")):
        times = []
        for seed in range(hands):
            cards = Deck.standard(f"bench-{n}-{seed}").deal(n)
            start = time.perf_counter()
            best_arrangement(VARIANTS[key], cards, in_fantasyland=seed % 2 == 1)
            times.append((time.perf_counter() - start) * 1000)
        out[f"arrange_{n}_ms"] = {
            "cardroom_mean": round(sum(times) / len(times), 1),
            "cardroom_max": round(max(times), 1),
        }
    start = time.perf_counter()
    for seed in range(hands):
        hand = ChineseHand.start("pineapple", [0, 1, 2], button=0, seed=seed)
        while not hand.finished:
            seat = hand.to_act()[0]
            hand.apply(hand.timeout_action(seat))
    out["pineapple_hands_per_s"] = {"cardroom": round(hands / (time.perf_counter() - start), 1)}
    return out


def run(args: argparse.Namespace) -> int:
    """Print the measurements as one JSON object."""
    print(json.dumps(measure(max(1, args.hands))))
    return 0
