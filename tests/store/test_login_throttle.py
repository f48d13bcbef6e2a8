"""The login throttle (``store/login_throttle.py``): failures counted per alias and
address, per alias from all addresses (but not against the addresses its player has
logged in from), per address; and it holds under concurrency: each attempt is counted
before the slow hash runs, atomically, so parallel guesses cannot all reach the
password check.

Before (1): 30 parallel wrong guesses at one alias from 30 addresses were all checked
against the password, though the limit was 5 per 15 minutes.
Before (2): 5 failures at an alias from any address locked it for 15 minutes from
every address, its owner's included: any stranger could keep any player out of the
room. Now they lock it for that address; from all addresses together, 50 lock it but
for the addresses (and devices) its player has logged in from before.
``CARDROOM_LOGIN_GUESSES`` sets how many guess at once (default 60, at least 51).
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
POLICY = ThrottlePolicy()
GUESSES = max(
    int(os.environ.get("CARDROOM_LOGIN_GUESSES", "60")), POLICY.max_failures_per_alias + 1
)
HOME = "10.9.9.9"


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


def _attempts(db: Any) -> int:
    with db.engine.connect() as conn:
        return int(conn.execute(text("SELECT count(*) FROM login_attempts")).scalar() or 0)


def test_parallel_guesses_at_one_alias_from_many_addresses_reach_the_hash_at_most_50_times(
    db: Any, clock: Any
) -> None:
    passwords = CountingPasswords()
    players = Players(db.engine, clock=clock, passwords=passwords)
    players.register("Target", PW, age_confirmed=True)
    players.login("Target", PW, ip=HOME)
    passwords.verified = 0
    ips = [f"10.0.{i // 250}.{i % 250}" for i in range(GUESSES)]
    outcomes = guess_in_parallel(players, ["Target"] * GUESSES, ips)
    limit = POLICY.max_failures_per_alias
    assert outcomes.count("refused") == limit and outcomes.count("throttled") == GUESSES - limit
    assert passwords.verified == limit
    assert _attempts(db) == limit + 1
    with pytest.raises(LoginThrottled):  # a new address waits, the owner's right password too
        players.login("Target", PW, ip="10.8.8.8")
    assert players.login("Target", PW, ip=HOME)  # but not at home
    clock.advance(minutes=15, seconds=1)
    assert players.login("Target", PW, ip="10.8.8.8")


def test_parallel_guesses_at_one_alias_from_one_address_reach_the_hash_at_most_5_times(
    db: Any, clock: Any
) -> None:
    passwords = CountingPasswords()
    players = Players(db.engine, clock=clock, passwords=passwords)
    players.register("Target", PW, age_confirmed=True)
    outcomes = guess_in_parallel(players, ["Target"] * 30, ["6.6.6.6"] * 30)
    assert outcomes.count("refused") == 5 and outcomes.count("throttled") == 25
    assert passwords.verified == 5 and _attempts(db) == 5
    with pytest.raises(LoginThrottled):
        players.login("Target", PW, ip="6.6.6.6")
    assert players.login("Target", PW, ip="6.6.6.7")


def test_parallel_guesses_from_strangers_and_known_addresses_reach_the_hash_boundedly(
    db: Any, clock: Any
) -> None:
    # At most 50 (all addresses) + 5 from each address the player logged in from.
    passwords = CountingPasswords()
    players = Players(db.engine, clock=clock, passwords=passwords)
    players.register("Target", PW, age_confirmed=True)
    known = [HOME, "10.9.9.8"]
    for ip in known:
        players.login("Target", PW, ip=ip)
    passwords.verified = 0
    ips = [f"10.1.0.{i}" for i in range(60)] + known * 10
    outcomes = guess_in_parallel(players, ["Target"] * len(ips), ips)
    assert set(outcomes) == {"refused", "throttled"}
    strangers = outcomes[:60].count("refused")
    at_home = [
        sum(o == "refused" for o, ip in zip(outcomes, ips, strict=True) if ip == k) for k in known
    ]
    assert at_home == [5, 5] and strangers <= 50
    assert passwords.verified == strangers + 10 <= 60


def test_a_stranger_s_failures_from_other_addresses_do_not_lock_the_owner_out_at_home(
    db: Any, clock: Any
) -> None:
    players = Players(db.engine, clock=clock, passwords=Passwords(1, 8, 1))
    players.register("Owner", PW, age_confirmed=True)
    players.login("Owner", PW, ip=HOME)
    clock.advance(hours=1)

    def fail(ip: str, times: int) -> None:
        for _ in range(times):
            with pytest.raises(LoginRefused):
                players.login("Owner", "wrong guess", ip=ip)
        clock.advance(seconds=1)

    fail("6.6.6.6", 5)  # a stranger's five: his own address is locked...
    with pytest.raises(LoginThrottled):
        players.login("Owner", PW, ip="6.6.6.6")
    assert players.login("Owner", PW, ip=HOME)  # ...the owner's is not
    for i in range(11):  # 49 failures from many addresses in all
        fail(f"7.7.7.{i}", 4)
    assert players.login("Owner", PW, ip=HOME)
    assert players.login("Owner", PW, ip="8.8.8.8")  # under the alias's limit: anyone
    fail("7.7.8.1", 1)  # the 50th: the alias waits everywhere but where he logged in
    with pytest.raises(LoginThrottled):
        players.login("Owner", PW, ip="5.5.5.5")
    assert players.login("Owner", PW, ip=HOME)
    assert players.login("Owner", PW, ip="8.8.8.8")  # known now too


def test_a_device_the_player_logged_in_from_is_known_from_a_new_address(
    db: Any, clock: Any
) -> None:
    players = Players(db.engine, clock=clock, passwords=Passwords(1, 8, 1))
    players.register("Owner", PW, age_confirmed=True)
    players.login("Owner", PW, ip=HOME, device="dev-owner")
    # A device id never widens an address's limit: five from one address, any devices.
    for i in range(5):
        with pytest.raises(LoginRefused):
            players.login("Owner", "wrong guess", ip="5.5.5.6", device=f"dev-{i}")
    with pytest.raises(LoginThrottled):
        players.login("Owner", PW, ip="5.5.5.6", device="dev-9")
    for i in range(45):  # 50 in all: the alias waits but at home and on his device
        with pytest.raises(LoginRefused):
            players.login("Owner", "wrong guess", ip=f"7.7.{i}.1", device="dev-guess")
    with pytest.raises(LoginThrottled):
        players.login("Owner", PW, ip="5.5.5.5", device="dev-other")
    assert players.login("Owner", PW, ip="5.5.5.5", device="dev-owner")


def test_parallel_guesses_from_one_address_reach_the_hash_at_most_its_limit(
    db: Any, clock: Any
) -> None:
    passwords = CountingPasswords()
    policy = ThrottlePolicy(max_failures_per_ip=7)
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


def _lock_the_alias(players: Players, clock: Any) -> None:
    """50 failures at "Owner" from as many addresses: the alias waits but where known."""
    for i in range(POLICY.max_failures_per_alias):
        with pytest.raises(LoginRefused):
            players.login("Owner", "wrong guess", ip=f"7.7.{i}.1")
    clock.advance(seconds=1)


def test_an_address_is_known_only_for_90_days_after_the_last_login_from_it(
    db: Any, clock: Any
) -> None:
    players = Players(db.engine, clock=clock, passwords=Passwords(1, 8, 1))
    players.register("Owner", PW, age_confirmed=True)
    players.login("Owner", PW, ip=HOME)
    players.login("Owner", PW, ip="10.9.9.8")
    clock.advance(days=60)
    players.login("Owner", PW, ip=HOME)  # home renewed; 10.9.9.8 not
    clock.advance(days=31)  # HOME last seen 31 days ago, 10.9.9.8 91 days ago
    _lock_the_alias(players, clock)
    assert players.login("Owner", PW, ip=HOME)
    with pytest.raises(LoginThrottled):
        players.login("Owner", PW, ip="10.9.9.8")


def test_a_password_reset_forgets_the_addresses_known_before_it(db: Any, clock: Any) -> None:
    # A thief logged in from 6.6.6.6 with the stolen password; the operator resets it.
    players = Players(db.engine, clock=clock, passwords=Passwords(1, 8, 1))
    players.register("Owner", PW, age_confirmed=True)
    players.login("Owner", PW, ip=HOME)
    players.login("Owner", PW, ip="6.6.6.6")
    clock.advance(hours=1)
    players.set_password("Owner", "a new horse", operator="ops")
    clock.advance(hours=1)
    players.login("Owner", "a new horse", ip=HOME)  # the owner, since the reset
    _lock_the_alias(players, clock)
    with pytest.raises(LoginThrottled):  # the thief's address is a stranger's now
        players.login("Owner", "a new horse", ip="6.6.6.6")
    assert players.login("Owner", "a new horse", ip=HOME)
