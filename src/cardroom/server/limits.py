"""Rate limits: token buckets per connection and per account (hostile clients), and per
client address and overall for registrations (each costs a slow password hash)."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable


class TokenBucket:
    """``rate`` messages a second on average, ``burst`` at once."""

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

    def wait(self) -> float:
        """Seconds until there is a token (0: there is one now)."""
        missing = 1.0 - self.refill()
        if missing <= 0:
            return 0.0
        return missing / self.rate if self.rate > 0 else 3600.0


class AccountBuckets:
    """One bucket per account (or address), the least recently used forgotten past ``size``."""

    def __init__(self, rate: float, burst: float, size: int = 100_000) -> None:
        self.rate, self.burst, self.size = rate, burst, size
        self.buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    def take(self, account: str) -> bool:
        """Spend one of the account's tokens."""
        return self.bucket(account).take()

    def bucket(self, key: str) -> TokenBucket:
        """The bucket of ``key``, made full when first asked for."""
        bucket = self.buckets.get(key)
        if bucket is None:
            bucket = self.buckets[key] = TokenBucket(self.rate, self.burst)
            if len(self.buckets) > self.size:
                self.buckets.popitem(last=False)
        else:
            self.buckets.move_to_end(key)
        return bucket


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
