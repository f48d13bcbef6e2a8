"""RULEBOOK §10.10 at named instants: a real ``cardroom serve`` process kills itself with
SIGKILL right after the step it is told of is stored (``CARDROOM_CRASH_AFTER``,
``server/crash_points.py``), the instants the random kills of ``test_crash.py`` reach
seldom or never; then it is started again on the same database (SQLite and PostgreSQL)
and what was stored must be whole."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path
from typing import Any

from tests.server.sessions import answer, money_problems, player
from tests.server.test_crash import ServerProcess

from cardroom.server.crash_points import ENV
from cardroom.store import Players, SanctionKind, make_engine
from cardroom.store.tables import TableRecords

TABLES = """
[[table]]
id = "holdem"
game = "holdem"
stakes = { small_blind = 1, big_blind = 2 }
seats = 6
"""


def _tables(tmp_path: Path, text: str = TABLES) -> Path:
    path = tmp_path / "tables.toml"
    path.write_text(text)
    return path


def _crashing(url: str, tables: Path, point: str) -> ServerProcess:
    """``cardroom serve`` that kills itself right after the step storing ``point``."""
    return ServerProcess(url, tables, env={**os.environ, ENV: point})


def _killed(server: ServerProcess) -> None:
    """Wait for the server to have killed itself at its crash point."""
    assert server.proc.wait(30) == -signal.SIGKILL


def _entries(url: str, table: str) -> list[dict[str, Any]]:
    engine = make_engine(url)
    try:
        return [e for _, e in TableRecords(engine).entries(table, 0, 100_000)]
    finally:
        engine.dispose()


def test_10_7_a_chat_offence_stored_just_before_a_kill_9_keeps_its_ban(
    database_url: str, tmp_path: Path
) -> None:
    """The offence (``ChatBlocked``) and its chat ban were two transactions: a crash
    between them kept the offence and lost the ban, and the offender chatted on."""
    tables = _tables(tmp_path)
    server = _crashing(database_url, tables, "ChatBlocked")

    async def offend() -> None:
        a, _ = await player(server.base, "rude")
        await a.send("join", id="j", table="holdem", seat=0, amount=40)
        assert (await answer(a, "j"))["type"] == "ok"
        await a.send("chat", id="c1", table="holdem", text="play at www.pokerstars.com")
        await asyncio.to_thread(_killed, server)  # no answer: the process is gone

    asyncio.run(offend())
    (blocked,) = [e for e in _entries(database_url, "holdem") if e["type"] == "ChatBlocked"]
    assert blocked["offence"] and blocked["code"] == "advertising"
    engine = make_engine(database_url)
    try:
        assert Players(engine).sanctions("rude") == {SanctionKind.CHAT_BAN}
    finally:
        engine.dispose()
    server = ServerProcess(database_url, tables)

    async def again() -> dict[str, Any]:
        a, _ = await player(server.base, "rude")
        await a.send("join", id="j2", table="holdem", seat=0, amount=40)
        assert (await answer(a, "j2"))["type"] == "ok"  # the recovery stood him up
        await a.send("chat", id="c2", table="holdem", text="hello")
        return await answer(a, "c2")

    refused = asyncio.run(again())
    server.kill()
    assert (refused["code"], refused["message"]) == ("chat_refused", "banned")
    assert money_problems(database_url) == []
