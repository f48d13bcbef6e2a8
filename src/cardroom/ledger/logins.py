"""Throttling failed logins over a sliding window, at three scopes.

- per alias *and source* (the client's address; its device id only when it has no
  address): ``max_failures_per_source``, so a guesser locks the alias only for
  himself, never for its owner elsewhere;
- per alias, from every source together: ``max_failures_per_alias``, much larger,
  against guesses spread over many addresses; it does not hold against a source the
  player has logged in from lately (a *known* one: within ``known_for``, and since
  his password was last set), so strangers cannot lock the owner out of his own home;
- per address, over every alias: ``max_failures_per_ip`` (credential stuffing).

Each bounds how often the slow password hash runs: at most
``max_failures_per_alias`` + ``max_failures_per_source`` x (known sources) guesses at
one alias per window, and ``max_failures_per_ip`` from one address.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta


@dataclass(frozen=True, slots=True)
class ThrottlePolicy:
    """How many failed logins are tolerated within a sliding window (the module's
    docstring); the server takes them from ``Limits`` (``login_*``)."""

    max_failures_per_source: int = 5
    """Failures at one alias from one source (address, else device) before that source
    waits; a success from the source clears its count."""
    max_failures_per_alias: int = 50
    """Failures at one alias from all sources before every source but the known ones
    waits; a success does not clear this count (a known source need not wait)."""
    max_failures_per_ip: int = 20
    """Failures from one address, at any aliases, before the address waits."""
    window: timedelta = timedelta(minutes=15)
    known_for: timedelta = timedelta(days=90)
    """How long a source stays known after the player's last login from it. A password
    set since (an operator's reset, after a theft say) forgets every source before it."""


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
