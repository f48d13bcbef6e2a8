"""A table that closes tells everyone at it: ``table_closed`` (docs/protocol.md).

An operator closing a table mid-hand: the seated players and a watcher each get one
``table_closed`` (reason ``closed_by_operator``), after the cash-outs' events, with no
card in it; the players' chips are back in their accounts; the message is the schema's.
On a clean stop of the server, each connection at a table is told ``server_stopping``
before the server closes it (1012). SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from jsonschema import Draft202012Validator
from websockets.exceptions import ConnectionClosed

from cardroom.bots.client import ProtocolClient
from cardroom.bots.player import Bot, BotStats

from .api_client import BACKENDS, Api, bearer, make_operator, register, start_api
from .secrecy import cards_in
from .sessions import answer, first_turn


@pytest.fixture(scope="module", params=BACKENDS)
def api(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
    tmp: Path = tmp_path_factory.mktemp("closed")
    yield from start_api(request, tmp)


def _token(client: httpx.Client) -> str:
    return str(client.headers["authorization"].split()[1])


def _server_schema(base: str) -> Draft202012Validator:
    s = httpx.get(base + "/schema/ws.json").json()
    return Draft202012Validator({"$defs": s["$defs"], **s["properties"]["server"]})


async def _seat_two_and_watch(
    base: str, table: str, tokens: list[str]
) -> tuple[list[ProtocolClient], ProtocolClient]:
    """Two players seated at ``table`` (a hand dealt to them) and a third watching."""
    seated = []
    for seat, token in enumerate(tokens[:2]):
        client = await ProtocolClient.connect(base, token)
        await client.send("join", id="sit", table=table, seat=seat, amount=40)
        assert (await answer(client, "sit"))["type"] == "ok"
        seated.append(client)
    watcher = await ProtocolClient.connect(base, tokens[2])
    await watcher.send("watch", id="w", table=table)
    assert (await answer(watcher, "w"))["type"] == "ok"
    await first_turn(seated, table)  # a hand is dealt: cards are out
    return seated, watcher


async def _rest(client: ProtocolClient, limit: float = 10) -> list[dict[str, Any]]:
    """What ``client`` hears until its ``table_closed``, that message last."""
    heard = []
    async with asyncio.timeout(limit):
        while True:
            message = await client.receive()
            heard.append(message)
            if message["type"] == "table_closed":
                return heard


def test_an_operator_s_close_tells_the_players_and_watchers_the_table_closed(
    api: Api,
) -> None:
    spec = {"id": "shut-me", "game": "holdem", "stakes": {"small_blind": 1, "big_blind": 2}}
    boss_alias = register(api)
    make_operator(api, boss_alias)
    boss = bearer(api, boss_alias)
    assert boss.post("/api/operator/tables", json=spec).status_code == 201
    people = [bearer(api, register(api)) for _ in range(3)]
    before = [p.get("/api/balances").json()["play"] for p in people[:2]]

    async def close_at_the_table() -> list[list[dict[str, Any]]]:
        seated, watcher = await _seat_two_and_watch(api.base, "shut-me", map_tokens(people))
        closed = await asyncio.to_thread(boss.post, "/api/operator/tables/shut-me/close")
        assert closed.status_code == 200, closed.text
        heard = [await _rest(c) for c in [*seated, watcher]]
        for c in [*seated, watcher]:
            await c.close()
        return heard

    heard = asyncio.run(close_at_the_table())
    schema = _server_schema(api.base)
    for messages in heard:
        last = messages[-1]
        assert last["reason"] == "closed_by_operator" and last["table"] == "shut-me", last
        assert not list(cards_in(last)), last
        assert not list(schema.iter_errors(last)), last
        left = [
            e["event"]
            for m in messages
            if m["type"] == "events"
            for e in m["events"]
            if e["event"]["type"] == "PlayerLeft"
        ]
        assert len(left) == 2, messages  # the cash-outs came first, then the word
        assert last["seq"] >= max(
            e["seq"] for m in messages if m["type"] == "events" for e in m["events"]
        )
    after = [p.get("/api/balances").json()["play"] for p in people[:2]]
    assert after == before  # the hand was cancelled, every chip back (§10.10)


def test_a_bot_at_a_table_an_operator_closes_stops_playing(api: Api) -> None:
    # A bot that kept waiting on a closed table would idle for ever (its watch again
    # refused no_such_table): it ends its play, its stats returned.
    spec = {"id": "shut-bot", "game": "holdem", "stakes": {"small_blind": 1, "big_blind": 2}}
    boss_alias = register(api)
    make_operator(api, boss_alias)
    boss = bearer(api, boss_alias)
    assert boss.post("/api/operator/tables", json=spec).status_code == 201
    bots = [Bot(api.base, f"closebot{i}", "correct horse battery", "shut-bot") for i in (1, 2)]

    async def close_under_the_bots() -> list[BotStats]:
        playing = [asyncio.ensure_future(b.play()) for b in bots]
        async with asyncio.timeout(20):
            while sum(b.stats.actions for b in bots) < 3:
                await asyncio.sleep(0.05)
        closed = await asyncio.to_thread(boss.post, "/api/operator/tables/shut-bot/close")
        assert closed.status_code == 200, closed.text
        async with asyncio.timeout(10):
            return list(await asyncio.gather(*playing))

    stats = asyncio.run(close_under_the_bots())
    assert all(b.closed for b in bots) and all(s.actions for s in stats)


def map_tokens(clients: list[httpx.Client]) -> list[str]:
    """The bearer tokens of ``clients``."""
    return [_token(c) for c in clients]


async def _until_closed(client: ProtocolClient, limit: float = 20) -> list[dict[str, Any]]:
    """What ``client`` hears until its connection closes."""
    heard = []
    async with asyncio.timeout(limit):
        try:
            while True:
                heard.append(await client.receive())
        except ConnectionClosed:
            return heard


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_clean_stop_tells_everyone_at_a_table_the_server_is_stopping(
    request: pytest.FixtureRequest, tmp_path: Path, backend: str
) -> None:
    served = start_api(request, tmp_path, backend)  # a server of its own: the test stops it
    own = next(served)
    people = [bearer(own, register(own)) for _ in range(3)]

    async def stop_while_playing() -> list[list[dict[str, Any]]]:
        seated, watcher = await _seat_two_and_watch(own.base, "holdem", map_tokens(people))
        clients = [*seated, watcher]
        reading = [asyncio.ensure_future(_until_closed(c)) for c in clients]
        await asyncio.to_thread(served.close)  # the clean stop (uvicorn's, as on SIGTERM)
        return list(await asyncio.gather(*reading))

    for heard in asyncio.run(stop_while_playing()):
        closed = [m for m in heard if m["type"] == "table_closed"]
        assert len(closed) == 1 and heard[-1] == closed[0], heard[-3:]
        assert closed[0]["reason"] == "server_stopping" and closed[0]["table"] == "holdem"
        assert not list(cards_in(closed[0]))
