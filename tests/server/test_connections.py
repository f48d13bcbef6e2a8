"""One account, several connections, and reconnects (RULEBOOK §10.6): whether a seated
player is connected follows the connections watching the table, whatever fails on the
way, and a turn waits for a player who comes back only as long as the rules say."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
import websockets
from tests.server.conftest import running_server
from tests.server.sessions import answer, first_turn, money_problems, player, seated_pair, until

from cardroom.bots.client import ProtocolClient, account
from cardroom.server.actor import TableActor
from cardroom.server.settings import ServerSettings
from cardroom.store import StoreError
from cardroom.store.tables import TableStep


def _actor(app: Any, table: str) -> TableActor:
    actor: TableActor = app.state.server.room.actors[table]
    return actor


def _fail_once(actor: TableActor, kind: str) -> list[TableStep]:
    """Make the database refuse the first step of ``actor``'s table holding a ``kind``
    entry (as a lost connection to the database would); the refused steps are listed."""
    real_commit = actor.records.commit_all
    refused: list[TableStep] = []

    def commit_all(steps: Sequence[TableStep]) -> None:
        for step in steps:
            mine = step.table_id == actor.table_id
            if mine and not refused and any(e["type"] == kind for e in step.entries):
                refused.append(step)
                raise RuntimeError("the database went away")
        real_commit(steps)

    actor.records.commit_all = commit_all  # type: ignore[method-assign]
    return refused


async def _table_event(
    client: ProtocolClient, kind: str, seat: int, limit: float = 10
) -> dict[str, Any]:
    """Read until the holdem table's event ``kind`` of ``seat``."""
    async with asyncio.timeout(limit):
        while True:
            msg = await client.receive()
            for e in msg.get("events", []) if msg["type"] == "events" else []:
                if e["event"]["type"] == kind and e["event"].get("seat") == seat:
                    return dict(e["event"])


def test_10_6_a_disconnection_the_database_lost_is_stored_again_after_the_rebuild(
    settings: ServerSettings,
) -> None:
    """The last connection of a seated player closes and the step storing his
    ``Disconnected`` fails: the table is rebuilt from its record, where he is still
    connected. He has no connection: the table must still take him as away (§10.6:
    the reconnect wait, then sat out), not deal him in and time him out hand after
    hand as if he sat there."""
    apps: list[Any] = []

    async def go(base: str) -> None:
        actor = _actor(apps[0], "holdem")
        a, _, b, _ = await seated_pair(base)
        refused = _fail_once(actor, "Disconnected")
        await a.close()
        await until(b, "snapshot", table="holdem")  # the rebuild: the stored truth
        assert refused, "the Disconnected step was not refused"
        gone = await _table_event(b, "Disconnected", 0, limit=5)
        assert gone["seat"] == 0
        await b.close()

    with running_server(settings, apps) as base:
        asyncio.run(go(base))
    assert settings.database_url is not None
    assert money_problems(settings.database_url) == []


def test_10_6_a_reconnection_the_database_lost_is_stored_again_after_the_rebuild(
    settings: ServerSettings,
) -> None:
    """A player away comes back (a new connection watches the table) and the step storing
    his ``Reconnected`` fails: rebuilt from its record, the table has him away. He is
    watching: he must be taken as back, not sat out as disconnected at every deal
    (``sit_in`` did not help: he stayed away for the table until he reconnected again)."""
    apps: list[Any] = []

    async def go(base: str) -> None:
        actor = _actor(apps[0], "holdem")
        a, _, b, _ = await seated_pair(base)
        await a.close()
        await _table_event(b, "Disconnected", 0)
        refused = _fail_once(actor, "Reconnected")
        back, _ = await player(base, "alice")
        await back.send("watch", id="w-back", table="holdem")
        await answer(back, "w-back")
        assert refused, "the Reconnected step was not refused"
        await _table_event(back, "Reconnected", 0, limit=5)
        for c in (back, b):
            await c.close()

    with running_server(settings, apps) as base:
        asyncio.run(go(base))
    assert settings.database_url is not None
    assert money_problems(settings.database_url) == []


QUICK = """
[[table]]
id = "holdem"
game = "holdem"
stakes = { small_blind = 1, big_blind = 2 }
seats = 6
hand_pause_seconds = 0.0
action_seconds = 1.0
time_bank_start = 1.0
time_bank_max = 1.0
reconnect_seconds = 1.5
"""
"""A quick clock: a connected player has 1 s, then 1 s of bank; one away, 1.5 s more."""


async def _connect(base: str, token: str) -> ProtocolClient:
    client = await ProtocolClient.connect(base, token)
    assert (await client.receive())["type"] == "hello"
    return client


def test_10_6_dropping_and_coming_back_again_and_again_does_not_stretch_a_turn_forever(
    settings: ServerSettings, tmp_path: Path
) -> None:
    """A player drops just before his turn's deadline and comes back just after it, over
    and over (a new connection each time, as a flaky network or a page reloaded on
    purpose would): each drop used to earn a fresh ``reconnect_seconds``, so the turn
    never ended and the table waited for him as long as he liked. A decision waits
    once for its player's return: the turn ends within the action time, the bank and
    one reconnect wait."""
    path = tmp_path / "quick.toml"
    path.write_text(QUICK)
    apps: list[Any] = []

    async def go(base: str) -> float:
        logins = {alias: account(base, alias, "password1") for alias in ("alice", "bobby")}
        clients = {alias: await _connect(base, login["token"]) for alias, login in logins.items()}
        for seat, client in enumerate(clients.values()):
            await client.send("join", id="j", table="holdem", seat=seat, amount=40)
            assert (await answer(client, "j"))["type"] == "ok"
        mover, turn = await first_turn(list(clients.values()), "holdem")
        alias = next(name for name, c in clients.items() if c is mover)
        stays = clients["bobby" if alias == "alice" else "alice"]
        seat, began = turn["seat"], time.time()
        deadline = [turn["deadline"]]
        ended = asyncio.Event()

        async def referee() -> None:  # the player who stays sees the mover's clock
            while True:
                msg = await stays.receive()
                for e in msg.get("events", []) if msg["type"] == "events" else []:
                    event = e["event"]
                    if event.get("seat") != seat:
                        continue
                    if event["type"] == "TurnStarted":
                        deadline.append(event["deadline"])
                    if event["type"] in ("TimedOut", "Acted"):
                        ended.set()
                        return

        watching = asyncio.create_task(referee())
        while not ended.is_set() and time.time() - began < 12:
            await asyncio.sleep(max(0.0, deadline[-1] - time.time() - 0.3))
            if ended.is_set():
                break
            mover.drop()  # gone, 0.3 s before the deadline...
            await asyncio.sleep(0.4)
            mover = await _connect(base, logins[alias]["token"])  # ...and back after it
            await mover.send("watch", table="holdem")
        held = time.time() - began
        watching.cancel()
        await asyncio.gather(watching, return_exceptions=True)
        for c in (mover, stays):
            await c.close()
        return held if ended.is_set() else float("inf")

    with running_server(dataclasses.replace(settings, tables_file=path), apps) as base:
        held = asyncio.run(go(base))
    # 1 s to act, 1.5 s of reconnect wait (the bank does not run for a player away).
    assert held < 4.0, f"the turn lasted {held:.1f} s"
    assert settings.database_url is not None
    assert money_problems(settings.database_url) == []


def test_10_6_one_tab_closing_is_no_disconnection_while_another_watches(
    settings: ServerSettings, tmp_path: Path
) -> None:
    """Two connections of one account watch the table (two tabs); the one that sat down
    closes during the player's turn: the player is still there (no ``Disconnected``, no
    reconnect wait, his timeout not counted as disconnected), and the other tab gets the
    turn and the events. When the last one closes, that is a disconnection. (A guard: this
    held before the fixes above.)"""
    path = tmp_path / "quick.toml"
    path.write_text(QUICK)

    async def go(base: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        alice = account(base, "alice", "password1")
        tab1, tab2 = await _connect(base, alice["token"]), await _connect(base, alice["token"])
        await tab1.send("join", id="j1", table="holdem", seat=0, amount=40)
        assert (await answer(tab1, "j1"))["type"] == "ok"
        await tab2.send("watch", id="w2", table="holdem")
        assert (await answer(tab2, "w2"))["type"] == "ok"
        bobby, _ = await player(base, "bobby")
        await bobby.send("join", id="jb", table="holdem", seat=1, amount=40)
        assert (await answer(bobby, "jb"))["type"] == "ok"
        while (await until(tab2, "turn", table="holdem"))["seat"] != 0:
            pass  # alice's turn, as her second tab hears it
        await tab1.close()
        seen: list[dict[str, Any]] = []
        while not any(e["type"] == "TimedOut" and e["seat"] == 0 for e in seen):
            msg = await until(bobby, "events", limit=10, table="holdem")
            seen += [e["event"] for e in msg["events"]]
        await tab2.close()
        gone = await _table_event(bobby, "Disconnected", 0)
        await bobby.close()
        return seen, [gone]

    with running_server(dataclasses.replace(settings, tables_file=path)) as base:
        seen, gone = asyncio.run(go(base))
    mine = [e for e in seen if e.get("seat") == 0]
    assert not any(e["type"] == "Disconnected" for e in mine), mine
    assert [e["disconnected"] for e in mine if e["type"] == "TimedOut"] == [False], mine
    assert gone[0]["seat"] == 0
    assert settings.database_url is not None
    assert money_problems(settings.database_url) == []


def test_10_6_a_player_whose_line_went_dead_is_away_within_two_pings(
    settings: ServerSettings,
) -> None:
    """A connection whose far end vanished without closing it (a phone off its network,
    no FIN) answers no ping: the server closes it within twice ``ws_ping_seconds`` and
    the player is away (``Disconnected``), so §10.6 runs for him (the reconnect wait,
    disconnect protection) instead of his clock and time bank running out on a dead line.
    uvicorn's default (20 s pings, 20 s to answer) left a dead line seated for up to 40 s."""
    settings = dataclasses.replace(settings, ws_ping_seconds=0.5)

    async def go(base: str) -> float:
        a, _, b, _ = await seated_pair(base)
        transport = a.ws.transport
        transport.pause_reading()  # alice's end reads nothing more: no pong ever comes
        start = time.monotonic()
        gone = await _table_event(b, "Disconnected", 0, limit=10)
        took = time.monotonic() - start
        assert gone["seat"] == 0
        transport.abort()
        await b.close()
        return took

    with running_server(settings) as base:
        took = asyncio.run(go(base))
    assert took < 10  # 0.5 s to the ping, 0.5 s for its pong (and the step stored)
    assert settings.database_url is not None
    assert money_problems(settings.database_url) == []


def test_a_session_the_database_could_not_check_is_busy_not_unauthorized(
    settings: ServerSettings,
) -> None:
    # The browser client takes 4401 for a session that is gone and stops reconnecting:
    # a database that did not answer (or a full queue) logged every player out who
    # connected meanwhile, a seated one left away (§10.6) until he logged in again.
    apps: list[Any] = []

    async def go(base: str) -> None:
        login = await asyncio.to_thread(account, base, "alice", "password1")
        players = apps[0].state.server.accounts.players
        real = players.authenticate

        def unreachable(token: str) -> None:
            raise StoreError("checking a session failed: the database is unreachable or busy")

        players.authenticate = unreachable
        url = base.replace("http://", "ws://") + "/ws"
        bearer = {"Authorization": f"Bearer {login['token']}"}
        async with websockets.connect(url, additional_headers=bearer) as ws:
            refused = json.loads(await ws.recv())
            assert refused["type"] == "error" and refused["code"] == "busy", refused
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await ws.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
        players.authenticate = real
        async with websockets.connect(url, additional_headers=bearer) as ws:
            assert json.loads(await ws.recv())["type"] == "hello"  # the session was fine
        async with websockets.connect(url) as ws:  # no session at all: still unauthorized
            assert json.loads(await ws.recv())["code"] == "unauthorized"

    with running_server(settings, apps) as base:
        asyncio.run(go(base))


def test_10_6_back_during_the_wait_a_player_gets_his_cards_and_turn_and_acts_himself(
    server: str,
) -> None:
    """A player whose connection closes on his turn comes back within the wait on a new
    connection: the snapshot holds his own hole cards (nobody else's), he is told his
    turn again, and his own action is played (not the table's timeout)."""

    async def go() -> None:
        aliases = ("alice", "bobby")
        logins = {a: await asyncio.to_thread(account, server, a, "password1") for a in aliases}
        clients = {alias: await _connect(server, login["token"]) for alias, login in logins.items()}
        for seat, client in enumerate(clients.values()):
            await client.send("join", id="j", table="holdem", seat=seat, amount=40)
            assert (await answer(client, "j"))["type"] == "ok"
        mover, turn = await first_turn(list(clients.values()), "holdem")
        alias = next(name for name, c in clients.items() if c is mover)
        stays = clients["bobby" if alias == "alice" else "alice"]
        seat = turn["seat"]
        await mover.close()
        await _table_event(stays, "Disconnected", seat)
        back = await _connect(server, logins[alias]["token"])
        await back.send("watch", id="w", table="holdem")
        snap = await until(back, "snapshot", table="holdem")
        seats = snap["view"]["hand"]["seats"]
        assert len(turn["cards"]) == 2 and seats[seat]["cards"] == turn["cards"]
        assert all(c is None for c in seats[1 - seat]["cards"])
        again = await until(back, "turn", table="holdem")
        assert again["seat"] == seat and again["cards"] == turn["cards"]
        assert again["legal"] == turn["legal"]
        kind = "check" if "check" in turn["legal"]["actions"] else "call"
        await back.send("act", id="x", table="holdem", kind=kind, turn=again["seq"])
        assert (await answer(back, "x"))["type"] == "ok"
        acted = await _table_event(stays, "Acted", seat)
        assert acted["kind"] == kind
        for c in (back, stays):
            await c.close()

    asyncio.run(go())


def test_10_6_a_connection_waiting_on_a_slow_database_still_answers_pings_and_stays(
    settings: ServerSettings,
) -> None:
    """A database slow to store a step (locked by another process, or merely slow) held
    the reading of every connection that had sent a message meanwhile: the gateway read
    the next frame only once the message before it was answered, so uvicorn stopped
    reading the socket and its keepalive pongs with it, and the server closed the
    connection as dead after two pings (measured live: a table locked 60 s on
    PostgreSQL or SQLite dropped every player who had chatted or acted, each then away,
    §10.6). The connection stays open now, and its messages are answered in order
    once the database is back."""
    settings = dataclasses.replace(settings, ws_ping_seconds=0.5)
    apps: list[Any] = []

    async def go(base: str) -> list[dict[str, Any]]:
        a, _, b, _ = await seated_pair(base)
        actor = _actor(apps[0], "holdem")
        real_commit = actor.records.commit_all
        slow = [True]

        def commit_all(steps: Sequence[TableStep]) -> None:
            if slow[0]:
                time.sleep(3.0)  # four pings and their pongs: twice the keepalive's patience
            real_commit(steps)

        actor.records.commit_all = commit_all  # type: ignore[method-assign]
        said = await a.send("chat", table="holdem", text="hello")
        pinged = await a.send("ping")
        answers: list[dict[str, Any]] = []
        async with asyncio.timeout(20):
            while len(answers) < 2:
                msg = await a.receive()  # ConnectionClosed on the previous code
                if msg["type"] in ("ok", "error") and msg.get("re") in (said, pinged):
                    answers.append(msg)
        slow[0] = False
        for c in (a, b):
            await c.close()
        return answers

    with running_server(settings, apps) as base:
        answers = asyncio.run(go(base))
    assert [(m["type"], m["re"]) for m in answers] == [
        ("ok", answers[0]["re"]),
        ("ok", answers[1]["re"]),
    ], answers
    assert settings.database_url is not None
    assert money_problems(settings.database_url) == []


def test_what_a_client_sent_just_before_it_closed_is_done(settings: ServerSettings) -> None:
    """The gateway reads a connection's frames ahead of their answers (the test above);
    those read but not begun when the client closed were dropped, where they had been
    done when each was answered before the next was read. An action sent just before a
    tab is closed then never counted: the seat was away with its turn still to come (a
    crash test saw the hand go another way: `test_crash_steps`). With the database slow,
    two chat lines sent and the connection closed at once: both are said."""
    apps: list[Any] = []

    async def go(base: str) -> list[str]:
        a, _, b, _ = await seated_pair(base)
        actor = _actor(apps[0], "holdem")
        real_commit = actor.records.commit_all

        def commit_all(steps: Sequence[TableStep]) -> None:
            time.sleep(0.5)  # the second line is still waiting when the first is stored
            real_commit(steps)

        actor.records.commit_all = commit_all  # type: ignore[method-assign]
        await a.send("chat", table="holdem", text="first line")
        await a.send("chat", table="holdem", text="second line")
        await a.close()
        said: list[str] = []
        async with asyncio.timeout(20):
            while len(said) < 2:
                msg = await b.receive()
                for e in msg["events"] if msg["type"] == "events" else []:
                    if e["event"]["type"] == "ChatSaid":
                        said.append(e["event"]["text"])
        await b.close()
        return said

    with running_server(settings, apps) as base:
        said = asyncio.run(go(base))
    assert said == ["first line", "second line"]
