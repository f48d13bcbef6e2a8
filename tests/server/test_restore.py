"""A room restored from a backup (docs/server_backup.md), on both databases: a backup
taken while the room serves, restored into a fresh database, a fresh server on it.

What a client saw after the backup is in no record of the restored room, yet the client
holds its sequence numbers: a page left open across the restore reconnects with
``watch`` ``since`` its last one, which the restored table may already have reached with
other events. The client names the server run that sent it (``hello.run``), and a
``since`` from another run beyond what this run found in the record is answered with a
snapshot, not with the events after it."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
import subprocess
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import make_url
from tests.server.conftest import PgDatabases, running_server
from tests.server.sessions import answer

from cardroom.bots.client import ProtocolClient, account
from cardroom.server.settings import ServerSettings

LIMIT = 15.0
"""Seconds any one read of the test may wait."""


def _backup(url: str, into: Path) -> str:
    """Back the serving room's database up as an operator would (docs/server_backup.md):
    SQLite's online backup, or ``pg_dump``; the backup's location."""
    if url.startswith("sqlite:///"):
        copy = into / "backup.db"
        with sqlite3.connect(url[len("sqlite:///") :]) as source, sqlite3.connect(copy) as dest:
            source.backup(dest)
        return str(copy)
    dump = into / "room.dump"
    subprocess.run(["pg_dump", "-Fc", "-f", str(dump), _libpq(url)], check=True, timeout=60)
    return str(dump)


def _libpq(url: str) -> str:
    """The URL as PostgreSQL's own tools read it (without SQLAlchemy's driver name)."""
    return url.replace("postgresql+psycopg://", "postgresql://", 1)


def _restore(backup: str, settings: ServerSettings, into: Path, request: Any) -> ServerSettings:
    """The backup restored into a fresh database; the settings that serve it."""
    if backup.endswith(".db"):
        fresh = into / "restored.db"
        shutil.copyfile(backup, fresh)
        return replace(settings, database_url=f"sqlite:///{fresh}")
    made: PgDatabases = request.getfixturevalue("pg_databases")
    name = f"{made.prefix}_restored"  # beside the session's, dropped with it
    with made.admin.connect() as conn:
        conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
    if name not in made.made:
        made.made.append(name)
    url = make_url(str(settings.database_url)).set(database=name)
    url = url.render_as_string(hide_password=False)
    subprocess.run(["pg_restore", "--no-owner", "-d", _libpq(url), backup], check=True, timeout=60)
    return replace(settings, database_url=url)


async def _connect(base: str, alias: str) -> tuple[ProtocolClient, dict[str, Any]]:
    login = await asyncio.to_thread(account, base, alias, "password1")
    client = await ProtocolClient.connect(base, login["token"])
    async with asyncio.timeout(LIMIT):
        hello = await client.receive()
    assert hello["type"] == "hello"
    return client, hello


async def _watch(client: ProtocolClient, **fields: Any) -> list[dict[str, Any]]:
    """Watch holdem; every message up to the watch's answer, the answer last."""
    sent = await client.send("watch", table="holdem", **fields)
    got: list[dict[str, Any]] = []
    async with asyncio.timeout(LIMIT):
        while True:
            got.append(await client.receive())
            if got[-1]["type"] in ("ok", "error") and got[-1].get("re") == sent:
                return got


async def _sit(client: ProtocolClient, join_id: str) -> int:
    """Sit at holdem's seat 0; the table's last sequence number after it."""
    await client.send("join", id=join_id, table="holdem", seat=0, amount=40)
    ok = await answer(client, join_id)
    assert ok["type"] == "ok", ok
    return int(ok["seq"])


def _needs_pg_tools(settings: ServerSettings) -> None:
    if not str(settings.database_url).startswith("sqlite") and not shutil.which("pg_dump"):
        pytest.skip("pg_dump and pg_restore are not installed")


def test_a_client_s_sequence_number_from_after_the_backup_gets_a_snapshot_after_a_restore(
    settings: ServerSettings, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    _needs_pg_tools(settings)

    async def before(base: str) -> tuple[int, str]:
        alice, hello = await _connect(base, "alice")
        await _watch(alice)
        backup.append(await asyncio.to_thread(_backup, str(settings.database_url), tmp_path))
        seen = await _sit(alice, "j1")  # after the backup: lost with the machine
        await alice.close()
        return seen, str(hello.get("run", ""))

    async def after(base: str, seen: int, run: str) -> list[dict[str, Any]]:
        bobby, _ = await _connect(base, "bobby")
        await _watch(bobby)
        last = await _sit(bobby, "j2")  # the restored table's own seat 0
        for k in range(10):  # until it reaches what alice saw of the lost one
            if last >= seen:
                break
            await bobby.send("chat", id=f"c{k}", table="holdem", text="hello")
            last = int((await answer(bobby, f"c{k}"))["seq"])
        assert last >= seen
        alice, hello = await _connect(base, "alice")
        assert hello.get("run", "") != run or not run  # another run of the server
        got = await _watch(alice, since=seen, **({"run": run} if run else {}))
        await alice.close()
        await bobby.close()
        return got

    backup: list[str] = []
    with running_server(settings) as base:
        seen, run = asyncio.run(before(base))
    restored = _restore(backup[0], settings, tmp_path, request)
    with running_server(restored) as base:
        got = asyncio.run(after(base, seen, run))
    assert got[-1]["type"] == "ok", got[-1]
    snapshots = [m for m in got if m["type"] == "snapshot"]
    assert snapshots, [m["type"] for m in got]  # not the restored table's events after it
    (seat,) = [s for s in snapshots[-1]["view"]["seats"] if s is not None]
    assert snapshots[-1]["view"]["you"] is None and seat["seat"] == 0  # bobby's, not hers


def test_a_client_s_sequence_number_of_the_same_run_still_gets_what_it_missed(
    settings: ServerSettings,
) -> None:
    # Everything a client saw was stored before it was sent: within one run, and of an
    # earlier run up to what the record held, its ``since`` is answered with the events.
    async def play(base: str) -> list[dict[str, Any]]:
        alice, hello = await _connect(base, "alice")
        await _watch(alice)
        seen = await _sit(alice, "j1")
        alice.drop()
        bobby, _ = await _connect(base, "bobby")
        await bobby.send("join", id="j2", table="holdem", seat=1, amount=40)
        assert (await answer(bobby, "j2"))["type"] == "ok"
        alice, _ = await _connect(base, "alice")
        got = await _watch(alice, since=seen, run=hello["run"])
        await alice.close()
        await bobby.close()
        return got

    with running_server(settings) as base:
        got = asyncio.run(play(base))
    assert got[-1]["type"] == "ok", got[-1]
    assert not [m for m in got if m["type"] == "snapshot"]
    events = [e["event"] for m in got if m["type"] == "events" for e in m["events"]]
    assert any(e["type"] == "PlayerSeated" and e["seat"] == 1 for e in events), events
