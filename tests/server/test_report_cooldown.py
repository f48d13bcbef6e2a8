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

BUY_IN = {"holdem": 40, "stud": 80}


async def _report(base: str, table: str, report_id: str) -> dict[str, Any]:
    """``hank`` watching ``table`` reports ``ivan`` seated there: the answer."""
    ivan, _ = await player(base, "ivan")
    hank, _ = await player(base, "hank")
    await ivan.send("join", id=f"j{report_id}", table=table, seat=0, amount=BUY_IN[table])
    await hank.send("watch", id=f"w{report_id}", table=table)
    for client, sent in ((ivan, f"j{report_id}"), (hank, f"w{report_id}")):
        done = await answer(client, sent)
        assert done["type"] == "ok", done
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


def test_10_7_a_report_names_a_player_at_the_table_never_a_watcher(
    settings: ServerSettings,
) -> None:
    """Coffee-housing or collusion is reported of a player: one seated, or who left the
    table lately. A watcher can neither chat nor play, and an answer that told whether
    somebody watches would say who is on the rail, which nothing else shows."""

    async def go() -> list[dict[str, Any]]:
        ivan, _ = await player(base, "ivan")
        hank, _ = await player(base, "hank")
        await ivan.send("watch", id="w", table="holdem")
        assert (await answer(ivan, "w"))["type"] == "ok"
        told = []
        for n, name in enumerate(("ivan", "nobody9")):  # the same answer for both
            await hank.send("report", id=f"r{n}", table="holdem", player=name, reason="other")
            told.append(await answer(hank, f"r{n}"))
        await ivan.send("join", id="j", table="holdem", seat=2, amount=40)
        assert (await answer(ivan, "j"))["type"] == "ok"
        await ivan.send("leave", id="l", table="holdem")
        assert (await answer(ivan, "l"))["type"] == "ok"
        await hank.send("report", id="r2", table="holdem", player="ivan", reason="collusion")
        told.append(await answer(hank, "r2"))  # left lately: still reportable
        await hank.close()
        await ivan.close()
        return told

    with running_server(settings) as base:
        watcher, nobody, gone = asyncio.run(go())
    for told, name in ((watcher, "ivan"), (nobody, "nobody9")):
        assert told["type"] == "error" and told["code"] == "bad_report", told
        assert told["message"] == f"no player {name!r} at this table lately", told
    assert gone["type"] == "ok", gone
