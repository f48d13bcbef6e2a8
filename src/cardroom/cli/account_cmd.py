"""``cardroom account``: the operator's player and money commands.

Amounts are integers in minor units (cents; chips for play money). The
password for ``create`` and ``password`` is read from standard input (first
line), so it never appears in the process list or shell history.
"""

from __future__ import annotations

import argparse
import getpass
import json
import os
import sys
from typing import Any

from cardroom.chat_bans import MAX_SANCTION_HOURS
from cardroom.cli.db_cmd import database_command, name_players, open_engine
from cardroom.cli.errors import UsageError, is_utf8, whole_number
from cardroom.ledger import Currency, Entry

ROLES: tuple[str, ...] = ("player", "operator")
"""The values of ``cardroom.store.ROLES`` (the server's operator area needs ``operator``)."""
SANCTIONS: tuple[str, ...] = ("chat_ban", "freeze", "ban")
"""The values of ``cardroom.store.SanctionKind``, spelled here so the parser imports no store."""


def amount(text: str) -> int:
    """An argparse type: a positive whole number of minor units."""
    if not text.isdigit() or int(text) <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive whole number of minor units")
    return int(text)


def _operator() -> str:
    return os.environ.get("USER") or "operator"


def register(subparsers: Any) -> None:
    """Add the ``account`` subcommand and its actions."""
    action = database_command(subparsers, "account", "players and their money (operator)")

    create = action("create", "register a player (password on stdin)", run_create)
    create.add_argument("alias")
    create.add_argument(
        "--i-am-18",
        dest="age_confirmed",
        action="store_true",
        help="the player confirms being 18 or older (or of the local age of majority); required",
    )
    create.add_argument("--ip", default="", help="registration IP address (for review)")
    create.add_argument("--device", default="", help="registration device id (for review)")

    password = action(
        "password", "give a player a new password (on stdin), ending his sessions", run_password
    )
    password.add_argument("alias")
    password.add_argument("--operator", default=_operator())

    for name, help_text, run in (
        ("deposit", "record a deposit", run_deposit),
        ("withdraw", "record a real-money withdrawal", run_withdraw),
    ):
        sub = action(name, help_text, run)
        sub.add_argument("alias")
        sub.add_argument("amount", type=amount, help="minor units (cents, or play chips)")
        if name == "deposit":
            sub.add_argument("--play", action="store_true", help="play money instead of real")
        else:
            sub.add_argument(
                "--despite-sanction",
                metavar="REASON",
                default="",
                help="pay out a frozen or banned account anyway (why, kept in the audit "
                "trail; the sanction stays in force)",
            )
        sub.add_argument("--key", help="idempotency key (a retried command never counts twice)")
        sub.add_argument("--operator", default=_operator(), help="who records it")

    transfer = action("transfer", "move real money between two depositing players", run_transfer)
    transfer.add_argument("sender")
    transfer.add_argument("receiver")
    transfer.add_argument("amount", type=amount)
    transfer.add_argument("--key", help="idempotency key")

    show = action("show", "show a player and balances", run_show)
    show.add_argument("alias")
    show.add_argument("--json", action="store_true", help="machine-readable (minor units)")

    for kind in SANCTIONS:
        sub = action(kind.replace("_", "-"), f"impose a {kind.replace('_', ' ')}", run_sanction)
        sub.add_argument("alias")
        sub.add_argument("--reason", default="")
        sub.add_argument(
            "--hours",
            type=whole_number(1, MAX_SANCTION_HOURS),
            help=f"duration in whole hours, 1 to {MAX_SANCTION_HOURS} (ten years; default: "
            "until lifted; chat bans escalate)",
        )
        sub.add_argument("--operator", default=_operator())
        sub.set_defaults(kind=kind)
    lift = action("lift", "end a sanction by id", run_lift)
    lift.add_argument("sanction_id", type=int)
    lift.add_argument("--operator", default=_operator())
    role = action("role", "give a player a role (operator: the server's operator area)", run_role)
    role.add_argument("alias")
    role.add_argument("role", choices=ROLES)
    role.add_argument("--operator", default=_operator())


def _read_password() -> str:
    from cardroom.store import AccountError

    not_utf8 = AccountError("the password is not UTF-8 text")
    try:
        if sys.stdin.isatty():
            first = getpass.getpass("password: ")
            if getpass.getpass("again: ") != first:
                raise AccountError("the passwords differ")
            password = first
        else:
            password = sys.stdin.readline().rstrip("\r\n")
    except UnicodeDecodeError:  # a strict UTF-8 locale
        raise not_utf8 from None
    if not is_utf8(password):  # the C locale reads such bytes as lone surrogates
        raise not_utf8
    return password


def run_create(args: argparse.Namespace) -> int:
    """Register a player."""
    from cardroom.store import Players

    if not args.age_confirmed:  # a required attestation left off the command line: usage
        raise UsageError("players must confirm they are 18 or older: pass --i-am-18")
    engine = open_engine(args)
    try:
        info = Players(engine).register(
            args.alias, _read_password(), age_confirmed=True, ip=args.ip, device=args.device
        )
    finally:
        engine.dispose()
    print(f"created {info.alias}")
    return 0


def run_password(args: argparse.Namespace) -> int:
    """Give a player a new password (a stolen one, a forgotten one): every session of the
    account ends, so a thief's open connections close at the server's next look."""
    from cardroom.store import Players

    engine = open_engine(args)
    try:
        players = Players(engine)
        alias = players.get(args.alias).alias  # an unknown alias: said before the prompt
        ended = players.set_password(alias, _read_password(), operator=args.operator)
    finally:
        engine.dispose()
    print(f"{alias} has a new password; {ended} session(s) ended")
    return 0


def _report(entry: Entry, args: argparse.Namespace) -> int:
    t = entry.transfer
    line = f"entry {entry.id}: {t.reason} {t.amount} {t.currency} {t.debit} -> {t.credit}"
    print(name_players(line, args))  # players by alias, never by account key
    return 0


def run_deposit(args: argparse.Namespace) -> int:
    """Record a deposit."""
    from cardroom.store import Cashier

    currency = Currency.PLAY if args.play else Currency.REAL
    engine = open_engine(args)
    try:
        cashier = Cashier(engine)
        return _report(
            cashier.deposit(
                args.alias, args.amount, currency, operator=args.operator, key=args.key
            ),
            args,
        )
    finally:
        engine.dispose()


def run_withdraw(args: argparse.Namespace) -> int:
    """Record a withdrawal."""
    from cardroom.store import Cashier

    engine = open_engine(args)
    try:
        cashier = Cashier(engine)
        return _report(
            cashier.withdraw(
                args.alias,
                args.amount,
                operator=args.operator,
                key=args.key,
                despite_sanction=args.despite_sanction,
            ),
            args,
        )
    finally:
        engine.dispose()


def run_transfer(args: argparse.Namespace) -> int:
    """Move real money between players."""
    from cardroom.store import Cashier

    engine = open_engine(args)
    try:
        cashier = Cashier(engine)
        entry = cashier.transfer(
            args.sender, args.receiver, args.amount, actor=_operator(), key=args.key
        )
        return _report(entry, args)
    finally:
        engine.dispose()


def run_show(args: argparse.Namespace) -> int:
    """Print a player's balances (and sanctions)."""
    from cardroom.store import Cashier, Players

    engine = open_engine(args)
    try:
        players = Players(engine)
        info = players.get(args.alias)
        balances = Cashier(engine).balances(args.alias)
        in_force = players.sanctions_in_force(args.alias)
    finally:
        engine.dispose()
    # Each sanction with its id, end and reason: the kinds alone left an operator at the
    # command line no way to lift a chat ban the server imposed (`lift` takes the id).
    listed = [
        {
            "id": s.id,
            "kind": s.kind.value,
            "reason": s.reason,
            "starts_at": s.starts_at.isoformat(),
            "ends_at": None if s.ends_at is None else s.ends_at.isoformat(),
        }
        for s in in_force
    ]
    data: dict[str, Any] = {
        "id": info.id,
        "alias": info.alias,
        "created_at": info.created_at.isoformat(),
        "balances": {c.value: balances[c] for c in Currency},
        "sanctions": sorted({s.kind.value for s in in_force}),
        "sanctions_in_force": listed,
    }
    if args.json:
        print(json.dumps(data, sort_keys=True))
    else:
        print(f"{info.alias}, since {data['created_at']}")
        for c in Currency:
            print(f"  {c.value:5} {balances[c]}")
        for s in listed:
            until = f"until {s['ends_at']}" if s["ends_at"] else "until lifted"
            why = f" ({s['reason']})" if s["reason"] else ""
            print(f"  sanction {s['id']}: {s['kind']} {until}{why}")
    return 0


def run_sanction(args: argparse.Namespace) -> int:
    """Freeze, ban or chat-ban a player."""
    from datetime import timedelta

    from cardroom.store import Players, SanctionKind

    duration = None if args.hours is None else timedelta(hours=args.hours)
    engine = open_engine(args)
    try:
        sid = Players(engine).sanction(
            args.alias,
            SanctionKind(args.kind),
            operator=args.operator,
            reason=args.reason,
            duration=duration,
        )
    finally:
        engine.dispose()
    print(f"sanction {sid}: {args.kind} {args.alias}")
    return 0


def run_lift(args: argparse.Namespace) -> int:
    """End a sanction."""
    from cardroom.store import Players

    engine = open_engine(args)
    try:
        Players(engine).lift(args.sanction_id, operator=args.operator)
    finally:
        engine.dispose()
    print(f"sanction {args.sanction_id} lifted")
    return 0


def run_role(args: argparse.Namespace) -> int:
    """Give a player a role (audited)."""
    from cardroom.store import Players

    engine = open_engine(args)
    try:
        Players(engine).set_role(args.alias, args.role, operator=args.operator)
    finally:
        engine.dispose()
    print(f"{args.alias} is now {args.role}")
    return 0
