"""``cardroom db``: create or migrate the database; shared ``--db`` handling for money commands."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.exc import SQLAlchemyError

from cardroom.ledger import LedgerError
from cardroom.store import (
    DEFAULT_URL,
    ENV_VAR,
    DatabaseError,
    current_revision,
    head_revision,
    make_engine,
    require_current,
    resolve_url,
    upgrade,
)

DB_HELP = f"database URL (default: ${ENV_VAR}, else {DEFAULT_URL})"


def add_db_option(parser: argparse.ArgumentParser, leaf: bool = False) -> None:
    """Add ``--db URL``; on leaf parsers it must not hide a value given one level up."""
    default = argparse.SUPPRESS if leaf else None
    parser.add_argument("--db", metavar="URL", default=default, help=DB_HELP)


def open_engine(args: argparse.Namespace, migrated: bool = True) -> Engine:
    """The engine for ``--db`` / the environment; checks the schema is current."""
    engine = make_engine(getattr(args, "db", None))
    if migrated:
        require_current(engine)
    return engine


def guarded(run: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """Turn refusals and database errors into one ``error: ...`` line and exit code 1."""

    def wrapper(args: argparse.Namespace) -> int:
        try:
            return run(args)
        except (LedgerError, DatabaseError) as exc:
            print(f"error: {exc}", file=sys.stderr)
        except SQLAlchemyError as exc:
            print(f"error: database: {str(exc).splitlines()[0]}", file=sys.stderr)
        return 1

    return wrapper


def register(subparsers: Any) -> None:
    """Add the ``db`` subcommand."""
    p = subparsers.add_parser("db", help="create or migrate the database")
    add_db_option(p)
    actions = p.add_subparsers(dest="db_action", metavar="ACTION", required=True)
    up = actions.add_parser("upgrade", help="migrate the database to the newest schema")
    add_db_option(up, leaf=True)
    up.set_defaults(func=guarded(run_upgrade))
    cur = actions.add_parser("current", help="show the database's schema revision")
    add_db_option(cur, leaf=True)
    cur.set_defaults(func=guarded(run_current))


def run_upgrade(args: argparse.Namespace) -> int:
    """Migrate to the newest revision (a fresh database gets every table)."""
    engine = open_engine(args, migrated=False)
    try:
        before = current_revision(engine)
        upgrade(engine)
        after = current_revision(engine)
    finally:
        engine.dispose()
    url = resolve_url(getattr(args, "db", None))
    print(f"{_safe(url)}: {before or 'empty'} -> {after}")
    return 0


def run_current(args: argparse.Namespace) -> int:
    """Print the current and newest revisions; exit 1 if the database needs upgrading."""
    engine = open_engine(args, migrated=False)
    try:
        current = current_revision(engine)
    finally:
        engine.dispose()
    head = head_revision()
    print(f"current {current or 'none'}, newest {head}")
    return 0 if current == head else 1


def _safe(url: str) -> str:
    """The URL without its password, for printing."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)
