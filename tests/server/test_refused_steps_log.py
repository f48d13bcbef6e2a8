"""A full disk is logged once a table, not once a refused step."""

from __future__ import annotations

import asyncio
import logging
import re

import pytest
from tests.server.conftest import running_server
from tests.server.disk_full import disk_full
from tests.server.sessions import answer, money_problems, seated_pair, until

from cardroom.server.settings import ServerSettings


def test_a_table_whose_steps_the_database_refuses_says_so_once_not_every_tick(
    settings: ServerSettings, caplog: pytest.LogCaptureFixture
) -> None:
    """Measured live (SQLite on a full 16 MB disk, the room's eight tables with their
    bots): each refused step logged a WARNING, and each table tries again at every tick
    of its clock, so 1,853 lines in a minute buried the first, which said why (and, the
    log on the same disk, could not be written either). Now one WARNING when a table's
    steps begin to be refused, a reminder a minute while it lasts, and one when a step is
    stored again, saying how long and how many were refused."""
    caplog.set_level(logging.INFO, logger="cardroom")
    url = settings.database_url
    assert url is not None

    async def go(base: str) -> None:
        a, _, b, _ = await seated_pair(base)
        await until(a, "events", table="holdem")  # playing: the clock makes steps
        await asyncio.to_thread(disk_full, url, "table_entries")
        for n in range(3):  # a line said, refused: the table rebuilt, its clocks resumed
            await a.send("chat", id=f"c{n}", table="holdem", text="nh")
            assert (await answer(a, f"c{n}"))["code"] == "not_stored"
        await asyncio.sleep(1.0)  # the resumed clocks' steps, each tick: refused too
        await asyncio.to_thread(disk_full, url, "table_entries", False)
        await until(a, "events", table="holdem")  # stored again: the table plays on
        for c in (a, b):
            await c.close()

    with running_server(settings) as base:
        asyncio.run(go(base))
    told = [r.getMessage() for r in caplog.records if r.name.startswith("cardroom")]
    refused = [m for m in told if "holdem" in m and "not stored" in m]
    assert len(refused) == 1, refused
    again = [m for m in told if "holdem" in m and "stored again" in m]
    assert len(again) == 1, told
    count = re.search(r"(\d+) step\(s\) refused", again[0])
    assert count is not None and int(count.group(1)) >= 3, again
    assert money_problems(url) == []
