"""SQLite's write-ahead log when it cannot grow: moved into the database, then reused.

SQLite appends each commit to its log (``-wal``) and moves the log into the database file
(a checkpoint) only once it holds 1,000 pages (4 MB), after a commit. A log that cannot
grow to that size (a file-size limit, ``ulimit -f`` or a service's ``LimitFSIZE``; a disk
with less space left) refused every commit for good: measured live under a 3 MB limit,
every table stood still with its database file at 200 KB. A checkpoint needs no commit:
once the log is in the database, the next commit writes the log again from its start, in
the space it already has. So a write the database refused is tried once more after one.
"""

from __future__ import annotations

import logging

from sqlalchemy import Engine

log = logging.getLogger("cardroom.server")


def checkpoint(engine: Engine) -> bool:
    """Move the log of the SQLite database behind ``engine`` into its file, without
    waiting for anyone (``PASSIVE``); True when all of it was (the next commit reuses
    the log from its start), False when it could not be, or is not SQLite."""
    if engine.dialect.name != "sqlite":
        return False
    try:
        # Outside a transaction: the engine's BEGIN IMMEDIATE holds the lock a checkpoint
        # needs ("database table is locked").
        conn = engine.raw_connection()
        try:
            row = conn.cursor().execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        finally:
            conn.close()
    except Exception as exc:  # the database file cannot grow either: nothing to do
        log.debug("checkpoint failed (%s)", exc)
        return False
    busy, frames, moved = row
    return not busy and frames >= 0 and moved == frames
