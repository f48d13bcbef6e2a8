"""A room runs for weeks: what the server keeps in memory must not grow with the
number of connections, players or hands it has served (counted, never timed)."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import httpx
import pytest
from tests.server.conftest import database_down, running_server
from tests.server.sessions import answer, money_problems, player, seated_pair
from websockets.exceptions import ConnectionClosed

from cardroom.bots.client import ProtocolClient, account
from cardroom.room import table as table_module
from cardroom.server.actor import TableActor
from cardroom.server.jobs import Job, Outcome
from cardroom.server.limits import AccountBuckets
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


async def _nothing(actor: TableActor) -> Outcome:
    return Outcome(seq=actor.seq)


async def _behind_queued_jobs(app: Any, actor: TableActor) -> None:
    """Until the jobs queued now at ``actor`` have been answered (a job of our own, queued
    in the server's loop behind them, is answered)."""
    assert actor.task is not None

    async def barrier() -> Outcome:
        return await actor.submit(Job(None, _nothing))

    future = asyncio.run_coroutine_threadsafe(barrier(), actor.task.get_loop())
    await asyncio.wrap_future(future)


def test_a_connection_gone_while_its_table_is_unread_is_not_kept_among_its_watchers(
    settings: ServerSettings,
) -> None:
    """A table whose step was lost and whose record could not be read back yet runs no
    job: the going of each connection that watched it was answered ``busy`` and not
    done. The connection stayed among the table's watchers for good (with the messages
    queued for it), and a seated player's counted as watching: after the database came
    back his seat stayed connected, though nobody was there. Those gone meanwhile are
    forgotten, and the seat is disconnected once the table is read back (§10.6)."""
    apps: list[Any] = []

    async def go(base: str) -> tuple[set[str], bool]:
        app = apps[0]
        shared = app.state.server.shared
        actor: TableActor = app.state.server.room.actors["holdem"]
        a, _ = await player(base, "alice")
        b, b_id = await player(base, "bobby")
        for c, seat in ((a, 0), (b, 1)):
            await c.send("join", id="j", table="holdem", seat=seat, amount=40)
            assert (await answer(c, "j"))["type"] == "ok"
        rail = []
        for k in range(6):
            c, _ = await player(base, f"rail{k}")
            await c.send("watch", id="w", table="holdem")
            assert (await answer(c, "w"))["type"] == "ok"
            rail.append(c)
        down = database_down(actor)
        await a.send("auto_muck", id="m", table="holdem", on=False)
        assert (await answer(a, "m"))["code"] == "not_stored"  # lost: the table is unread
        for c in [b, *rail]:
            await c.close()
        gone = {b_id}
        async with asyncio.timeout(10):  # each unwatch is queued as its connection goes
            while gone & set(shared.connections) or len(shared.connections) > 1:
                await asyncio.sleep(0.01)
        await _behind_queued_jobs(app, actor)
        down[0] = False
        async with asyncio.timeout(10):  # read back at the next tick
            while actor.unread:
                await asyncio.sleep(0.01)
        await _behind_queued_jobs(app, actor)  # the presence of each seat made so
        watching = {w.player for w in actor.watchers.values()}
        seat = actor.table.state.seats[1]
        await a.close()
        return watching, seat is not None and seat.connected

    with running_server(settings, apps) as base:
        watching, bobby_connected = asyncio.run(go(base))
    assert len(watching) == 1, watching  # alice's connection only
    assert not bobby_connected
    assert settings.database_url is not None
    assert money_problems(settings.database_url) == []


async def _come_and_go(base: str, alias: str, how: str) -> None:
    """A new player logs in (naming his device), watches two tables, sits at a third
    and stands up, and goes: closing, dropping the connection, or logging out."""
    login = await asyncio.to_thread(account, base, alias, "password1")
    client = await ProtocolClient.connect(base, login["token"], device=f"device-{alias}")
    for table in ("stud", "draw"):
        await client.send("watch", id=f"w{table}", table=table)
        assert (await answer(client, f"w{table}"))["type"] == "ok"
    await client.send("join", id="j", table="holdem", seat=0, amount=40)
    assert (await answer(client, "j"))["type"] == "ok"
    await client.send("leave", id="l", table="holdem")
    assert (await answer(client, "l"))["type"] == "ok"
    if how == "close":
        await client.close()
    elif how == "drop":
        client.drop()
    else:
        async with httpx.AsyncClient(base_url=base) as http:
            auth = {"authorization": f"Bearer {login['token']}"}
            assert (await http.post("/api/logout", headers=auth)).status_code == 200
        with contextlib.suppress(ConnectionClosed):
            while True:  # until the server closes it (4401)
                await client.receive()


def test_players_coming_and_going_leave_no_connection_or_watcher_behind(
    settings: ServerSettings,
) -> None:
    """Each visit leaves the gateway's and the tables' books as they were, whether the
    connection closed, dropped or ended with a logout: the connections and sessions of
    each account, every table's watchers, the aliases. After 2K visitors no more than
    after K (a guard of the churn a room meets for weeks)."""
    apps: list[Any] = []

    def books() -> tuple[int, ...]:
        state = apps[0].state.server
        actors = state.room.actors.values()
        watchers = sum(len(a.watchers) for a in actors)
        shared = state.shared
        return len(shared.connections), len(shared.by_token), watchers, len(state.room.aliases)

    async def go(base: str) -> list[tuple[int, ...]]:
        sizes = []
        ways = ("close", "drop", "logout")
        for k in range(12):
            await _come_and_go(base, f"guest{k}", ways[k % 3])
            if k in (5, 11):
                await _closed(apps[0])
                for _ in range(500):  # the connections' ends reach the tables
                    if books()[2] == 0:
                        break
                    await asyncio.sleep(0.01)
                sizes.append(books())
        return sizes

    with running_server(settings, apps) as base:
        after_k, after_2k = asyncio.run(go(base))
    assert after_k == after_2k == (0, 0, 0, 0), (after_k, after_2k)


class _Clock:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_rate_buckets_of_accounts_and_addresses_gone_quiet_are_forgotten() -> None:
    """The per-account and per-address buckets (messages, API requests, refused
    handshakes, registrations) kept one bucket for every key ever seen, up to 100,000
    each (~30 MB apiece), though a bucket refilled to its burst is the same as none.
    Those refilled are forgotten: each wave of K new addresses, the earlier ones quiet
    past their refill, leaves about K kept, not all that ever came. A bucket still short
    of tokens is kept: its limit holds."""
    clock = _Clock()
    buckets = AccountBuckets(rate=20.0, burst=100.0, clock=clock)  # full again within 5 s
    sizes = []
    for wave in range(4):
        for i in range(3000):
            assert buckets.take(f"10.{wave}.{i >> 8}.{i & 255}")
        sizes.append(len(buckets.buckets))
        clock.now += 10.0  # every bucket of this wave full again
    assert max(sizes) < 2 * 3000, sizes
    while buckets.take("10.9.9.9"):  # a flood from one address empties its bucket...
        pass
    for i in range(3000):  # ...and more addresses come at once, no time passing
        assert buckets.take(f"10.8.{i >> 8}.{i & 255}")
    assert not buckets.take("10.9.9.9")  # still short: kept, refused
