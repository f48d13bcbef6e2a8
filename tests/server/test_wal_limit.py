"""SQLite's write-ahead log that cannot grow (a full disk, a file-size limit) is moved into
the database file and written again from its start, rather than refuse every step."""

from __future__ import annotations

import asyncio
import os
import resource
import signal
from collections.abc import Sequence
from pathlib import Path

from sqlalchemy import text

from cardroom.server.storage import Storage
from cardroom.store.errors import storage_errors

ROWS, ROW_BYTES = 8, 40_000
LIMIT = 1_500_000
"""The process's file-size limit in the test (RLIMIT_FSIZE): above the database's rows
(320 KB), below the 4 MB at which SQLite checkpoints its log by itself (1,000 pages)."""


def test_10_10_a_wal_that_cannot_grow_is_checkpointed_and_the_steps_stored(
    tmp_path: Path,
) -> None:
    """Measured live: a room on SQLite under a 3 MB file-size limit (``ulimit -f``, a
    service's ``LimitFSIZE``) refused every step once its log reached 3 MB, for good: the
    log is moved into the database only at 4 MB, which no commit could reach, and the
    database file itself held 200 KB. (On a disk with little space, the same: the log
    never reused.) Now a write the database refuses is tried once more after a
    checkpoint, which lets the log be written again from its start."""
    storage = Storage(f"sqlite:///{tmp_path / 'room.db'}")
    with storage.engine.begin() as conn:
        conn.execute(text("CREATE TABLE rows (id INTEGER PRIMARY KEY, data BLOB NOT NULL)"))
        for n in range(ROWS):
            conn.execute(text("INSERT INTO rows VALUES (:n, :d)"), {"n": n, "d": bytes(ROW_BYTES)})

    @storage_errors("writing rows")
    def write_all(items: Sequence[tuple[int, bytes]]) -> None:
        with storage.engine.begin() as conn:
            for n, data in items:
                conn.execute(text("UPDATE rows SET data = :d WHERE id = :n"), {"n": n, "d": data})

    last: dict[int, bytes] = {}

    async def go() -> None:
        for n in range(100):  # 4 MB of log in all: each write stored (none raises)
            last[n % ROWS] = os.urandom(ROW_BYTES)
            await storage.write(write_all, (n % ROWS, last[n % ROWS]))
        with storage.engine.connect() as conn:
            stored = {n: data for n, data in conn.execute(text("SELECT id, data FROM rows"))}
        assert stored == last

    limits = resource.getrlimit(resource.RLIMIT_FSIZE)
    ignored = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past it fails (EFBIG)
    try:
        resource.setrlimit(resource.RLIMIT_FSIZE, (LIMIT, limits[1]))
        asyncio.run(go())
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, limits)
        signal.signal(signal.SIGXFSZ, ignored)
        storage.close()
