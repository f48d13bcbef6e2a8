"""The database behind the server, reached from the event loop without blocking it.

Every database call runs in a small thread pool; at most ``queue`` calls may
wait for a thread (a bounded queue), beyond which :class:`Busy` is raised at
once instead of letting work pile up. SQLAlchemy sessions never cross threads:
each job opens and closes its own.

Table steps are written differently (:meth:`Storage.write`): by ONE writer
thread, every step waiting at that moment in one transaction (a group
commit). A table step is small and every table writes one after each batch of
actions, so one transaction per step meant up to one write transaction per
table in flight: on SQLite they queued for its single write lock (its busy
handler sleeps up to 100 ms between tries), and each paid a transaction's
fixed cost. A group pays it once, and there is no lock to wait for among them.
"""

from __future__ import annotations

import asyncio
import functools
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ParamSpec, TypeVar

from sqlalchemy import Engine, text

from cardroom.server.wal import checkpoint
from cardroom.store import StoreError, make_engine, read_only, upgrade
from cardroom.store.leases import LeaseLost

P = ParamSpec("P")
T = TypeVar("T")
GROUP = 256
"""Items written in one call at most."""

WriteAll = Callable[[Sequence[Any]], None]
"""Writes several items in one transaction: all of them or none (raising)."""


class Busy(RuntimeError):
    """Too many database jobs are waiting; try again shortly."""


class Storage:
    """The engine (migrated on open), the thread pool that talks to it, and the writer
    thread of the group commits."""

    def __init__(
        self,
        url: str | None,
        threads: int = 4,
        queue: int = 512,
        hash_threads: int = 2,
        hash_queue: int = 64,
    ) -> None:
        self.engine: Engine = make_engine(url)
        self.reader: Engine = read_only(self.engine)
        """For jobs that only read (they never wait for SQLite's write lock)."""
        self.url = self.engine.url.render_as_string(hide_password=True)
        self.pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="cardroom-db")
        self.slots = threading.BoundedSemaphore(threads + queue)
        self.hashing = ThreadPoolExecutor(
            max_workers=max(1, hash_threads), thread_name_prefix="cardroom-hash"
        )
        """Jobs around a slow password hash (a login, a registration): at most
        ``hash_threads`` at once, beside the database pool, never in it."""
        self.hash_slots = threading.BoundedSemaphore(max(1, hash_threads) + hash_queue)
        self.writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cardroom-db-writer")
        self.waiting: dict[WriteAll, list[tuple[Any, asyncio.Future[None]]]] = {}
        self.draining: asyncio.Task[None] | None = None
        self.refusing_since: float | None = None
        """Since when (``time.monotonic``) the database refuses every table step (a full
        disk...), None while it stores them: ``/healthz`` tells (:meth:`refusing`)."""

    def migrate(self) -> None:
        """Create or migrate the schema to the newest revision (blocking; at start-up)."""
        upgrade(self.engine)

    async def run(self, function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run ``function`` in the pool; :class:`Busy` when the queue is full."""
        if not self.slots.acquire(blocking=False):
            raise Busy("the server is busy: try again")
        try:
            loop = asyncio.get_running_loop()
            call = functools.partial(function, *args, **kwargs)
            return await loop.run_in_executor(self.pool, call)
        finally:
            self.slots.release()

    async def run_hashing(self, function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run ``function``, which hashes or checks a password (and talks to the
        database around it), in the hashing threads; :class:`Busy` when too many wait.

        Measured before this pool existed: 60 registrations at once (argon2 at 64 MiB,
        t=3, about a second each here) filled the four database threads, and
        ``/healthz`` waited 56 s behind them."""
        if not self.hash_slots.acquire(blocking=False):
            raise Busy("too many logins and registrations at once: try again")
        try:
            loop = asyncio.get_running_loop()
            call = functools.partial(function, *args, **kwargs)
            return await loop.run_in_executor(self.hashing, call)
        finally:
            self.hash_slots.release()

    async def write(self, write_all: WriteAll, item: Any) -> None:
        """Have ``write_all`` store ``item`` in the writer thread, together with the other
        items queued for the same function meanwhile; return once it is stored (raise
        its error if it was not).

        A group that fails is written again one item at a time, so an item that
        cannot be stored (a refused buy-in, a bug) fails alone. The queue holds at
        most one item per waiting task (each awaits its own), so it needs no bound.
        """
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.waiting.setdefault(write_all, []).append((item, future))
        if self.draining is None:
            self.draining = asyncio.create_task(self.drain(), name="cardroom-db-writer")
        await future

    async def drain(self) -> None:
        """Write the queued groups until none is left (the writer's task)."""
        loop = asyncio.get_running_loop()
        try:
            while self.waiting:
                write_all = next(iter(self.waiting))
                queued = self.waiting.pop(write_all)
                group, rest = queued[:GROUP], queued[GROUP:]
                if rest:
                    self.waiting[write_all] = rest
                items = [item for item, _ in group]
                try:
                    errors = await loop.run_in_executor(
                        self.writer, _write_or_checkpoint, self.engine, write_all, items
                    )
                except Exception as exc:  # the writer is shut down: nothing was stored
                    errors = [exc] * len(group)
                self.note(errors)
                for (_, future), error in zip(group, errors, strict=True):
                    if future.done():
                        continue
                    if error is None:
                        future.set_result(None)
                    else:
                        future.set_exception(error)
        finally:
            self.draining = None

    def note(self, errors: list[Exception | None]) -> None:
        """Keep whether the database stores the tables' steps: a group with a step stored
        says yes, one whose steps the database refused (not the ledger, nor a lease lost:
        the room stops then) says no. A query still answers on a full disk."""
        if any(error is None for error in errors):
            self.stored()
        else:
            for error in errors:
                if error is not None:
                    self.refused(error)

    def refused(self, error: Exception) -> None:
        """A write failed with ``error``: the database refuses writes if the error is its
        own (not the ledger's refusal of a buy-in, nor a lease lost: the room stops then)."""
        if _database_refused(error) and self.refusing_since is None:
            self.refusing_since = time.monotonic()

    def stored(self) -> None:
        """A write went through (a step, the lease's renewal): the database stores again.
        (Without the renewal, a room whose one step was lost to a backend killed, and
        where nobody plays since, stayed unhealthy.)"""
        self.refusing_since = None

    def refusing(self) -> float | None:
        """How many seconds the database has refused every table step (None: it stores
        them)."""
        since = self.refusing_since
        return None if since is None else time.monotonic() - since

    def ping(self) -> None:
        """Raise unless the database answers."""
        with self.engine.connect() as conn:
            conn.execute(text("SELECT 1"))

    def close(self) -> None:
        """Stop the pool and the writer (waiting for running jobs), close the connections."""
        self.pool.shutdown(wait=True)
        self.hashing.shutdown(wait=True)
        self.writer.shutdown(wait=True)
        self.engine.dispose()


def _write_or_checkpoint(
    engine: Engine, write_all: WriteAll, items: list[Any]
) -> list[Exception | None]:
    """In the writer thread: :func:`_write_group`; the items the database refused are
    written once more if a checkpoint frees SQLite's log (``wal``: a log that could not
    grow refused every step for good)."""
    errors = _write_group(write_all, items)
    refused = [n for n, e in enumerate(errors) if _database_refused(e)]
    if not refused or not checkpoint(engine):
        return errors
    again = _write_group(write_all, [items[n] for n in refused])
    for n, error in zip(refused, again, strict=True):
        errors[n] = error
    return errors


def _database_refused(error: Exception | None) -> bool:
    """Whether ``error`` is the database's own (not the ledger's, nor a lease lost)."""
    return isinstance(error, StoreError) and not isinstance(error, LeaseLost)


def _write_group(write_all: WriteAll, items: list[Any]) -> list[Exception | None]:
    """In the writer thread: the group in one call, else each item alone; the error of
    each item (None: stored)."""
    try:
        write_all(items)
        return [None] * len(items)
    except Exception as exc:
        if len(items) == 1:
            return [exc]
    errors: list[Exception | None] = []
    for item in items:
        try:
            write_all([item])
            errors.append(None)
        except Exception as exc:
            errors.append(exc)
    return errors
