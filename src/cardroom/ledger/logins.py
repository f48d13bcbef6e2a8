"""Throttling failed logins: at most N failures per window, per alias and per IP."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta


@dataclass(frozen=True, slots=True)
class ThrottlePolicy:
    """How many failed logins are tolerated within a sliding window."""

    max_failures_per_alias: int = 5
    max_failures_per_ip: int = 20
    window: timedelta = timedelta(minutes=15)


def retry_after(
    failures: Iterable[datetime], now: datetime, limit: int, window: timedelta
) -> timedelta | None:
    """How long until another attempt is allowed, or ``None`` if it is allowed now.

    ``failures`` are the times of failed attempts (successes reset the count,
    so pass only failures since the last success). Once ``limit`` failures
    lie inside the window, the next attempt waits until enough of them age out.
    """
    recent = sorted(t for t in failures if now - window < t <= now)
    if len(recent) < limit:
        return None
    # The attempt is allowed again when the (len - limit + 1)-th oldest leaves the window.
    oldest_to_expire = recent[len(recent) - limit]
    return oldest_to_expire + window - now
