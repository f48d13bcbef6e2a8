"""Play money and real money never mix (RULEBOOK §10.1), over a real server on SQLite
and PostgreSQL: not in chips, and not in the rules a table applies to a buy-in."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.server.conftest import running_server
from tests.server.sessions import answer, money_problems, operator_client, player

from cardroom.ledger import Currency
from cardroom.server.settings import ServerSettings
from cardroom.store import Cashier, make_engine


def _table(money: str, low: int, high: int) -> dict[str, Any]:
    """The operator's table ``switch``, for ``money``, with buy-ins ``low..high``."""
    return {
        "id": "switch",
        "game": "holdem",
        "stakes": {"small_blind": 1, "big_blind": 2},
        "seats": 6,
        "money": money,
        "options": {"min_buy_in": low, "max_buy_in": high},
    }


async def _reopen_for_real(base: str, url: str, leaves: bool) -> dict[str, Any]:
    """alice buys in 5,000 at the play-money table ``switch`` (and leaves it, with
    ``leaves``); the operator closes it and reopens it for real money (buy-ins 10..200);
    alice, given 1,000 real, sits there with 200: the answer to that join."""
    boss = operator_client(base, url)
    try:
        assert boss.post("/api/operator/tables", json=_table("play", 100, 5000)).is_success
        a, _ = await player(base, "alice")
        await a.send("join", id="j1", table="switch", seat=0, amount=5000)
        assert (await answer(a, "j1"))["type"] == "ok"
        if leaves:
            await a.send("leave", id="l1", table="switch")
            assert (await answer(a, "l1"))["type"] == "ok"
        await a.close()
        assert boss.post("/api/operator/tables/switch/close").is_success
        assert boss.post("/api/operator/tables", json=_table("real", 10, 200)).is_success
    finally:
        boss.close()
    engine = make_engine(url)
    try:
        Cashier(engine).deposit("alice", 1000, Currency.REAL, operator="test")
    finally:
        engine.dispose()
    a, _ = await player(base, "alice")
    await a.send("join", id="j2", table="switch", seat=0, amount=200)
    joined = await answer(a, "j2")
    await a.close()
    return joined


def test_10_9_the_ledger_check_reads_a_reopened_table_in_the_money_it_plays_for(
    settings: ServerSettings,
) -> None:
    # A table's stacks in the ledger are checked against its record. A table reopened
    # for the other money continues its record: the check compared the play-money stack
    # account the player emptied with the real chips the record says he holds, and
    # reported a broken invariant where there was none ("holds 0, the record says 200").
    url = settings.database_url
    assert url is not None
    with running_server(settings) as base:
        joined = asyncio.run(_reopen_for_real(base, url, leaves=False))
    assert joined["type"] == "ok", joined
    assert money_problems(url) == []


def test_10_2_play_chips_taken_off_a_table_bind_no_real_money_buy_in_there(
    settings: ServerSettings,
) -> None:
    # The reducing rule (§10.2): who leaves a table with chips and comes back within 30
    # minutes must bring at least as much. A play-money table closed and reopened under
    # the same id for real money continues its record, and kept its departures: 5,000
    # play chips taken off demanded a real buy-in of at least 5,000 (the table's
    # maximum is 200), so the player could not sit down there at all.
    url = settings.database_url
    assert url is not None
    with running_server(settings) as base:
        joined = asyncio.run(_reopen_for_real(base, url, leaves=True))
    assert joined["type"] == "ok", joined
    assert money_problems(url) == []
