"""A start the database refused: said in one line, the process ending with status 1.

The start opens (or recovers, RULEBOOK §10.10) each table and stores it before anything
is served. A database that refuses those writes (a full disk, the file over its size
limit, a PostgreSQL out of space) or a lease another server took in the same instant
ended the start inside uvicorn's lifespan: some 100 lines of traceback, "Application
startup failed", "Task exception was never retrieved" and exit status 3, which the
README's exit codes (0, 1, 2) do not name. The operator needs the reason, which the
last line of the traceback held: :class:`StartWatch` keeps it, keeps uvicorn's traceback
of it out of the log, and :func:`cardroom.server.serve.serve` raises it as the
:class:`~cardroom.store.DatabaseError` that ``cardroom serve`` prints in one line.
"""

from __future__ import annotations

import logging

from cardroom.server.room import AlreadyServing
from cardroom.store import DatabaseError

REFUSALS = (DatabaseError, AlreadyServing)
"""What a start may meet that is the database's or the operator's to mend, not a bug:
said in one line (anything else keeps its traceback)."""


class StartWatch(logging.Filter):
    """Why the start failed, if it did for one of :data:`REFUSALS`; as a filter of
    uvicorn's log, it drops uvicorn's ERROR records (the traceback, "Application startup
    failed") once that reason is known: the one line says it."""

    def __init__(self) -> None:
        super().__init__()
        self.reason: str | None = None

    def refused(self, exc: BaseException) -> None:
        """The start met ``exc``: kept if it is one of :data:`REFUSALS`."""
        if isinstance(exc, REFUSALS) and self.reason is None:
            self.reason = f"the room could not start: {exc}"

    def filter(self, record: logging.LogRecord) -> bool:
        """Keep every record but uvicorn's errors of a start refused."""
        return self.reason is None or record.levelno < logging.ERROR
