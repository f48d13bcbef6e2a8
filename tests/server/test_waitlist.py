"""RULEBOOK §10.3 over real connections: the waiting lists of full tables, the seats
they offer, and what ends a player's place (SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path
from typing import Any

import httpx

from cardroom.bots.client import ProtocolClient, account
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
reconnect_seconds = 1

[[table]]
id = "hu2"
game = "holdem"
stakes = { small_blind = 1, big_blind = 2 }
seats = 2
action_seconds = 5
waitlist_offer_seconds = 60
reconnect_seconds = 2
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


async def _events_until(
    client: ProtocolClient, kind: str, limit: float = 10, **match: Any
) -> list[dict[str, Any]]:
    """The table events ``client`` receives up to the first of ``kind`` with ``match``."""
    seen: list[dict[str, Any]] = []
    async with asyncio.timeout(limit):
        while True:
            msg = await client.receive()
            if msg["type"] != "events":
                continue
            for stored in msg["events"]:
                event = stored["event"]
                seen.append(event)
                if event["type"] == kind and all(event.get(k) == v for k, v in match.items()):
                    return seen


async def _full_table_no_hand(alice: ProtocolClient, bobby: ProtocolClient) -> None:
    """alice (sitting out, so that no hand starts) and bobby fill hu's two seats."""
    assert (await _send(alice, "j", "join", table="hu", seat=0, amount=40))["type"] == "ok"
    assert (await _send(alice, "o", "sit_out", table="hu"))["type"] == "ok"
    assert (await _send(bobby, "j", "join", table="hu", seat=1, amount=40))["type"] == "ok"


async def _lobby_waiting(base: str, table: str, count: int, limit: float = 10) -> None:
    """Wait until the lobby shows ``count`` players waiting at ``table``."""
    async with asyncio.timeout(limit):
        while await asyncio.to_thread(lambda: _lobby_row(base, table)["waiting"]) != count:
            await asyncio.sleep(0.05)


def test_10_3_the_seat_goes_to_the_first_waiting_player_who_can_take_it(
    settings: ServerSettings, tmp_path: Path
) -> None:
    """carol, erin and dave wait, in that order, none of them watching the table. carol's
    connection goes and erin logs out: neither can be told of a seat any more, so they
    leave the list (``disconnected``) and the seat alice frees is offered to dave at
    once, and told to him on the connection he asked from. (Before: nobody who had
    not also watched the table was told of his offer, and the seat was held for carol,
    then for erin, for ``waitlist_offer_seconds`` each while the table played short.)"""
    settings = _settings(settings, tmp_path)
    url = settings.database_url
    assert url is not None

    async def go(base: str) -> list[dict[str, Any]]:
        alice, _ = await player(base, "alice")
        bobby, _ = await player(base, "bobby")
        login = await asyncio.to_thread(account, base, "erin", "password1")
        erin = await ProtocolClient.connect(base, login["token"])
        assert (await erin.receive())["type"] == "hello"
        carol, dave = await player(base, "carol"), await player(base, "dave")
        waiting = [carol, (erin, login["player"]), dave]
        await _full_table_no_hand(alice, bobby)
        for client, _ in waiting:
            assert (await _send(client, "w", "waitlist", table="hu", on=True))["type"] == "ok"
        (carol, _), (erin, _), (dave, dave_id) = waiting
        await _lobby_waiting(base, "hu", 3)
        await carol.close()
        bearer = {"authorization": f"Bearer {login['token']}"}
        out = await asyncio.to_thread(httpx.post, f"{base}/api/logout", headers=bearer)
        assert out.status_code == 200
        await _lobby_waiting(base, "hu", 1)
        assert (await _send(alice, "l", "leave", table="hu"))["type"] == "ok"
        seen = await _events_until(dave, "SeatOffered")
        assert seen[-1]["player"] == dave_id and seen[-1]["seat"] == 0
        joined = await _send(dave, "j", "join", table="hu", seat=0, amount=40)
        assert joined["type"] == "ok"
        for client in (alice, bobby, dave):
            await client.close()
        return seen

    with running_server(settings) as base:
        seen = asyncio.run(go(base))
    offers = [e for e in seen if e["type"] == "SeatOffered"]
    assert len(offers) == 1
    gone = [e["reason"] for e in seen if e["type"] == "WaitlistLeft"]
    assert gone == ["disconnected", "disconnected"]
    assert money_problems(url) == []


def test_10_3_a_reload_keeps_the_place_on_the_waiting_list(
    settings: ServerSettings, tmp_path: Path
) -> None:
    """carol's page reloads (her connection closes and a new one opens at once): back
    within the table's ``reconnect_seconds`` (1 s here), she keeps her place, and the
    seat alice frees is offered to her on the new connection."""
    settings = _settings(settings, tmp_path)

    async def go(base: str) -> tuple[list[dict[str, Any]], str]:
        alice, _ = await player(base, "alice")
        bobby, _ = await player(base, "bobby")
        login = await asyncio.to_thread(account, base, "carol", "password1")
        carol = await ProtocolClient.connect(base, login["token"])
        assert (await carol.receive())["type"] == "hello"
        await _full_table_no_hand(alice, bobby)
        assert (await _send(carol, "w", "waitlist", table="hu", on=True))["type"] == "ok"
        await carol.close()
        carol = await ProtocolClient.connect(base, login["token"])  # the reload
        assert (await carol.receive())["type"] == "hello"
        assert (await _send(carol, "v", "watch", table="hu"))["type"] == "ok"
        await asyncio.sleep(2.0)  # past reconnect_seconds
        assert await asyncio.to_thread(lambda: _lobby_row(base, "hu")["waiting"]) == 1
        assert (await _send(alice, "l", "leave", table="hu"))["type"] == "ok"
        seen = await _events_until(carol, "SeatOffered")
        for client in (alice, bobby, carol):
            await client.close()
        return seen, str(login["player"])

    with running_server(settings) as base:
        seen, carol_id = asyncio.run(go(base))
    assert (seen[-1]["player"], seen[-1]["seat"]) == (carol_id, 0)
    assert not [e for e in seen if e["type"] == "WaitlistLeft"]


def test_10_3_gone_again_after_coming_back_a_player_waits_afresh(
    settings: ServerSettings, tmp_path: Path
) -> None:
    """carol's connection goes, comes back and goes again 1.5 s later: her place is kept
    for a whole ``reconnect_seconds`` (2 s at hu2) from the second drop, not from the
    first (the first wait used to take her off 0.5 s after the second drop)."""
    settings = _settings(settings, tmp_path)

    async def go(base: str) -> tuple[int, int]:
        alice, _ = await player(base, "alice")
        bobby, _ = await player(base, "bobby")
        login = await asyncio.to_thread(account, base, "carol", "password1")

        async def connect() -> ProtocolClient:
            client = await ProtocolClient.connect(base, login["token"])
            assert (await client.receive())["type"] == "hello"
            return client

        for c, seat in ((alice, 0), (bobby, 1)):
            assert (await _send(c, "j", "join", table="hu2", seat=seat, amount=40))["type"] == "ok"
        carol = await connect()
        assert (await _send(carol, "w", "waitlist", table="hu2", on=True))["type"] == "ok"
        await carol.close()
        await asyncio.sleep(0.3)
        carol = await connect()
        await asyncio.sleep(1.2)
        await carol.close()  # 1.5 s after the first drop
        await asyncio.sleep(1.1)  # 2.6 s after the first, 1.1 s after the second
        kept = await asyncio.to_thread(lambda: _lobby_row(base, "hu2")["waiting"])
        await asyncio.sleep(2.0)  # 3.1 s after the second
        gone = await asyncio.to_thread(lambda: _lobby_row(base, "hu2")["waiting"])
        for client in (alice, bobby):
            await client.close()
        return kept, gone

    with running_server(settings) as base:
        assert asyncio.run(go(base)) == (1, 0)


def test_10_3_the_lobby_tells_a_waiting_player_his_place_and_no_one_else(
    settings: ServerSettings, tmp_path: Path
) -> None:
    """carol then dave wait at hu: the lobby tells each his place on its list
    (``your_place`` 1 and 2; null to the seated alice, to a caller with no session and
    at the other table), and carol's place goes to dave when she leaves the list. A
    page opened afresh (a reload keeps the place, above) reads from it the lists it is
    on, to go on watching them: before, it knew nothing of them, was never told of the
    seat offered, and the offer lapsed unseen."""
    settings = _settings(settings, tmp_path)

    def places(base: str, token: str | None) -> dict[str, Any]:
        headers = {} if token is None else {"authorization": f"Bearer {token}"}
        rows = httpx.get(f"{base}/api/tables", headers=headers).json()["tables"]
        return {r["table_id"]: r["your_place"] for r in rows}

    async def go(base: str) -> list[dict[str, Any]]:
        alice, _ = await player(base, "alice")
        bobby, _ = await player(base, "bobby")
        tokens = {}
        waiting = []
        for alias in ("carol", "dave"):
            login = await asyncio.to_thread(account, base, alias, "password1")
            tokens[alias] = login["token"]
            client = await ProtocolClient.connect(base, login["token"])
            assert (await client.receive())["type"] == "hello"
            waiting.append(client)
        await _full_table_no_hand(alice, bobby)
        for client in waiting:
            assert (await _send(client, "w", "waitlist", table="hu", on=True))["type"] == "ok"
        alice_token = (await asyncio.to_thread(account, base, "alice", "password1"))["token"]
        seen = [
            await asyncio.to_thread(places, base, token)
            for token in (tokens["carol"], tokens["dave"], alice_token, None)
        ]
        assert (await _send(waiting[0], "x", "waitlist", table="hu", on=False))["type"] == "ok"
        seen.append(await asyncio.to_thread(places, base, tokens["dave"]))
        for client in (alice, bobby, *waiting):
            await client.close()
        return seen

    with running_server(settings) as base:
        carol, dave, alice, nobody, dave_after = asyncio.run(go(base))
    assert (carol, dave, dave_after) == (
        {"hu": 1, "hu2": None},
        {"hu": 2, "hu2": None},
        {"hu": 1, "hu2": None},
    )
    assert alice == nobody == {"hu": None, "hu2": None}
