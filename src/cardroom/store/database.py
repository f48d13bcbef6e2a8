"""Connecting to the database: SQLite file (default) or PostgreSQL, chosen by URL.

SQLite runs in WAL mode with a busy timeout, and every transaction starts
with ``BEGIN IMMEDIATE`` so writers queue instead of failing half-way (the
concurrency guarantee for money). PostgreSQL uses psycopg 3; balances are
protected there by row locks taken in a consistent order (see ``ledger_sql``).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

ENV_VAR = "CARDROOM_DATABASE_URL"
DEFAULT_URL = "sqlite:///cardroom.db"
SQLITE_BUSY_SECONDS = 30


class DatabaseError(RuntimeError):
    """The database URL is unusable or the database is not ready; the message says why."""


def resolve_url(explicit: str | None = None) -> str:
    """The database URL: ``explicit`` (``--db``), else ``$CARDROOM_DATABASE_URL``, else
    a SQLite file ``cardroom.db`` in the working directory.

    ``postgresql://`` and ``postgres://`` are read as ``postgresql+psycopg://``
    (psycopg 3 is the driver shipped with cardroom).
    """
    url = explicit or os.environ.get(ENV_VAR) or DEFAULT_URL
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            url = "postgresql+psycopg://" + url[len(prefix) :]
    try:
        parsed = make_url(url)
    except ArgumentError as exc:
        raise DatabaseError(f"not a database URL: {url!r} ({exc})") from None
    backend = parsed.get_backend_name()
    if backend not in ("sqlite", "postgresql"):
        raise DatabaseError(f"unsupported database {backend!r}: use sqlite or postgresql")
    if backend == "postgresql" and not parsed.database:
        # The server would connect to the user's default database (often ``postgres``)
        # and the schema would land there unnoticed.
        shown = parsed.render_as_string(hide_password=True)
        raise DatabaseError(
            f"{shown} names no database: add one, e.g. postgresql://user@host:5432/cardroom"
        )
    return url


def sqlite_path(url: str) -> Path | None:
    """The file a SQLite URL names (None for PostgreSQL and in-memory SQLite)."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    if parsed.query.get("mode") == "memory" or str(parsed.database).startswith("file::memory:"):
        return None
    return Path(str(parsed.database).removeprefix("file:").partition("?")[0])


def make_engine(url: str | None = None, *, create: bool = True, **kwargs: Any) -> Engine:
    """An engine for ``url`` (resolved by :func:`resolve_url`), configured for money.

    With ``create=False`` a SQLite file that does not exist is refused with
    :class:`DatabaseError` instead of being created empty (SQLite creates the
    file on first connect): a command that only reads must leave no trace.
    """
    url = resolve_url(url)
    path = sqlite_path(url)
    if path is not None and not create and not path.exists():
        raise DatabaseError(f"there is no database at {path}: run `cardroom db upgrade` first")
    if make_url(url).get_backend_name() == "sqlite":
        engine = create_engine(url, connect_args={"timeout": SQLITE_BUSY_SECONDS}, **kwargs)
        _configure_sqlite(engine)
        return engine
    return create_engine(url, pool_pre_ping=True, **kwargs)


def _configure_sqlite(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy's "begin" event issue BEGIN itself (pysqlite would defer it).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_SECONDS * 1000}")
        cursor.execute("PRAGMA foreign_keys = ON")
        if engine.url.database not in (None, "", ":memory:"):
            cursor.execute("PRAGMA journal_mode = WAL")
            cursor.execute("PRAGMA synchronous = NORMAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Any) -> None:
        # Take the write lock up front: two read-then-write transactions can never
        # interleave, so no balance is read stale and no upgrade deadlock occurs.
        # A reader (WAL: it never waits for a writer) does not queue for it.
        if connection.get_execution_options().get(_READ_ONLY):
            connection.exec_driver_sql("BEGIN")
        else:
            connection.exec_driver_sql("BEGIN IMMEDIATE")


_READ_ONLY = "cardroom_read_only"


def read_only(engine: Engine) -> Engine:
    """``engine`` for transactions that only read: on SQLite they do not take the write
    lock, so a read never waits behind the writers. Never write through it: the write
    lock would be taken late, which the money's guarantee forbids."""
    return engine.execution_options(**{_READ_ONLY: True})


def one_moment(engine: Engine) -> Engine:
    """``engine`` for a transaction that only reads and sees the database at one moment,
    however the room writes meanwhile (a ledger check beside a serving room): PostgreSQL's
    REPEATABLE READ; on SQLite a deferred BEGIN, whose WAL snapshot is taken at the first
    read and which never waits for the writers. Never write through it."""
    if engine.dialect.name == "sqlite":
        return read_only(engine)
    return engine.execution_options(isolation_level="REPEATABLE READ")


Clock = Callable[[], datetime]
"""Injected time source: returns an aware UTC datetime (tests pass a manual clock)."""


def system_clock() -> datetime:
    """The current time, UTC."""
    return datetime.now(UTC)
