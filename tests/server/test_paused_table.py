"""A table whose steps the database refuses (a full disk) stands still quietly: it
tries again with a back-off, and a watcher is sent a snapshot only when what he sees
changed."""

from __future__ import annotations

import asyncio
import time

from tests.server.conftest import running_server
from tests.server.disk_full import disk_full
from tests.server.sessions import answer, money_problems, player, seated_pair, until

from cardroom.server.settings import ServerSettings

STILL = 3.0
"""Seconds the disk stays full while the watcher counts what he is sent."""


def test_a_table_whose_steps_are_refused_does_not_send_its_watchers_a_snapshot_a_tick(
    settings: ServerSettings,
) -> None:
    """Measured live: each refused step rebuilt the table from its record and sent every
    watcher a fresh snapshot, and the table tried again at every tick of its clock (its
    clocks resumed: a step to store), so a watcher got about 200 snapshots (670 KB) in
    30 s of full disk, each the same table. Now the table tries again with a back-off,
    and a watcher is sent the table only when what he sees is not what he was sent."""
    url = settings.database_url
    assert url is not None

    async def go(base: str) -> None:
        a, _, b, _ = await seated_pair(base)
        c, _ = await player(base, "carol")
        await c.send("watch", id="w", table="holdem")
        assert (await answer(c, "w"))["type"] == "ok"
        await until(a, "events", table="holdem")  # playing: the clock makes steps
        await asyncio.to_thread(disk_full, url, "table_entries")
        await a.send("chat", id="c0", table="holdem", text="nh")  # refused: a rebuild
        assert (await answer(a, "c0"))["code"] == "not_stored"
        snapshots, told = 0, []
        end = time.monotonic() + STILL
        while (left := end - time.monotonic()) > 0:
            try:
                msg = await asyncio.wait_for(c.receive(), left)
            except TimeoutError:
                break
            snapshots += msg["type"] == "snapshot"
            if msg["type"] == "table_paused":
                told.append(msg["paused"])
        late, _ = await player(base, "dave")  # watching meanwhile: told too
        await late.send("watch", id="w", table="holdem")
        await until(late, "table_paused", table="holdem", paused=True)
        await asyncio.to_thread(disk_full, url, "table_entries", False)
        await until(c, "table_paused", limit=15, table="holdem", paused=False)
        await until(c, "events", limit=15, table="holdem")  # stored again: play resumes
        for client in (a, b, c, late):
            await client.close()
        # At the 50 ms tick of the tests: 60 snapshots before, one (the first refusal's).
        assert snapshots <= 1, snapshots
        assert told == [True], told  # once, with the refusal, not at each try

    with running_server(settings) as base:
        asyncio.run(go(base))
    assert money_problems(url) == []


def test_every_watcher_of_a_table_whose_steps_are_refused_is_told_it_is_paused(
    settings: ServerSettings,
) -> None:
    """Only the player who acted was told ("The change could not be stored"): the others
    at the table, and its watchers, saw it stand still with no word why. Now every
    watcher is told ``table_paused`` once when the refusals begin, and once when a step
    is stored again, before the events that resume play."""
    url = settings.database_url
    assert url is not None

    async def go(base: str) -> None:
        a, _, b, _ = await seated_pair(base)
        await until(a, "events", table="holdem")
        await asyncio.to_thread(disk_full, url, "table_entries")
        await a.send("chat", id="c0", table="holdem", text="nh")
        for client in (a, b):
            msg = await until(client, "table_paused", table="holdem")
            assert msg["paused"] is True
        await asyncio.to_thread(disk_full, url, "table_entries", False)
        for client in (a, b):
            msg = await until(client, "table_paused", limit=15, table="holdem")
            assert msg["paused"] is False
            await until(client, "events", table="holdem")
            await client.close()

    with running_server(settings) as base:
        asyncio.run(go(base))
    assert money_problems(url) == []
