"""``cardroom replay FILE...``: replay PHH hand histories through the engine.

Every hand of every file (``.phh``: one hand; ``.phhs``: tables ``[1]``,
``[2]`` ...) is rebuilt as an engine hand and its actions applied one by one;
the stacks printed are the engine's, never the file's. With ``--json`` each
hand prints one JSON object on its own line::

    {"file": "x.phh", "index": 1, "variant": "NT", "finishing_stacks": [...]}

``index`` counts hands from 1 within the file (null when the whole file is
unreadable). A hand that cannot be replayed prints ``finishing_stacks`` null,
``"action"`` (the 1-based number of the action at fault, or null when the
hand's header is wrong) and ``"error"``. A file that stops before its hand ends
prints ``finishing_stacks`` null and ``"unfinished"``: the stacks behind the
line, the chips in the pot, the street and who is to act. Every other hand and
file is still replayed.

Exit status: 0 when every hand replayed to its end, 1 when any hand or file
failed or stopped early, 2 for a usage error. Stacks are in the file's units:
whole numbers stay integers, fractional files (``0.25``) print decimals; an
unknown (``inf``) stack prints null.
"""

from __future__ import annotations

import argparse
import json
from decimal import Decimal
from typing import Any

from cardroom.games.phh import HandHistory, PhhError, read_path


def register(subparsers: Any) -> None:
    """Add the ``replay`` subcommand."""
    p = subparsers.add_parser("replay", help="replay PHH hand histories through the engine")
    p.add_argument("files", nargs="+", metavar="FILE", help=".phh or .phhs files")
    p.add_argument("--json", action="store_true", help="one JSON object per hand")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Replay every hand of every file; exit 1 if any hand or file failed or stopped early."""
    ok = True
    for path in args.files:
        try:
            hands = read_path(path)
        except PhhError as exc:
            ok = False
            _emit(args.json, {"file": path, "index": None, "variant": None}, _error(exc))
            continue
        for index, hh in enumerate(hands, start=1):
            if isinstance(hh, PhhError):
                ok = False
                _emit(args.json, {"file": path, "index": index, "variant": None}, _error(hh))
                continue
            outcome = _replay_one(hh)
            ok = ok and outcome["finishing_stacks"] is not None
            _emit(args.json, {"file": path, "index": index, "variant": hh.variant}, outcome)
    return 0 if ok else 1


def _replay_one(hh: HandHistory) -> dict[str, Any]:
    from cardroom.games.phh_replay import replay

    try:
        done = replay(hh)
    except PhhError as exc:
        return _error(exc)
    except Exception as exc:  # an engine fault on one hand must not stop the others
        return {"finishing_stacks": None, "action": None, "error": f"internal error: {exc!r}"}
    stacks = _in_file_units(hh, done.finishing_stacks)
    if done.finished:
        return {"finishing_stacks": stacks}
    hand = done.hand
    state = {
        "stacks": stacks,
        "pot": _in_file_units(hh, (hand.pot_total,))[0],
        "street": hand.street.name,
        "actor": None if hand.actor is None else f"p{hand.actor + 1}",
    }
    return {"finishing_stacks": None, "unfinished": state}


def _error(exc: PhhError) -> dict[str, Any]:
    return {"finishing_stacks": None, "action": exc.action, "error": str(exc)}


def _in_file_units(hh: HandHistory, stacks: tuple[int | None, ...]) -> list[Any]:
    if hh.scale == 1:
        return list(stacks)
    # Output only: a short decimal prints back exactly as float's shortest repr.
    return [None if s is None else _number(Decimal(s) / hh.scale) for s in stacks]


def _number(value: Decimal) -> int | float:
    return int(value) if value == value.to_integral_value() else float(value)


def _emit(as_json: bool, record: dict[str, Any], outcome: dict[str, Any]) -> None:
    out = {**record, **outcome}
    if as_json:
        print(json.dumps(out), flush=True)
        return
    where = f"{record['file']}#{record['index']}" if record["index"] else record["file"]
    if "error" in out:
        print(f"{where}: error: {out['error']}", flush=True)
    elif "unfinished" in out:
        state = out["unfinished"]
        actor = state["actor"] or "nobody"
        print(
            f"{where}: {record['variant']} unfinished on the {state['street']}: stacks "
            f"{state['stacks']}, {state['pot']} in the pot, {actor} to act",
            flush=True,
        )
    else:
        print(
            f"{where}: {record['variant']} finishing stacks {out['finishing_stacks']}", flush=True
        )
