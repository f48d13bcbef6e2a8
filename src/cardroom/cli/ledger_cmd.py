"""``cardroom ledger``: check the invariants, list entries, review flags, reverse an entry."""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import uuid
from typing import Any

from cardroom.cli.db_cmd import alias_namer, database_command, open_engine
from cardroom.cli.errors import non_negative_int, positive_int
from cardroom.ledger import recover


def register(subparsers: Any) -> None:
    """Add the ``ledger`` subcommand and its actions."""
    action = database_command(subparsers, "ledger", "the double-entry ledger (operator)")

    check = action("check", "verify every invariant (exit 1 if any fails)", run_check)
    check.add_argument("--json", action="store_true")
    entries = action("entries", "list entries in posting order", run_entries)
    entries.add_argument(
        "--after", type=non_negative_int, default=0, help="start after this entry id"
    )
    entries.add_argument(
        "--limit",
        type=positive_int,
        default=50,
        help="at most this many (50; stderr names the next page)",
    )
    entries.add_argument("--json", action="store_true")
    flags = action("flags", "integrity flags: shared IP/device, chip dumping", run_flags)
    flags.add_argument("--json", action="store_true")
    recover_p = action(
        "recover",
        "after a crash, with the server stopped: cancel unfinished hands, return table chips",
        run_recover,
    )
    recover_p.add_argument("--run", help="name of this recovery (default: a fresh id)")
    recover_p.add_argument(
        "--force",
        action="store_true",
        help="recover though a server's heartbeat is fresh (it must really be stopped)",
    )
    reverse = action("reverse", "undo an entry with a reversing entry", run_reverse)
    reverse.add_argument("entry_id", type=int)
    reverse.add_argument("--reason", required=True)
    reverse.add_argument("--operator", default=os.environ.get("USER") or "operator")


def run_check(args: argparse.Namespace) -> int:
    """Print every broken invariant (the ledger's, and each open table's stacks against
    its record); exit 1 if there is any."""
    from cardroom.server.recovery import record_problems
    from cardroom.store import SqlLedger

    engine = open_engine(args)
    try:
        ledger = SqlLedger(engine)
        violations = [(v.rule, v.detail, str(v)) for v in ledger.check()]
        problems = record_problems(engine)  # the records and balances at one moment
        violations += [("table_record", p, p) for p in problems]
        accounts = len(ledger.balances())
    finally:
        engine.dispose()
    if args.json:
        found = [{"rule": rule, "detail": detail} for rule, detail, _ in violations]
        print(json.dumps({"ok": not violations, "accounts": accounts, "violations": found}))
    elif violations:
        name = alias_namer([text for _, _, text in violations], args)
        for _, _, text in violations:
            print(f"FAIL {name(text)}")
    else:
        print(f"ok: {accounts} accounts, every invariant holds")
    return 1 if violations else 0


def run_entries(args: argparse.Namespace) -> int:
    """Print entries."""
    from cardroom.store import SqlLedger

    engine = open_engine(args)
    try:
        # One more than asked: whether a next page exists, told on stderr (a ledger has
        # thousands of entries; the page alone never said that more followed).
        entries = SqlLedger(engine).entries(after=args.after, limit=args.limit + 1)
    finally:
        engine.dispose()
    more, entries = len(entries) > args.limit, entries[: args.limit]
    name = alias_namer(
        [] if args.json else [f"{e.transfer.debit} {e.transfer.credit}" for e in entries], args
    )
    for e in entries:
        t = e.transfer
        row = {
            "id": e.id,
            "key": t.key,
            "reason": t.reason.value,
            "debit": t.debit.key,
            "credit": t.credit.key,
            "amount": t.amount,
            "currency": t.currency.value,
            "reverses": t.reverses,
            "memo": t.memo,
            "at": e.at.isoformat() if e.at else None,
        }
        if args.json:
            print(json.dumps(row))
        else:
            memo = f"  ({t.memo})" if t.memo else ""
            moved = name(f"{t.debit} -> {t.credit}")
            print(f"{e.id:>6} {t.reason:<17} {t.amount:>12} {moved}{memo}")
    if more:
        print(f"more entries follow: --after {entries[-1].id}", file=sys.stderr)
    return 0


def run_flags(args: argparse.Namespace) -> int:
    """Print integrity flags for review."""
    from cardroom.store import Cashier

    engine = open_engine(args)
    try:
        report = Cashier(engine).integrity_report()
    finally:
        engine.dispose()
    if args.json:
        print(json.dumps(dataclasses.asdict(report)))
        return 0
    for f in report.shared_access:
        print(f"shared {f.via} {f.value}: {', '.join(f.players)}")
    for d in report.chip_dumping:
        print(
            f"chip flow {d.sender} -> {d.receiver}: {d.transfers} transfers, {d.sent} sent, "
            f"{d.returned} back (entries {', '.join(map(str, d.entry_ids))})"
        )
    if not report.shared_access and not report.chip_dumping:
        print("no flags")
    return 0


def run_reverse(args: argparse.Namespace) -> int:
    """Reverse an entry."""
    from cardroom.store import Cashier

    engine = open_engine(args)
    try:
        entry = Cashier(engine).reverse(args.entry_id, operator=args.operator, reason=args.reason)
    finally:
        engine.dispose()
    print(f"entry {entry.id} reverses entry {args.entry_id}")
    return 0


def run_recover(args: argparse.Namespace) -> int:
    """After a crash, with the server stopped: every open table recovered from its record
    as the server's start does (the unfinished hand cancelled, RULEBOOK §10.10, everyone
    stood up, the events and cash-outs stored together); then, for chips no table record
    knows of, the ledger's own recovery (unfinished pots voided, stacks returned)."""
    from cardroom.server import lease
    from cardroom.server.recovery import recover_open_tables
    from cardroom.store import SqlLedger

    engine = open_engine(args)
    run = args.run or uuid.uuid4().hex
    instance = f"recover-{run}"[:32]
    try:
        held = lease.take(engine, instance, force=args.force)  # no server starts meanwhile
        if held is not None:
            print(
                f"error: a server is running on this database ({held}): stop it first"
                " (one crashed on another host is taken as gone 30 s after it; --force"
                " if it is gone)",
                file=sys.stderr,
            )
            return 1
        try:
            tables = recover_open_tables(engine)
            report = recover(SqlLedger(engine), run=run)
        finally:
            lease.give_back(engine, instance)
    finally:
        engine.dispose()
    players = [str(account) for returned in tables.values() for account in returned]
    name = alias_namer([*players, *(str(stack) for stack in report.returned)], args)
    for table_id, returned in tables.items():
        for account, chips in returned.items():
            print(f"table {table_id}: returned {chips} to {name(str(account))}")
    for pot, ids in report.voided.items():
        print(f"voided {pot}: {len(ids)} entries")
    for stack, amount in report.returned.items():
        print(f"returned {amount} from {name(str(stack))}")
    if not any(tables.values()) and not report.voided and not report.returned:
        print("nothing to recover")
    return 0
