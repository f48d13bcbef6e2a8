"""One asyncio task per table: the only code that touches that table (no locks).

The actor takes jobs from its queue (commands, watchers coming and going, chat)
and looks at the table's clock every ``tick_seconds``. A job that drives the table
itself (a chat line) stores what it did through :meth:`TableActor.step`, like a
command. Commands run in memory
in arrival order; the events of a batch of them, with the ledger transfers they
made (:class:`~cardroom.server.table_ledger.StepLedger`) and the snapshot a new
hand took, are then written in ONE database transaction off the event loop
(by the storage's writer thread, with the steps other tables wait to store);
only then are they numbered, projected per seat and sent, and the commands
answered. Should that write fail, nothing of the batch happened: the table is
rebuilt from its stored record, its watchers get a fresh snapshot and the
commands are answered ``not_stored``.

The same transaction stores the disconnect all-ins the batch used or reset
(``StepAllowances``) and the client ids of the commands it ran (a job's
``client``), so a command is never stored without its id, nor its id without it.

Once a step is stored, the table's settled hands and sit-downs go to the room's
integrity monitor (:func:`~cardroom.room.review.review_table`), and the flags it
raises are stored at once as a step of their own (a step that failed was never
reviewed: it did not happen; flags that failed to be stored are raised again when
their pattern next grows).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Callable, Hashable

from cardroom.ledger import AccountRef
from cardroom.room import commands as cmd
from cardroom.room import events as rv
from cardroom.room.codec import encode_entry
from cardroom.room.errors import TableError
from cardroom.room.integrity import IntegrityMonitor
from cardroom.room.review import review_table
from cardroom.room.table import ROOM_EVENT_TYPES, AnyEvent, Table
from cardroom.server import broadcast, crash_points, jobs, late, protocol
from cardroom.server.allowances import StepAllowances
from cardroom.server.broadcast import History, Watcher
from cardroom.server.jobs import TICK, ClientRef, Job, Outcome
from cardroom.server.paused import Pause
from cardroom.server.storage import Storage
from cardroom.server.table_ledger import StepLedger
from cardroom.store import Players, SanctionKind
from cardroom.store.client_ids import Answered
from cardroom.store.errors import StoreError
from cardroom.store.leases import LeaseLost
from cardroom.store.tables import ChatOffence, TableRecords, TableStep

log = logging.getLogger("cardroom.server")
BATCH = 64
"""Commands written in one transaction at most."""
STOOD_STILL = 1.0
"""Seconds a step's storing may hold the table before the decision running gets its
action time again (``Table.resume_clocks``): the table stood still, its clock running on,
and an action sent meanwhile behind its player's own message (a chat line in that step)
reached it only after the clock had timed him out and started his bank."""
UNREAD_TOLD_EVERY = 60.0
"""Seconds between the log's reminders that a table's record is still unread."""


Rebuild = Callable[[], tuple[Table, int]]
"""Rebuilds a table from its stored record: the table and its last sequence number."""


class TableActor:
    """Owns one table; see the module docstring."""

    def __init__(
        self,
        table: Table,
        ledger: StepLedger,
        seq: int,
        storage: Storage,
        records: TableRecords,
        rebuild: Rebuild,
        aliases: dict[str, str],
        tick_seconds: float = 0.2,
        allowances: StepAllowances | None = None,
        integrity: IntegrityMonitor | None = None,
        on_lease_lost: Callable[[], None] | None = None,
    ) -> None:
        self.table = table
        self.on_lease_lost = on_lease_lost
        """Called when a step is refused because this server lost the database's lease
        (``LeaseLost``): the room stops at once (``Room.lose``)."""
        self.integrity = integrity
        """The room's integrity monitor (None: the table's reviews are dropped)."""
        self.table_id = table.settings.table_id
        self.ledger = ledger
        self.allowances = allowances
        self.seq = seq
        self.storage = storage
        self.players = Players(storage.reader)
        """Sanctions, read before a command brings chips to the table (no password work)."""
        self.records = records
        self.rebuild_record = rebuild
        self.aliases = aliases
        self.tick_seconds = tick_seconds
        self.queue: asyncio.Queue[Job] = asyncio.Queue()
        self.watchers: dict[int, Watcher] = {}
        self.history = History()
        self.history.reset(table)
        self.snapshot_ref = table.snapshot
        self.task: asyncio.Task[None] | None = None
        self.ticker: asyncio.Task[None] | None = None
        self.tick_queued = False
        self.pending: list[AnyEvent] = []
        self.answers: list[tuple[Job, Outcome]] = []
        self.ids: list[ClientRef] = []
        """The messages whose jobs made the pending events."""
        self.offences: list[ChatOffence] = []
        """The chat offences among the pending events: their bans are stored with them."""
        self.last_turn: tuple[int, float] | None = None
        self.decisions: dict[int, tuple[Hashable, int]] = {}
        """Per seat dealt in: its decision as stored and sent (``Table.decision_key``)
        and the sequence number of the hand event that began it: an action decided
        before that is stale (``stale_turn``)."""
        self.note_decisions(seq)
        self.closed = False
        """Closed for good, or stopped: every job is answered ``no_such_table``."""
        self.unread = False
        """A step was lost, the record not read back: the table in memory may hold what
        was lost, so it runs nothing (jobs answered ``busy``) until :meth:`reread`."""
        self.pause = Pause(self.table_id)  # refused steps: logged once, tries spaced out
        self.unread_since: float | None = None
        self.unread_told = 0.0
        """When the record first failed to be read back, and was last said to be unread
        (monotonic; :meth:`tell_unread`)."""
        self.dealing = True
        """Whether the clock deals the next hand (not while the room drains at a stop:
        the hand in progress finishes, no other begins, ``Room.drain``)."""
        self.presence_unsure = False
        """After a rebuild: who is connected, as the record says, may not be who watches
        (a step storing a ``Disconnected`` or ``Reconnected`` was lost); the next batch
        makes it so (:meth:`presence`)."""

    # ------------------------------------------------------------------ running

    def start(self) -> None:
        """Start the actor's task and its clock."""
        self.task = asyncio.create_task(self.run(), name=f"table:{self.table_id}")
        self.ticker = asyncio.create_task(self.clock(), name=f"clock:{self.table_id}")

    async def clock(self) -> None:
        """Queue a tick every ``tick_seconds`` (one at a time: a busy table skips some)."""
        # Each table's clock starts at its own phase: started together, hundreds of
        # tables ticked in one burst that delayed every action arriving during it.
        await asyncio.sleep(random.uniform(0.0, self.tick_seconds))
        while True:
            await asyncio.sleep(self.tick_seconds)
            if not self.tick_queued:
                self.tick_queued = True
                self.queue.put_nowait(TICK)

    async def stop(self) -> None:
        """Stop the task (a batch being written is finished first); the jobs it will not
        run are answered ``no_such_table``, as every job sent after."""
        self.closed = True
        if self.ticker is not None:
            self.ticker.cancel()
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        while not self.queue.empty():
            if (job := self.queue.get_nowait()) is not TICK:  # the clock's has no answer
                jobs.resolve(job, jobs.closed())

    async def submit(self, job: Job) -> Outcome:
        """Queue ``job`` and wait for its outcome."""
        if self.closed:
            return jobs.closed()
        self.queue.put_nowait(job)
        return await job.future

    async def run(self) -> None:
        """The actor's loop: batches of jobs, and the clock."""
        while True:
            batch = [await self.queue.get()]
            while len(batch) < BATCH and not self.queue.empty():
                batch.append(self.queue.get_nowait())
            tick = TICK in batch
            if tick:
                self.tick_queued = False
                batch = [job for job in batch if job is not TICK]
            try:
                await self.process(batch, tick)
            except asyncio.CancelledError:
                for job in batch:  # stopped: nobody waits for what will not be run
                    jobs.resolve(job, jobs.closed())
                raise
            except Exception:  # a bug must not kill the table: rebuild it from its record
                log.exception(
                    "table %s: unexpected error; rebuilding from the record", self.table_id
                )
                await self.recover_from_failure("internal", "internal error")
                for job in batch:  # nobody waits forever for a job the error cut short
                    jobs.resolve(job, Outcome("internal", "internal error", self.seq))

    async def process(self, batch: list[Job], tick: bool) -> None:
        """Run a batch of jobs and perhaps the clock, then store and send."""
        if self.unread and not self.closed and not await self.reread():
            for job in batch:
                self.refuse_unread(job)
            return
        if not batch and self.pause.holding():  # the clock's tick, steps just refused
            return
        if self.presence_unsure and not self.closed:
            self.presence_unsure = False
            self.pending.extend(self.presence())
        for job in batch:
            if self.closed:  # the table closed earlier in this batch
                jobs.resolve(job, jobs.closed())
            elif self.unread:  # a step of this batch was lost, the record not read back
                self.refuse_unread(job)
            elif job.command is None:
                if not await self.flush() and self.unread:
                    self.refuse_unread(job)
                    continue
                assert job.run is not None
                outcome = await job.run(self)
                jobs.resolve(job, outcome)
            else:
                await self.command(job)
        if tick and not self.closed and not self.unread:
            self.pending.extend(self.table.tick(deal=self.dealing))
        await self.flush()

    def refuse_unread(self, job: Job) -> None:
        """Answer ``job`` busy: the table's record is not read back, so it runs nothing.
        A connection leaving (:func:`jobs.unwatch`) is forgotten all the same, in memory
        only: kept, a connection gone stayed among the watchers for good, with what was
        queued for it, and its seated player counted as watching. The presence pass
        after the reread (:meth:`presence`) disconnects a seat it left unwatched."""
        if job.leaving is not None:
            self.watchers.pop(job.leaving, None)
        jobs.resolve(job, jobs.unread())

    async def command(self, job: Job) -> None:
        """Run one table command in memory (a buy-in alone, its balance loaded first).

        A command that brings chips to the table (sit, rebuy) or asks for a seat (the
        waiting list) is refused to a frozen or banned account: its sanctions are read
        from the database with the balance, whatever this process knows."""
        command = job.command
        if job.turn is not None and command is not None:
            refused = late.refusal(self, command, job.turn)
            if refused is not None:
                jobs.resolve(job, refused)
                return
        buy_in = isinstance(command, cmd.Sit | cmd.Rebuy)
        if buy_in and not await self.flush() and self.unread:  # not on what was lost
            jobs.resolve(job, jobs.unread())
            return
        if isinstance(command, cmd.Sit | cmd.Rebuy | cmd.JoinWaitlist):
            account = None
            if buy_in:
                account = AccountRef.player(command.player, self.table.settings.currency)
            try:
                kinds, balance = await self.storage.run(self.standing, command.player, account)
            except Exception as exc:  # the database: the client hears it in our words
                jobs.resolve(job, Outcome("busy", jobs.unreadable(self.table_id, exc)))
                return
            refused = jobs.sanctioned(kinds)
            if refused is not None:
                jobs.resolve(job, refused)
                return
            if account is not None:
                self.ledger.know(account, balance)
        try:
            assert command is not None
            self.pending.extend(self.table.handle(command))
        except TableError as exc:
            jobs.resolve(job, Outcome(exc.code, exc.reason))
            return
        self.answers.append((job, Outcome()))
        if buy_in:
            await self.flush()

    def stale(self, player: str, turn: int) -> Outcome | None:
        """The refusal of an action ``player`` decided at sequence number ``turn``, if it
        is late: its decision began after ``turn`` (or moved in this batch, unseen yet).
        A ``turn`` not reached yet is malformed. A player not dealt in is left to the
        table to refuse."""
        if turn > self.seq:
            return Outcome("bad_message", f"turn {turn} is past the table's last event")
        s = self.table.state.seat_of(player)
        if s is None or s not in self.decisions:
            return None
        key, began = self.decisions[s]
        if self.table.decision_key(s) != key:
            began = self.seq + 1
        if turn >= began:
            return None
        return Outcome("stale_turn", "the hand moved on before your action arrived: not played")

    def note_decisions(self, began: int) -> None:
        """After a stored step whose last hand event is numbered ``began`` (what changes
        a decision: an action, a card dealt; or a rebuild, at the table's last): the
        decision of each seat dealt in, and when it began (kept from before when it
        is the same). A client that saw that event decided on the decision it made."""
        table, before = self.table, self.decisions
        now: dict[int, tuple[Hashable, int]] = {}
        if table.state.in_hand:
            for s in table.state.dealt:
                key = table.decision_key(s)
                old = before.get(s)
                now[s] = (key, old[1] if old is not None and old[0] == key else began)
        self.decisions = now

    def balance(self, account: AccountRef) -> int:
        """A balance read in the database pool (a reader: no write lock to wait for)."""
        from cardroom.store import SqlLedger

        return SqlLedger(self.storage.reader).balance(account)

    def standing(self, player: str, account: AccountRef | None) -> tuple[set[SanctionKind], int]:
        """In the database pool: the player's sanctions in force and (when ``account`` is
        given) that account's balance."""
        kinds = (
            self.players.sanctions_of(int(player))
            if player.isascii() and player.isdigit()
            else set()
        )
        return kinds, 0 if account is None else self.balance(account)

    # ------------------------------------------------------------------ storing

    async def step(
        self,
        events: list[AnyEvent],
        client: ClientRef | None,
        offences: tuple[ChatOffence, ...] = (),
    ) -> bool:
        """Store and send ``events``, which a job made by driving the table itself, as one
        step with the id of the message that asked for them (``client``) and the chat
        bans its ``offences`` earn.
        False when it could not be stored: nothing of it happened, the table was
        rebuilt from its record. (A job runs once what came before it is stored, so
        ``events`` are the step's only ones.)"""
        self.pending.extend(events)
        if client is not None:
            self.ids.append(client)
        self.offences.extend(offences)
        return await self.flush()

    async def flush(self) -> bool:
        """Store the pending events (and transfers, and a new snapshot) in one
        transaction; then number, send and answer; then review what it settled (the
        flags stored as one more step). False when a step could not be stored (the table
        is rebuilt from its record)."""
        if not await self.store():
            return False
        if self.integrity is None:
            self.table.take_reviews()  # nobody reviews them: not kept
            return True
        flagged = review_table(self.integrity, self.table)
        if not flagged:
            return True
        flags = [(f.rule, f.accounts) for f in flagged if isinstance(f, rv.ReviewFlagged)]
        for rule, accounts in flags:  # the counts kept meanwhile leave them out
            self.integrity.recording(rule, accounts)
        self.pending.extend(flagged)
        stored = False
        try:
            stored = await self.store()
        finally:
            for rule, accounts in flags:  # not recorded: to be raised again, not lost
                (self.integrity.recorded if stored else self.integrity.forget)(rule, accounts)
        return stored

    async def store(self) -> bool:
        """The storing and sending of :meth:`flush`, without the review."""
        events, answers, ids, offences = self.pending, self.answers, self.ids, self.offences
        self.pending, self.answers, self.ids, self.offences = [], [], [], []
        transfers = self.ledger.take()
        changes = self.allowances.take() if self.allowances is not None else []
        last = self.seq + len(events)  # the sequence number every answer carries
        clients = [job.client for job, _ in answers if job.client is not None] + ids
        answered = [Answered(a, cid, self.table_id, last, said) for a, cid, said in clients]
        if events or transfers or answered or offences:
            snapshot = None
            if self.table.snapshot is not self.snapshot_ref:
                after = self.seq + len(events) - len(self.table.log)
                snapshot = (after, self.table.snapshot)
            entries = [encode_entry(e) for e in events]
            try:
                step = TableStep(
                    self.table_id, self.seq + 1, entries, snapshot, transfers, changes, answered,
                    offences,
                )  # fmt: skip
                began = time.monotonic()
                await self.storage.write(self.records.commit_all, step)
            except Exception as exc:  # a database error, or Busy: nothing of it happened
                self.pause.refused(exc)  # logged once a run, not once a tick
                refused = jobs.refusal(exc)
                for job, _ in answers:
                    jobs.resolve(job, refused)
                if isinstance(exc, LeaseLost):
                    self.lease_lost()
                    return False
                self.pause.hold(self.seq, self.watchers.values())
                # Not the driver's words:
                await self.recover_from_failure("not_stored", jobs.NOT_STORED)
                return False
            crash_points.after_step(self.table_id, entries)
            self.pause.stored(self.seq, self.watchers.values())
            self.snapshot_ref = self.table.snapshot
            self.table.rebase()  # the new snapshot, if taken, is stored with the next step
            stored = self.history.add(self.seq + 1, events)
            self.note_decisions(self.seq + _last_hand_event(events))
            self.seq += len(events)
            broadcast.fan_out(self.table_id, stored, self.watchers.values())
            self.send_turn()
            if time.monotonic() - began >= STOOD_STILL:  # the player could not act meanwhile
                self.pending.extend(self.table.resume_clocks())  # stored with the next step
        for job, outcome in answers:
            jobs.resolve(job, Outcome(outcome.code, outcome.message, self.seq, outcome.detail))
        return True

    def send_turn(self) -> None:
        """Tell the player to act (once per decision) their legal actions."""
        turn = self.table.state.turn
        key = None if turn is None else (turn.seat, turn.deadline)
        if key is None or key == self.last_turn:
            return
        self.last_turn = key
        found = broadcast.turn_message(self.table, self.seq)
        if found is None:
            return
        player, data = found
        for w in self.watchers.values():
            if w.player == player:
                w.send(data)

    async def recover_from_failure(self, code: str, message: str) -> None:
        """Throw the in-memory table away and rebuild it from its stored record."""
        self.discard(code, message)
        self.unread = True
        await self.reread()

    def discard(self, code: str, message: str) -> None:
        """Forget what was not stored (pending events, transfers, ids, offences, all-ins)
        and answer the jobs that made it with ``code``."""
        self.pending, self.ledger.pending, self.ids, self.offences = [], [], [], []
        if self.allowances is not None:
            self.allowances.take()  # the counts are read again with the record
        for job, _ in self.answers:
            jobs.resolve(job, Outcome(code, message))
        self.answers = []

    def lease_lost(self) -> None:
        """A step (or a report's note, ``dispatch``) was refused: this server no longer
        holds the database's lease. Another server, or a recovery, may have recovered the
        table, so it is not read back and runs nothing more (every job answered
        ``no_such_table``, as at a stop); the room is told, and stops every table at once
        (``on_lease_lost``), not at its next renewal of the lease."""
        self.discard("not_stored", jobs.NOT_STORED)
        self.closed = True
        if self.on_lease_lost is not None:
            self.on_lease_lost()

    async def reread(self) -> bool:
        """Rebuild the table from its stored record (see ``unread``); False when it could
        not be read (a second passes before the actor goes on: the next job tries again)."""
        try:
            self.table, self.seq = await self.storage.run(self.rebuild_record)
        except Exception as exc:
            self.tell_unread(exc)
            await asyncio.sleep(1.0)
            return False
        if self.unread_since is not None:
            gone = time.monotonic() - self.unread_since
            log.warning("table %s: the record read again after %.0f s", self.table_id, gone)
            self.unread_since = None
        self.unread = False
        self.pause.send_table(self.table, self.seq, self.watchers.values(), self.aliases)
        self.pending.extend(self.table.resume_clocks())  # the player could not act meanwhile
        self.snapshot_ref = self.table.snapshot
        self.history.reset(self.table)
        self.last_turn = None
        self.presence_unsure = True
        self.note_decisions(self.seq)  # the same decisions keep when they began
        return True

    def tell_unread(self, exc: Exception) -> None:
        """Log that the record could not be read back: once when it begins (with the
        traceback unless the database said why), then once a minute. It is tried again at
        each job, a second apart at most, and each try logged an ERROR with its traceback:
        PostgreSQL stopped for 120 s under five tables wrote 692 of them (6.5 MB)."""
        now = time.monotonic()
        if self.unread_since is None:
            self.unread_since = self.unread_told = now
            log.error(
                "table %s: the record could not be read (%s); the table runs nothing, its "
                "players answered busy, until it is", self.table_id, exc,
                exc_info=not isinstance(exc, StoreError),
            )  # fmt: skip
        elif now - self.unread_told >= UNREAD_TOLD_EVERY:
            self.unread_told = now
            gone = now - self.unread_since
            log.error(
                "table %s: the record is still unread after %.0f s (%s)", self.table_id, gone, exc
            )

    # ----------------------------------------------------------------- watching

    def tell_closed(self, reason: protocol.ClosedReason) -> None:
        """Tell every watcher the table stopped (``table_closed``) and forget them."""
        closed = protocol.TableClosed(table=self.table_id, seq=self.seq, reason=reason)
        data = protocol.encode(closed)
        for w in self.watchers.values():
            w.send(data)
        self.watchers.clear()

    async def add_watcher(self, watcher: Watcher, since: int | None) -> Outcome:
        """Start sending ``watcher`` the table: what it missed since ``since``, or a
        snapshot; a seated player who was away is reconnected (§10.6)."""
        # Each event once, in order: a snapshot taken after the reconnection, or what
        # was missed and then everything stored after it (the reconnection too).
        s = self.table.state.seat_of(watcher.player)
        away = s is not None and not self.table.seat(s).connected
        missed = None if since is None or since > self.seq else self.history.since(since)
        if missed is None:
            if away and not await self.reconnect(watcher.player):
                return jobs.unread()  # not sent the table in memory: it holds what was lost
            watcher.send(broadcast.snapshot(self.table, self.seq, watcher.player, self.aliases))
            self.watchers[watcher.conn] = watcher
        else:
            events = broadcast.projected(missed, watcher.player)
            if events:
                watcher.send(protocol.encode(protocol.Events(table=self.table_id, events=events)))
            self.watchers[watcher.conn] = watcher
            if away and not await self.reconnect(watcher.player):
                self.watchers.pop(watcher.conn, None)
                return jobs.unread()
        self.resend_turn(watcher)
        self.pause.tell(self.seq, watcher)
        return Outcome(seq=self.seq)

    async def reconnect(self, player: str) -> bool:
        """A seated player away is back (§10.6): stored, sent (False: lost, unread)."""
        self.pending.extend(self.table.handle(cmd.Reconnect(player)))
        await self.flush()
        return not self.unread

    def resend_turn(self, watcher: Watcher) -> None:
        """A player who (re)connects while it is his turn is told again."""
        found = broadcast.turn_message(self.table, self.seq)
        if found is not None and found[0] == watcher.player:
            watcher.send(found[1])

    def presence(self) -> list[AnyEvent]:
        """Make every seated player connected exactly when a connection of his watches the
        table (§10.6), as :meth:`add_watcher` and :meth:`remove_watcher` keep it; the
        events that did (none when it already was)."""
        watching = {w.player for w in self.watchers.values()}
        seated = [seat for seat in self.table.state.seats if seat is not None]
        events: list[AnyEvent] = []
        for seat in seated:
            if seat.connected and seat.player not in watching:
                events.extend(self.table.handle(cmd.Disconnect(seat.player)))
            elif not seat.connected and seat.player in watching:
                events.extend(self.table.handle(cmd.Reconnect(seat.player)))
        return events

    async def remove_watcher(self, conn: int) -> Outcome:
        """Stop sending to a connection; a seated player with no connection left to the
        table is disconnected (§10.6: the reconnect clock runs)."""
        watcher = self.watchers.pop(conn, None)
        if watcher is None:
            return Outcome("not_watching", "not watching this table", self.seq)
        player = watcher.player
        still = any(w.player == player for w in self.watchers.values())
        s = self.table.state.seat_of(player)
        if not still and s is not None and self.table.seat(s).connected:
            self.pending.extend(self.table.handle(cmd.Disconnect(player)))
            await self.flush()
        return Outcome(seq=self.seq)


def _last_hand_event(events: list[AnyEvent]) -> int:
    """The position (from 1) in a step of its last hand event (the engine's, not the
    room's), or 1 when it has none: where the step's decisions begin."""
    for i in range(len(events) - 1, -1, -1):
        if type(events[i]) not in ROOM_EVENT_TYPES:
            return i + 1
    return 1
