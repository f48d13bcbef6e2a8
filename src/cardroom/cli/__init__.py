"""The ``cardroom`` command.

Each subcommand lives in its own module of this package, listed in
:data:`COMMANDS` with its one-line help. The module exposes
``register(subparsers)``, which adds the parser of its command and sets
``func`` (a callable taking the parsed arguments and returning the exit code).

Start-up stays fast because only the command being run is imported: the
other commands appear in ``cardroom --help`` from :data:`COMMANDS` alone, and
each module imports its heavy dependencies (SQLAlchemy, the evaluator tables,
numpy) inside the function that runs the command.

Exit codes, one rule for every command: 0 success, 2 a usage error (the
command line is wrong: a bad option, argument or combination; argparse's own
code), 1 a failure (the command was well formed but could not be done: bad
input data, a refusal, a database error).
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys
from collections.abc import Iterable, Sequence

from cardroom import __version__
from cardroom.cli.errors import UsageError

COMMANDS: dict[str, tuple[str, str]] = {
    "deal": ("cards_cmd", "shuffle a deck and print it"),
    "play": ("play_cmd", "play hands in the terminal against bots"),
    "bench": ("bench", "run a benchmark (JSON rates, peers in the same run)"),
    "chinese": ("chinese_cmd", "Chinese poker and OFC: score or arrange hands"),
    "eval": ("eval_cmd", "name a poker hand, or rank hands from stdin as JSON lines"),
    "replay": ("replay_cmd", "replay PHH hand histories through the engine"),
    "db": ("db_cmd", "create or migrate the database"),
    "account": ("account_cmd", "players and their money (operator)"),
    "ledger": ("ledger_cmd", "the double-entry ledger (operator)"),
    "serve": ("serve_cmd", "run the poker room server (HTTP, WebSocket, web client)"),
    "simulate": ("simulate_cmd", "play headless cash tables, check the invariants"),
}
"""Command name -> (module of this package, one-line help)."""


def build_parser(full: Iterable[str] | None = None) -> argparse.ArgumentParser:
    """The argument parser; the commands in ``full`` (default: all) get their whole tree.

    The others get a bare parser carrying their help line, enough for
    ``cardroom --help`` and for argparse's "invalid choice" message.
    """
    wanted = set(COMMANDS if full is None else full)
    parser = argparse.ArgumentParser(prog="cardroom", description="cardroom: an online poker room.")
    parser.add_argument("--version", action="version", version=f"cardroom {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module, help_text) in COMMANDS.items():
        if name in wanted:
            importlib.import_module(f"cardroom.cli.{module}").register(subparsers)
        else:
            subparsers.add_parser(name, help=help_text)
    return parser


def _command_of(argv: Sequence[str]) -> str | None:
    """The command word: the top-level parser takes no option with a value before it."""
    return next((a for a in argv if not a.startswith("-")), None)


_DASH_DASH_VALUE = re.compile(r"(--[^=]+=|-[^-]=?)--")
"""An option given ``--`` as its value: ``--seed=--``, ``-n=--``, ``-n--``."""


def _refuse_dash_dash_values(parser: argparse.ArgumentParser, argv: Sequence[str]) -> None:
    """Python 3.11's argparse reads an option's value ``--`` as an empty list, whatever the
    option's type, and the command then fails on it; refuse it as argparse refuses a bad value."""
    for arg in argv:
        if arg == "--":  # what follows is positional
            return
        if _DASH_DASH_VALUE.fullmatch(arg):
            option = arg[:-2].removesuffix("=")
            parser.error(f"argument {option}: expected a value, not '--'")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the process exit code."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    command = _command_of(args_list)
    parser = build_parser([command] if command in COMMANDS else [])
    _refuse_dash_dash_values(parser, args_list)
    args = parser.parse_args(args_list)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 0
    try:
        code: int = func(args)
    except UsageError as exc:
        print(f"cardroom {command}: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    return code
