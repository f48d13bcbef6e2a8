"""A server that lost its database's lease (``Room.lose``, ``server/lease.py``): a second
``cardroom serve`` started beside it (this one paused past the lease), or
``cardroom ledger recover --force`` ran while it served. Either stood its players up and
cashed their chips out from the records; the first server went on serving its tables
from memory (only logging an ERROR, or taking the lease back), so two servers ran one
table, each storing steps and fixing the other's (``Disconnected`` / ``Reconnected``
ping-pong), and a player could sit down at a table that had been recovered behind it.
Now it stores nothing more, tells its tables' watchers ``table_closed`` and exits 1.
Real ``cardroom serve`` processes, SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, update
from tests.server.sessions import answer, first_turn, money_problems, player, stacks_come_back
from tests.server.sessions import until as until_message
from tests.server.test_crash import SRC, ServerProcess
from websockets.exceptions import ConnectionClosed

from cardroom.bots.client import ProtocolClient, account
from cardroom.ledger import AccountRef, Currency
from cardroom.server import lease
from cardroom.server.lease import SERVER_GONE_SECONDS
from cardroom.server.room import INTEGRITY, Room
from cardroom.server.settings import ServerSettings
from cardroom.server.storage import Storage
from cardroom.store import Players, SqlLedger, make_engine, migrate
from cardroom.store.client_ids import Answered, ClientIds
from cardroom.store.leases import Holder, LeaseLost, Leases
from cardroom.store.models import ServerLease
from cardroom.store.reports import REPORT, Reports
from cardroom.store.room_memory import RoomMemories
from cardroom.store.tables import TableRecords

TABLES = """
[[table]]
id = "holdem"
game = "holdem"
stakes = { small_blind = 1, big_blind = 2 }
seats = 6
action_seconds = 30
"""
QUICK = ("--heartbeat-seconds", "0.3")
"""The lease renewed every 0.3 s: a loss is found at once."""
LOST = "lost the database's lease"


@pytest.fixture
def engine(database_url: str) -> Iterator[Engine]:
    """A fresh database, migrated; its engine disposed after the test."""
    made = make_engine(database_url)
    migrate.upgrade(made)
    yield made
    made.dispose()


@pytest.fixture
def servers() -> Iterator[Callable[..., ServerProcess]]:
    """Starts ``cardroom serve`` processes, each killed at the test's end if still there
    (a test failing midway must not leave one holding the lease for the next)."""
    started: list[ServerProcess] = []

    def start(*args: Any, **kwargs: Any) -> ServerProcess:
        server = ServerProcess(*args, **kwargs)
        started.append(server)
        return server

    yield start
    for server in started:
        server.gone()


def _tables(tmp_path: Path) -> Path:
    path = tmp_path / "tables.toml"
    path.write_text(TABLES)
    return path


def _entries(url: str, table: str = "holdem") -> list[tuple[int, str]]:
    engine = make_engine(url)
    try:
        return [(s, e["type"]) for s, e in TableRecords(engine).entries(table, 0, 100_000)]
    finally:
        engine.dispose()


def _chips(url: str, alias: str) -> int:
    """The play chips in ``alias``'s account."""
    engine = make_engine(url)
    try:
        found = Players(engine).get(alias)
        return SqlLedger(engine).balance(AccountRef.player(str(found.id), Currency.PLAY))
    finally:
        engine.dispose()


def _recovery_last(entries: list[tuple[int, str]]) -> bool:
    """Whether a recovery's entries (the hand cancelled, both players stood up) are the
    record's last: nothing was stored after it."""
    kinds = [kind for _, kind in entries[-4:]]
    return kinds == ["HandCancelled", "HandVoided", "PlayerLeft", "PlayerLeft"]


def _age_lease(url: str) -> None:
    """The holder silent past the lease (as a server paused, or cut off, that long)."""
    engine = make_engine(url)
    try:
        long_ago = datetime.now(UTC) - timedelta(seconds=SERVER_GONE_SECONDS + 30)
        with engine.begin() as conn:
            conn.execute(update(ServerLease).values(beat_at=long_ago))
    finally:
        engine.dispose()


def _holder(url: str) -> Holder | None:
    """Who holds the database's lease now."""
    engine = make_engine(url)
    try:
        return Leases(engine).holder(lease.SERVING)
    finally:
        engine.dispose()


def _holder_pid(url: str) -> int | None:
    holder = _holder(url)
    return None if holder is None else holder.pid


def _recover_forced(url: str) -> None:
    """``cardroom ledger recover --force``, as an operator sure the server is down."""
    done = subprocess.run(
        [sys.executable, "-m", "cardroom", "ledger", "recover", "--force", "--db", url],
        capture_output=True, text=True, timeout=60, env={**os.environ, "PYTHONPATH": SRC},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "returned 40 to alice" in done.stdout, done.stdout


async def _seated(base: str) -> tuple[ProtocolClient, ProtocolClient, dict[str, Any]]:
    """alice and bobby at holdem with 40 each, a hand dealt: the one to act, the other,
    and the turn message."""
    a, _ = await player(base, "alice")
    b, _ = await player(base, "bobby")
    for client, seat in ((a, 0), (b, 1)):
        await client.send("join", id="j", table="holdem", seat=seat, amount=40)
        assert (await answer(client, "j"))["type"] == "ok"
    mover, turn = await first_turn([a, b], "holdem")
    return mover, (b if mover is a else a), turn


async def _closed_or_gone(client: ProtocolClient, table: str = "holdem") -> dict[str, Any] | None:
    """The ``table_closed`` the client is sent (None: its connection closed first)."""
    try:
        return await until_message(client, "table_closed", 20, table=table)
    except ConnectionClosed:
        return None


async def _answer_or_gone(client: ProtocolClient, client_id: str) -> dict[str, Any] | None:
    """The answer to ``client_id`` (None: the connection closed first)."""
    try:
        return await answer(client, client_id)
    except ConnectionClosed:
        return None


async def _told_stopping(client: ProtocolClient, table: str) -> bool:
    """Whether the client learns that the server stops: its ``table_closed`` notice
    (``server_stopping``), or, when the notice could not be written within the stop's
    wait (a loaded machine), the close itself, code 1012 (docs/protocol.md)."""
    try:
        told = await until_message(client, "table_closed", 20, table=table)
    except ConnectionClosed as exc:
        return exc.rcvd is not None and exc.rcvd.code == 1012
    return bool(told["reason"] == "server_stopping")


def _lost_lines(log: Path) -> list[str]:
    return [line for line in log.read_text().splitlines() if LOST in line]


def test_a_server_whose_lease_a_second_server_took_stops_its_tables_and_exits_1(
    database_url: str, tmp_path: Path, servers: Callable[..., ServerProcess]
) -> None:
    tables, log = _tables(tmp_path), tmp_path / "first.log"
    first = servers(database_url, tables, args=QUICK, log=log)

    async def run() -> tuple[ServerProcess, list[tuple[int, str]], int]:
        mover, other, turn = await _seated(first.base)
        first.proc.send_signal(signal.SIGSTOP)  # paused (or cut off) past the lease...
        await asyncio.to_thread(_age_lease, database_url)
        # ...so a second server starts: its recovery stands alice and bobby up, paid out.
        second = await asyncio.to_thread(servers, database_url, tables)
        recovered = await asyncio.to_thread(_entries, database_url)
        assert _recovery_last(recovered), recovered
        first.proc.send_signal(signal.SIGCONT)
        await mover.send("act", id="x", table="holdem", kind="call", turn=turn["seq"])
        for client in (mover, other):  # each watcher is told; the old server went on
            closed = await _closed_or_gone(client)
            assert closed is None or closed["reason"] == "server_stopping", closed
        code = await asyncio.to_thread(first.proc.wait, 30)
        return second, recovered, code

    second, recovered, code = asyncio.run(run())
    assert code == 1
    assert len(_lost_lines(log)) == 1, log.read_text()
    assert _entries(database_url) == recovered  # the first stored nothing more
    assert _holder_pid(database_url) == second.proc.pid  # nor took or gave the lease
    assert (_chips(database_url, "alice"), _chips(database_url, "bobby")) == (10_000, 10_000)

    async def sit_on_second() -> dict[str, Any]:
        a, _ = await player(second.base, "alice")
        await a.send("join", id="j2", table="holdem", seat=0, amount=40)
        return await answer(a, "j2")

    assert asyncio.run(sit_on_second())["type"] == "ok"  # the second serves on alone
    assert money_problems(database_url) == [] and stacks_come_back(database_url) == []
    second.proc.send_signal(signal.SIGTERM)  # a clean stop gives the lease back
    assert second.proc.wait(30) == 0
    assert _holder_pid(database_url) is None


def test_a_server_whose_lease_a_forced_recovery_took_and_gave_back_stops_and_exits_1(
    database_url: str, tmp_path: Path, servers: Callable[..., ServerProcess]
) -> None:
    tables, log = _tables(tmp_path), tmp_path / "first.log"
    first = servers(database_url, tables, args=QUICK, log=log)

    async def run() -> int:
        mover, other, _ = await _seated(first.base)
        await asyncio.to_thread(_recover_forced, database_url)  # takes, recovers, gives back
        for client in (mover, other):
            closed = await _closed_or_gone(client)
            assert closed is None or closed["reason"] == "server_stopping", closed
        return await asyncio.to_thread(first.proc.wait, 30)

    code = asyncio.run(run())
    recovered = _entries(database_url)
    assert code == 1 and len(_lost_lines(log)) == 1, log.read_text()
    assert _holder_pid(database_url) is None  # not taken back: the lease stays free
    assert _recovery_last(recovered), recovered
    assert (_chips(database_url, "alice"), _chips(database_url, "bobby")) == (10_000, 10_000)
    assert money_problems(database_url) == [] and stacks_come_back(database_url) == []
    again = servers(database_url, tables)  # the next start serves at once

    async def sit_again() -> dict[str, Any]:
        a, _ = await player(again.base, "alice")
        await a.send("join", id="j2", table="holdem", seat=0, amount=40)
        return await answer(a, "j2")

    assert asyncio.run(sit_again())["type"] == "ok"


def test_a_server_stores_no_step_once_a_forced_recovery_took_its_lease(
    database_url: str, tmp_path: Path, servers: Callable[..., ServerProcess]
) -> None:
    # Before its next renewal (10 s here) the server still runs: the records refuse its
    # steps (and the first refused stops it). A new player sat down at the recovered
    # table on the old server (stored, without any lease), which then took the lease
    # back and served on.
    tables = _tables(tmp_path)
    first = servers(database_url, tables)

    async def run() -> list[dict[str, Any] | None]:
        mover, _, turn = await _seated(first.base)
        carol, _ = await player(first.base, "carol")
        await asyncio.to_thread(_recover_forced, database_url)
        answers: list[dict[str, Any] | None] = []
        for client, msg, fields in (  # the act fails on stale memory; carol's join then
            (mover, "act", {"kind": "call", "turn": turn["seq"]}),  # meets a stopped table
            (carol, "join", {"seat": 2, "amount": 40}),
        ):
            try:
                await client.send(msg, id="late", table="holdem", **fields)
                answers.append(await answer(client, "late"))
            except ConnectionClosed:  # the renewal came first: the server stopped
                answers.append(None)
        return answers

    answers = asyncio.run(run())
    recovered = _entries(database_url)
    first.kill()
    assert all(a is None or a["type"] == "error" for a in answers), answers
    assert _recovery_last(recovered), recovered
    assert _chips(database_url, "carol") == 10_000
    assert money_problems(database_url) == [] and stacks_come_back(database_url) == []


TWO = ("holdem", "second")
TWO_TABLES = TABLES + TABLES.replace('id = "holdem"', 'id = "second"')


async def _seated_at(base: str, table: str, names: tuple[str, str]) -> list[Any]:
    """Two players at ``table`` with 40 each, a hand dealt: the one to act, the other,
    and the turn message."""
    a, _ = await player(base, names[0])
    b, _ = await player(base, names[1])
    for client, seat in ((a, 0), (b, 1)):
        await client.send("join", id="j", table=table, seat=seat, amount=40)
        assert (await answer(client, "j"))["type"] == "ok"
    mover, turn = await first_turn([a, b], table)
    return [mover, (b if mover is a else a), turn]


def _just_renewed(url: str, limit: float = 30) -> None:
    """Return just after the serving holder renewed its lease (its age dropped): its
    next renewal is a whole heartbeat away."""
    engine = make_engine(url)
    try:
        leases, before, deadline = Leases(engine), None, time.monotonic() + limit
        while time.monotonic() < deadline:
            held = leases.holder(lease.SERVING)
            assert held is not None
            if before is not None and held.age < before:
                return
            before = held.age
            time.sleep(0.05)
        raise AssertionError("the lease was not renewed")
    finally:
        engine.dispose()


def _steal(url: str) -> None:
    """Another process takes the lease (a second server, a forced recovery)."""
    engine = make_engine(url)
    try:
        assert lease.take(engine, "thief", force=True) is None
    finally:
        engine.dispose()


def test_a_step_refused_by_the_fence_stops_the_server_at_once_not_at_its_next_renewal(
    database_url: str, tmp_path: Path, servers: Callable[..., ServerProcess]
) -> None:
    # Two tables act together on stale memory: both steps are refused, the server stops
    # once, within a second or two. It answered not_stored and served on until its next
    # renewal of the lease (here 10 s away), then stopped.
    tables, log = tmp_path / "tables.toml", tmp_path / "first.log"
    tables.write_text(TWO_TABLES)
    first = servers(database_url, tables, log=log)  # renewing every 10 s, the default

    async def run() -> tuple[float, list[dict[str, Any] | None], list[bool]]:
        one = await _seated_at(first.base, "holdem", ("alice", "bobby"))
        two = await _seated_at(first.base, "second", ("carol", "dave"))
        await asyncio.to_thread(_just_renewed, database_url)
        await asyncio.to_thread(_steal, database_url)
        stolen.update({t: await asyncio.to_thread(_entries, database_url, t) for t in TWO})
        began = time.monotonic()
        for (mover, _, turn), table in zip((one, two), TWO, strict=True):
            await mover.send("act", id="x", table=table, kind="call", turn=turn["seq"])
        acts = await asyncio.gather(*(_answer_or_gone(t[0], "x") for t in (one, two)))
        told = await asyncio.gather(
            *(_told_stopping(c, table) for t, table in zip((one, two), TWO, strict=True)
              for c in t[:2])
        )  # fmt: skip
        await asyncio.to_thread(first.proc.wait, 30)
        return time.monotonic() - began, list(acts), list(told)

    stolen: dict[str, list[tuple[int, str]]] = {}
    took, acts, told = asyncio.run(run())
    assert first.proc.returncode == 1
    assert took < 5, f"stopped {took:.1f} s after the refused steps"
    # The first refused step stops both tables: the other act may not have been run.
    assert all(a is None or a["code"] in ("not_stored", "no_such_table") for a in acts), acts
    assert all(told), told
    assert len(_lost_lines(log)) == 1, log.read_text()
    holder = _holder(database_url)
    assert holder is not None and holder.instance == "thief"  # neither taken back nor given back
    assert {t: _entries(database_url, t) for t in TWO} == stolen  # nothing stored since


def test_a_room_stops_once_however_many_tables_and_renewals_find_its_lease_lost(
    database_url: str,
) -> None:
    async def run() -> tuple[list[str], str | None]:
        storage = Storage(database_url, threads=1)
        try:
            await storage.run(storage.migrate)
            stopped: list[str] = []
            settings = ServerSettings(database_url=database_url)
            room = Room(storage, settings, lambda: stopped.append("stopped"))
            room.lease_refused()  # two tables' steps refused together...
            room.lease_refused()
            assert room.losing is not None
            await asyncio.gather(room.losing, room.lose("the renewal's"))  # ...and a renewal
            room.lease_refused()  # a late one
            return stopped, room.lost
        finally:
            storage.close()

    stopped, lost = asyncio.run(run())
    assert stopped == ["stopped"] and lost is not None


def test_a_table_step_is_refused_unless_its_writer_holds_the_lease(engine: Engine) -> None:
    assert lease.take(engine, "mine") is None
    mine = TableRecords(engine, lease=(lease.SERVING, "mine"))
    mine.open("t", {})
    mine.commit("t", 1, [{"type": "Chat", "text": "a"}])  # its own: stored
    assert lease.take(engine, "other", force=True) is None
    with pytest.raises(LeaseLost):
        mine.commit("t", 2, [{"type": "Chat", "text": "b"}])
    lease.give_back(engine, "other")
    with pytest.raises(LeaseLost):  # free again: still not its own
        mine.commit("t", 2, [{"type": "Chat", "text": "b"}])
    assert [e["text"] for _, e in TableRecords(engine).entries("t", 0, 10)] == ["a"]
    TableRecords(engine).commit("t", 2, [{"type": "Chat", "text": "c"}])  # unfenced: tools


def test_a_table_is_opened_or_closed_only_while_its_server_holds_the_lease(
    engine: Engine,
) -> None:
    # A stale server closing a table (an operator's close; a retired table) marked the
    # new holder's table closed, so its next start neither recovered nor listed it; one
    # opening a table reopened a table the new holder had closed, with its own settings.
    assert lease.take(engine, "mine") is None
    mine = TableRecords(engine, lease=(lease.SERVING, "mine"))
    mine.open("t", {"v": 1})
    mine.open("u", {"v": 1})
    mine.close("u")
    assert lease.take(engine, "other", force=True) is None
    with pytest.raises(LeaseLost):
        mine.close("t")
    with pytest.raises(LeaseLost):
        mine.open("u", {"v": 2})
    with pytest.raises(LeaseLost):
        mine.open("new", {"v": 2})
    records = TableRecords(engine)
    assert records.open_tables() == ["t"]
    loaded = records.load("u")
    assert loaded is not None and loaded.settings == {"v": 1}


def test_a_note_about_a_table_is_written_only_while_its_server_holds_the_lease(
    engine: Engine,
) -> None:
    # A stale server's report (an audit row, and the client id it answers) was written
    # whoever held the lease: the new holder's review read a report of a table it
    # serves that no table of its own took, and its cooldown counted it.
    assert lease.take(engine, "mine") is None
    mine = TableRecords(engine, lease=(lease.SERVING, "mine"))
    mine.note("ann", REPORT, "bob", Answered("1", "r1", "t", 0), table="t", reason="other")
    assert lease.take(engine, "other", force=True) is None
    with pytest.raises(LeaseLost):
        mine.note("ann", REPORT, "cat", Answered("1", "r2", "t", 0), table="t", reason="other")
    reports, ids = Reports(engine), ClientIds(engine)
    assert reports.last("ann", "bob", "t", 0) is not None
    assert reports.last("ann", "cat", "t", 0) is None  # neither the row...
    assert ids.find("1", "r1") is not None and ids.find("1", "r2") is None  # ...nor its id
    TableRecords(engine).note("ann", REPORT, "cat", None, table="t")  # unfenced: tools
    assert reports.last("ann", "cat", "t", 0) is not None


def test_a_report_refused_by_the_fence_stops_the_server_at_once(
    database_url: str, tmp_path: Path, servers: Callable[..., ServerProcess]
) -> None:
    # A report on a server whose lease was just taken: it was stored, answered ok, and the
    # server served on until its next renewal (10 s away). Now refused like a table's
    # step: answered not_stored (or the connection closes first), the server stops at once.
    log = tmp_path / "first.log"
    first = servers(database_url, _tables(tmp_path), log=log)  # renewing every 10 s

    async def run() -> tuple[float, dict[str, Any] | None]:
        alice, _ = await player(first.base, "alice")
        bobby, _ = await player(first.base, "bobby")
        for client, seat in ((alice, 0), (bobby, 1)):
            await client.send("join", id="j", table="holdem", seat=seat, amount=40)
            assert (await answer(client, "j"))["type"] == "ok"
        await asyncio.to_thread(_just_renewed, database_url)
        await asyncio.to_thread(_steal, database_url)
        began = time.monotonic()
        await alice.send("report", id="r", table="holdem", player="bobby", reason="other")
        reported = await _answer_or_gone(alice, "r")
        await asyncio.to_thread(first.proc.wait, 30)
        return time.monotonic() - began, reported

    took, reported = asyncio.run(run())
    assert first.proc.returncode == 1
    assert took < 5, f"stopped {took:.1f} s after the refused report"
    assert reported is None or reported.get("code") == "not_stored", reported
    assert len(_lost_lines(log)) == 1, log.read_text()
    engine = make_engine(database_url)
    try:
        assert Reports(engine).last("alice", "bobby", "holdem", 0) is None
    finally:
        engine.dispose()


def test_the_integrity_counts_are_kept_only_while_their_server_holds_the_lease(
    engine: Engine,
) -> None:
    assert lease.take(engine, "mine") is None
    mine = RoomMemories(engine, lease=(lease.SERVING, "mine"))
    mine.keep(INTEGRITY, {"by": "mine"})
    assert lease.take(engine, "other", force=True) is None
    RoomMemories(engine).keep(INTEGRITY, {"by": "other"})  # the new holder's counts
    with pytest.raises(LeaseLost):
        mine.keep(INTEGRITY, {"by": "mine, stale"})
    assert RoomMemories(engine).read(INTEGRITY) == {"by": "other"}


def test_a_server_that_lost_its_lease_keeps_no_integrity_counts_over_the_new_holders(
    database_url: str, tmp_path: Path, servers: Callable[..., ServerProcess]
) -> None:
    # The stale server's monitor kept its counts (every integrity_keep_seconds) over
    # those the new holder recalled and keeps, until its next renewal found the loss;
    # a crash of the new holder then recalled the stale server's counts. Now the keep is
    # refused and, like a refused step, stops the server at once.
    log = tmp_path / "first.log"
    first = servers(
        database_url, _tables(tmp_path), args=("--integrity-keep-seconds", "0.3"), log=log
    )
    _just_renewed(database_url)  # the next renewal is 10 s away
    _steal(database_url)
    engine = make_engine(database_url)
    try:
        RoomMemories(engine).keep(INTEGRITY, {"by": "thief"})
        began = time.monotonic()
        code = first.proc.wait(30)
        took = time.monotonic() - began
        assert RoomMemories(engine).read(INTEGRITY) == {"by": "thief"}
    finally:
        engine.dispose()
    assert code == 1 and took < 5, (code, took)
    assert len(_lost_lines(log)) == 1, log.read_text()


def test_a_stop_that_comes_while_the_room_finds_its_lease_lost_still_exits_1(
    database_url: str,
) -> None:
    # A SIGTERM (the clean stop) landing as a refused step or the renewal found the loss
    # ended the room before its stop for the loss ran: the stop left that task pending
    # (destroyed with the loop), so ``on_lost`` never ran and ``cardroom serve`` exited 0
    # for a server that had lost its lease. Now the clean stop waits for it.
    async def run() -> tuple[list[str], bool]:
        storage = Storage(database_url, threads=1)
        try:
            await storage.run(storage.migrate)
            stopped: list[str] = []
            settings = ServerSettings(database_url=database_url)
            room = Room(storage, settings, lambda: stopped.append("stopped"))
            room.lease_refused()  # a table's step refused...
            await room.stop()  # ...and the clean stop at once
            return list(stopped), room.losing is not None and room.losing.done()
        finally:
            storage.close()

    stopped, done = asyncio.run(run())
    assert stopped == ["stopped"] and done


class _Actor:
    """A table's actor, as the room's stop sees it."""

    def __init__(self, then: Callable[[], None] = lambda: None) -> None:
        self.then, self.stopped, self.told = then, False, False

    async def stop(self) -> None:
        await asyncio.sleep(0)
        self.stopped = True
        self.then()

    def tell_closed(self, _reason: str) -> None:
        self.told = True


def test_a_table_opened_while_the_room_stops_for_its_lost_lease_does_not_break_the_stop(
    database_url: str,
) -> None:
    # An operator's open (or the start's) whose table was prepared before the loss adds
    # its actor while the stop for the loss awaits the others': the stop went over the
    # room's actors as they changed (RuntimeError), so it never ended and on_lost never
    # ran: the process did not stop.
    async def run() -> tuple[list[str], bool]:
        storage = Storage(database_url, threads=1)
        try:
            stopped: list[str] = []
            room = Room(
                storage,
                ServerSettings(database_url=database_url),
                lambda: stopped.append("stopped"),
            )
            first = _Actor(lambda: room.actors.setdefault("late", late))  # type: ignore[arg-type]
            late = _Actor()
            room.actors["first"] = first  # type: ignore[assignment]
            await room.lose("the renewal's")
            return stopped, first.stopped and first.told
        finally:
            storage.close()

    stopped, first_stopped = asyncio.run(run())
    assert stopped == ["stopped"] and first_stopped


def test_an_operator_s_table_refused_by_the_fence_stops_the_server_at_once(
    database_url: str, tmp_path: Path, servers: Callable[..., ServerProcess]
) -> None:
    # The operator opens a table on a server whose lease was just taken: refused, and
    # the server stops at once (it answered 503 and served on until its next renewal).
    import httpx

    log = tmp_path / "first.log"
    first = servers(database_url, _tables(tmp_path), log=log)  # renewing every 10 s
    boss = account(first.base, "boss", "password1")
    engine = make_engine(database_url)
    try:
        Players(engine).set_role("boss", "operator", operator="test")
    finally:
        engine.dispose()
    _just_renewed(database_url)
    _steal(database_url)
    began = time.monotonic()
    body = {"id": "late", "game": "holdem", "stakes": {"small_blind": 1, "big_blind": 2}}
    opened = httpx.post(
        first.base + "/api/operator/tables", json=body, timeout=30,
        headers={"authorization": f"Bearer {boss['token']}"},
    )  # fmt: skip
    assert opened.status_code >= 500, opened.text
    assert first.proc.wait(30) == 1 and time.monotonic() - began < 5
    assert len(_lost_lines(log)) == 1, log.read_text()
    assert "late" not in _open_tables(database_url)


def _open_tables(url: str) -> list[str]:
    engine = make_engine(url)
    try:
        return list(TableRecords(engine).open_tables())
    finally:
        engine.dispose()
