"""The lobby route: ``GET /api/tables``, the room's table list with its filters.

The list comes from the room's lobby model (:class:`cardroom.room.lobby.Lobby`:
badges, stakes, seats, waiting, average pot, hands per hour). A
:class:`LobbyFeed` keeps that model for this process from the room's table
actors, through a small interface (:class:`ActorLike`: each actor's ``table``
and its recent numbered events, ``history.recent``): on each query it lists
new tables, drops closed ones, takes each table's seats and waiting list
(``conduct.lobby_summary``) and every hand finished since the last look, with
its pot (the chips awarded plus the rake). Events that left the actor's
recent window before anyone looked at the lobby are not counted, and a table is
observed (for its hands per hour, a rate: :mod:`cardroom.room.lobby`) from its
first listing here or from the oldest hand then found, whichever is earlier.

Filters (query parameters, each optional): ``game`` (an engine game or a mixed
format), ``structure``, ``min_stake`` / ``max_stake`` (the lobby's
stake level, in chips) and ``money`` (``play`` or ``real``).
"""

from __future__ import annotations

from collections.abc import Mapping, Reversible
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

import msgspec
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from cardroom.games import events as ev
from cardroom.ledger import Currency
from cardroom.room import events as rv
from cardroom.room.clock import system_clock
from cardroom.room.conduct import lobby_summary
from cardroom.room.lobby import Lobby, LobbyRow, TableSummary, filter_options
from cardroom.room.table import Table
from cardroom.server.api_common import (
    ApiError,
    accounts_of,
    endpoint,
    int_param,
    one_of,
    reply,
    server_of,
    whole,
)
from cardroom.server.auth import token_of

MAX_STAKE: Final = 2**53 - 1
MONEY: Final = ("play", "real")
_OPTIONS: Final = filter_options()
"""The filters' choices (fixed: every game and structure the room can deal), for each
request and for ``/openapi.json`` alike."""


class StoredLike(Protocol):
    """A numbered event of an actor's recent history."""

    seq: int
    event: Any


class HistoryLike(Protocol):
    """An actor's recent events, oldest first."""

    @property
    def recent(self) -> Reversible[StoredLike]:
        """The events still at hand."""
        ...


class ActorLike(Protocol):
    """What the lobby needs of a table actor."""

    table: Table
    history: HistoryLike


@dataclass
class _Watch:
    actor: object = None
    """The actor listed: another one under the same id is another table."""
    table: object = None
    """The table its seats were last read from (a rebuilt table is read afresh)."""
    last_seq: int = 0
    pot: int = 0
    dealt_at: float = 0.0


@dataclass
class LobbyFeed:
    """This process's lobby model, brought up to date from the actors when asked."""

    lobby: Lobby = field(default_factory=Lobby)
    seen: dict[str, _Watch] = field(default_factory=dict)

    def refresh(self, actors: Mapping[str, ActorLike]) -> None:
        """List new tables, drop gone ones, take the hands finished since last time (a
        table with no event since then, the same table object, is not read again). A
        table closed and another opened under its id between two looks is gone too:
        the new one is listed afresh (its game, stakes and seats; its own hands)."""
        for table_id in [t for t, w in self.seen.items() if actors.get(t) is not w.actor]:
            self.lobby.close_table(table_id)
            del self.seen[table_id]
        for table_id, actor in actors.items():
            table = actor.table
            watch = self.seen.get(table_id)
            if watch is None:
                settings = table.settings
                real = settings.currency is Currency.REAL
                self.lobby.open_table(table_id, settings.source, real_money=real)
                watch = self.seen[table_id] = _Watch(actor)
            newer = _since(actor.history.recent, watch.last_seq)
            if not newer and table is watch.table:
                # Nothing happened there since the last look: its seats, waiting list
                # and game are as read then. Summarising all 800 tables of a big room on
                # every look was a third of the look, on the loop the tables run on.
                continue
            for stored in newer:
                watch.last_seq = stored.seq
                self._take(table, watch, stored.event)
            watch.table = table
            self.lobby.update(lobby_summary(table))

    def _take(self, table: Table, watch: _Watch, event: object) -> None:
        if isinstance(event, rv.HandDealt):
            watch.pot, watch.dealt_at = 0, event.at
        elif isinstance(event, ev.PotAwarded):
            watch.pot += event.amount
        elif isinstance(event, rv.HandFinished):
            # A Chinese poker hand awards no pot: its HandFinished says the chips won.
            pot = watch.pot + event.rake if watch.pot else event.pot
            summary = lobby_summary(table, pot)
            at = watch.dealt_at or summary.at
            self.lobby.update(TableSummary(summary.table_id, at, 0, 0, summary.pot))


def _since(recent: Reversible[StoredLike], seq: int) -> list[StoredLike]:
    """The events of ``recent`` numbered after ``seq``, oldest first. Walked from the
    newest back to the first one already seen: a busy table's window holds 4,000
    events, and reading them all on every look at the lobby made each look cost
    0.3 ms a table, on the loop every table's actor runs on (docs/server_load.md)."""
    newer = []
    for stored in reversed(recent):
        if stored.seq <= seq:
            break
        newer.append(stored)
    newer.reverse()
    return newer


class Choice(msgspec.Struct):
    """A filter's choice: the value to send and its label."""

    value: str
    label: str


class TableRow(msgspec.Struct):
    """One table of the lobby."""

    table_id: str
    name: str
    badge: str
    game: str
    structures: list[str]
    stakes: str
    stake_level: int
    money: str
    seats_taken: int
    max_seats: int
    waiting: int
    average_pot: int
    hands_per_hour: int
    current_game: str
    your_seat: int | None = None
    """The caller's seat at the table (a request with a session), else null: a client
    offers the way to it, not the waiting list of a full table one sits at."""
    your_place: int | None = None
    """The caller's place on the table's waiting list (1: the next seat is offered to
    him), else null: a client opened afresh (a reload) knows the lists it is on, shows
    the place and goes on watching the table, to be told of the seat offered (§10.3)."""


class TableList(msgspec.Struct):
    """``GET /api/tables``: the tables that pass the filters, and every filter's choices."""

    tables: list[TableRow]
    games: list[Choice]
    structures: list[Choice]


def _row(r: LobbyRow, your_seat: int | None = None, your_place: int | None = None) -> TableRow:
    return TableRow(
        r.table_id,
        r.name,
        r.badge,
        r.game,
        list(r.structures),
        r.stakes,
        r.stake_level,
        "real" if r.real_money else "play",
        r.seats_taken,
        r.max_seats,
        r.waiting,
        r.average_pot,
        r.hands_per_hour,
        r.current_game,
        your_seat,
        your_place,
    )


def _choice(request: Request, name: str, allowed: set[str]) -> str | None:
    value = request.query_params.get(name)
    if value is not None and value not in allowed:
        raise ApiError(400, f"unknown_{name}", f"{name}: one of {', '.join(sorted(allowed))}")
    return value


def lobby_of(request: Request) -> Lobby:
    """This process's lobby, up to date (503 ``starting`` before the room is open)."""
    room = server_of(request).room
    if room is None:
        raise ApiError(503, "starting", "the room is not open yet: try again")
    feed: LobbyFeed | None = getattr(request.app.state, "lobby_feed", None)
    if feed is None:
        feed = request.app.state.lobby_feed = LobbyFeed()
    actors: dict[str, Any] = room.actors
    feed.refresh(actors)
    return feed.lobby


async def caller_of(request: Request) -> str | None:
    """The player whose session the request carries (None: none, or not a live one). A
    session with an open connection here is known without the database (a browser in
    the lobby has one); any other is looked up, and a database that does not answer
    leaves the caller unknown rather than the lobby unread."""
    token, _ = token_of(request, server_of(request).settings)
    if not token:
        return None
    player: str | None = server_of(request).shared.player_of(token)
    if player is not None:
        return player
    try:
        info = await accounts_of(request).authenticate(token)
    except Exception:  # the lobby is read without the seat
        return None
    return None if info is None else str(info.id)


def _seat_at(actors: Mapping[str, ActorLike], table_id: str, player: str | None) -> int | None:
    """``player``'s seat at ``table_id`` (one look in the table's index)."""
    actor = actors.get(table_id)
    return None if player is None or actor is None else actor.table.state.seat_of(player)


def _place_at(actors: Mapping[str, ActorLike], table_id: str, player: str | None) -> int | None:
    """``player``'s place on ``table_id``'s waiting list, counted from 1 (None: not on it)."""
    actor = actors.get(table_id)
    if player is None or actor is None:
        return None
    waitlist = actor.table.state.waitlist
    return waitlist.index(player) + 1 if player in waitlist else None


@endpoint
async def tables(request: Request) -> Response:
    """``GET /api/tables``: the lobby, filtered."""
    options = _OPTIONS
    game = _choice(request, "game", {value for value, _ in options.games})
    structure = _choice(request, "structure", {value for value, _ in options.structures})
    money = _choice(request, "money", set(MONEY))
    low = int_param(request, "min_stake", 0, 0, MAX_STAKE)
    high = int_param(request, "max_stake", MAX_STAKE, 0, MAX_STAKE)
    rows = lobby_of(request).tables(
        system_clock(),
        game=game,
        structure=structure,
        min_stake=low,
        max_stake=high,
        real_money=None if money is None else money == "real",
    )
    player = await caller_of(request)
    actors = server_of(request).room.actors
    return reply(
        TableList(
            [
                _row(r, _seat_at(actors, r.table_id, player), _place_at(actors, r.table_id, player))
                for r in rows
            ],
            [Choice(v, label) for v, label in options.games],
            [Choice(v, label) for v, label in options.structures],
        )
    )


def routes() -> list[Route]:
    """The lobby routes."""
    return [Route("/api/tables", tables, methods=["GET"])]


QUERY: Final = {
    "game": (
        "an engine game (holdem, stud, ...) or a mixed format (HORSE, ...)",
        one_of(value for value, _ in _OPTIONS.games),
    ),
    "structure": (
        "no_limit, pot_limit, fixed_limit, ...",
        one_of(value for value, _ in _OPTIONS.structures),
    ),
    "min_stake": ("lowest stake level (big blind, or small bet), chips", whole(0, MAX_STAKE)),
    "max_stake": ("highest stake level, chips", whole(0, MAX_STAKE)),
    "money": ("play or real", one_of(MONEY)),
}
"""``GET /api/tables``'s query: each filter's description and JSON Schema (the choices
:func:`tables` takes, those of ``filter_options``)."""
OPERATIONS: Final = [
    ("/api/tables", "get", "The lobby: tables with badges and figures, filtered", None, TableList),
]
"""The OpenAPI operations of this module: path, method, summary, body, answer."""
