"""The login throttle over the ``login_attempts`` rows (:mod:`cardroom.ledger.logins`
says the policy): failures per alias and source, per alias, per address.

A login's *source* is its address; an attempt without one (a caller inside the room)
is told apart by its device id instead. A device id is the client's own word, so it
never widens a limit that an address sets: failures from one address count together,
whatever device ids they claim.

:func:`lock_scopes` runs first in the attempt's transaction: it locks the alias's and
the address's rows, so concurrent attempts at one alias or from one address are
counted one after the other and none slips past a limit (nor past the hash's bound).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Final

from sqlalchemy import ColumnElement, and_, func, or_, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from cardroom.ledger import ThrottlePolicy, retry_after
from cardroom.store.models import AuditRecord, LoginAttempt, LoginThrottleKey, Player

PASSWORD_SET: Final = "set_password"
"""The audit action of a password set by an operator (``Players.set_password``)."""


def lock_scopes(session: Session, key: str, ip: str, now: datetime) -> None:
    """Upsert the throttle rows of the alias ``key`` and of the address ``ip``, in sorted
    order (so two logins never deadlock).

    An upsert locks its row until the transaction ends (PostgreSQL); SQLite's
    ``BEGIN IMMEDIATE`` already serialises every writer.
    """
    dialect = session.get_bind().dialect.name
    insert = pg_insert if dialect == "postgresql" else sqlite_insert
    for scope in sorted([f"alias:{key}", *([f"ip:{ip}"] if ip else [])]):
        statement = insert(LoginThrottleKey).values(scope=scope, touched_at=now)
        session.execute(
            statement.on_conflict_do_update(
                index_elements=[LoginThrottleKey.scope],
                set_={"touched_at": statement.excluded.touched_at},
            )
        )


def _from_source(ip: str, device: str) -> ColumnElement[bool]:
    """The attempts from the same source: the address, else (none) the device."""
    if ip:
        return LoginAttempt.ip == ip
    return and_(LoginAttempt.ip == "", LoginAttempt.device == device)


def known_source(session: Session, attempt: tuple[str, int, str, str], since: datetime) -> bool:
    """Whether the player of ``attempt`` (alias key, player id, ip, device) has logged in
    successfully from this address or this device after ``since`` and after his password
    was last set (so a thief's address stops being known once an operator resets the
    password). The pruning keeps each player's newest success per address and device
    (``store/login_rows.py``), so a source's last login is never lost. The alias key
    (an alias never changes) serves the attempts' index by alias."""
    key, player_id, ip, device = attempt
    same = [LoginAttempt.ip == ip] if ip else []
    same += [LoginAttempt.device == device] if device else []
    where = or_(*same) if same else _from_source(ip, device)
    password_set = (
        select(func.max(AuditRecord.at))
        .join(Player, Player.alias == AuditRecord.subject)
        .where(Player.id == player_id, AuditRecord.action == PASSWORD_SET)
        .scalar_subquery()
    )
    found = session.scalar(
        select(LoginAttempt.id)
        .where(LoginAttempt.alias_key == key, LoginAttempt.player_id == player_id)
        .where(LoginAttempt.success.is_(True), where, LoginAttempt.at > since)
        .where(or_(password_set.is_(None), LoginAttempt.at > password_set))
        .limit(1)
    )
    return found is not None


def throttle_wait(
    session: Session,
    policy: ThrottlePolicy,
    attempt: tuple[str, int | None, str, str],
    now: datetime,
) -> timedelta | None:
    """How long the attempt ``(alias key, player id or None, ip, device)`` must wait, or
    None: it may go on (to the hash)."""
    key, player_id, ip, device = attempt
    since = now - policy.window

    def failures(where: ColumnElement[bool], cleared: bool) -> list[datetime]:
        """The failures in the window (after the last success there, if ``cleared``)."""
        query = select(LoginAttempt.at).where(
            where, LoginAttempt.success.is_(False), LoginAttempt.at > since
        )
        if cleared:
            last_ok = session.scalar(
                select(func.max(LoginAttempt.id)).where(where, LoginAttempt.success.is_(True))
            )
            if last_ok is not None:
                query = query.where(LoginAttempt.id > last_ok)
        return list(session.scalars(query))

    alias = LoginAttempt.alias_key == key
    source = and_(alias, _from_source(ip, device))
    # A success from a source clears that source's count (the owner mistyped), never the
    # alias's: however often he logs in, strangers' guesses stay within its limit.
    waits = [
        retry_after(failures(source, True), now, policy.max_failures_per_source, policy.window)
    ]
    alias_wait = retry_after(
        failures(alias, False), now, policy.max_failures_per_alias, policy.window
    )
    if alias_wait is not None and not (
        player_id is not None
        and known_source(session, (key, player_id, ip, device), now - policy.known_for)
    ):
        waits.append(alias_wait)
    if ip:
        at_ip = failures(LoginAttempt.ip == ip, False)
        waits.append(retry_after(at_ip, now, policy.max_failures_per_ip, policy.window))
    return max((w for w in waits if w is not None), default=None)
