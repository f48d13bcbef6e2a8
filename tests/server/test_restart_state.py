"""Issue 14: what tables share survives a crash. A real ``cardroom serve`` process is killed
with SIGKILL and started again on the same database (SQLite and PostgreSQL): a client id
that acted before the kill is answered after it and never acted on again; the disconnect
all-ins used before it are still used (RULEBOOK §10.6), and the reset on request still
works, once a day, across restarts too."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.server.conftest import running_server
from tests.server.sessions import answer, table_event, until
from tests.server.test_crash import ServerProcess

from cardroom.bots.client import ProtocolClient, account
from cardroom.ledger import AccountRef, Currency
from cardroom.room.clock import day_of
from cardroom.server.settings import ServerSettings
from cardroom.store import SqlLedger, make_engine
from cardroom.store.allowances import AllowanceBook, AllowanceChange
from cardroom.store.tables import TableRecords

TABLE = "limit"
TABLES = f"""
[[table]]
id = "{TABLE}"
game = "holdem"
stakes = {{ small_blind = 1, big_blind = 2 }}
seats = 6
hand_pause_seconds = 0.0
action_seconds = 5
time_bank_start = 0.0
reconnect_seconds = 0.3
disconnect_protection = true
reducing_minutes = 0.0
"""
SIGNUP = 10_000


def _tables(tmp_path: Path) -> Path:
    path = tmp_path / "tables.toml"
    path.write_text(TABLES)
    return path


async def _connect(base: str, token: str) -> ProtocolClient:
    client = await ProtocolClient.connect(base, token)
    assert (await client.receive())["type"] == "hello"
    return client


async def _join(client: ProtocolClient, seat: int, client_id: str) -> dict[str, Any]:
    await client.send("join", id=client_id, table=TABLE, seat=seat, amount=40)
    return await answer(client, client_id)


def _allowance(base: str, token: str) -> dict[str, int]:
    me = httpx.get(f"{base}/api/me", headers={"authorization": f"Bearer {token}"})
    assert me.status_code == 200, me.text
    return dict(me.json()["disconnect_all_ins"])


def test_14_a_client_id_that_acted_before_a_kill_9_is_answered_after_it_never_acted_again(
    database_url: str, tmp_path: Path
) -> None:
    tables = _tables(tmp_path)
    server = ServerProcess(database_url, tables)
    login = account(server.base, "alice", "password1")

    async def before() -> dict[str, Any]:
        client = await _connect(server.base, login["token"])
        ok = await _join(client, 2, "sit-1")
        assert ok["type"] == "ok" and not ok["replay"]
        return ok

    first = asyncio.run(before())
    server.kill()  # no goodbye: the id is known only to the database now
    server = ServerProcess(database_url, tables)  # recovery stood alice up, chips returned

    async def after() -> dict[str, Any]:
        client = await _connect(server.base, login["token"])
        again = await _join(client, 2, "sit-1")  # the same message again: a resend
        reused = await _join(client, 3, "sit-1")  # the same id, another seat: refused
        assert reused["type"] == "error" and reused["code"] == "id_reused", reused
        fresh = await _join(client, 4, "sit-2")  # a new id acts
        assert fresh["type"] == "ok" and not fresh["replay"]
        return again

    again = asyncio.run(after())
    server.kill()
    assert again["type"] == "ok" and again["replay"] and again["seq"] == first["seq"]
    engine = make_engine(database_url)
    try:
        entries = [e for _, e in TableRecords(engine).entries(TABLE, 0, 10_000)]
        seated = [(e["seat"], e["player"]) for e in entries if e["type"] == "PlayerSeated"]
        assert seated == [(2, login["player"]), (4, login["player"])]  # never at seat 3
        held = SqlLedger(engine).balance(AccountRef.player(login["player"], Currency.PLAY))
        assert held == SIGNUP - 40  # the buy-in of sit-2 only: sit-1's came back at the restart
    finally:
        engine.dispose()


async def _goes_away_facing_a_raise(
    base: str, away_token: str, stays_token: str, tag: str, wait_for: str = "DisconnectAllInUsed"
) -> dict[str, Any]:
    """``away`` and ``stays`` sit down; ``away`` checks or calls until ``stays`` is to act,
    then closes its connection, and ``stays`` raises: ``away``, facing a raise with chips
    in the pot, is given a disconnect all-in if one is left: the event ``wait_for``."""
    away, stays = await _connect(base, away_token), await _connect(base, stays_token)
    joined = await _join(away, 0, f"{tag}-away")
    assert joined["type"] == "ok", joined
    assert (await _join(stays, 1, f"{tag}-stays"))["type"] == "ok"

    async def check_or_call() -> None:
        while True:
            msg = await away.receive()
            if msg["type"] == "turn":
                kinds = msg["legal"]["actions"]
                await away.send("act", table=TABLE, kind="check" if "check" in kinds else "call")

    playing = asyncio.create_task(check_or_call())
    turn = await until(stays, "turn", limit=20, table=TABLE)
    playing.cancel()
    await away.close()
    await table_event(stays, "Disconnected")
    await stays.send("act", table=TABLE, kind="raise", amount=turn["legal"]["min_raise_to"])
    found = await table_event(stays, wait_for)
    await stays.close()
    return found


def _stored_uses(database_url: str) -> list[int]:
    """The ``used_today`` of each disconnect all-in the table's record holds."""
    engine = make_engine(database_url)
    try:
        entries = TableRecords(engine).entries(TABLE, 0, 10_000)
    finally:
        engine.dispose()
    return [e["used_today"] for _, e in entries if e["type"] == "DisconnectAllInUsed"]


@pytest.mark.today
def test_14_disconnect_all_ins_used_and_reset_survive_kill_9(
    database_url: str, tmp_path: Path
) -> None:
    tables = _tables(tmp_path)
    server = ServerProcess(database_url, tables)
    away, stays = (account(server.base, a, "password1") for a in ("gone", "here"))

    used = asyncio.run(_goes_away_facing_a_raise(server.base, away["token"], stays["token"], "a"))
    # ``here`` is told it happened, not how many ``gone`` used (§10.6): the record is.
    assert used["player"] == away["player"] and "used_today" not in used
    assert _stored_uses(database_url) == [1]
    assert _allowance(server.base, away["token"]) == {
        "per_day": 2,
        "used_today": 1,
        "left_today": 1,
    }
    server.kill()

    server = ServerProcess(database_url, tables)
    assert _allowance(server.base, away["token"])["used_today"] == 1
    used = asyncio.run(_goes_away_facing_a_raise(server.base, away["token"], stays["token"], "b"))
    assert used["player"] == away["player"]
    assert _stored_uses(database_url) == [1, 2]  # the room counted the one used before the kill

    async def reset(client_id: str) -> dict[str, Any]:
        client = await _connect(server.base, away["token"])  # still seated (away)
        await client.send("reset_allowance", id=client_id, table=TABLE)
        return await answer(client, client_id)

    assert (asyncio.run(reset("r1")))["type"] == "ok"
    assert _allowance(server.base, away["token"]) == {
        "per_day": 2,
        "used_today": 0,
        "left_today": 2,
    }
    server.kill()

    server = ServerProcess(database_url, tables)

    async def after() -> tuple[dict[str, Any], dict[str, Any]]:
        client = await _connect(server.base, away["token"])
        assert (await _join(client, 0, "c-away"))["type"] == "ok"  # stood up by the restart
        await client.send("reset_allowance", id="r1", table=TABLE)
        replay = await answer(client, "r1")
        await client.send("reset_allowance", id="r2", table=TABLE)
        return replay, await answer(client, "r2")

    replay, refused = asyncio.run(after())
    assert replay["type"] == "ok" and replay["replay"]
    assert refused["type"] == "error" and refused["code"] == "no_reset_left"  # one a day
    assert _allowance(server.base, away["token"])["used_today"] == 0
    server.kill()


@pytest.mark.today
def test_14_an_all_in_another_process_spent_first_is_refused_by_the_database_then_folded(
    database_url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The server's copy of the counts is stale (another process, later, used the day's
    disconnect all-ins): the step granting one more is refused by the database and
    rolled back whole, the table rebuilt with its players' counts read again, and the
    player folded; the table plays on."""
    settings = ServerSettings(
        database_url=database_url, tables_file=_tables(tmp_path), cheap_passwords=True,
        tick_seconds=0.05,
    )  # fmt: skip
    with running_server(settings) as base:
        away, stays = (account(base, a, "password1") for a in ("gone", "here"))
        engine = make_engine(database_url)
        book = AllowanceBook(engine)
        day = day_of(time.time())
        book.spend([AllowanceChange(away["player"], day, False, 2)] * 2)  # behind its back
        asyncio.run(
            _goes_away_facing_a_raise(base, away["token"], stays["token"], "x", "HandFinished")
        )
        entries = [e for _, e in TableRecords(engine).entries(TABLE, 0, 10_000)]
        assert not any(e["type"] == "DisconnectAllInUsed" for e in entries)
        assert any(e["type"] == "Acted" and e.get("kind") == "fold" for e in entries), entries
        assert book.of(away["player"], day) == (2, 0)
        refused = [r.getMessage() for r in caplog.records if "not stored" in r.getMessage()]
        assert any("no disconnect all-in left" in m for m in refused), refused
        assert _allowance(base, away["token"])["left_today"] == 0
        engine.dispose()
