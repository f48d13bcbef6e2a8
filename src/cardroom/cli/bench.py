"""``cardroom bench WORKLOAD``: benchmarks, each beside its peers measured in the same run.

Each workload is a module of :mod:`cardroom.bench` exposing ``add_arguments(parser)``
and ``run(args) -> int``; it prints one JSON object mapping each measured
workload to the rate of every implementation.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import Any

WORKLOADS: dict[str, str] = {
    "eval": "cardroom.bench.eval_bench",
    "engine": "cardroom.bench.engine_bench",
    "chinese": "cardroom.bench.chinese_bench",
    "room": "cardroom.bench.room_bench",
    "server": "cardroom.bench.server_bench",
}


def register(subparsers: Any) -> None:
    """Add ``bench`` with one sub-subcommand per workload."""
    p = subparsers.add_parser("bench", help="run a benchmark (JSON rates, peers in the same run)")
    workloads = p.add_subparsers(dest="workload", metavar="WORKLOAD", required=True)
    for name, module_name in WORKLOADS.items():
        sub = workloads.add_parser(name, help=f"benchmark: {name}")
        sub.add_argument("--json", action="store_true", help="print one JSON object")
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError:
            sub.set_defaults(func=_missing(name))
            continue
        module.add_arguments(sub)
        sub.set_defaults(func=module.run)


def _missing(name: str) -> Any:
    def run(args: argparse.Namespace) -> int:
        print(f"error: the {name} benchmark is not available in this build", file=sys.stderr)
        return 1

    return run
