"""Play-money top-ups racing over a real server on PostgreSQL: two top-ups of two periods
in flight at once never take the balance past the ceiling (SQLite's writers queue for
its one write lock, so there the race cannot happen)."""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from sqlalchemy import Connection, create_engine, text

from .api_client import PASSWORD, Api, register, start_api

SIGNUP, CEILING = 100, 1_000


@pytest.fixture(scope="module")
def api(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
    tmp: Path = tmp_path_factory.mktemp("topup_race")
    yield from start_api(
        request,
        tmp,
        "postgresql",
        signup_play_chips=SIGNUP,
        topup_ceiling=CEILING,
        topup_period_seconds=1,
    )


def _waiting_for_locks(conn: Connection, at_least: int) -> None:
    """Return once ``at_least`` other sessions of this database wait for a row lock."""
    query = text(
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
        " AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
    )
    deadline = time.monotonic() + 20
    while conn.execute(query).scalar_one() < at_least:
        assert time.monotonic() < deadline, "the top-up never reached the ledger"
        time.sleep(0.02)


@pytest.mark.postgres
def test_two_topups_of_two_periods_in_flight_at_once_stop_at_the_ceiling(api: Api) -> None:
    # A hostile player fires a top-up at the end of one period and another at the start
    # of the next. Each period's top-up is its own, but the two together must still stop
    # at the ceiling: the second may add only what the first left. Here the player's
    # account row is held (as a table's commit or any posting holds it) while both
    # requests arrive, so they are surely in flight together. Each read the balance
    # before taking the account's lock, and each added CEILING - SIGNUP: the balance
    # reached 2 * CEILING - SIGNUP.
    alias = register(api)
    login = httpx.post(api.base + "/api/login", json={"alias": alias, "password": PASSWORD})
    headers = {"authorization": f"Bearer {login.json()['token']}"}
    player = login.json()["player"]

    def top_up() -> httpx.Response:
        return httpx.post(api.base + "/api/topup", json={}, headers=headers, timeout=60)

    engine = create_engine(api.database_url)
    try:
        with engine.connect() as holder, engine.connect() as watcher, ThreadPoolExecutor(2) as pool:
            watcher.execution_options(isolation_level="AUTOCOMMIT")
            holder.execute(
                text(
                    "SELECT balance FROM ledger_accounts WHERE kind = 'player'"
                    " AND currency = 'play' AND owner = :owner FOR UPDATE"
                ),
                {"owner": player},
            )
            first: Future[httpx.Response] = pool.submit(top_up)
            _waiting_for_locks(watcher, 1)
            time.sleep(math.floor(time.time()) + 1.05 - time.time())  # the next period
            second: Future[httpx.Response] = pool.submit(top_up)
            # The second waits for the same lock, or (once it takes the account's lock
            # before reading) for the first; either way it is in flight.
            _waiting_for_locks(watcher, 2)
            holder.rollback()  # let them go
            answers = [first.result(60), second.result(60)]
    finally:
        engine.dispose()
    assert [a.status_code for a in answers].count(200) >= 1, [a.text for a in answers]
    balances = httpx.get(api.base + "/api/balances", headers=headers).json()
    assert balances["play"] == CEILING
    refused = [a.json() for a in answers if a.status_code != 200]
    assert [r["code"] for r in refused] in ([], ["at_ceiling"]), refused
