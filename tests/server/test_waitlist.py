"""RULEBOOK §10.3 over real connections: the waiting lists of full tables, the seats
they offer, and what ends a player's place (SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path
from typing import Any

import httpx

from cardroom.bots.client import ProtocolClient
from cardroom.server.settings import ServerSettings

from .conftest import running_server
from .sessions import answer, money_problems, player

TABLES = """
[[table]]
id = "hu"
game = "holdem"
stakes = { small_blind = 1, big_blind = 2 }
seats = 2
action_seconds = 5
waitlist_offer_seconds = 60

[[table]]
id = "hu2"
game = "holdem"
stakes = { small_blind = 1, big_blind = 2 }
seats = 2
action_seconds = 5
waitlist_offer_seconds = 60
"""


def _settings(settings: ServerSettings, tmp_path: Path) -> ServerSettings:
    path = tmp_path / "waitlist.toml"
    path.write_text(TABLES)
    return dataclasses.replace(settings, tables_file=path)


async def _send(client: ProtocolClient, client_id: str, kind: str, **fields: Any) -> dict[str, Any]:
    await client.send(kind, id=client_id, **fields)
    return await answer(client, client_id)


def _lobby_row(base: str, table: str) -> dict[str, Any]:
    rows = httpx.get(f"{base}/api/tables").json()["tables"]
    return next(r for r in rows if r["table_id"] == table)


def test_10_3_a_restarted_server_holds_no_seat_for_the_waiting_list_it_had(
    settings: ServerSettings, tmp_path: Path
) -> None:
    """The tables of a stopped server are reopened empty: nobody's connection survived,
    so the waiting list it had ends with it (it used to offer the seats of the players
    it stood up to players no longer there: a newcomer was refused ``seat_reserved`` at
    an empty table, which the lobby showed with one player waiting)."""
    settings = _settings(settings, tmp_path)
    url = settings.database_url
    assert url is not None

    async def before(base: str) -> None:
        alice, _ = await player(base, "alice")
        bobby, _ = await player(base, "bobby")
        carol, _ = await player(base, "carol")
        for client, seat in ((alice, 0), (bobby, 1)):
            joined = await _send(client, "j", "join", table="hu", seat=seat, amount=40)
            assert joined["type"] == "ok"
        assert (await _send(carol, "w", "waitlist", table="hu", on=True))["type"] == "ok"
        assert _lobby_row(base, "hu")["waiting"] == 1
        for client in (alice, bobby, carol):
            await client.close()

    async def after(base: str) -> dict[str, Any]:
        dave, _ = await player(base, "dave")
        joined = await _send(dave, "j", "join", table="hu", seat=0, amount=40)
        await dave.close()
        return joined

    with running_server(settings) as base:
        asyncio.run(before(base))
    with running_server(settings) as base:
        row = _lobby_row(base, "hu")
        assert (row["seats_taken"], row["waiting"]) == (0, 0)
        assert asyncio.run(after(base))["type"] == "ok"
    assert money_problems(url) == []
