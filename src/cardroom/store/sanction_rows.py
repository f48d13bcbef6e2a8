"""Sanctions as rows, read and written inside the caller's transaction (RULEBOOK §10.7,
§10.9): what is in force, the chat ban's ladder, and the sessions a ban ends. The
players' repository (``store/players.py``) and a table's step (``store/tables.py``: a
chat offence stored with its ban) share them."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import ColumnElement, select, update
from sqlalchemy.orm import Session

from cardroom.store.errors import AccountError
from cardroom.store.models import LoginSession, Player, Sanction


class SanctionKind(enum.StrEnum):
    """What a sanction stops: chat, money movement (freeze), or everything (ban)."""

    CHAT_BAN = "chat_ban"
    FREEZE = "freeze"
    BAN = "ban"


MONEY_STOPPING: frozenset[SanctionKind] = frozenset({SanctionKind.FREEZE, SanctionKind.BAN})
"""The sanctions that stop an account's money: no chips to a table, no cashier move."""


class MoneyStopped(Exception):
    """A buy-in for an account whose money a sanction stops (``kinds``), found when its
    step is stored: the step is not stored, the buy-in refused as a sanction refuses it."""

    def __init__(self, player_id: int, kinds: frozenset[SanctionKind]) -> None:
        super().__init__(f"player {player_id} is under {', '.join(sorted(kinds))}")
        self.kinds = kinds


def money_stopped(session: Session, player_id: int, now: datetime) -> frozenset[SanctionKind]:
    """The sanctions in force that stop ``player_id``'s money (none: it may move)."""
    return frozenset(active_sanctions(session, player_id, now) & MONEY_STOPPING)


def in_force(now: datetime) -> tuple[ColumnElement[bool], ...]:
    """The conditions of a sanction in force at ``now``: not lifted, started, not ended."""
    return (
        Sanction.lifted_at.is_(None),
        Sanction.starts_at <= now,
        (Sanction.ends_at.is_(None)) | (Sanction.ends_at > now),
    )


def active_sanctions(session: Session, player_id: int, now: datetime) -> set[SanctionKind]:
    """The sanction kinds in force for a player at ``now``."""
    query = select(Sanction.kind).where(
        Sanction.player_id == player_id,
        *in_force(now),
    )
    return {SanctionKind(k) for k in session.scalars(query)}


def not_covered(
    session: Session, player: Player, kind: SanctionKind, now: datetime, *, for_good: bool
) -> None:
    """AccountError when a sanction of ``kind`` is in force at ``now``: a second would
    have to be lifted too. Only a temporary one may be made lasting (``for_good``: the
    new one is until lifted)."""
    query = select(Sanction.ends_at).where(
        Sanction.player_id == player.id,
        Sanction.kind == kind.value,
        *in_force(now),
    )
    for until in session.scalars(query):
        if until is None or not for_good:
            raise AccountError(f"{player.alias} is under a {kind.value} already")


@dataclass(frozen=True, slots=True)
class BanInForce:
    """A ban in force, as its player is told at login: its end (None: until lifted) and
    the operator's reason."""

    until: datetime | None
    reason: str


def ban_in_force(session: Session, player_id: int, now: datetime) -> BanInForce | None:
    """The ban in force on ``player_id`` at ``now`` that ends last (one until lifted
    first), or None."""
    query = select(Sanction.ends_at, Sanction.reason).where(
        Sanction.player_id == player_id, Sanction.kind == SanctionKind.BAN.value, *in_force(now)
    )
    rows = session.execute(query.order_by(Sanction.id)).all()
    if not rows:
        return None
    lasting = [r for r in rows if r.ends_at is None]
    last = lasting[0] if lasting else max(rows, key=lambda r: r.ends_at)
    return BanInForce(last.ends_at, last.reason)


def revoke_sessions(session: Session, player_id: int, now: datetime) -> int:
    """End every open session of a player; how many there were."""
    result = session.execute(
        update(LoginSession)
        .where(LoginSession.player_id == player_id, LoginSession.revoked_at.is_(None))
        .values(revoked_at=now)
    )
    return int(getattr(result, "rowcount", 0) or 0)
