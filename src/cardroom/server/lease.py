"""Which server serves a room's database: its lease, renewed as a heartbeat.

One server process runs a database's tables: a second one's start-up recovery would
stand the first one's players up behind its back, and so would ``cardroom ledger
recover``. So a room takes the database's lease when it starts (``store/leases.py``:
one conditional statement, so of two servers starting at once one only), renews it
every few seconds and gives it back at a clean stop; the recovery command takes it
for its run. Only the holder's table steps are stored (``store.leases.check_held``);
a room that finds its lease taken stops serving (``Room.lose``, docs/server_lease.md).
A holder is gone when its lease is older than :data:`SERVER_GONE_SECONDS` by the
database's clock, or at once when it names a process of this host that is no more (a
kill -9: the restart need not wait).
"""

from __future__ import annotations

import os
import socket
from pathlib import Path

from sqlalchemy import Engine

from cardroom.store.leases import Holder, Leases

SERVING = "serving"
"""The lease's name."""
SERVER_GONE_SECONDS = 30.0
"""A holder whose lease (renewed every 10 s) is older than this is taken as gone."""

LIVE: set[str] = set()
"""The instances of the room serving in this process (a test may run several servers,
one after another, in one process)."""


def _stat(pid: int) -> list[str] | None:
    """The fields of ``/proc/<pid>/stat`` after the command name (None: no such process,
    or no ``/proc``)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text.rpartition(")")[2].split()


def _started(pid: int) -> str:
    """When process ``pid`` started (clock ticks since boot; "" where unknown): with
    the process id, it names one process, not a later one given the same id."""
    fields = _stat(pid)
    return fields[19] if fields is not None and len(fields) > 19 else ""


def me(instance: str) -> Holder:
    """This process as a lease holder, as room ``instance``."""
    return Holder(instance, os.getpid(), socket.gethostname(), _started(os.getpid()))


def _alive(holder: Holder) -> bool:
    """Whether the holder's process may still run: on another host, yes (only its lease
    aging tells); on this one, if it is there, not a zombie, and the same process."""
    if holder.host != socket.gethostname():
        return True
    if holder.pid == os.getpid():
        return holder.instance in LIVE
    fields = _stat(holder.pid)
    if fields is None:
        if Path("/proc/self/stat").exists():
            return False  # no such process
        try:  # no /proc here: ask the kernel
            os.kill(holder.pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True
    if fields[0] in ("Z", "X"):
        return False  # killed, not reaped yet
    return not holder.started or fields[19:20] == [holder.started]


def _describe(holder: Holder) -> str:
    return f"process {holder.pid} on {holder.host}, {max(0.0, holder.age):.0f} s ago"


def server_seen(engine: Engine, mine: str | None = None) -> str | None:
    """Who serves the room behind ``engine``, if a server holds its lease and is not
    gone (and is not instance ``mine``): its process and host, and how long ago it
    renewed; None when no server runs. A server of an older release (before migration
    0011) counts too: a newer one must not migrate the database under it and serve it."""
    for holder in Leases(engine).holders(SERVING):
        if holder.instance == mine:
            continue
        if holder.age <= SERVER_GONE_SECONDS and _alive(holder):
            return _describe(holder)
    return None


def holder_of(engine: Engine) -> str:
    """Who holds the lease now, in words (for the log of a server that lost it)."""
    holder = Leases(engine).holder(SERVING)
    if holder is None:
        return "nobody (it was given back)"
    return f"{holder.instance}, {_describe(holder)}"


def take(engine: Engine, instance: str, *, force: bool = False) -> str | None:
    """Take the lease for room (or recovery) ``instance``; None when taken, else who
    holds it. ``force``: from a holder not known to be gone too (an operator sure it
    is)."""
    leases = Leases(engine)
    holder = leases.holder(SERVING)
    if holder is not None and holder.instance == instance:
        return None
    gone = holder is None or holder.age > SERVER_GONE_SECONDS or not _alive(holder)
    if not gone and not force:
        assert holder is not None
        return _describe(holder)
    if leases.take(SERVING, me(instance), None if holder is None else holder.instance):
        return None
    now = leases.holder(SERVING)  # another took it first
    return "another server" if now is None else _describe(now)


def renew(engine: Engine, instance: str) -> bool:
    """Renew the lease of ``instance``; False when it no longer holds it."""
    return Leases(engine).renew(SERVING, instance)


def give_back(engine: Engine, instance: str) -> None:
    """A clean stop: give the lease back (if ``instance`` still holds it)."""
    Leases(engine).give_back(SERVING, instance)
