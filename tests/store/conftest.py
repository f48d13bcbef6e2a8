"""Database fixtures: every store test runs on SQLite and on PostgreSQL.

PostgreSQL is the real server at 127.0.0.1:5432 (``CARDROOM_TEST_POSTGRES_URL``
overrides it); each test session creates its own uniquely named database and
drops it at the end, so concurrent runs never collide.
"""

from __future__ import annotations

import os
import secrets
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.engine import make_url

from cardroom.store import migrate
from cardroom.store.database import make_engine

PG_ADMIN_URL = os.environ.get(
    "CARDROOM_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)
TABLES = (
    "audit_log",
    "sanctions",
    "login_attempts",
    "login_throttle_keys",
    "login_sessions",
    "table_entries",
    "table_seatings",
    "table_snapshots",
    "room_tables",
    "ledger_entries",
    "ledger_accounts",
    "players",
    "client_answers",
    "disconnect_allowances",
    "server_secrets",
    "room_memory",
)


class PgServer:
    """Creates and drops uniquely named databases on the test server."""

    def __init__(self) -> None:
        self.admin = create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")
        self.prefix = f"cardroom_test_{os.getpid()}_{secrets.token_hex(3)}"
        self.made: list[str] = []

    def create(self) -> str:
        name = f"{self.prefix}_{len(self.made)}"
        with self.admin.connect() as conn:
            conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
        self.made.append(name)
        return make_url(PG_ADMIN_URL).set(database=name).render_as_string(hide_password=False)

    def drop_all(self) -> None:
        with self.admin.connect() as conn:
            for name in self.made:
                conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        self.admin.dispose()


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    server = PgServer()
    yield server
    server.drop_all()


@pytest.fixture(scope="session")
def pg_migrated(pg_server: PgServer) -> str:
    url = pg_server.create()
    engine = make_engine(url)
    migrate.upgrade(engine)
    engine.dispose()
    return url


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("template") / "cardroom.db"
    engine = make_engine(f"sqlite:///{path}")
    migrate.upgrade(engine)
    engine.dispose()
    return path


class Database:
    """A migrated, empty database; ``reset()`` empties it again (for hypothesis examples)."""

    def __init__(self, kind: str, url: str, template: Path | None = None) -> None:
        self.kind, self.url, self.template = kind, url, template
        self.engine: Engine = make_engine(url)
        self.resets = 0

    def reset(self) -> None:
        if self.kind == "postgresql":
            with self.engine.begin() as conn:
                conn.execute(text(f"TRUNCATE {', '.join(TABLES)} RESTART IDENTITY CASCADE"))
            return
        assert self.template is not None
        self.engine.dispose()
        self.resets += 1
        path = Path(make_url(self.url).database or "").with_name(f"db{self.resets}.db")
        shutil.copy(self.template, path)
        self.url = f"sqlite:///{path}"
        self.engine = make_engine(self.url)


BACKENDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]


@pytest.fixture(params=BACKENDS)
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    """A migrated empty database, once per backend."""
    if request.param == "sqlite":
        template: Path = request.getfixturevalue("sqlite_template")
        path = tmp_path / "db0.db"
        shutil.copy(template, path)
        database = Database("sqlite", f"sqlite:///{path}", template)
    else:
        database = Database("postgresql", request.getfixturevalue("pg_migrated"))
        database.reset()
    yield database
    database.engine.dispose()


@pytest.fixture(params=BACKENDS)
def fresh_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of a brand-new, unmigrated database, once per backend."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'fresh.db'}"
    server: PgServer = request.getfixturevalue("pg_server")
    return server.create()


class ManualClock:
    """A clock that moves only when told (no sleeping in tests)."""

    def __init__(self) -> None:
        from datetime import UTC, datetime

        self.now = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> Any:
        return self.now

    def advance(self, **delta: float) -> None:
        from datetime import timedelta

        self.now += timedelta(**delta)


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture(scope="session")
def cheap_passwords() -> Any:
    """argon2id with minimal cost: the same code path, fast enough for many tests."""
    from cardroom.store.passwords import Passwords

    return Passwords(time_cost=1, memory_cost=8, parallelism=1)
