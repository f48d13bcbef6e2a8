"""A job for a table's actor (``server/actor.py``), and the outcomes it is answered with.

A job is a table command, or a function the actor runs with itself (a watcher coming
or going, a chat line, an operator's close); its future is resolved once, with the
:class:`Outcome` the client is told. The answers the actor gives in its own words (a
table closed, a record not read back, a step not stored, a sanctioned buy-in, an
account not read) are here, one place each.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cardroom.ledger import InsufficientFunds
from cardroom.room import commands as cmd
from cardroom.room.errors import INSUFFICIENT_FUNDS
from cardroom.room.money import short_of
from cardroom.server.storage import Busy
from cardroom.store import DatabaseError, SanctionKind, client_words
from cardroom.store.sanction_rows import MoneyStopped

if TYPE_CHECKING:
    from cardroom.server.actor import TableActor

log = logging.getLogger("cardroom.server")


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a job ended: ``code`` None for success; ``seq`` the table's last sequence
    number after it; ``detail`` what some jobs return."""

    code: str | None = None
    message: str = ""
    seq: int | None = None
    detail: dict[str, Any] | None = None


@dataclass(eq=False, slots=True)
class Job:
    """One request for the actor; ``run`` is called with the actor when its turn comes
    (commands are :class:`cardroom.room.commands` objects instead)."""

    command: cmd.Command | None
    run: Callable[[TableActor], Any] | None
    future: asyncio.Future[Outcome] = field(default_factory=lambda: _future())
    client: ClientRef | None = None
    """The message asking for ``command``: stored with its step."""
    turn: int | None = None
    """The table's sequence number an action was decided at (None: not said)."""
    leaving: int | None = None
    """The connection whose watch of the table this job ends (:func:`unwatch`)."""


def _future() -> asyncio.Future[Outcome]:
    return asyncio.get_running_loop().create_future()


def unwatch(conn: int) -> Job:
    """The job that stops sending the table to connection ``conn`` (an ``unwatch``, or
    the connection gone): ``TableActor.remove_watcher``. A table that runs no job (its
    record not read back) still forgets the connection (``TableActor.refuse_unread``)."""
    return Job(None, lambda actor: actor.remove_watcher(conn), leaving=conn)


TICK: Job = Job.__new__(Job)
"""The clock's job in the queue (never run: it makes the batch look at the clock)."""

ClientRef = tuple[str, str, str]
"""(account, client id, digest of what it said) of a message whose step stores its id."""


NOT_STORED = "the change could not be stored"
"""What a client is told of a step the database did not store (its error is logged)."""


def refusal(exc: Exception) -> Outcome:
    """The answer to a command whose step was not stored: a buy-in the ledger refused at
    the commit (another table took the same chips first), or whose account a sanction
    stopped meanwhile, is told so, as when it is refused at once; anything else is
    ``not_stored``."""
    if isinstance(exc, InsufficientFunds):
        return Outcome(INSUFFICIENT_FUNDS, short_of(exc))
    if isinstance(exc, MoneyStopped):  # a freeze or ban imposed while it was on its way
        return sanctioned(set(exc.kinds)) or Outcome("not_stored", NOT_STORED)
    return Outcome("not_stored", NOT_STORED)


def sanctioned(kinds: set[SanctionKind]) -> Outcome | None:
    """The refusal of a money command to an account with these sanctions, if any."""
    if SanctionKind.BAN in kinds:
        return Outcome("account_banned", "the account is banned")
    if SanctionKind.FREEZE in kinds:
        return Outcome("account_frozen", "the account is frozen: no chips may come to a table")
    return None


def unread() -> Outcome:
    return Outcome("busy", "the table could not be read from the database: try again")


def closed() -> Outcome:
    return Outcome("no_such_table", "this table is closed")


def resolve(job: Job, outcome: Outcome) -> None:
    if not job.future.done():
        job.future.set_result(outcome)


def unreadable(table_id: str, exc: Exception) -> str:
    """What a client is told of an account the database could not read: the store's own
    words (a full queue, a ``StoreError``), else a plain sentence, the error logged (a
    driver's text names tables, columns and hosts)."""
    if isinstance(exc, DatabaseError):  # the driver's words logged, not told
        log.warning("table %s: an account could not be read: %s", table_id, exc)
        return f"the account could not be read: {client_words(exc)}"
    if isinstance(exc, Busy):
        return f"the account could not be read: {exc}"
    log.exception("table %s: an account could not be read", table_id, exc_info=exc)
    return "the account could not be read: try again"
