"""``cardroom replay FILE...``: replay PHH hand histories through the engine.

Every hand of every file (``.phh``: one hand; ``.phhs``: tables ``[1]``,
``[2]`` ...) is rebuilt as an engine hand and its actions applied one by one;
the finishing stacks printed are the engine's, never the file's. With
``--json`` each hand prints one JSON object on its own line::

    {"file": "x.phh", "index": 1, "variant": "NT", "finishing_stacks": [...]}

``index`` counts hands from 1 within the file. A hand the engine rejects gets
an ``"error"`` key with the reason (and ``finishing_stacks`` null) and makes
the exit code 1. Stacks are in the file's units: whole numbers stay integers,
fractional files (``0.25``) print decimals; an unknown (``inf``) stack prints null.
"""

from __future__ import annotations

import argparse
import json
from decimal import Decimal
from typing import Any

from cardroom.games.phh import HandHistory, PhhError, load_path


def register(subparsers: Any) -> None:
    """Add the ``replay`` subcommand."""
    p = subparsers.add_parser("replay", help="replay PHH hand histories through the engine")
    p.add_argument("files", nargs="+", metavar="FILE", help=".phh or .phhs files")
    p.add_argument("--json", action="store_true", help="one JSON object per hand")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Replay every hand of every file; exit 1 if any hand or file failed."""
    from cardroom.games.errors import ConfigError, IllegalAction
    from cardroom.games.phh_replay import replay

    failed = False
    for path in args.files:
        try:
            hands = load_path(path)
        except PhhError as exc:
            failed = True
            _emit(args.json, {"file": path, "index": None, "variant": None}, None, str(exc))
            continue
        for index, hh in enumerate(hands, start=1):
            record = {"file": path, "index": index, "variant": hh.variant}
            try:
                stacks = _in_file_units(hh, replay(hh).finishing_stacks)
            except (PhhError, IllegalAction, ConfigError) as exc:
                failed = True
                _emit(args.json, record, None, str(exc))
                continue
            _emit(args.json, record, stacks, None)
    return 1 if failed else 0


def _in_file_units(hh: HandHistory, stacks: tuple[int | None, ...]) -> list[Any]:
    if hh.scale == 1:
        return list(stacks)
    # Output only: a short decimal prints back exactly as float's shortest repr.
    return [None if s is None else _number(Decimal(s) / hh.scale) for s in stacks]


def _number(value: Decimal) -> int | float:
    return int(value) if value == value.to_integral_value() else float(value)


def _emit(
    as_json: bool, record: dict[str, Any], stacks: list[Any] | None, error: str | None
) -> None:
    out = {**record, "finishing_stacks": stacks}
    if error is not None:
        out["error"] = error
    if as_json:
        print(json.dumps(out), flush=True)
        return
    where = f"{record['file']}#{record['index']}" if record["index"] else record["file"]
    if error is not None:
        print(f"{where}: error: {error}", flush=True)
    else:
        print(f"{where}: {record['variant']} finishing stacks {stacks}", flush=True)
