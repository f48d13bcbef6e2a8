"""A player's every sanction, in force, ended or lifted (RULEBOOK §10.7, §10.9), for
the operator: the sanctions in force alone hid a player's place on the chat ban ladder
(the next chat ban's length is counted from every earlier one, lifted ones included)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from cardroom.chat_bans import chat_ban_duration
from cardroom.store.database import Clock, system_clock
from cardroom.store.errors import storage_errors
from cardroom.store.models import Player, Sanction
from cardroom.store.players import find_player, valid_id_text
from cardroom.store.sanction_rows import SanctionKind

HISTORY_SHOWN = 500
"""The newest sanctions of a player listed (a count beyond is still counted)."""


@dataclass(frozen=True, slots=True)
class SanctionRecord:
    """One sanction as stored: who made it, and whether it is in force at the reading."""

    id: int
    kind: SanctionKind
    reason: str
    starts_at: datetime
    ends_at: datetime | None
    lifted_at: datetime | None
    created_by: str
    in_force: bool


@dataclass(frozen=True, slots=True)
class PlayerSanctions:
    """A player's sanctions, newest first, and the chat ban ladder's next step."""

    alias: str
    sanctions: list[SanctionRecord]
    chat_bans: int
    next_chat_ban: timedelta | None  # None: permanent


class SanctionHistory:
    """Reads a player's sanctions, whatever their state."""

    def __init__(self, engine: Engine, clock: Clock = system_clock) -> None:
        self.engine = engine
        self.clock = clock

    @storage_errors("reading sanctions")
    def of(self, name: str) -> PlayerSanctions:
        """The sanctions of the player with this id or alias (AccountError: none), as
        ``Players.named`` finds a player."""
        now = self.clock()
        with Session(self.engine) as session:
            found = session.get(Player, int(name)) if valid_id_text(name) else None
            player = found if found is not None else find_player(session, name)
            query = select(Sanction).where(Sanction.player_id == player.id)
            rows = session.scalars(query.order_by(Sanction.id.desc()).limit(HISTORY_SHOWN))
            records = [_record(r, now) for r in rows]
            chat = query.where(Sanction.kind == SanctionKind.CHAT_BAN.value)
            chat_bans = len(session.scalars(chat.with_only_columns(Sanction.id)).all())
        return PlayerSanctions(player.alias, records, chat_bans, chat_ban_duration(chat_bans))


def _record(row: Sanction, now: datetime) -> SanctionRecord:
    live = row.lifted_at is None and row.starts_at <= now
    live = live and (row.ends_at is None or row.ends_at > now)
    kind = SanctionKind(row.kind)
    return SanctionRecord(
        row.id, kind, row.reason, row.starts_at, row.ends_at, row.lifted_at, row.created_by, live
    )
