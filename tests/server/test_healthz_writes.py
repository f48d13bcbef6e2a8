"""``/healthz`` sees the tables' writes, not only a query: a full disk is not healthy."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import httpx
from tests.server.conftest import running_server
from tests.server.disk_full import disk_full
from tests.server.sessions import answer, money_problems, player

from cardroom.server.settings import ServerSettings


def test_10_10_healthz_says_unavailable_while_the_database_refuses_the_tables_steps(
    settings: ServerSettings,
) -> None:
    """On a full disk (and on a database dropped and made again empty) every table step
    was refused and every table stood still, yet ``/healthz`` said 200 "reachable": a
    query still answered. A load balancer or a monitor went on sending players to a room
    that could play nothing. Now it is 503 ``unavailable`` from the first step refused
    until a step is stored again; the reason is in the log, not in the answer."""
    url = settings.database_url
    assert url is not None

    async def go(base: str) -> None:
        async with httpx.AsyncClient(base_url=base, timeout=10) as web:
            a, _ = await player(base, "alice")
            b, _ = await player(base, "bobby")
            await a.send("join", id="j", table="holdem", seat=0, amount=40)
            assert (await answer(a, "j"))["type"] == "ok"
            assert (await web.get("/healthz")).status_code == 200
            await asyncio.to_thread(disk_full, url, "table_entries")
            await b.send("join", id="j", table="holdem", seat=1, amount=40)
            assert (await answer(b, "j"))["code"] == "not_stored"
            sick = await web.get("/healthz")
            body = sick.json()
            assert sick.status_code == 503, body
            assert body["ok"] is False and body["code"] == "unavailable", body
            assert "stor" in body["message"] and "full" not in body["message"], body
            await asyncio.to_thread(disk_full, url, "table_entries", False)
            await b.send("join", id="j2", table="holdem", seat=1, amount=40)
            assert (await answer(b, "j2"))["type"] == "ok"
            well = await web.get("/healthz")
            assert well.status_code == 200 and well.json()["ok"] is True, well.text
            for c in (a, b):
                await c.close()

    with running_server(settings) as base:
        asyncio.run(go(base))
    assert money_problems(url) == []


def test_10_10_healthz_of_an_idle_room_says_unavailable_while_its_lease_cannot_be_renewed(
    settings: ServerSettings,
) -> None:
    """A room where nobody plays makes no table step; on a full disk its lease's renewal
    (an update every few seconds) was refused, logged, and ``/healthz`` said 200: the
    first player to sit found a table that could not seat him. The renewal refused says
    unavailable too, and stored says well again."""
    url = settings.database_url
    assert url is not None
    settings = replace(settings, heartbeat_seconds=0.2)

    async def go(base: str) -> None:
        async with httpx.AsyncClient(base_url=base, timeout=10) as web:
            assert (await web.get("/healthz")).status_code == 200
            await asyncio.to_thread(disk_full, url, "server_leases", True, "UPDATE")
            async with asyncio.timeout(20):
                while (sick := await web.get("/healthz")).status_code == 200:
                    await asyncio.sleep(0.1)
            assert sick.status_code == 503 and sick.json()["code"] == "unavailable", sick.text
            await asyncio.to_thread(disk_full, url, "server_leases", False)
            async with asyncio.timeout(20):
                while (await web.get("/healthz")).status_code != 200:
                    await asyncio.sleep(0.1)

    with running_server(settings) as base:
        asyncio.run(go(base))
