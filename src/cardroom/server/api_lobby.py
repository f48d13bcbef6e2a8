"""The lobby route: ``GET /api/tables``, the room's table list with its filters.

The list comes from the room's lobby model (:class:`cardroom.room.lobby.Lobby`:
badges, stakes, seats, waiting, average pot, hands per hour), which the
server's room keeps up to date from its table actors. This module asks the
room through one small interface, :class:`LobbyHolder`: an attribute
``lobby``. Filters (query parameters, each optional): ``game`` (an engine game
or a mixed format), ``structure``, ``min_stake`` / ``max_stake`` (the lobby's
stake level, in chips) and ``money`` (``play`` or ``real``).
"""

from __future__ import annotations

import time
from typing import Final, Protocol

import msgspec
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from cardroom.room.lobby import Lobby, LobbyRow, filter_options
from cardroom.server.api_common import ApiError, endpoint, int_param, reply, server_of

MAX_STAKE: Final = 2**53 - 1


class LobbyHolder(Protocol):
    """What the lobby route needs of the room: its lobby model."""

    lobby: Lobby


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


class TableList(msgspec.Struct):
    """``GET /api/tables``: the tables that pass the filters, and every filter's choices."""

    tables: list[TableRow]
    games: list[Choice]
    structures: list[Choice]


def _row(r: LobbyRow) -> TableRow:
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
    )


def _choice(request: Request, name: str, allowed: set[str]) -> str | None:
    value = request.query_params.get(name)
    if value is not None and value not in allowed:
        raise ApiError(400, f"unknown_{name}", f"{name}: one of {', '.join(sorted(allowed))}")
    return value


def lobby_of(request: Request) -> Lobby:
    """The room's lobby (503 ``starting`` before the room has one)."""
    lobby = getattr(server_of(request).room, "lobby", None)
    if not isinstance(lobby, Lobby):
        raise ApiError(503, "starting", "the room's lobby is not ready: try again")
    return lobby


@endpoint
async def tables(request: Request) -> Response:
    """``GET /api/tables``: the lobby, filtered."""
    options = filter_options()
    game = _choice(request, "game", {value for value, _ in options.games})
    structure = _choice(request, "structure", {value for value, _ in options.structures})
    money = _choice(request, "money", {"play", "real"})
    low = int_param(request, "min_stake", 0, 0, MAX_STAKE)
    high = int_param(request, "max_stake", MAX_STAKE, 0, MAX_STAKE)
    rows = lobby_of(request).tables(
        time.time(),
        game=game,
        structure=structure,
        min_stake=low,
        max_stake=high,
        real_money=None if money is None else money == "real",
    )
    return reply(
        TableList(
            [_row(r) for r in rows],
            [Choice(v, label) for v, label in options.games],
            [Choice(v, label) for v, label in options.structures],
        )
    )


def routes() -> list[Route]:
    """The lobby routes."""
    return [Route("/api/tables", tables, methods=["GET"])]


QUERY: Final = {
    "game": "an engine game (holdem, stud, ...) or a mixed format (HORSE, ...)",
    "structure": "no_limit, pot_limit, fixed_limit, ...",
    "min_stake": "lowest stake level (big blind, or small bet), chips",
    "max_stake": "highest stake level, chips",
    "money": "play or real",
}
OPERATIONS: Final = [
    ("/api/tables", "get", "The lobby: tables with badges and figures, filtered", None, TableList),
]
"""The OpenAPI operations of this module: path, method, summary, body, answer."""
