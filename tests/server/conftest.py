"""Real servers for the server tests: uvicorn on 127.0.0.1, a random port, SQLite or
PostgreSQL (a fresh database each), real WebSocket and HTTP clients; every message a
client receives is checked for another seat's hidden cards (``secrecy.py``)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine
from sqlalchemy.engine import make_url

from cardroom.bots.client import ProtocolClient
from cardroom.room.clock import SECONDS_PER_DAY
from cardroom.server.app import create_app
from cardroom.server.serve import RoomServer, uvicorn_config
from cardroom.server.settings import Limits, ServerSettings

from .secrecy import SecrecyCheck, serving

PG_ADMIN_URL = os.environ.get(
    "CARDROOM_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)


class PgDatabases:
    """One uniquely named PostgreSQL database for the session, emptied for each test
    (TRUNCATE is much faster than creating and dropping a database), dropped at the end."""

    def __init__(self) -> None:
        self.admin = create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")
        self.prefix = f"cardroom_srv_{os.getpid()}_{secrets.token_hex(3)}"
        self.made: list[str] = []

    def create(self) -> str:
        """The session's database, empty (its schema, if any, kept)."""
        if not self.made:
            self.made.append(self.prefix)
            with self.admin.connect() as conn:
                conn.exec_driver_sql(f'CREATE DATABASE "{self.prefix}"')
        url = make_url(PG_ADMIN_URL).set(database=self.prefix)
        engine = create_engine(url)
        with engine.begin() as conn:
            names = (
                conn.exec_driver_sql(
                    "SELECT tablename FROM pg_tables WHERE schemaname = 'public' "
                    "AND tablename <> 'alembic_version'"
                )
                .scalars()
                .all()
            )
            if names:
                listed = ", ".join(f'"{n}"' for n in names)
                conn.exec_driver_sql(f"TRUNCATE {listed} RESTART IDENTITY CASCADE")
        engine.dispose()
        return url.render_as_string(hide_password=False)

    def drop_all(self) -> None:
        with self.admin.connect() as conn:
            for name in self.made:
                conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        self.admin.dispose()


@pytest.fixture(scope="session")
def pg_databases() -> Iterator[PgDatabases]:
    made = PgDatabases()
    yield made
    made.drop_all()


OPEN_SIGNUPS = Limits(
    registrations_per_address=1e6,
    registrations_burst=1e6,
    api_per_address_rate=1e6,
    api_per_address_burst=1e6,
)
"""The client limits of test servers: they register players by the dozen and ask the API
without pause, all from 127.0.0.1 (``test_api_accounts.py`` tests the registration
limits themselves, ``test_limits.py`` the API's)."""

TABLES_TOML = """
[[table]]
id = "holdem"
game = "holdem"
stakes = { small_blind = 1, big_blind = 2 }
seats = 6
hand_pause_seconds = 0.0
action_seconds = 5

[[table]]
id = "stud"
game = "stud"
stakes = { small_bet = 4, big_bet = 8, ante = 1 }
seats = 6
action_seconds = 5

[[table]]
id = "draw"
game = "triple_draw_27"
stakes = { small_blind = 2, big_blind = 4, small_bet = 4, big_bet = 8 }
seats = 6
action_seconds = 5

[[table]]
id = "real"
game = "omaha"
structure = "pot_limit"
stakes = { small_blind = 1, big_blind = 2 }
seats = 6
money = "real"

[[table]]
id = "ofc"
game = "ofc"
point_value = 1
seats = 3
hand_pause_seconds = 0.0
action_seconds = 5
"""


@contextlib.contextmanager
def running_server(
    settings: ServerSettings,
    apps: list[Any] | None = None,
    signup_limits: bool = False,
    host: str = "127.0.0.1",
) -> Iterator[str]:
    """Serve ``settings`` on a random port in a thread; yields the base URL (``apps``
    receives the application, for tests that reach inside). Test servers take every
    registration and API request (their players all come from 127.0.0.1), unless
    ``signup_limits``: then the settings' limits of an address hold. ``host``: where it
    listens (``::``: every IPv6 address and, dual-stack, every IPv4 one; the URL is
    127.0.0.1's still)."""
    if not signup_limits:
        limits = replace(
            settings.limits,
            registrations_per_address=OPEN_SIGNUPS.registrations_per_address,
            registrations_burst=OPEN_SIGNUPS.registrations_burst,
            api_per_address_rate=OPEN_SIGNUPS.api_per_address_rate,
            api_per_address_burst=OPEN_SIGNUPS.api_per_address_burst,
        )
        settings = replace(settings, limits=limits)
    app = create_app(settings)
    if apps is not None:
        apps.append(app)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)  # TCP_NODELAY
    if family == socket.AF_INET6:  # dual-stack whatever the host's default
        sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
    sock.bind((host, 0))
    port = sock.getsockname()[1]
    if settings.database_url is not None:
        serving(port, settings.database_url)
    server = RoomServer(uvicorn_config(app, settings, graceful_seconds=2))
    thread = threading.Thread(target=lambda: asyncio.run(server.serve(sockets=[sock])))
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(30)
        sock.close()


@pytest.fixture
def tables_file(tmp_path: Path) -> Path:
    path = tmp_path / "tables.toml"
    path.write_text(TABLES_TOML)
    return path


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty database (the server migrates it)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'server.db'}"
    made: PgDatabases = request.getfixturevalue("pg_databases")
    return made.create()


@pytest.fixture
def settings(database_url: str, tables_file: Path) -> ServerSettings:
    return ServerSettings(
        database_url=database_url,
        tables_file=tables_file,
        cheap_passwords=True,
        tick_seconds=0.05,
        limits=OPEN_SIGNUPS,
    )


@pytest.fixture
def server(settings: ServerSettings) -> Iterator[str]:
    with running_server(settings) as base:
        yield base


def with_limits(settings: ServerSettings, **limits: Any) -> ServerSettings:
    """``settings`` with some client limits changed."""
    return replace(settings, limits=replace(settings.limits, **limits))


MIDNIGHT_MARGIN_SECONDS = 120.0
"""How close to a UTC midnight a test marked ``today`` may not start: it reads "today"
(the disconnect all-ins a player has left) from the wall clock, here and in the server,
so a day ending in the middle would make its counts disagree."""


def wait_before_midnight(now: float, margin: float = MIDNIGHT_MARGIN_SECONDS) -> float:
    """Seconds to wait from ``now`` so that no UTC midnight falls within ``margin`` of
    the start: 0 normally, until just past midnight when one is that close."""
    ahead = SECONDS_PER_DAY - now % SECONDS_PER_DAY
    return ahead + 1.0 if ahead < margin else 0.0


@pytest.fixture(autouse=True)
def clear_of_midnight(request: pytest.FixtureRequest) -> None:
    """A test marked ``today`` starts at least ``MIDNIGHT_MARGIN_SECONDS`` before a UTC
    midnight, or just after it."""
    if request.node.get_closest_marker("today") is not None:
        time.sleep(wait_before_midnight(time.time()))


@pytest.fixture(autouse=True)
def every_message_checked(monkeypatch: pytest.MonkeyPatch) -> Iterator[SecrecyCheck]:
    """Every message any protocol client of the test receives (bots', spectators',
    players') is checked for another seat's hidden cards and the deck (RULEBOOK §12)."""
    check = SecrecyCheck()
    receive = ProtocolClient.receive

    async def checked(self: ProtocolClient) -> dict[str, Any]:
        message = await receive(self)
        check(self, message)
        return message

    monkeypatch.setattr(ProtocolClient, "receive", checked)
    yield check
    check.close()


def database_down(actor: Any) -> list[bool]:
    """The database refuses ``actor``'s steps and every read of its record back, until
    the caller sets the returned flag's ``[0]`` to False (the database back)."""
    real_commit, real_rebuild = actor.records.commit_all, actor.rebuild_record
    down = [True]

    def failing_commit(steps: Any) -> None:
        if down[0] and any(s.table_id == actor.table_id for s in steps):
            raise RuntimeError("database gone")
        real_commit(steps)

    def failing_rebuild() -> Any:
        if down[0]:
            raise RuntimeError("database still gone")
        return real_rebuild()

    actor.records.commit_all = failing_commit
    actor.rebuild_record = failing_rebuild
    return down
