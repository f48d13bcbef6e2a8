"""``cardroom db``: create or migrate the database; shared ``--db`` handling for money commands."""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from cardroom.cli.errors import UsageError, is_utf8

if TYPE_CHECKING:
    from sqlalchemy import Engine

# The store's names, spelled here so that building the parser imports no SQLAlchemy.
ENV_VAR = "CARDROOM_DATABASE_URL"
DEFAULT_URL = "sqlite:///cardroom.db"
DB_HELP = f"database URL (default: ${ENV_VAR}, else {DEFAULT_URL})"


def add_db_option(parser: argparse.ArgumentParser, leaf: bool = False) -> None:
    """Add ``--db URL``; on leaf parsers it must not hide a value given one level up."""
    default = argparse.SUPPRESS if leaf else None
    parser.add_argument("--db", metavar="URL", default=default, help=DB_HELP)


def open_engine(args: argparse.Namespace, migrated: bool = True) -> Engine:
    """The engine for ``--db`` / the environment; checks the schema is current.

    Only ``db upgrade`` (``migrated=False, create=True``) may create a database:
    any other command on a SQLite file that does not exist fails without
    leaving an empty file behind.
    """
    from cardroom.store import make_engine, require_current

    engine = make_engine(getattr(args, "db", None), create=getattr(args, "creates_db", False))
    if migrated:
        try:
            require_current(engine)
        except BaseException:
            engine.dispose()
            raise
    return engine


# A player's own account (player/real/1) and stack at a table (table_stack/real/t9:1).
_PLAYER_KEY = re.compile(r"\bplayer/(real|play)/(\d+)\b")
_STACK_KEY = re.compile(r"\btable_stack/(real|play)/([^\s/:]+):(\d+)\b")


def alias_namer(texts: Iterable[str], args: argparse.Namespace) -> Callable[[str], str]:
    """A function that replaces the player account keys in a text by aliases.

    The ledger names accounts by key; an operator knows players by alias. The
    aliases of every player named in ``texts`` are read once; a player the
    database cannot name (or a database that cannot be read) stays ``player #N``.
    """
    texts = list(texts)
    ids = {int(m.group(2)) for t in texts for m in _PLAYER_KEY.finditer(t)}
    ids |= {int(m.group(3)) for t in texts for m in _STACK_KEY.finditer(t)}
    aliases: dict[int, str] = {}
    if ids:
        try:
            aliases = _aliases(args, ids)
        except Exception:  # the message must still be printed if the lookup fails
            aliases = {}

    def who(player_id: str) -> str:
        return aliases.get(int(player_id), f"player #{player_id}")

    def name(text: str) -> str:
        text = _PLAYER_KEY.sub(lambda m: f"{who(m.group(2))} ({m.group(1)} money)", text)
        return _STACK_KEY.sub(
            lambda m: f"{who(m.group(3))}'s stack at table {m.group(2)} ({m.group(1)} money)", text
        )

    return name


def name_players(message: str, args: argparse.Namespace) -> str:
    """``message`` with every player account key replaced by the player's alias."""
    return alias_namer([message], args)(message)


def _aliases(args: argparse.Namespace, ids: set[int]) -> dict[int, str]:
    from sqlalchemy import select

    from cardroom.store import make_engine
    from cardroom.store.models import Player

    engine = make_engine(getattr(args, "db", None), create=False)
    try:
        with engine.connect() as conn:
            rows = conn.execute(select(Player.id, Player.alias).where(Player.id.in_(ids)))
            return {int(pid): str(alias) for pid, alias in rows}
    finally:
        engine.dispose()


def guarded(run: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """Turn refusals and database errors into one ``error: ...`` line and exit code 1."""

    def wrapper(args: argparse.Namespace) -> int:
        from sqlalchemy.exc import SQLAlchemyError

        from cardroom.ledger import LedgerError
        from cardroom.store import DatabaseError

        for name, value in vars(args).items():  # a traceback at the database else
            if isinstance(value, str) and not is_utf8(value):
                raise UsageError(f"{name}: not UTF-8 text: {value!r}")
        try:
            return run(args)
        except (LedgerError, DatabaseError) as exc:
            print(f"error: {name_players(str(exc), args)}", file=sys.stderr)
        except SQLAlchemyError as exc:
            print(f"error: database: {str(exc).splitlines()[0]}", file=sys.stderr)
        return 1

    return wrapper


Run = Callable[[argparse.Namespace], int]
AddAction = Callable[[str, str, Run], argparse.ArgumentParser]


def database_command(subparsers: Any, name: str, help_text: str) -> AddAction:
    """Add command ``name`` with ``--db``; returns ``add(action, help, run)`` for its actions.

    Each action also takes ``--db`` and runs :func:`guarded`.
    """
    p = subparsers.add_parser(name, help=help_text)
    add_db_option(p)
    actions = p.add_subparsers(dest=f"{name}_action", metavar="ACTION", required=True)

    def add(action: str, action_help: str, run: Run) -> argparse.ArgumentParser:
        sub: argparse.ArgumentParser = actions.add_parser(action, help=action_help)
        add_db_option(sub, leaf=True)
        sub.set_defaults(func=guarded(run))
        return sub

    return add


def register(subparsers: Any) -> None:
    """Add the ``db`` subcommand."""
    action = database_command(subparsers, "db", "create or migrate the database")
    upgrade = action("upgrade", "migrate the database to the newest schema", run_upgrade)
    upgrade.set_defaults(creates_db=True)
    action("current", "show the database's schema revision", run_current)


def run_upgrade(args: argparse.Namespace) -> int:
    """Migrate to the newest revision (a fresh database gets every table); refused while
    a server serves the database (its code, of the release being replaced, would go on
    storing into the new schema)."""
    from cardroom.server.lease import server_seen
    from cardroom.store import current_revision, resolve_url, upgrade

    engine = open_engine(args, migrated=False)
    try:
        if (held := server_seen(engine)) is not None:
            print(
                f"cardroom db upgrade: another server is running on this database ({held}):"
                " stop it first",
                file=sys.stderr,
            )
            return 1
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
    from cardroom.store import current_revision, head_revision

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
