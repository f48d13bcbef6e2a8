"""Helpers for the HTTP API tests: one real server per test module and backend, players.

A module's tests share its server (starting one costs a migration and the
tables); each test registers its own players under fresh aliases.
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from cardroom.bots.player import Bot
from cardroom.bots.random_bot import RandomBot
from cardroom.server.settings import ServerSettings
from cardroom.store import Players, make_engine

from .conftest import OPEN_SIGNUPS, TABLES_TOML, PgDatabases, running_server

PASSWORD = "password1"
_names = itertools.count()


@dataclass(frozen=True)
class Api:
    """A running server: its base URL and database URL."""

    base: str
    database_url: str
    settings: ServerSettings

    def client(self, **kwargs: Any) -> httpx.Client:
        """An HTTP client for this server (cookies kept)."""
        return httpx.Client(base_url=self.base, timeout=30, **kwargs)


def fresh_alias(prefix: str = "p") -> str:
    """An alias no other test of the run uses (letters then digits, <= 16 characters)."""
    return f"{prefix}{next(_names)}x{id(_names) % 9973}"


def start_api(
    request: pytest.FixtureRequest, tmp: Path, backend: str | None = None, **changes: Any
) -> Iterator[Api]:
    """A server on SQLite or PostgreSQL (``backend``, else ``request.param``) with
    ``changes`` to the test settings."""
    if (backend or request.param) == "sqlite":
        url = f"sqlite:///{tmp / 'api.db'}"
    else:
        made: PgDatabases = request.getfixturevalue("pg_databases")
        url = made.create()
    tables = tmp / "tables.toml"
    tables.write_text(TABLES_TOML)
    settings = ServerSettings(
        database_url=url,
        tables_file=tables,
        cheap_passwords=True,
        tick_seconds=0.05,
        limits=OPEN_SIGNUPS,
    )
    settings = dataclasses.replace(settings, **changes)
    with running_server(settings) as base:
        yield Api(base, url, settings)


BACKENDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]


def register(api: Api, alias: str | None = None, **extra: Any) -> str:
    """Register a player; returns the alias."""
    alias = alias or fresh_alias()
    body = {"alias": alias, "password": PASSWORD, "age_confirmed": True, **extra}
    answer = httpx.post(api.base + "/api/register", json=body)
    assert answer.status_code == 201, answer.text
    return alias


def login(api: Api, alias: str) -> tuple[httpx.Client, dict[str, Any]]:
    """A cookie client logged in as ``alias`` and the login's answer."""
    client = api.client()
    answer = client.post("/api/login", json={"alias": alias, "password": PASSWORD})
    assert answer.status_code == 200, answer.text
    return client, answer.json()


def bearer(api: Api, alias: str) -> httpx.Client:
    """A client that authenticates with the bearer token only (a bot)."""
    answer = httpx.post(api.base + "/api/login", json={"alias": alias, "password": PASSWORD})
    assert answer.status_code == 200, answer.text
    token = answer.json()["token"]
    return api.client(headers={"authorization": f"Bearer {token}"})


def make_operator(api: Api, alias: str) -> None:
    """Grant the operator role straight in the database (as the command line would)."""
    engine = make_engine(api.database_url)
    try:
        Players(engine).set_role(alias, "operator", operator="test")
    finally:
        engine.dispose()


def play_hands(api: Api, table: str, aliases: list[str], hands: int) -> None:
    """Random-legal bots ``aliases`` play at ``table`` until ``hands`` hands finished (the
    first bot's own hand histories count them: the lobby's hands per hour is a rate)."""

    async def session() -> None:
        bots = [RandomBot(api.base, a, PASSWORD, table, seed=i) for i, a in enumerate(aliases)]
        stop = asyncio.Event()
        tasks = [asyncio.create_task(b.play(stop)) for b in bots]
        with bearer(api, aliases[0]) as first:
            async with asyncio.timeout(60):
                while True:
                    await asyncio.sleep(0.2)
                    page = await asyncio.to_thread(first.get, "/api/hands", params={"limit": 1})
                    if page.json()["total"] >= hands:
                        break
        await stop_bots(stop, bots, tasks)

    asyncio.run(session())


async def stop_bots(
    stop: asyncio.Event, bots: Sequence[Bot], tasks: list[asyncio.Task[Any]]
) -> None:
    """Stop bots started with ``stop``: close their connections, wait for their tasks."""
    stop.set()
    for b in bots:
        if b.client is not None:
            await b.client.close()
    await asyncio.gather(*tasks, return_exceptions=True)
