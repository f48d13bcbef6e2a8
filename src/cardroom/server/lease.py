"""Which server serves a room's database: its heartbeat in the room's memory.

One server process runs a database's tables: a second one's start-up recovery would
stand the first one's players up behind its back, and so would ``cardroom ledger
recover``. So a serving room keeps, every few seconds, its process, host and instance
as :data:`SERVING` (``store/room_memory.py``) and forgets it at a clean stop; a
server starting, or the recovery command, looks first (:func:`server_seen`).
"""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine

from cardroom.store.room_memory import RoomMemories

SERVING = "serving"
"""The room's memory of the server process serving it: kept every few seconds by the
room, forgotten at a clean stop."""
SERVER_GONE_SECONDS = 30.0
"""A server whose heartbeat (every 10 s) is older than this is taken as stopped."""


LIVE: set[str] = set()
"""The instances of the room serving in this process (a test may run several servers,
one after another, in one process)."""


def serving_as(instance: str) -> dict[str, Any]:
    """What a serving room keeps as :data:`SERVING`: its process, host and instance."""
    return {"pid": os.getpid(), "host": socket.gethostname(), "instance": instance}


def _alive(who: Mapping[str, Any]) -> bool:
    """Whether the server process that kept ``who`` may still run: on another host,
    yes (only its heartbeat lapsing tells); on this one, if the process is there."""
    if who.get("host") != socket.gethostname():
        return True
    pid = who.get("pid")
    if type(pid) is not int or pid <= 0:
        return True
    if pid == os.getpid():
        return who.get("instance") in LIVE
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False  # crashed or killed: no need to wait for the heartbeat to lapse
    except PermissionError:
        return True
    return True


def server_seen(engine: Engine, now: datetime | None = None, me: str | None = None) -> str | None:
    """Who serves the room behind ``engine``, if a server's heartbeat is fresh (within
    :data:`SERVER_GONE_SECONDS`) and its process may still run: its process and host,
    and how long ago; None when no server is running (stopped cleanly, crashed, or
    silent for longer) or it is instance ``me``."""
    found = RoomMemories(engine).read(SERVING)
    if found is None:
        return None
    who, at = found
    ago = ((now or datetime.now(UTC)) - at).total_seconds()
    if ago > SERVER_GONE_SECONDS or (me is not None and who.get("instance") == me):
        return None
    if not _alive(who):
        return None
    return f"process {who.get('pid')} on {who.get('host')}, {max(0.0, ago):.0f} s ago"


def forget_serving(engine: Engine, instance: str) -> None:
    """A clean stop: forget the heartbeat if it is still this instance's (a server
    refused at its start must not erase the running one's)."""
    memories = RoomMemories(engine)
    found = memories.read(SERVING)
    if found is not None and found[0].get("instance") == instance:
        memories.forget(SERVING)
