"""RULEBOOK §10.10 at named instants: a real ``cardroom serve`` process kills itself with
SIGKILL right after the step it is told of is stored (``CARDROOM_CRASH_AFTER``,
``server/crash_points.py``), the instants the random kills of ``test_crash.py`` reach
seldom or never; then it is started again on the same database (SQLite and PostgreSQL)
and what was stored must be whole."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from pathlib import Path
from typing import Any

from tests.server.sessions import answer, money_problems, player, stacks_come_back
from tests.server.test_crash import ServerProcess
from websockets.exceptions import ConnectionClosed

from cardroom.bots.client import account
from cardroom.bots.random_bot import RandomBot
from cardroom.server.crash_points import ENV
from cardroom.store import Players, SanctionKind, make_engine
from cardroom.store.tables import TableRecords

TABLES = """
[[table]]
id = "holdem"
game = "holdem"
stakes = { small_blind = 1, big_blind = 2 }
seats = 6
"""


def _tables(tmp_path: Path, text: str = TABLES) -> Path:
    path = tmp_path / "tables.toml"
    path.write_text(text)
    return path


def _crashing(url: str, tables: Path, point: str) -> ServerProcess:
    """``cardroom serve`` that kills itself right after the step storing ``point``."""
    return ServerProcess(url, tables, env={**os.environ, ENV: point})


def _killed(server: ServerProcess) -> None:
    """Wait for the server to have killed itself at its crash point."""
    assert server.proc.wait(30) == -signal.SIGKILL


def _entries(url: str, table: str) -> list[dict[str, Any]]:
    engine = make_engine(url)
    try:
        return [e for _, e in TableRecords(engine).entries(table, 0, 100_000)]
    finally:
        engine.dispose()


def test_10_7_a_chat_offence_stored_just_before_a_kill_9_keeps_its_ban(
    database_url: str, tmp_path: Path
) -> None:
    """The offence (``ChatBlocked``) and its chat ban were two transactions: a crash
    between them kept the offence and lost the ban, and the offender chatted on."""
    tables = _tables(tmp_path)
    server = _crashing(database_url, tables, "ChatBlocked")

    async def offend() -> None:
        a, _ = await player(server.base, "rude")
        await a.send("join", id="j", table="holdem", seat=0, amount=40)
        assert (await answer(a, "j"))["type"] == "ok"
        await a.send("chat", id="c1", table="holdem", text="play at www.pokerstars.com")
        await asyncio.to_thread(_killed, server)  # no answer: the process is gone

    asyncio.run(offend())
    (blocked,) = [e for e in _entries(database_url, "holdem") if e["type"] == "ChatBlocked"]
    assert blocked["offence"] and blocked["code"] == "advertising"
    engine = make_engine(database_url)
    try:
        assert Players(engine).sanctions("rude") == {SanctionKind.CHAT_BAN}
    finally:
        engine.dispose()
    server = ServerProcess(database_url, tables)

    async def again() -> dict[str, Any]:
        a, _ = await player(server.base, "rude")
        await a.send("join", id="j2", table="holdem", seat=0, amount=40)
        assert (await answer(a, "j2"))["type"] == "ok"  # the recovery stood him up
        await a.send("chat", id="c2", table="holdem", text="hello")
        return await answer(a, "c2")

    refused = asyncio.run(again())
    server.kill()
    assert (refused["code"], refused["message"]) == ("chat_refused", "banned")
    assert money_problems(database_url) == []


SEVERAL = """
[[table]]
id = "mixed"
games = ["holdem", "omaha"]
stakes = { small_bet = 4 }
hands_per_game = 2
action_seconds = 3

[[table]]
id = "pine"
game = "pineapple"
point_value = 1
seats = 3
action_seconds = 3

[[table]]
id = "holdem"
game = "holdem"
stakes = { small_blind = 1, big_blind = 2 }
seats = 6
action_seconds = 3
"""


async def _bots_until(
    server: ServerProcess,
    seats: list[tuple[str, str, str]],
    done: Any,
    wanted: list[int] | None = None,
) -> None:
    """Random bots (``seats``: alias, token, table) play until ``done()`` says so (checked
    in a thread: it may read the database) or the server dies at its crash point;
    ``wanted``: the seat each asks for (else a random free one)."""
    bots = []
    for i, (alias, token, table) in enumerate(seats):
        seat = None if wanted is None else wanted[i]
        bot = RandomBot(server.base, alias, "password1", table, seed=i, token=token, seat=seat)
        bots.append(bot)
    tasks = [asyncio.create_task(b.play()) for b in bots]
    try:
        async with asyncio.timeout(25):
            while server.proc.poll() is None and not await asyncio.to_thread(done):
                await asyncio.sleep(0.05)
    finally:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def test_10_10_kills_at_a_mixed_deal_and_mid_chinese_hand_at_several_tables(
    database_url: str, tmp_path: Path
) -> None:
    """Three tables play at once; the server dies right after the mixed table deals its
    third hand (the first of Omaha), then in the middle of a Pineapple hand. Each start
    cancels what was in progress (stacks back, chips returned); the rotation counts only
    the hands not cancelled: the cancelled Omaha hand is dealt again, and Omaha is played
    for its two hands before Hold'em comes back."""
    tables = _tables(tmp_path, SEVERAL)
    server = _crashing(database_url, tables, "mixed/HandDealt:3")
    layout = ["mixed", "mixed", "pine", "pine", "holdem", "holdem", "holdem"]
    seats = []
    for i, table in enumerate(layout):
        login = account(server.base, f"several{i}", "password1")
        seats.append((f"several{i}", login["token"], table))

    def never() -> bool:
        return False

    asyncio.run(_bots_until(server, seats, never))
    _killed(server)
    server = _crashing(database_url, tables, "pine/ChineseEvent:3")
    asyncio.run(_bots_until(server, seats, never))
    _killed(server)
    server = ServerProcess(database_url, tables)

    def dealt(table: str) -> list[dict[str, Any]]:
        return [e for e in _entries(database_url, table) if e["type"] == "HandDealt"]

    asyncio.run(_bots_until(server, seats, lambda: len(dealt("mixed")) >= 6))
    server.kill()
    server = ServerProcess(database_url, tables)  # stands everyone up: nothing on tables
    server.kill()
    engine = make_engine(database_url)
    try:
        hands = TableRecords(engine).hands()
    finally:
        engine.dispose()
    assert 3 in hands["mixed"].voided and hands["pine"].voided  # cut short, cancelled
    games = [e["game"] for e in sorted(dealt("mixed"), key=lambda e: e["hand_no"])]
    expected, played = [], 0  # two hands of each game; a cancelled hand is dealt again
    for hand_no in range(1, len(games) + 1):
        expected.append(played // 2 % 2)
        played += hand_no not in hands["mixed"].voided
    assert games == expected and games[:3] == [0, 0, 1], (games, hands["mixed"].voided)
    assert stacks_come_back(database_url) == []
    assert money_problems(database_url) == []


HEADS_UP = """
[[table]]
id = "two"
game = "holdem"
stakes = { small_blind = 1, big_blind = 2 }
seats = 2
action_seconds = 1
time_bank_start = 0.0
"""


def test_10_10_a_kill_9_with_a_seat_offered_to_the_waiting_list_returns_every_chip(
    database_url: str, tmp_path: Path
) -> None:
    """The server dies right after the step where a player left (cashed out) and his seat
    was offered to the first player waiting. After the restart the cash-out stands (once),
    the players still seated get their chips back, the offer and the list are gone (no
    seat held on the table reopened), and a client that comes back with the last sequence
    number it saw is sent the whole table again, not the events since (the new process
    holds none of them)."""
    tables = _tables(tmp_path, HEADS_UP)
    server = _crashing(database_url, tables, "SeatOffered")

    async def before() -> tuple[str, str, str, int]:
        a, a_id = await player(server.base, "alice")
        b, b_id = await player(server.base, "bobby")
        c, c_id = await player(server.base, "carol")
        for client, seat in ((a, 0), (b, 1)):
            await client.send("join", id="j", table="two", seat=seat, amount=40)
            assert (await answer(client, "j"))["type"] == "ok"
        await c.send("waitlist", id="w", table="two", on=True)
        assert (await answer(c, "w"))["type"] == "ok"
        await a.send("leave", id="l", table="two")  # answered or not: the kill may come first
        await asyncio.to_thread(_killed, server)
        seen = [0]
        with contextlib.suppress(ConnectionClosed):
            while True:  # what bobby was told before the kill (secrecy.py checks it stored)
                msg = await b.receive()
                seen += [e["seq"] for e in msg.get("events", [])]
        return a_id, b_id, c_id, max(seen)

    a_id, b_id, c_id, seen = asyncio.run(before())
    entries = _entries(database_url, "two")
    offered = [e for e in entries if e["type"] == "SeatOffered"]
    assert [(e["player"], e["seat"]) for e in offered] == [(c_id, 0)]
    server = ServerProcess(database_url, tables)

    async def after() -> dict[str, Any]:
        b, _ = await player(server.base, "bobby")
        await b.send("watch", id="w2", table="two", since=seen)
        while True:
            msg = await b.receive()
            assert msg["type"] != "events", msg  # the whole table, not a partial story
            if msg["type"] == "snapshot":
                return dict(msg["view"])

    view = asyncio.run(after())
    server.kill()
    assert view["waitlist"] == [] and "offer" not in view
    assert all(s is None for s in view["seats"]), view["seats"]
    entries = _entries(database_url, "two")
    left = [(e["player"], e["reason"]) for e in entries if e["type"] == "PlayerLeft"]
    assert left == [(a_id, "left"), (b_id, "table_closed")]
    gone = [(e["player"], e["reason"]) for e in entries if e["type"] == "WaitlistLeft"]
    assert gone == [(c_id, "table_closed")]
    assert stacks_come_back(database_url) == []
    assert money_problems(database_url) == []
