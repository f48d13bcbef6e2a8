"""A room runs for weeks: what the server keeps in memory must not grow with the
number of connections, players or hands it has served (counted, never timed)."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.server.conftest import running_server
from tests.server.sessions import answer, seated_pair

from cardroom.bots.client import ProtocolClient, account
from cardroom.server.settings import ServerSettings


async def _closed(app: Any) -> None:
    """Until the server has let every connection go (its end is handled after the
    client's close frame)."""
    shared = app.state.server.shared
    for _ in range(500):
        if not shared.connections:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("connections still open")


async def _visit(base: str, alias: str) -> None:
    """A new player logs in, watches a table, and goes."""
    login = await asyncio.to_thread(account, base, alias, "password1")
    client = await ProtocolClient.connect(base, login["token"])
    await client.send("watch", id="w", table="holdem")
    assert (await answer(client, "w"))["type"] == "ok"
    await client.close()


def test_the_aliases_of_players_gone_are_forgotten(settings: ServerSettings) -> None:
    """Every connection put its player's alias in the room's map, and nothing took it
    out: a server kept one entry for every account that ever connected. Those gone
    (no connection, at no table) are forgotten: after 2K visitors no more than after K."""
    apps: list[Any] = []

    async def go(base: str) -> list[int]:
        room = apps[0].state.server.room
        sizes = []
        for k in range(12):
            await _visit(base, f"visitor{k}")
            if k in (5, 11):
                await _closed(apps[0])
                sizes.append(len(room.aliases))
        return sizes

    with running_server(settings, apps) as base:
        after_k, after_2k = asyncio.run(go(base))
    assert after_2k <= after_k == 0


def test_a_seated_player_gone_keeps_his_alias_while_the_table_names_him(
    settings: ServerSettings,
) -> None:
    """Forgetting stops at the tables: a seated player whose connection closed is still
    named (by alias) in the snapshots the others get."""
    apps: list[Any] = []

    async def go(base: str) -> None:
        room = apps[0].state.server.room
        a, a_id, b, _ = await seated_pair(base)
        await a.close()
        shared = apps[0].state.server.shared
        for _ in range(500):
            if a_id not in shared.connections:
                break
            await asyncio.sleep(0.01)
        assert room.aliases.get(a_id) == "alice"
        await b.close()

    with running_server(settings, apps) as base:
        asyncio.run(go(base))
