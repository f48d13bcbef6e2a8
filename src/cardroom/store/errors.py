"""Database failures in the project's own words: no SQLAlchemy error leaves the store.

Every public method of the store runs under :func:`storage_errors`, which turns
a SQLAlchemy error into a :class:`StoreError` that says what failed, why in
plain words, and the driver's one-line reason (never the SQL or its values).
Refusals by the rules (``LedgerError`` and its kind) pass through unchanged.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from sqlalchemy.exc import (
    DataError,
    DBAPIError,
    IntegrityError,
    InterfaceError,
    OperationalError,
    SQLAlchemyError,
)
from sqlalchemy.exc import TimeoutError as PoolTimeout

from cardroom.ledger import LedgerError
from cardroom.store.database import DatabaseError

P = ParamSpec("P")
R = TypeVar("R")

LARGEST_ID = 2**63 - 1
"""Ids are signed 64-bit integers in both databases."""

_SCHEMA_SQLSTATES = {"42P01", "42703"}  # undefined table, undefined column
_SCHEMA_WORDS = ("no such table", "no such column")
_NO_DATABASE = re.compile(r'database ".*" does not exist')
"""PostgreSQL refusing a connection to a database never created (the refusal comes
before any session, so the driver's error carries no SQLSTATE: the words are all)."""


class StoreError(DatabaseError):
    """The database failed or refused an operation; the message says which and why, and
    ends with the driver's own first line for the operator. ``public``: the message
    without it, for a client (the driver's words name hosts, databases and tables)."""

    def __init__(self, message: str, public: str | None = None) -> None:
        super().__init__(message)
        self.public = message if public is None else public


def client_words(exc: DatabaseError) -> str:
    """What a client may be told of a database failure: never the driver's words."""
    return exc.public if isinstance(exc, StoreError) else str(exc)


def _detail(exc: SQLAlchemyError) -> str:
    source = exc.orig if isinstance(exc, DBAPIError) else exc
    lines = str(source).strip().splitlines()
    return lines[0] if lines else type(source).__name__


def _why(exc: SQLAlchemyError, detail: str) -> str:
    sqlstate = getattr(getattr(exc, "orig", None), "sqlstate", None)
    if sqlstate in _SCHEMA_SQLSTATES or any(w in detail for w in _SCHEMA_WORDS):
        return "the database schema is missing or out of date: run `cardroom db upgrade`"
    if _NO_DATABASE.search(detail):
        return "the database named in the URL does not exist: create it first (CREATE DATABASE)"
    if isinstance(exc, OperationalError | InterfaceError | PoolTimeout):
        return "the database is unreachable or busy; try again later"
    if isinstance(exc, DataError):
        return "a value does not fit in the database"
    if isinstance(exc, IntegrityError):
        return "the database refused a change that would break its rules"
    return "the database reported an error"


def store_error(action: str, exc: SQLAlchemyError) -> StoreError:
    """The :class:`StoreError` for ``exc`` raised while doing ``action``."""
    detail = _detail(exc)
    public = f"{action} failed: {_why(exc, detail)}"
    return StoreError(f"{public} ({detail})", public)


def storage_errors(action: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Decorate a public store function: SQLAlchemy errors become :class:`StoreError`.

    ``action`` names the operation for the message ("post to the ledger").
    A Python integer too large for SQLite's driver is reported the same way.
    """

    def decorate(function: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(function)
        def guarded(*args: P.args, **kwargs: P.kwargs) -> R:
            try:
                return function(*args, **kwargs)
            except SQLAlchemyError as exc:
                raise store_error(action, exc) from exc
            except OverflowError as exc:
                raise StoreError(
                    f"{action} failed: a number is too large for the database"
                ) from exc

        return guarded

    return decorate


def valid_id(value: int) -> bool:
    """Whether ``value`` can be a row id (so a look-up may be sent to the database)."""
    return type(value) is int and 0 < value <= LARGEST_ID


class AccountError(LedgerError):
    """An account operation was refused; the message says why."""
