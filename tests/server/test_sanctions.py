"""RULEBOOK §10.9 at the tables: a frozen or banned account moves no chips to a table, and
a freeze or ban reaches the connections already open (SQLite and PostgreSQL).

A freeze or ban is stored by the store, whoever makes it: the operator's API (applied
at once), the command line or another process (found by the server's periodic look,
``sanction_check_seconds``); the money commands read the sanctions themselves."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.server.conftest import running_server
from tests.server.sessions import answer, money_problems, operator_client, player, until
from websockets.exceptions import ConnectionClosed

from cardroom.bots.client import ProtocolClient, account
from cardroom.bots.random_bot import RandomBot
from cardroom.ledger import AccountRef, Currency
from cardroom.server.settings import ServerSettings
from cardroom.store import Players, SanctionKind, SqlLedger, make_engine
from cardroom.store.tables import TableRecords

SIGNUP = 10_000


def _sanction(url: str, alias: str, kind: SanctionKind) -> None:
    """Freeze or ban behind the server's back, as ``cardroom account freeze`` does."""
    engine = make_engine(url)
    try:
        Players(engine).sanction(alias, kind, operator="cli", reason="test")
    finally:
        engine.dispose()


def _stored_departures(url: str, table: str) -> list[tuple[str, str]]:
    """Who left ``table`` and why, as its stored record says."""
    engine = make_engine(url)
    try:
        entries = TableRecords(engine).entries(table, 0, 100_000)
    finally:
        engine.dispose()
    return [(e["player"], e["reason"]) for _, e in entries if e["type"] == "PlayerLeft"]


def _play_balance(url: str, player_id: str) -> int:
    engine = make_engine(url)
    try:
        return SqlLedger(engine).balance(AccountRef.player(player_id, Currency.PLAY))
    finally:
        engine.dispose()


async def _send(client: ProtocolClient, client_id: str, kind: str, **fields: Any) -> dict[str, Any]:
    await client.send(kind, id=client_id, **fields)
    return await answer(client, client_id)


async def _left(client: ProtocolClient, table: str, who: str, limit: float = 20) -> list[str]:
    """The table's event types seen until ``who`` left it."""
    seen: list[str] = []
    async with asyncio.timeout(limit):
        while True:
            msg = await until(client, "events", limit, table=table)
            for e in msg["events"]:
                event = e["event"]
                seen.append(event["type"])
                if event["type"] == "PlayerLeft" and event["player"] == who:
                    return seen


def test_10_9_a_frozen_or_banned_account_cannot_sit_rebuy_or_join_a_waiting_list(
    settings: ServerSettings,
) -> None:
    # No periodic look: only the money commands' own reading of the sanctions acts.
    settings = dataclasses.replace(settings, sanction_check_seconds=0)
    url = settings.database_url
    assert url is not None

    async def go(base: str) -> dict[str, str]:
        alice, alice_id = await player(base, "alice")
        assert (await _send(alice, "j", "join", table="holdem", seat=0, amount=20))["type"] == "ok"
        carol, _ = await player(base, "carol")
        dave, _ = await player(base, "dave")
        await asyncio.to_thread(_sanction, url, "alice", SanctionKind.FREEZE)
        await asyncio.to_thread(_sanction, url, "carol", SanctionKind.FREEZE)
        await asyncio.to_thread(_sanction, url, "dave", SanctionKind.BAN)
        codes = {
            "rebuy": await _send(alice, "r", "rebuy", table="holdem", amount=10),
            "join": await _send(carol, "j", "join", table="holdem", seat=1, amount=40),
            "waitlist": await _send(carol, "w", "waitlist", table="holdem", on=True),
            "banned": await _send(dave, "j", "join", table="holdem", seat=2, amount=40),
            "leave": await _send(alice, "l", "leave", table="holdem"),  # may still leave
        }
        for c in (alice, carol, dave):
            await c.close()
        assert _play_balance(url, alice_id) == SIGNUP  # the 20 came back
        return {k: v.get("code", "ok") for k, v in codes.items()}

    with running_server(settings) as base:
        codes = asyncio.run(go(base))
    assert codes == {
        "rebuy": "account_frozen",
        "join": "account_frozen",
        "waitlist": "account_frozen",
        "banned": "account_banned",
        "leave": "ok",
    }
    assert money_problems(url) == []


async def _closed(client: ProtocolClient, code: str, close_code: int) -> None:
    """The server tells ``client`` why (``code``), then closes it with ``close_code``."""
    told = await until(client, "error", limit=5)
    assert told["code"] == code
    with pytest.raises(ConnectionClosed):
        async with asyncio.timeout(5):
            while True:
                await client.receive()
    assert client.ws.close_code == close_code


def test_10_9_the_operators_freeze_and_ban_reach_open_connections_at_once(
    settings: ServerSettings,
) -> None:
    # No periodic look during the test: the API applies its sanction itself.
    settings = dataclasses.replace(settings, sanction_check_seconds=3600)
    url = settings.database_url
    assert url is not None

    async def go(base: str) -> str:
        boss = await asyncio.to_thread(operator_client, base, url)
        eve, eve_id = await player(base, "eve")
        assert (await _send(eve, "j", "join", table="holdem", seat=1, amount=40))["type"] == "ok"
        frank, _ = await player(base, "frank")
        await _send(frank, "w", "watch", table="holdem")
        made = await asyncio.to_thread(
            boss.post, "/api/operator/sanctions", json={"alias": "eve", "kind": "freeze"}
        )
        assert made.status_code == 201
        # Stood up at once (not in a hand: now), the chips back to the frozen account.
        assert "PlayerLeft" in await _left(frank, "holdem", eve_id, limit=5)
        assert _play_balance(url, eve_id) == SIGNUP
        # Still connected: may watch and ping, not sit.
        assert (await _send(eve, "p", "ping"))["type"] == "ok"
        again = await _send(eve, "j2", "join", table="holdem", seat=1, amount=40)
        assert again["code"] == "account_frozen"
        # A ban closes the account's connections, and the session is gone.
        made = await asyncio.to_thread(
            boss.post, "/api/operator/sanctions", json={"alias": "frank", "kind": "ban"}
        )
        assert made.status_code == 201
        await _closed(frank, "account_banned", 4403)
        await eve.close()
        boss.close()
        return eve_id

    with running_server(settings) as base:
        eve_id = asyncio.run(go(base))
    # The record says why (it said "left", as if she had chosen to go).
    assert _stored_departures(url, "holdem") == [(eve_id, "frozen")]
    assert money_problems(url) == []


HEADS_UP = """
[[table]]
id = "hu"
game = "holdem"
stakes = { small_blind = 1, big_blind = 2 }
seats = 2
waitlist_offer_seconds = 60
"""


def test_10_9_a_sanction_takes_a_player_off_a_waiting_list_and_the_record_names_a_ban(
    settings: ServerSettings, tmp_path: Path
) -> None:
    """A frozen player waiting for a seat leaves the waiting list at once (he could not
    take the seat: it would be held for him while the table played short); a banned
    player stood up leaves as ``banned`` in the record (a ban outranks a freeze)."""
    path = tmp_path / "hu.toml"
    path.write_text(HEADS_UP)
    settings = dataclasses.replace(settings, tables_file=path, sanction_check_seconds=3600)
    url = settings.database_url
    assert url is not None

    async def go(base: str) -> tuple[str, str]:
        boss = await asyncio.to_thread(operator_client, base, url)
        alice, _ = await player(base, "alice")
        bobby, bobby_id = await player(base, "bobby")
        carol, carol_id = await player(base, "carol")
        assert (await _send(alice, "j", "join", table="hu", seat=0, amount=40))["type"] == "ok"
        assert (await _send(alice, "o", "sit_out", table="hu"))["type"] == "ok"  # no hand
        assert (await _send(bobby, "j", "join", table="hu", seat=1, amount=40))["type"] == "ok"
        assert (await _send(carol, "w", "waitlist", table="hu", on=True))["type"] == "ok"
        for alias, kind in (("carol", "freeze"), ("bobby", "ban")):
            made = await asyncio.to_thread(
                boss.post, "/api/operator/sanctions", json={"alias": alias, "kind": kind}
            )
            assert made.status_code == 201
        for client in (alice, bobby, carol):
            await client.close()
        boss.close()
        return bobby_id, carol_id

    with running_server(settings) as base:
        bobby_id, carol_id = asyncio.run(go(base))
    engine = make_engine(url)
    try:
        entries = [e for _, e in TableRecords(engine).entries("hu", 0, 100_000)]
    finally:
        engine.dispose()
    gone = [(e["player"], e["reason"]) for e in entries if e["type"] == "WaitlistLeft"]
    assert gone == [(carol_id, "frozen")]
    assert _stored_departures(url, "hu") == [(bobby_id, "banned")]
    assert money_problems(url) == []


def test_10_9_a_sanction_made_elsewhere_reaches_seats_and_connections_within_seconds(
    settings: ServerSettings,
) -> None:
    settings = dataclasses.replace(settings, sanction_check_seconds=0.2)
    url = settings.database_url
    assert url is not None

    async def go(base: str) -> list[str]:
        stop = asyncio.Event()
        bots = [RandomBot(base, f"sweep{i}", "password1", "draw", seed=i) for i in range(2)]
        tasks = [asyncio.create_task(b.play(stop)) for b in bots]
        rail, _ = await player(base, "railbird")
        await _send(rail, "w1", "watch", table="draw")
        await _send(rail, "w2", "watch", table="holdem")
        grace, grace_id = await player(base, "grace")
        assert (await _send(grace, "j", "join", table="holdem", seat=3, amount=40))["type"] == "ok"
        async with asyncio.timeout(20):  # the bots are dealt a hand
            while "HandDealt" not in [
                e["event"]["type"] for e in (await until(rail, "events", table="draw"))["events"]
            ]:
                pass
        frozen = bots[0]
        assert frozen.player_id is not None
        await asyncio.to_thread(_sanction, url, "sweep0", SanctionKind.FREEZE)
        await asyncio.to_thread(_sanction, url, "grace", SanctionKind.BAN)
        seen = await _left(rail, "draw", frozen.player_id)
        told = await until(grace, "error", limit=5)
        assert told["code"] == "account_banned"
        stop.set()
        for b in bots:
            if b.client is not None:
                await b.client.close()
        await asyncio.gather(*tasks, return_exceptions=True)
        await rail.close()
        assert _play_balance(url, grace_id) == SIGNUP  # stood up, the chips back
        return seen

    with running_server(settings) as base:
        seen = asyncio.run(go(base))
    # Dealt in when frozen: the player left when the hand ended, never dealt in again.
    if "LeaveRequested" in seen:
        assert seen.index("LeaveRequested") < seen.index("PlayerLeft")
        assert "HandDealt" not in seen[seen.index("LeaveRequested") :]
    assert money_problems(url) == []


def test_logging_out_ends_the_sessions_connections_and_a_revocation_elsewhere_too(
    settings: ServerSettings,
) -> None:
    settings = dataclasses.replace(settings, sanction_check_seconds=0.2)
    url = settings.database_url
    assert url is not None

    async def go(base: str) -> None:
        login = await asyncio.to_thread(account, base, "hana", "password1")
        hana = await ProtocolClient.connect(base, login["token"])
        assert (await hana.receive())["type"] == "hello"
        other, _ = await player(base, "hana")  # another session of the same account
        auth = {"authorization": f"Bearer {login['token']}"}
        async with httpx.AsyncClient(base_url=base) as http:
            assert (await http.post("/api/logout", headers=auth)).status_code == 200
        await _closed(hana, "session_ended", 4401)  # at once, by this process
        assert (await _send(other, "p", "ping"))["type"] == "ok"  # its own session stands
        await asyncio.to_thread(_revoke_all, url, "hana")  # as another process would
        await _closed(other, "session_ended", 4401)  # at the next look

    with running_server(settings) as base:
        asyncio.run(go(base))


def _revoke_all(url: str, alias: str) -> None:
    engine = make_engine(url)
    try:
        Players(engine).revoke_all(alias)
    finally:
        engine.dispose()
