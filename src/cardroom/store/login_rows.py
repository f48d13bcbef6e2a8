"""Pruning the login rows (``login_sessions``, ``login_attempts``): every login adds
one of each, and none was ever deleted.

What reads them, and so what must stay:

- a session is read to authenticate a token (``Players.authenticate``, and the open
  connections' check, ``ended_sessions``): only while it is live, neither expired
  nor revoked;
- a failed attempt is read by the login throttle, over its window (15 minutes,
  ``ThrottlePolicy.window``), per alias and address, per alias, per address;
- a successful attempt is read by the throttle (``store/login_throttle.py``: a
  source's last success, within the window; and whether a player has logged in from
  an address or a device before, however long ago: such a *known* source is not held
  to the alias's limit) and by the operator's shared IP / device review (RULEBOOK
  §10.1 "a second account from the same IP/household is flagged", §10.9 "shared IPs";
  ``Cashier.integrity_report``), which reads which players each address and device
  served, however long ago.

So once rows are older than the retention (``keep``, never less than the throttle's
window): sessions expired or revoked that long ago go, failed attempts that old go,
and a successful attempt that old goes when a newer success of the same player from
the same address and device is kept: the review's evidence (each player, address,
device) is all kept, its flags unchanged, and with it every address and device the
throttle knows a player by, and each source's last success.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import Engine, delete, func, or_, select
from sqlalchemy.orm import Session

from cardroom.store.models import LoginAttempt, LoginSession

KEEP_DAYS = 30
"""The default retention of login rows no reader needs (``login_keep_days``)."""


@dataclass(frozen=True, slots=True)
class PrunedLogins:
    """How many rows a pruning deleted."""

    sessions: int
    failures: int
    successes: int


def prune_logins(engine: Engine, now: datetime, keep: timedelta) -> PrunedLogins:
    """Delete the login rows older than ``keep`` that nothing reads any more (the module's
    docstring), in one transaction."""
    before = now - keep
    # The newest success of each (player, address, device): one grouping, not a search
    # for a newer row per row (a busy shared address holds many).
    newest = (
        select(func.max(LoginAttempt.id))
        .where(LoginAttempt.success.is_(True))
        .group_by(LoginAttempt.player_id, LoginAttempt.ip, LoginAttempt.device)
    )
    repeated = LoginAttempt.id.not_in(newest)
    with Session(engine) as session, session.begin():
        run = session.connection().execute
        sessions = run(
            delete(LoginSession).where(
                or_(LoginSession.expires_at < before, LoginSession.revoked_at < before)
            )
        )
        failures = run(
            delete(LoginAttempt).where(LoginAttempt.success.is_(False), LoginAttempt.at < before)
        )
        successes = run(
            delete(LoginAttempt).where(
                LoginAttempt.success.is_(True), LoginAttempt.at < before, repeated
            )
        )
    return PrunedLogins(
        int(sessions.rowcount or 0), int(failures.rowcount or 0), int(successes.rowcount or 0)
    )
