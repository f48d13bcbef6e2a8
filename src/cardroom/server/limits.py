"""Rate limits: token buckets per connection and per account (hostile clients), and per
client address and overall for registrations (each costs a slow password hash)."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable


class TokenBucket:
    """``rate`` messages a second on average, ``burst`` at once."""

    __slots__ = ("at", "burst", "clock", "rate", "tokens")  # one per account and address

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic):
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens, self.at = burst, clock()

    def refill(self) -> float:
        """The tokens there are now."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        return self.tokens

    def take(self) -> bool:
        """Spend one token; False when there is none (the message is refused)."""
        if self.refill() < 1.0:
            return False
        self.tokens -= 1.0
        return True

    def full(self, now: float) -> bool:
        """Whether the bucket has refilled to its burst at ``now``: the same as a new one."""
        return self.tokens + (now - self.at) * self.rate >= self.burst

    def wait(self) -> float:
        """Seconds until there is a token (0: there is one now)."""
        missing = 1.0 - self.refill()
        if missing <= 0:
            return 0.0
        return missing / self.rate if self.rate > 0 else 3600.0


SWEEP_FLOOR = 1024
"""Buckets an :class:`AccountBuckets` holds before it first forgets those refilled."""


class AccountBuckets:
    """One bucket per account (or address): those refilled to their burst are forgotten
    (the same as none), and the least recently used past ``size``."""

    def __init__(
        self,
        rate: float,
        burst: float,
        size: int = 100_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rate, self.burst, self.size, self.clock = rate, burst, size, clock
        self.buckets: OrderedDict[str, TokenBucket] = OrderedDict()
        self.made = 0
        """Buckets made since the last sweep (:meth:`_forget_full`)."""
        self.sweep_after = SWEEP_FLOOR

    def take(self, account: str) -> bool:
        """Spend one of the account's tokens."""
        return self.bucket(account).take()

    def bucket(self, key: str) -> TokenBucket:
        """The bucket of ``key``, made full when first asked for."""
        bucket = self.buckets.get(key)
        if bucket is None:
            self.made += 1
            if self.made >= self.sweep_after:
                self._forget_full()
            bucket = self.buckets[key] = TokenBucket(self.rate, self.burst, self.clock)
            if len(self.buckets) > self.size:
                self.buckets.popitem(last=False)
        else:
            self.buckets.move_to_end(key)
        return bucket

    def _forget_full(self) -> None:
        # A server meets every account and address that ever comes, and kept a bucket
        # for each until ``size`` (~30 MB): a bucket refilled is the same as none, so
        # those are dropped. A sweep waits for as many new buckets as it kept (O(1) a
        # new key on average, at ``size`` too), and what is kept follows the keys active
        # lately.
        now = self.clock()
        for key in [k for k, b in self.buckets.items() if b.full(now)]:
            del self.buckets[key]
        self.made, self.sweep_after = 0, max(SWEEP_FLOOR, len(self.buckets))


class Signups:
    """Registrations allowed per client address (``per_address`` at once, then
    ``per_address_per_hour``) and over all addresses (``burst`` at once, then
    ``per_second``): floods of accounts are spam, and each registration runs a slow
    password hash. In memory, per process: a restart forgets the counts."""

    def __init__(
        self, per_address: float, per_address_per_hour: float, burst: float, per_second: float
    ) -> None:
        self.addresses = AccountBuckets(per_address_per_hour / 3600.0, per_address)
        self.overall = TokenBucket(per_second, burst)

    def allow(self, address: str) -> float:
        """0 when a registration from ``address`` may go ahead now (it is counted), else
        the seconds to wait (nothing is counted)."""
        mine = self.addresses.bucket(address)
        wait = max(mine.wait(), self.overall.wait())
        if wait > 0:
            return wait
        mine.tokens -= 1.0
        self.overall.tokens -= 1.0
        return 0.0
