"""`cardroom ledger check` beside a serving room: the tables' records and the ledger's
balances are read at one moment, so a busy room is never reported as drifting."""

from __future__ import annotations

import asyncio
import itertools
import json
import threading
from typing import Any

import pytest
from sqlalchemy import Engine, event
from tests.server.conftest import running_server
from tests.server.sessions import answer, player

from cardroom.cli import main as cli_main
from cardroom.server.settings import ServerSettings

MOVES = 15
"""Rebuys of one chip at most (alice sits with 20 of the table's 40 at most)."""


def test_10_9_a_table_that_moves_before_every_read_of_its_record_is_no_drift(
    settings: ServerSettings, capsys: pytest.CaptureFixture[str]
) -> None:
    """The soak's check beside 20 busy tables once said "table_stack/play/badugi-1:27
    holds 62, the table's record says 90" and exited 1, nothing being wrong: a table
    whose record moved at each of its five reads was compared, as last read, with
    balances read before it. Here the table stores a rebuy before every read of its
    entries: the check must find nothing."""
    url = settings.database_url
    assert url is not None

    async def go(base: str) -> int:
        alice, _ = await player(base, "alice")
        await alice.send("join", id="j", table="holdem", seat=0, amount=20)
        assert (await answer(alice, "j"))["type"] == "ok"  # alone: no hand, rebuys allowed
        loop = asyncio.get_running_loop()
        checker: list[int] = []
        moves = itertools.count(1)

        async def rebuy(n: int) -> None:
            await alice.send("rebuy", id=f"r{n}", table="holdem", amount=1)
            assert (await answer(alice, f"r{n}"))["type"] == "ok"

        def move_first(_c: Any, _cur: Any, statement: str, *_args: Any) -> None:
            reads_entries = "FROM table_entries" in statement
            if threading.get_ident() in checker and reads_entries:
                n = next(moves)
                if n <= MOVES:  # the room stores a step just before the check reads
                    asyncio.run_coroutine_threadsafe(rebuy(n), loop).result(timeout=15)

        def check() -> int:
            checker.append(threading.get_ident())
            return cli_main(["ledger", "check", "--db", url, "--json"])

        event.listen(Engine, "before_cursor_execute", move_first)
        try:
            code = await asyncio.to_thread(check)
        finally:
            event.remove(Engine, "before_cursor_execute", move_first)
        assert next(moves) > 2, "the table did not move while the check read"
        await alice.close()
        return code

    with running_server(settings) as base:
        code = asyncio.run(go(base))
    report = json.loads(capsys.readouterr().out)
    assert report["violations"] == [] and code == 0, report
