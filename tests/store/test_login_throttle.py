"""The login throttle holds under concurrency: each attempt is counted before the slow
hash runs, atomically, so parallel guesses cannot all reach the password check.

Before: 30 parallel wrong guesses at one alias from 30 addresses were all checked
against the password, though the limit is 5 per 15 minutes.
``CARDROOM_LOGIN_GUESSES`` sets how many guess at once (default 30).
"""

from __future__ import annotations

import os
import threading
from typing import Any

import pytest
from sqlalchemy import text

from cardroom.ledger import ThrottlePolicy
from cardroom.store import LoginRefused, LoginThrottled, Passwords, Players

PW = "correct horse"
GUESSES = int(os.environ.get("CARDROOM_LOGIN_GUESSES", "30"))


class CountingPasswords(Passwords):
    """Real argon2id hashing that also counts how often a hash is verified."""

    def __init__(self) -> None:
        super().__init__(time_cost=1, memory_cost=8, parallelism=1)
        self.verified = 0
        self._lock = threading.Lock()

    def verify(self, stored_hash: str, password: str) -> bool:
        with self._lock:
            self.verified += 1
        return super().verify(stored_hash, password)


def guess_in_parallel(players: Players, aliases: list[str], ips: list[str]) -> list[str]:
    """Every (alias, ip) pair guesses a wrong password at once; returns each outcome."""
    barrier = threading.Barrier(len(aliases))
    outcomes = [""] * len(aliases)

    def guess(i: int) -> None:
        barrier.wait()
        try:
            players.login(aliases[i], "wrong guess", ip=ips[i])
            outcomes[i] = "in"
        except LoginThrottled:
            outcomes[i] = "throttled"
        except LoginRefused:
            outcomes[i] = "refused"

    threads = [threading.Thread(target=guess, args=(i,)) for i in range(len(aliases))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return outcomes


def test_parallel_guesses_at_one_alias_reach_the_hash_at_most_5_times(db: Any, clock: Any) -> None:
    passwords = CountingPasswords()
    players = Players(db.engine, clock=clock, passwords=passwords)
    players.register("Target", PW, age_confirmed=True)
    ips = [f"10.0.0.{i}" for i in range(GUESSES)]
    outcomes = guess_in_parallel(players, ["Target"] * GUESSES, ips)
    assert outcomes.count("refused") == 5 and outcomes.count("throttled") == GUESSES - 5
    assert passwords.verified == 5
    with db.engine.connect() as conn:
        recorded = conn.execute(text("SELECT count(*) FROM login_attempts")).scalar()
    assert recorded == 5
    with pytest.raises(LoginThrottled):  # the owner waits too, until the window passes
        players.login("Target", PW)
    clock.advance(minutes=15, seconds=1)
    assert players.login("Target", PW)


def test_parallel_guesses_from_one_address_reach_the_hash_at_most_its_limit(
    db: Any, clock: Any
) -> None:
    passwords = CountingPasswords()
    policy = ThrottlePolicy(max_failures_per_alias=5, max_failures_per_ip=7)
    players = Players(db.engine, clock=clock, passwords=passwords, throttle=policy)
    aliases = [f"guess{i}" for i in range(20)]
    outcomes = guess_in_parallel(players, aliases, ["6.6.6.6"] * len(aliases))
    assert outcomes.count("refused") == 7 and outcomes.count("throttled") == 13
    assert passwords.verified == 7


def test_an_attempt_is_recorded_as_a_failure_before_the_hash_runs(db: Any, clock: Any) -> None:
    seen: list[list[bool]] = []

    class Watching(Passwords):
        def verify(self, stored_hash: str, password: str) -> bool:
            seen.append(successes())  # what the database holds while the hash runs
            return super().verify(stored_hash, password)

    def successes() -> list[bool]:
        with db.engine.connect() as conn:
            query = text("SELECT success FROM login_attempts ORDER BY id")
            return [bool(r) for r in conn.execute(query).scalars()]

    players = Players(db.engine, clock=clock, passwords=Watching(1, 8, 1))
    players.register("Owner", PW, age_confirmed=True)
    token = players.login("Owner", PW)
    assert players.authenticate(token) is not None
    with pytest.raises(LoginRefused):
        players.login("Owner", "wrong guess")
    assert seen == [[False], [True, False]]
    assert successes() == [True, False]
