"""Login rows are pruned once no reader needs them (``store/login_rows.py``), on both
databases: sessions expired or revoked past the retention, failed attempts past it,
and old successful attempts that repeat a newer one's (player, address, device). The
shared IP / device review (RULEBOOK §10.1, §10.9) reads the same flags after, and the
throttle still counts the failures of its window."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from cardroom.store import Cashier, LoginRefused, LoginThrottled, Passwords, Players
from cardroom.store.models import LoginAttempt, LoginSession

PW = "correct horse"
KEEP = timedelta(days=30)


def _counts(players: Players) -> tuple[int, int, int]:
    """Sessions, failed attempts, successful attempts."""
    with Session(players.engine) as s:
        sessions = s.scalar(select(func.count(LoginSession.id))) or 0
        grouped = select(LoginAttempt.success, func.count()).group_by(LoginAttempt.success)
        attempts = {success: count for success, count in s.execute(grouped)}
    return sessions, attempts.get(False, 0), attempts.get(True, 0)


def _fail(players: Players, alias: str, ip: str) -> None:
    with pytest.raises(LoginRefused):
        players.login(alias, "wrong password", ip=ip)


def test_10_1_old_login_rows_go_and_the_shared_address_review_reads_the_same(
    db: Any, clock: Any, cheap_passwords: Passwords
) -> None:
    players = Players(db.engine, clock=clock, passwords=cheap_passwords)
    for alias in ("ann", "bob", "cyd"):
        players.register(alias, PW, age_confirmed=True)
    # Forty days ago: ann three times from home, once from a café; bob from ann's
    # home (a shared address: flagged), cyd from her own device; failures.
    for _ in range(3):
        players.login("ann", PW, ip="10.0.0.1", device="dev-ann-1")
        clock.advance(hours=1)
    players.login("ann", PW, ip="10.0.0.9", device="dev-ann-1")
    players.login("bob", PW, ip="10.0.0.1", device="dev-bob-1")
    players.login("cyd", PW, ip="10.0.0.3", device="dev-ann-1")  # ann's device
    _fail(players, "bob", "10.0.0.7")
    _fail(players, "ghost", "10.0.0.7")
    clock.advance(days=20)  # twenty days ago: a session that expired then, a failure
    players.login("bob", PW, ip="10.0.0.2", device="dev-bob-1")
    _fail(players, "ann", "10.0.0.8")
    clock.advance(days=20)  # now: ann from home again, a failure
    players.login("ann", PW, ip="10.0.0.1", device="dev-ann-1")
    _fail(players, "cyd", "10.0.0.4")
    review = Cashier(db.engine).integrity_report().shared_access
    assert _counts(players) == (8, 4, 8)

    pruned = players.prune_logins(KEEP)

    # Sessions: the six that expired forty days ago go; the one that expired twenty days
    # ago and today's stay. Failures: the two of forty days ago go. Successes: ann's
    # two older logins from home repeat today's and go; every other (player, address,
    # device) keeps one row.
    assert (pruned.sessions, pruned.failures, pruned.successes) == (6, 2, 3)
    assert _counts(players) == (2, 2, 5)
    assert Cashier(db.engine).integrity_report().shared_access == review
    assert {f.value for f in review} == {"10.0.0.1", "dev-ann-1"}
    assert players.prune_logins(KEEP) == type(pruned)(0, 0, 0)  # nothing more to do


def test_the_throttle_window_outlasts_a_shorter_retention(
    db: Any, clock: Any, cheap_passwords: Passwords
) -> None:
    players = Players(db.engine, clock=clock, passwords=cheap_passwords)
    players.register("dan", PW, age_confirmed=True)
    for _ in range(5):  # the alias's limit within 15 minutes
        _fail(players, "dan", "10.0.0.5")
        clock.advance(seconds=1)
    players.prune_logins(timedelta(seconds=1))  # kept: the throttle reads them
    with pytest.raises(LoginThrottled):
        players.login("dan", PW, ip="10.0.0.5")
    clock.advance(minutes=16)
    players.prune_logins(timedelta(seconds=1))
    assert _counts(players)[1] == 0
    assert players.login("dan", PW, ip="10.0.0.5")


def test_an_address_the_player_logged_in_from_stays_known_after_pruning(
    db: Any, clock: Any, cheap_passwords: Passwords
) -> None:
    # The throttle's known addresses: each (player, address, device)'s newest success is
    # kept, however old, so strangers past the alias's limit still cannot lock him out.
    players = Players(db.engine, clock=clock, passwords=cheap_passwords)
    players.register("eve", PW, age_confirmed=True)
    players.login("eve", PW, ip="10.0.0.1")
    players.login("eve", PW, ip="10.0.0.1")
    clock.advance(days=40)
    players.login("eve", PW, ip="10.0.0.2")
    assert players.prune_logins(KEEP).successes == 1
    for i in range(50):
        _fail(players, "eve", f"10.1.0.{i}")
    with pytest.raises(LoginThrottled):
        players.login("eve", PW, ip="10.0.0.3")
    assert players.login("eve", PW, ip="10.0.0.1")
    assert players.login("eve", PW, ip="10.0.0.2")
