"""RULEBOOK §10.9 at served tables: the room's integrity monitor (rules from
``room/integrity_rules.ini``) sees every table's hands and where each player sits
down from, and its flags reach the operator's integrity page as the tables'
``ReviewFlagged`` entries: for review, never a punishment."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from cardroom.bots.player import Bot
from cardroom.bots.tracker import HandTracker
from cardroom.server.jobs import Job

from .api_client import (
    PASSWORD,
    Api,
    bearer,
    fresh_alias,
    make_operator,
    register,
    start_api,
    stop_bots,
)


@pytest.fixture(scope="module")
def api(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
    yield from start_api(request, tmp_path_factory.mktemp("integrity"), backend="sqlite")


def gives_away(turn: dict[str, Any], _hand: HandTracker, _rng: random.Random) -> dict[str, Any]:
    """Check when free, else fold: every chip this player puts in goes to the other."""
    kinds = turn["legal"]["actions"]
    return {"kind": "check" if "check" in kinds else "fold"}


def takes(turn: dict[str, Any], _hand: HandTracker, _rng: random.Random) -> dict[str, Any]:
    """Raise the minimum whenever allowed (else check or call)."""
    legal = turn["legal"]
    if "raise" in legal["actions"]:
        return {"kind": "raise", "amount": legal["min_raise_to"]}
    return {"kind": "check" if "check" in legal["actions"] else "call"}


def _table_flags(boss: httpx.Client) -> list[dict[str, Any]]:
    answer = boss.get("/api/operator/integrity")
    assert answer.status_code == 200
    flags: list[dict[str, Any]] = answer.json()["table_flags"]
    return flags


def _until_flagged(
    bots: list[Bot], boss: httpx.Client, wanted: Callable[[dict[str, Any]], bool], seconds: float
) -> list[dict[str, Any]]:
    """Let ``bots`` play until the operator's integrity page shows flags that ``wanted``
    picks (or ``seconds`` pass); those flags."""
    found: list[dict[str, Any]] = []

    async def session() -> None:
        stop = asyncio.Event()
        tasks = [asyncio.create_task(b.play(stop)) for b in bots]
        deadline = time.monotonic() + seconds
        while not found and time.monotonic() < deadline:
            await asyncio.sleep(0.3)
            flags = await asyncio.to_thread(_table_flags, boss)
            found.extend(f for f in flags if wanted(f))
        await stop_bots(stop, bots, tasks)

    asyncio.run(session())
    return found


def _operator(api: Api) -> httpx.Client:
    boss_alias = register(api)
    make_operator(api, boss_alias)
    boss: httpx.Client = bearer(api, boss_alias)
    return boss


def test_10_9_a_chip_dump_at_a_served_table_is_flagged_for_the_operator(api: Api) -> None:
    boss = _operator(api)
    # Both play from one device (the id a browser keeps in its local storage).
    device = "3f2b9c1e-device"
    dumper = Bot(api.base, fresh_alias("dump"), PASSWORD, "holdem", strategy=gives_away, seat=0,
                 device=device)  # fmt: skip
    taker = Bot(api.base, fresh_alias("take"), PASSWORD, "holdem", strategy=takes, seat=1,
                device=device)  # fmt: skip
    found = _until_flagged(
        [dumper, taker], boss, lambda f: f["entry"]["rule"] == "repeated_pots", 60
    )
    assert found, "no chip-dumping flag within 60 s"
    flag = found[0]
    assert flag["table_id"] == "holdem" and flag["kind"] == "ReviewFlagged"
    assert flag["entry"]["accounts"] == [dumper.player_id, taker.player_id]
    assert len(flag["entry"]["hands"]) == 10  # the rules file's threshold
    # Both sat down from 127.0.0.1: the address the server saw reached the monitor too.
    pair = {dumper.player_id, taker.player_id}
    for rule in ("shared_ip", "shared_device"):
        shared = [f for f in _table_flags(boss) if f["entry"]["rule"] == rule]
        assert any(pair <= set(f["entry"]["accounts"]) for f in shared), rule


def test_10_1_one_device_at_two_tables_is_flagged_by_the_room(api: Api) -> None:
    # The room has one monitor for all its tables: a second account from the same device
    # is seen even when it sits down at another table than the first.
    boss = _operator(api)
    device = "77aa01cd-two-tables"
    bots = [
        Bot(api.base, fresh_alias("one"), PASSWORD, table, strategy=takes, seat=0, device=device)
        for table in ("stud", "draw")
    ]

    def wanted(flag: dict[str, Any]) -> bool:
        pair = {b.player_id for b in bots}
        entry = flag["entry"]
        return entry["rule"] == "shared_device" and pair <= set(entry["accounts"])

    found = _until_flagged(bots, boss, wanted, 30)
    assert len(found) == 1, "no shared-device flag within 30 s"
    assert found[0]["table_id"] in ("stud", "draw") and found[0]["kind"] == "ReviewFlagged"
    assert found[0]["entry"]["hands"] == []


@pytest.mark.parametrize(
    ("query", "device"),
    [
        (b"device=3f2b9c1e-aa_b", "3f2b9c1e-aa_b"),
        (b"", ""),
        (b"device=short", ""),  # fewer than 8 characters
        (b"device=" + b"x" * 65, ""),  # more than 64
        (b"device=has%20space%3Cb%3E", ""),  # not a plain token
        (b"device=%E2%99%A0%E2%99%A0%E2%99%A0%E2%99%A0", ""),
    ],
)
def test_10_9_only_a_plain_device_id_is_kept(query: bytes, device: str) -> None:
    from starlette.websockets import WebSocket

    from cardroom.server.gateway import device_of

    async def never() -> Any:
        raise AssertionError("not read")

    scope = {"type": "websocket", "query_string": query, "headers": [], "path": "/ws"}
    assert device_of(WebSocket(scope, never, never)) == device


def test_10_9_the_room_s_monitor_keeps_its_counts_over_a_restart(database_url: str) -> None:
    # A pattern of weeks must not start again at every deploy: when the room stops it
    # keeps its monitor's counts in the database, and the next start takes them back.
    # Nine pots one way before the restart, the tenth after it: one chip-dumping flag
    # naming all ten (the shipped rule's threshold). After one more restart the flag is
    # not raised again: what was raised is kept too.
    from cardroom.room.integrity import HandObservation, Transfer
    from cardroom.server.room import Room
    from cardroom.server.settings import ServerSettings
    from cardroom.server.storage import Storage

    def pot(n: int) -> HandObservation:
        return HandObservation(f"holdem#{n}", transfers=(Transfer("ann", "bob", 10),), at=n)

    async def run_room(hands: range) -> tuple[list[Any], int]:
        storage = Storage(database_url, threads=1)
        try:
            await storage.run(storage.migrate)
            room = Room(storage, ServerSettings(database_url=database_url))
            await room.open([])
            recalled = room.integrity.tracked_pairs
            flags = [f for n in hands for f in room.integrity.observe_hand(pot(n))]
            await room.stop()
            return flags, recalled
        finally:
            storage.close()

    async def failed_start() -> None:  # stopped before it opened (a start that failed)
        storage = Storage(database_url, threads=1)
        try:
            await Room(storage, ServerSettings(database_url=database_url)).stop()
        finally:
            storage.close()

    assert asyncio.run(run_room(range(1, 10))) == ([], 0)
    asyncio.run(failed_start())  # writes nothing over what was kept
    flags, recalled = asyncio.run(run_room(range(10, 11)))
    assert recalled == 1
    assert [(f.rule, f.accounts, f.hands) for f in flags] == [
        ("repeated_pots", ("ann", "bob"), tuple(f"holdem#{n}" for n in range(1, 11)))
    ]
    assert asyncio.run(run_room(range(11, 12))) == ([], 1)


def test_10_9_counts_of_a_rule_changed_since_they_were_kept_are_dropped_with_a_warning(
    database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    # A rule whose thresholds changed since its counts were kept starts afresh (its
    # window meant something else); the operator is told which, at warning level: the
    # start's log said only the rules recalled (an upgrade changed the shipped rules).
    import dataclasses
    import logging

    from cardroom.room.integrity import HandObservation, IntegrityMonitor, Transfer
    from cardroom.room.integrity_rules import default_rules
    from cardroom.server.room import Room
    from cardroom.server.settings import ServerSettings
    from cardroom.server.storage import Storage

    async def run_room(monitor: IntegrityMonitor | None) -> None:
        storage = Storage(database_url, threads=1)
        try:
            await storage.run(storage.migrate)
            room = Room(storage, ServerSettings(database_url=database_url))
            if monitor is not None:
                room.integrity = monitor
            await room.open([])
            pot = HandObservation("holdem#1", transfers=(Transfer("ann", "bob", 10),), at=1)
            room.integrity.observe_hand(pot)
            await room.stop()
        finally:
            storage.close()

    asyncio.run(run_room(None))
    changed = [
        dataclasses.replace(r, threshold=r.threshold + 1) if r.name == "repeated_pots" else r
        for r in default_rules()
    ]
    with caplog.at_level(logging.WARNING, logger="cardroom.server"):
        asyncio.run(run_room(IntegrityMonitor(changed)))
    said = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any("repeated_pots" in line and "afresh" in line for line in said), said


def test_10_9_the_monitor_s_counts_outlive_a_crash(database_url: str) -> None:
    # A room that never stops cleanly (a crash) has kept its counts as it ran, every
    # integrity_keep_seconds: the next start reads them back. Nine pots one way before
    # the crash, the tenth after it: the flag names all ten hands.
    from cardroom.room.integrity import HandObservation, Transfer
    from cardroom.server import lease
    from cardroom.server.room import Room
    from cardroom.server.settings import ServerSettings
    from cardroom.server.storage import Storage

    settings = ServerSettings(database_url=database_url, integrity_keep_seconds=0.05)

    def pot(n: int) -> HandObservation:
        return HandObservation(f"holdem#{n}", transfers=(Transfer("ann", "bob", 10),), at=n)

    async def run_room(hands: range, *, crash: bool) -> tuple[list[Any], int]:
        storage = Storage(database_url, threads=1)
        try:
            await storage.run(storage.migrate)
            room = Room(storage, settings)
            await room.open([])
            recalled = room.integrity.tracked_pairs
            flags = [f for n in hands for f in room.integrity.observe_hand(pot(n))]
            await asyncio.sleep(0.3)  # the counts are kept meanwhile
            if crash:  # no stop: the process is gone, and so is its hold on the database
                lease.LIVE.discard(room.instance)
            else:
                await room.stop()
            return flags, recalled
        finally:
            storage.close()

    assert asyncio.run(run_room(range(1, 10), crash=True)) == ([], 0)
    flags, recalled = asyncio.run(run_room(range(10, 11), crash=True))
    assert recalled == 1
    assert [(f.rule, f.accounts, f.hands) for f in flags] == [
        ("repeated_pots", ("ann", "bob"), tuple(f"holdem#{n}" for n in range(1, 11)))
    ]
    # What was raised before the second crash is kept too: not raised again.
    assert asyncio.run(run_room(range(11, 12), crash=False)) == ([], 1)


def test_10_9_a_flag_kept_in_the_counts_but_never_stored_is_raised_again_after_a_crash(
    database_url: str,
) -> None:
    """A table's flag is stored in a step of its own, after the step that raised it. The
    room keeps the monitor's counts while the tables play; a keep that came while the
    flag was on its way to the database, then a crash before it was stored, left the
    flag raised in the counts and in no record: the next process never raised it again
    (its condition still held). Here the keep comes during the flag's write, which then
    fails as a dying process would: the counts kept must not hold it as raised."""
    from cardroom.ledger import Currency
    from cardroom.room import commands as cmd
    from cardroom.room.integrity import Access, IntegrityMonitor
    from cardroom.server.room import INTEGRITY, Room
    from cardroom.server.settings import ServerSettings
    from cardroom.server.storage import Storage
    from cardroom.server.tables_file import spec_from_dict
    from cardroom.store import Cashier, Players, make_engine
    from cardroom.store.room_memory import RoomMemories

    engine = make_engine(database_url)
    ip = "10.0.0.7"

    async def play() -> tuple[dict[str, Any] | None, list[Any]]:
        storage = Storage(database_url, threads=1)
        try:
            await storage.run(storage.migrate)
            who = Players(engine).register("annie", "password1", age_confirmed=True).id
            Cashier(engine).deposit("annie", 100, Currency.PLAY, operator="test")
            room = Room(storage, ServerSettings(database_url=database_url))
            spec = {"id": "t9", "game": "holdem", "stakes": {"small_blind": 1, "big_blind": 2}}
            await room.open([spec_from_dict(spec)])
            room.integrity.observe_access(Access("someone", ip, at=time.time()))
            write, died = storage.write, asyncio.Event()

            async def dying(write_all: Any, step: Any) -> None:
                if any(e["type"] == "ReviewFlagged" for e in step.entries):
                    await room.keep_counts()  # the keeper ran while the flag was written
                    died.set()
                    raise RuntimeError("the process died before the flag was stored")
                await write(write_all, step)

            storage.write = dying  # type: ignore[method-assignment]
            job = Job(cmd.Sit(str(who), 0, 40, ip=ip), None)
            assert (await asyncio.wait_for(room.actors["t9"].submit(job), 10)).code is None
            await asyncio.wait_for(died.wait(), 10)
            kept = RoomMemories(engine).read(INTEGRITY)  # what the next process reads
            monitor = IntegrityMonitor(room.integrity.rules)
            storage.write = write  # type: ignore[method-assignment]
            await room.stop()
            if kept is not None:
                monitor.recall(kept)
            return kept, monitor.observe_access(Access(str(who), ip, at=time.time()))
        finally:
            storage.close()

    try:
        kept, again = asyncio.run(play())
    finally:
        engine.dispose()
    assert kept is not None and kept["rules"]["shared_ip"]["raised"] == []
    assert [f.rule for f in again] == ["shared_ip"]  # raised again: it was never stored
