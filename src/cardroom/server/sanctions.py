"""Freezes and bans reach the tables and the open connections (RULEBOOK §10.9).

A sanction is stored by the store (``Players.sanction``), by the operator's API, the
command line or another process. Three things make it hold at a running server:

- every command that brings chips to a table or asks for a seat (``join``,
  ``rebuy``, ``waitlist``) reads the account's sanctions from the database first
  (``TableActor.command``): a frozen account is refused ``account_frozen``, a
  banned one ``account_banned``;
- a WebSocket authenticates once, so :class:`SanctionWatch` looks at the
  sessions of the open connections (a logout ends its own at once; a session
  revoked or expired elsewhere ends its connections at the next look) and at the
  sanctions in force every ``sanction_check_seconds`` (and at once when the
  operator's API imposes one): a banned account's connections are closed (the
  client is told ``account_banned``; a new connection is refused, the session
  being revoked), and a frozen or banned player is stood up at every table of
  this process, after the hand in progress (a ``leave``: the chips go back to the
  account, frozen with it) and taken off the waiting lists;
- a frozen account keeps its connections: it may watch and chat, not play.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Collection
from typing import TYPE_CHECKING

from cardroom.room import commands as cmd
from cardroom.room import events as rv
from cardroom.server.jobs import Job, Outcome
from cardroom.server.storage import Storage
from cardroom.store import Players, SanctionKind

if TYPE_CHECKING:
    from cardroom.server.gateway import Shared
    from cardroom.server.room import Room

log = logging.getLogger("cardroom.server")


class SanctionWatch:
    """Applies the freezes and bans in force to this process's connections and seats."""

    def __init__(self, storage: Storage, room: Room, shared: Shared, every: float) -> None:
        self.storage = storage
        self.room = room
        self.shared = shared
        self.every = every
        self.players = Players(storage.reader)
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Look every ``every`` seconds (0: only when told, :meth:`enforce`)."""
        if self.every > 0:
            self.task = asyncio.create_task(self.run(), name="sanctions")

    async def stop(self) -> None:
        """Stop looking."""
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    async def run(self) -> None:
        """The periodic look."""
        while True:
            await asyncio.sleep(self.every)
            try:
                await self.enforce()
            except Exception as exc:  # a busy or absent database: next time
                log.warning("sanctions not checked (%s)", exc)

    async def enforce(self) -> int:
        """Close the connections of ended sessions (a logout or revocation made by
        another process, an expiry) and of banned accounts, and stand the frozen and
        banned players up; how many players and connections were acted on."""
        # The ended sessions are read before the sanctions and acted on after them: a ban
        # stores its sanction and revokes the sessions in one transaction, so a session
        # seen ended by a ban has its ban seen by the later read, and its connections are
        # told account_banned (the first reason given stands), never session_ended.
        ended = await self.storage.run(self.players.ended_sessions, self.shared.tokens())
        acted = await self.restrict()
        return acted + (self.shared.end_sessions(ended) if ended else 0)

    async def restrict(self) -> int:
        """Close the banned accounts' connections and stand the frozen and banned players
        up; how many players were acted on."""
        present = self.present()
        if not present:
            return 0
        restricted = await self.storage.run(self.players.restricted, present)
        if not restricted:
            return 0
        stopped = {str(k): kinds for k, kinds in restricted.items()}
        jobs: list[asyncio.Future[Outcome]] = []
        acted: set[str] = set()
        for player, kinds in stopped.items():
            if SanctionKind.BAN in kinds and player in self.shared.connections:
                self.shared.end_account(player, "account_banned", "the account is banned")
                acted.add(player)
        for actor in list(self.room.actors.values()):
            state = actor.table.state
            for s, seat in enumerate(state.seats):
                if seat is not None and seat.player in stopped and not seat.leaving:
                    job = Job(cmd.Leave(seat.player, _why(stopped[seat.player])), None)
                    jobs.append(asyncio.ensure_future(actor.submit(job)))
                    acted.add(seat.player)
                    log.info("table %s: seat %d stood up (%s)", actor.table_id, s, "sanction")
            for player in state.waitlist:
                if player in stopped:
                    job = Job(cmd.LeaveWaitlist(player, _why(stopped[player])), None)
                    jobs.append(asyncio.ensure_future(actor.submit(job)))
                    acted.add(player)
        for outcome in await asyncio.gather(*jobs, return_exceptions=True):
            if isinstance(outcome, BaseException) or outcome.code is not None:
                log.warning("a sanctioned player was not stood up: %s", outcome)
        return len(acted)

    def present(self) -> set[int]:
        """The players this process has: connected, seated or on a waiting list (their
        sanctions are the ones a look needs; a room's bans pile up for ever)."""
        players = set(self.shared.connections)
        for actor in self.room.actors.values():
            state = actor.table.state
            players.update(seat.player for seat in state.seats if seat is not None)
            players.update(state.waitlist)
        return {int(p) for p in players if p.isdecimal()}


def _why(kinds: Collection[SanctionKind]) -> str:
    # The record says which sanction stood the player up (a ban outranks a freeze);
    # before, it said "left", as if he had chosen to go.
    return rv.BANNED if SanctionKind.BAN in kinds else rv.FROZEN
