"""The room of a server process: its table actors, opened (and recovered) at start-up.

On start, every table the store says was open is rebuilt from its record and
its unfinished hand cancelled (RULEBOOK §10.10, ``Table.recover``: stacks back
to their start-of-hand values); then every player is stood up and their table
chips go back to their accounts (``Table.close``). The events of this recovery
and the cash-outs are stored together, like any step. A table still in the
table list reopens, empty, continuing its record (its sequence numbers and
hand numbers go on, so no ledger key is ever used twice); one no longer listed
is marked closed.

What the tables share is in the database too: the disconnect all-ins used per
player and day (``server/allowances.py``: read at start, changed with the steps)
and the client ids that acted (``store/client_ids.py``: looked up by the gateway
for any id it does not remember, pruned here every hour).

The room has ONE integrity monitor (RULEBOOK §10.9, §10.1) with the rules of
``room/integrity_rules.ini``, read at start, for all its tables
(:mod:`cardroom.room.review`): chips dumped at two tables, or a second account
from the same address at another table, are one pattern. Each actor feeds it its
table's settled hands and sit-downs (the gateway's ``Sit`` carries the address)
once the step that made them is stored, and records the flags as
``ReviewFlagged`` entries of that table's record, which the operator's integrity
page reads. The monitor lives as long as the process (over a table's rebuild), and
over a restart: its counts are kept in the database (``store/room_memory.py``) every
``integrity_keep_seconds`` and when the room stops, and the next start reads them
back; after a crash the windows lack only the hands since the last counts kept.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import json
import logging
import secrets
import time
from collections.abc import Callable, Collection
from datetime import timedelta
from typing import Any

from cardroom.room.clock import day_of, today
from cardroom.room.codec import decode_entry
from cardroom.room.integrity import IntegrityMonitor
from cardroom.room.integrity_rules import default_rules
from cardroom.room.kinds import table_type
from cardroom.room.settings import TableSettings, settings_from_dict, settings_to_dict
from cardroom.room.state import TableState
from cardroom.room.table import Table
from cardroom.server import lease
from cardroom.server.actor import TableActor
from cardroom.server.allowances import KnownAllowances, StepAllowances
from cardroom.server.jobs import Job, Outcome
from cardroom.server.protocol import SERVER_STOPPING
from cardroom.server.recovery import recover_record
from cardroom.server.settings import ServerSettings
from cardroom.server.storage import Storage
from cardroom.server.table_ledger import StepLedger
from cardroom.server.tables_file import TableSpec
from cardroom.store import Players
from cardroom.store.allowances import AllowanceBook
from cardroom.store.client_ids import ClientIds
from cardroom.store.leases import LeaseLost
from cardroom.store.reports import Reports
from cardroom.store.room_memory import RoomMemories
from cardroom.store.tables import StoredRecord, TableRecords

log = logging.getLogger("cardroom.server")
PRUNE_SECONDS = 3600.0
"""How often old client ids, allowance days and login rows are deleted."""
INTEGRITY = "integrity"
"""The integrity monitor's name in the room's memory (``store/room_memory.py``)."""
ALIAS_SWEEP_FLOOR = 1000
"""Aliases kept before the first sweep of those no table or connection names."""


class AlreadyServing(RuntimeError):
    """Another server runs on the room's database: this one does not start."""


class Room:
    """The tables this process owns (one actor each) and what they share."""

    def __init__(
        self,
        storage: Storage,
        settings: ServerSettings,
        on_lost: Callable[[], None] | None = None,
    ) -> None:
        self.storage = storage
        self.settings = settings
        self.instance = secrets.token_hex(8)
        """This room's name in the database's lease (``server/lease.py``), and this run's
        in each ``hello`` (``run``): a client names the run its ``since`` came from."""
        self.found: dict[str, int] = {}
        """Each table's last sequence number in its record when this run opened it (0: a
        new table), before the start's recovery: a ``since`` of another run beyond it was
        never stored here (a backup restored, docs/server_backup.md)."""
        self.records = TableRecords(storage.engine, lease=(lease.SERVING, self.instance))
        """The tables' records: a step is stored only while this room holds the lease."""
        self.on_lost = on_lost
        """Called once the room lost the lease and stopped its tables (``cardroom serve``:
        the process stops, exit status 1)."""
        self.lost: str | None = None
        """Who held the lease when this room found it lost (None: not lost)."""
        self.players = Players(storage.engine)  # sanctions, login pruning: no password work
        self.allowances = KnownAllowances(AllowanceBook(storage.engine))
        self.client_ids = ClientIds(storage.engine)
        self.answered = ClientIds(storage.reader)
        """The stored client ids, read without waiting for a writer (the gateway)."""
        self.reports = Reports(storage.engine)
        """The stored reports: the report cooldown outlives the process (§10.7)."""
        self.aliases: dict[str, str] = {}
        """The alias of each player connected or at a table here (the gateway adds it at
        a connection, :meth:`forget_alias` drops it when neither holds)."""
        self.alias_sweep_at = ALIAS_SWEEP_FLOOR
        self.actors: dict[str, TableActor] = {}
        self.specs: dict[str, TableSpec] = {}
        self.integrity = IntegrityMonitor(default_rules())
        """The room's one integrity monitor: every table's hands and sit-downs."""
        self.memories = RoomMemories(storage.engine, lease=(lease.SERVING, self.instance))
        """The monitor's counts over a restart: kept only while this room holds the lease."""
        self.recalled = False
        """Whether the monitor's kept counts were taken at the start (until then, a stop
        must not write over them)."""
        self.pruner: asyncio.Task[None] | None = None
        self.heart: asyncio.Task[None] | None = None
        self.keeper: asyncio.Task[None] | None = None
        self.losing: asyncio.Task[None] | None = None
        """The stop a table step refused by the lease's fence began (:meth:`lease_refused`)."""

    async def open(self, specs: list[TableSpec]) -> None:
        """Recover the tables that were open, then open ``specs``; AlreadyServing when
        another server runs on the database (its recovery would stand up its players)."""
        held = await self.storage.run(lease.take, self.storage.engine, self.instance)
        if held is not None:
            raise AlreadyServing(
                f"another server is running on this database ({held}): stop it first"
                " (a crashed server on another host is taken as gone 30 s after it)"
            )
        lease.LIVE.add(self.instance)
        await self.storage.run(self.allowances.load, today())
        await self.recall_integrity()
        wanted = {s.settings.table_id: s for s in specs}
        for table_id in await self.storage.run(self.records.open_tables):
            if table_id not in wanted:
                await self.storage.run(self.retire, table_id)
        for spec in specs:
            await self.open_table(spec)
        self.pruner = asyncio.create_task(self.prune(), name="prune")
        self.heart = asyncio.create_task(self.beat(), name="heartbeat")
        self.keeper = asyncio.create_task(self.keep_integrity(), name="keep integrity")

    async def open_table(self, spec: TableSpec) -> None:
        """Open one table: its record continued after recovery, or new; its actor started."""
        ledger, allowances = StepLedger(), self.step_allowances(spec.settings)
        table, seq = await self.storage.run(self.prepare, spec, ledger, allowances)
        table_id = spec.settings.table_id
        actor = TableActor(
            table,
            ledger,
            seq,
            self.storage,
            self.records,
            functools.partial(self.rebuild, spec.settings, ledger, allowances),
            self.aliases,
            self.settings.tick_seconds,
            allowances,
            self.integrity,
            self.lease_refused,
        )
        self.specs[table_id] = spec
        self.actors[table_id] = actor
        actor.start()

    async def stop(self) -> None:
        """Stop every actor (and the pruning), then keep the integrity monitor's counts
        for the next start and then give the lease back (neither once the lease was lost:
        the room stores nothing more, :meth:`lose`)."""
        await self.cancel_tasks(self.pruner, self.heart, self.keeper)
        for actor in self.actors.values():
            await actor.stop()
        if self.losing is not None:  # a loss found as the stop came: its stop ends first
            await self.losing  # (``on_lost``: the process exits 1, not 0)
        if self.recalled and self.lost is None:  # a start that failed first: kept stays kept
            with contextlib.suppress(LeaseLost):  # logged: stopping anyway
                await self.keep_counts()  # while the lease is held: not kept else
        if self.instance in lease.LIVE:
            lease.LIVE.discard(self.instance)
            with contextlib.suppress(Exception):  # a database gone: the lease ages out
                await self.storage.run(lease.give_back, self.storage.engine, self.instance)

    @staticmethod
    async def cancel_tasks(*tasks: asyncio.Task[None] | None) -> None:
        """Cancel the room's own tasks and wait for them to end."""
        for task in tasks:
            if task is not None and task is not asyncio.current_task():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    async def drain(self, limit: float, given_up: Callable[[], bool] = lambda: False) -> int:
        """A clean stop is coming: no table deals a new hand, and the hands in progress
        are given up to ``limit`` seconds to finish (``given_up()``: the operator asked
        again, stop waiting). Returns how many are still in progress (the next start
        voids them, §10.10)."""

        def playing() -> int:
            return sum(1 for a in self.actors.values() if a.table.state.in_hand and not a.closed)

        for actor in self.actors.values():
            actor.dealing = False
        deadline = time.monotonic() + limit
        if now := playing():
            log.warning("stopping: %d hand(s) in progress may finish, %g s at most", now, limit)
        while playing() and time.monotonic() < deadline and not given_up():
            await asyncio.sleep(0.1)
        if left := playing():
            log.warning("stopping: %d hand(s) unfinished, voided at the next start", left)
        return left

    async def tell_stopping(self, limit: float) -> None:
        """A clean stop is coming: every table's watchers are told (``table_closed``,
        ``server_stopping``), each by its actor once the step it is storing is sent
        (at most ``limit`` seconds: a table stuck on the database is not waited for)."""
        told = [actor.submit(Job(None, _tell_stopping)) for actor in self.actors.values()]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*told), limit)

    async def keep_counts(self) -> None:
        """Keep the integrity monitor's counts in the database (a database that fails
        keeps the counts kept before; ``LeaseLost`` when this room no longer holds the
        lease: another server's are not written over). They are read a few thousand
        pairs at a time, the tables playing on between (read at once, 190,000 pairs held
        every table 2.3 s)."""
        memory: dict[str, Any] = {}
        for _ in self.integrity.memory_steps(memory):
            await asyncio.sleep(0)
        try:
            await self.storage.run(self.memories.keep, INTEGRITY, memory)
        except LeaseLost:  # the new holder's counts are not written over
            log.warning("the integrity monitor's counts were not kept: the lease is lost")
            raise
        except Exception as exc:
            log.warning("the integrity monitor's counts were not kept (%s)", exc)

    async def keep_integrity(self) -> None:
        """Every ``integrity_keep_seconds``: keep the monitor's counts (a crash then loses
        only the hands since)."""
        while True:
            await asyncio.sleep(self.settings.integrity_keep_seconds)
            try:
                await self.keep_counts()
            except LeaseLost:  # refused like a table's step: the room stops at once
                self.lease_refused()
                return

    async def recall_integrity(self) -> None:
        """Read the integrity monitor's counts last kept, at a stop or while the room ran
        before a crash (a rule changed since starts afresh)."""
        memory = await self.storage.run(self.memories.read, INTEGRITY)
        self.recalled = True
        if memory is None:
            return
        try:
            rules = self.integrity.recall(memory)
        except ValueError as exc:
            log.warning("the integrity monitor starts afresh: %s", exc)
            return
        log.info("integrity monitor: %s recalled (%d pairs)", rules, self.integrity.tracked_pairs)
        if afresh := sorted(set(memory["rules"]) - set(rules)):
            # A rule changed or gone since (an upgrade's new thresholds): its counts meant
            # something else, so they are dropped; the operator should know which.
            log.warning("integrity monitor: %s changed since kept: counted afresh", afresh)

    async def prune(self) -> None:
        """Every hour: delete client ids older than a day, old allowance days, and the
        login rows past ``login_keep_days`` that nothing reads (``store/login_rows.py``)."""
        keep = timedelta(days=self.settings.login_keep_days)
        while True:
            day = today()
            self.allowances.forget_before(day - 1)  # a table's clock may lag a little
            try:
                await self.storage.run(self.client_ids.prune)
                await self.storage.run(self.allowances.book.prune, day)
                await self.storage.run(self.players.prune_logins, keep)
            except Exception as exc:  # a busy or absent database: next time
                log.warning("pruning failed (%s)", exc)
            await asyncio.sleep(PRUNE_SECONDS)

    async def beat(self) -> None:
        """Every few seconds: renew this room's lease on the database; found lost, the
        room stops serving (:meth:`lose`)."""
        engine, me = self.storage.engine, self.instance
        while True:
            await asyncio.sleep(self.settings.heartbeat_seconds)
            try:  # a database away does not lose the lease: nobody else took it
                if await self.storage.run(lease.renew, engine, me):
                    self.storage.stored()  # a write went through: an idle room is healthy
                    continue
            except Exception as exc:  # a busy or absent database: next time
                log.warning("the server's lease was not renewed (%s)", exc)
                self.storage.refused(exc)  # a full disk: /healthz says so, players or none
                continue
            self.lease_refused()  # in a task of its own, which a clean stop waits for
            return

    def lease_refused(self) -> None:
        """A table's step (or the monitor's counts) was refused because the lease is no
        longer this room's (the fence, ``TableRecords.lease``), or the renewal found it
        taken: the room stops at once
        (:meth:`lose`), not at its next renewal; once, however many tables find it (the
        stop runs in a task of its own: the actor that found it is among those it
        stops)."""
        if self.lost is None and self.losing is None:
            self.losing = asyncio.create_task(self.lose_refused(), name="lease lost")

    async def lose_refused(self) -> None:
        """:meth:`lose`, after a refused step: who holds the lease now is read for the log."""
        try:
            holder = await self.storage.run(lease.holder_of, self.storage.engine)
        except Exception as exc:
            holder = f"unknown: {exc}"
        await self.lose(holder)

    async def lose(self, holder: str) -> None:
        """The lease was taken from this room: a second server started beside it (this one
        paused, or cut off from the database, past the lease) or a forced recovery ran;
        either stood its players up and cashed their chips out from the records. Its
        tables in memory are stale, and taking the lease back would not make them true:
        the room stops. Nothing more is stored (the records already refuse its steps,
        ``TableRecords.lease``; the monitor's counts are not kept), each table's
        watchers are told ``table_closed`` (``server_stopping``), the actors stop, the
        lease is neither taken nor given back, and the process is asked to stop
        (``on_lost``: ``cardroom serve`` exits 1). Once: the renewal and a refused step
        may both find the loss."""
        if self.lost is not None:
            return
        self.lost = holder
        lease.LIVE.discard(self.instance)  # not given back at the stop: not its own
        log.error(
            "this server lost the database's lease (now held by %s): its tables may have been"
            " recovered elsewhere, so it stops serving them and stores nothing more",
            holder,
        )
        await self.cancel_tasks(self.pruner, self.keeper, self.heart)
        for actor in list(self.actors.values()):  # a table opening meanwhile may add one
            await actor.stop()
            actor.tell_closed(SERVER_STOPPING)
        if self.on_lost is not None:
            self.on_lost()

    def step_allowances(self, settings: TableSettings) -> StepAllowances:
        """A table's view of the disconnect all-ins, with its limits."""
        return StepAllowances(
            self.allowances, settings.disconnect_allins_per_day, settings.allowance_resets_per_day
        )

    # ------------------------------------------------- blocking (database pool)

    def recover(self, record: StoredRecord, ledger: StepLedger) -> tuple[Table, int]:
        """Rebuild a table from its record, cancel its unfinished hand, stand everyone
        up with their chips returned; store all that in one step
        (:func:`~cardroom.server.recovery.recover_record`)."""
        settings = settings_from_dict(record.settings)
        allowances = self.step_allowances(settings)  # closing grants none: nothing to store
        recovered = recover_record(self.records, record, ledger, allowances)
        if (line := recovered.summary(record.table_id)) is not None:
            # A hand voided is news; players stood up after a clean stop are the rule.
            log.log(logging.WARNING if recovered.voided is not None else logging.INFO, "%s", line)
        return recovered.table, recovered.seq

    def retire(self, table_id: str) -> None:
        """A table no longer listed: recover it, then mark it closed, and say so (a table
        opened through the operator's API and not in the tables file closed silently)."""
        record = self.records.load(table_id)
        if record is not None:
            self.recover(record, StepLedger())
        self.records.close(table_id)
        log.warning("table %s closed: the tables file no longer names it", table_id)

    def prepare(
        self, spec: TableSpec, ledger: StepLedger, allowances: StepAllowances | None = None
    ) -> tuple[Table, int]:
        """The table to run for ``spec``: its record continued after recovery, or new."""
        settings = spec.settings
        table_id = settings.table_id
        record = self.records.load(table_id)
        self.found[table_id] = record.last_seq if record is not None else 0
        state, seq = None, 0
        now = settings_to_dict(settings)
        if record is not None:
            old, seq = self.recover(record, ledger)
            state = _fit(old.state, old.settings, settings)
            if changed := settings_changed(record.settings, now):
                log.warning("table %s reopens with its settings changed: %s", table_id, changed)
        allowances = allowances or self.step_allowances(settings)
        # Built before its record is stored: a table refused here (an account rule of the
        # ledger) left a record that every later start closed, met the refusal and stopped.
        table = table_type(settings)(settings, ledger, allowances=allowances, state=state)
        self.records.open(table_id, now)
        self.records.commit(table_id, seq + 1, [], snapshot=(seq, table.snapshot))
        return table, seq

    def rebuild(
        self, settings: TableSettings, ledger: StepLedger, allowances: StepAllowances | None = None
    ) -> tuple[Table, int]:
        """The table as its record says (after a failed write), hand and all; its players'
        disconnect all-ins as the database says (the failed step's are not stored)."""
        record = self.records.load(settings.table_id)
        assert record is not None and record.snapshot is not None
        events = [decode_entry(e) for _, e in record.entries]
        ledger.pending = []
        allowances = allowances or self.step_allowances(settings)
        allowances.take()
        kind = table_type(settings)
        table = kind.restore(settings, record.snapshot, events, ledger, allowances=allowances)
        players = [s.player for s in table.state.seats if s is not None]
        self.allowances.refresh(players, day_of(table.clock()))
        return table, record.last_seq

    def at_tables(self) -> set[str]:
        """The players seated or waiting at a table here (the snapshots name them)."""
        out: set[str] = set()
        for actor in self.actors.values():
            state = actor.table.state
            out.update(seat.player for seat in state.seats if seat is not None)
            out.update(state.waitlist)
        return out

    def forget_alias(self, player: str, connected: Collection[str]) -> None:
        """``player``'s last connection closed: forget his alias unless a table still
        names him. A server runs for weeks and meets every account that ever logs in:
        the aliases kept are those of ``connected`` players and of players at a table.
        A player seated when his connection closed and stood up later is swept out
        once the aliases kept have doubled since the last sweep (O(1) a close on
        average)."""
        aliases = self.aliases
        if player in aliases and player not in connected and player not in self.at_tables():
            del aliases[player]
        if len(aliases) >= self.alias_sweep_at:
            keep = self.at_tables()
            for gone in [pl for pl in aliases if pl not in keep and pl not in connected]:
                del aliases[gone]  # in place: the actors share this dict
            self.alias_sweep_at = max(ALIAS_SWEEP_FLOOR, 2 * len(aliases))

    def actor(self, table_id: str) -> TableActor | None:
        """The actor of a table here, if any."""
        return self.actors.get(table_id)


async def _tell_stopping(actor: TableActor) -> Outcome:
    """Run by an actor: tell its watchers the server stops (the table is not closed: the
    next start recovers it, RULEBOOK §10.10)."""
    actor.tell_closed(SERVER_STOPPING)
    return Outcome(seq=actor.seq)


def settings_changed(was: dict[str, Any], now: dict[str, Any]) -> str:
    """The settings that differ between a table's record and its new spec, as
    ``path: old -> new`` ("" when none): an edit of the tables file between starts is
    told, not silent (``now`` is compared as its record will store it)."""
    old, new = _leaves(was), _leaves(json.loads(json.dumps(now)))
    paths = sorted(p for p in old.keys() | new.keys() if old.get(p) != new.get(p))
    return "; ".join(f"{p}: {_short(old.get(p))} -> {_short(new.get(p))}" for p in paths)


def _leaves(value: Any, path: str = "") -> dict[str, Any]:
    """JSON data as its leaves by path (``games[0].stakes.big_blind``)."""
    if isinstance(value, dict):
        items = [(f"{path}.{k}" if path else str(k), v) for k, v in value.items()]
    elif isinstance(value, list):
        items = [(f"{path}[{i}]", v) for i, v in enumerate(value)]
    else:
        return {path: value}
    return {p: leaf for key, v in items for p, leaf in _leaves(v, key).items()}


def _short(value: Any) -> str:
    text = json.dumps(value, separators=(",", ":"))
    return text if len(text) <= 60 else text[:57] + "..."


def _fit(state: TableState, was: TableSettings, now: TableSettings) -> TableState:
    """A closed (empty) table's state, recorded under the settings ``was``, for the table
    ``now`` reopens as. The chips each player took off bind a return (the reducing rule,
    §10.2) in the money they were taken in: a table reopened for the other money
    forgets them (play chips demanded a real buy-in as large)."""
    seats = now.seat_count
    departures = state.departures if was.currency is now.currency else {}
    if len(state.seats) == seats and departures is state.departures:
        return state
    fitted = dataclasses.replace(state, departures=departures)
    if len(state.seats) != seats:
        fitted = dataclasses.replace(fitted, seats=[None] * seats, positions=None, offers={})
    fitted.reindex()
    return fitted
