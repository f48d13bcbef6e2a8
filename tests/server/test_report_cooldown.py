"""RULEBOOK §10.7: one report of the same player by the same reporter at a table per
``report_every_seconds`` (10 minutes), decided from the stored reports: a restart
of the server does not let the same complaint be filed again at once (SQLite and
PostgreSQL, one server after the other on the same database)."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.server.conftest import running_server
from tests.server.sessions import answer, player

from cardroom.server.settings import ServerSettings


async def _report(base: str, table: str, report_id: str) -> dict[str, Any]:
    """``hank`` watching ``table`` reports ``ivan`` watching it too: the answer."""
    ivan, _ = await player(base, "ivan")
    hank, _ = await player(base, "hank")
    for client in (ivan, hank):
        await client.send("watch", id=f"w{report_id}", table=table)
        watching = await answer(client, f"w{report_id}")
        assert watching["type"] == "ok", watching
    await hank.send("report", id=report_id, table=table, player="ivan", reason="other")
    told = await answer(hank, report_id)
    await hank.close()
    await ivan.close()
    return told


def test_10_7_the_report_cooldown_holds_over_a_restart(settings: ServerSettings) -> None:
    with running_server(settings) as base:
        assert asyncio.run(_report(base, "holdem", "r1"))["type"] == "ok"
    with running_server(settings) as base:  # the same database, a new process's memory
        again = asyncio.run(_report(base, "holdem", "r2"))
        # The cooldown was the table's memory alone: the second report went through.
        assert again["type"] == "error" and again["code"] == "bad_report", again
        assert "lately" in again["message"]
        # Another table is another complaint.
        assert asyncio.run(_report(base, "stud", "r3"))["type"] == "ok"
