"""The database behind the server, reached from the event loop without blocking it.

Every database call runs in a small thread pool; at most ``queue`` calls may
wait for a thread (a bounded queue), beyond which :class:`Busy` is raised at
once instead of letting work pile up. SQLAlchemy sessions never cross threads:
each job opens and closes its own.
"""

from __future__ import annotations

import asyncio
import functools
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

from sqlalchemy import Engine, text

from cardroom.store import make_engine, upgrade

P = ParamSpec("P")
T = TypeVar("T")


class Busy(RuntimeError):
    """Too many database jobs are waiting; try again shortly."""


class Storage:
    """The engine (migrated on open) and the thread pool that talks to it."""

    def __init__(self, url: str | None, threads: int = 4, queue: int = 512) -> None:
        self.engine: Engine = make_engine(url)
        self.url = self.engine.url.render_as_string(hide_password=True)
        self.pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="cardroom-db")
        self.slots = threading.BoundedSemaphore(threads + queue)

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

    def ping(self) -> None:
        """Raise unless the database answers."""
        with self.engine.connect() as conn:
            conn.execute(text("SELECT 1"))

    def close(self) -> None:
        """Stop the pool (waiting for running jobs) and close the connections."""
        self.pool.shutdown(wait=True)
        self.engine.dispose()
