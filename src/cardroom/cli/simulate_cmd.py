"""``cardroom simulate``: headless cash tables of every game with random players.

Poker and Chinese poker tables; random joins, leaves, sit-outs (some across both
blinds, then back posting them), timeouts, disconnections, rebuys, waiting lists,
advance actions and chat (:mod:`cardroom.room.simulation`). The last line printed is
a JSON summary: ``hands``, every per-rule counter (dead small blinds posted, missed
big blinds, timeouts, disconnect all-ins, review flags...), rake by currency and the
invariants: ``money_invariant``, ``secrecy`` (no view or event shows a seat a card it
may not see), ``blind_order``, each ``held`` or ``broken``. The exit code is 1 if
any invariant broke.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from cardroom.cli.errors import positive_int
from cardroom.room.simulation import simulate


def register(subparsers: Any) -> None:
    """Add ``simulate``."""
    p = subparsers.add_parser("simulate", help="play headless cash tables, check the invariants")
    p.add_argument("--tables", type=positive_int, default=20, help="tables to play (default 20)")
    p.add_argument("--hands", type=positive_int, default=50, help="hands per table (default 50)")
    p.add_argument("--seed", type=int, default=1, help="seed of players and decks")
    p.add_argument("--json", action="store_true", help="print only the JSON summary")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Play, print the summary, exit 1 if an invariant broke."""
    start = time.perf_counter()
    summary = simulate(args.tables, args.hands, args.seed)
    out = summary.as_dict()
    out["seconds"] = round(time.perf_counter() - start, 2)
    if not args.json:
        for game, hands in out["games"].items():
            print(f"{game:>18}: {hands} hands")
        for name, count in out["counters"].items():
            print(f"{name:>28}: {count}")
    print(json.dumps(out))
    return 0 if not summary.violations else 1
