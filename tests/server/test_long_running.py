"""A room runs for weeks: what the server keeps in memory must not grow with the
number of connections, players or hands it has served (counted, never timed)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from tests.server.conftest import running_server
from tests.server.sessions import answer, money_problems, player, seated_pair

from cardroom.bots.client import ProtocolClient, account
from cardroom.room import table as table_module
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


def test_a_table_dealing_no_hand_does_not_keep_every_event(
    settings: ServerSettings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table's log (and its stored record past the last snapshot) was emptied only
    when a hand was dealt: a lone player sitting down and leaving (or chatting) piled
    up events in memory for as long as nobody joined him, and a rebuild replayed them
    all. Between hands a full log starts afresh from a snapshot: after K visits and
    after 2K the log and the record past the snapshot stay under the same bound; a restart on
    that record finds the table and the money as they were."""
    monkeypatch.setattr(table_module, "REBASE_EVENTS", 10, raising=False)
    apps: list[Any] = []

    async def go(base: str) -> list[tuple[int, int]]:
        actor = apps[0].state.server.room.actor("holdem")
        records = apps[0].state.server.room.records
        client, _ = await player(base, "loner")
        sizes = []
        for k in range(24):
            await client.send("join", id=f"j{k}", table="holdem", seat=k % 6, amount=40)
            assert (await answer(client, f"j{k}"))["type"] == "ok"
            await client.send("leave", id=f"l{k}", table="holdem")
            assert (await answer(client, f"l{k}"))["type"] == "ok"
            if k in (11, 23):
                sizes.append((len(actor.table.log), len(records.load("holdem").entries)))
        await client.send("join", id="last", table="holdem", seat=2, amount=40)
        assert (await answer(client, "last"))["type"] == "ok"
        await client.close()
        return sizes

    with running_server(settings, apps) as base:
        after_k, after_2k = asyncio.run(go(base))
    # Bounded by the limit (10) and one step's events, however many visits: 2K as K.
    assert max(*after_k, *after_2k) < 2 * 10, (after_k, after_2k)
    assert settings.database_url is not None
    with running_server(settings) as base:  # recovered from the rebased record
        pass
    assert money_problems(settings.database_url) == []
