"""``GET /api/operator/players/{alias}/sanctions``: a player's every sanction, in force,
ended or lifted, and the chat ban ladder's next step (RULEBOOK §10.7, §10.9).

The profile (``GET /api/operator/players/{alias}``) lists the sanctions in force only:
an operator about to chat-ban a player without ``hours`` could not tell whether it would
be a day or for good, nor see the bans lifted or ended before."""

from __future__ import annotations

from datetime import datetime
from typing import Final

import msgspec
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from cardroom.server.api_common import accounts_of, endpoint, reply, require_operator
from cardroom.store.sanction_history import PlayerSanctions, SanctionHistory


class SanctionLine(msgspec.Struct):
    """One sanction: ``ends_at`` None until lifted (or for good), ``lifted_at`` when an
    operator ended it, ``by`` who made it (``server:chat`` for a chat offence)."""

    id: int
    kind: str
    reason: str
    starts_at: datetime
    ends_at: datetime | None
    lifted_at: datetime | None
    by: str
    in_force: bool


class SanctionRecordView(msgspec.Struct):
    """A player's sanctions, newest first (the newest 500), the chat bans counted so far
    (every one, lifted ones too: each was an offence) and the next chat ban's length in
    hours (null: permanent), as a chat ban without ``hours`` would make it."""

    alias: str
    sanctions: list[SanctionLine]
    chat_bans: int
    next_chat_ban_hours: int | None


def _view(found: PlayerSanctions) -> SanctionRecordView:
    lines = [
        SanctionLine(
            r.id,
            r.kind.value,
            r.reason,
            r.starts_at,
            r.ends_at,
            r.lifted_at,
            r.created_by,
            r.in_force,
        )
        for r in found.sanctions
    ]
    step = found.next_chat_ban
    hours = None if step is None else int(step.total_seconds()) // 3600
    return SanctionRecordView(found.alias, lines, found.chat_bans, hours)


@endpoint
async def player_sanctions(request: Request) -> Response:
    """``GET /api/operator/players/{alias}/sanctions``: the alias, or the player's id."""
    await require_operator(request)
    accounts = accounts_of(request)
    history = SanctionHistory(accounts.storage.engine, accounts.players.clock)
    name = str(request.path_params["alias"])
    return reply(_view(await accounts.storage.run(history.of, name)))


def routes() -> list[Route]:
    """The route of this module."""
    path = "/api/operator/players/{alias:str}/sanctions"
    return [Route(path, player_sanctions, methods=["GET"])]


OPERATIONS: Final = [
    (
        "/api/operator/players/{alias}/sanctions",
        "get",
        "A player's every sanction and the next chat ban's length",
        None,
        SanctionRecordView,
    ),
]
"""The OpenAPI operation of this module: path, method, summary, body, answer."""
