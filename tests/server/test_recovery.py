"""RULEBOOK §10.10 at a server: a hand cut short by a stop is cancelled on the next start,
stacks back to their start-of-hand values, then every player's chips go back."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from pathlib import Path

import httpx
import pytest
from tests.server.conftest import running_server
from tests.server.sessions import answer, first_turn, money_problems, player, seated_pair

from cardroom.bots.client import account
from cardroom.cli import main as cli_main
from cardroom.ledger import AccountRef, Currency, LedgerError, Reason, Transfer
from cardroom.server.room import Room
from cardroom.server.settings import ServerSettings
from cardroom.server.storage import Storage
from cardroom.server.tables_file import TablesFileError, load_tables, spec_from_dict
from cardroom.store import Players, SqlLedger, make_engine
from cardroom.store.tables import TableRecords


def test_10_10_an_unfinished_hand_is_voided_on_start_and_the_chips_go_back(
    settings: ServerSettings, caplog: pytest.LogCaptureFixture
) -> None:
    async def play_half_a_hand(base: str) -> tuple[str, str]:
        a, a_id, b, b_id = await seated_pair(base)
        actor, _ = await first_turn([a, b], "holdem")
        await actor.send("act", id="r", table="holdem", kind="raise", amount=10)
        assert (await answer(actor, "r"))["type"] == "ok"
        return a_id, b_id

    with running_server(settings) as base:
        a_id, b_id = asyncio.run(play_half_a_hand(base))
    assert settings.database_url is not None
    engine = make_engine(settings.database_url)
    ledger, records = SqlLedger(engine), TableRecords(engine)
    chips = settings.signup_play_chips
    # Stopped mid-hand: the buy-ins are on the table, nothing of the hand was posted.
    assert ledger.balance(AccountRef.player(a_id, Currency.PLAY)) == chips - 40
    assert records.hands("holdem")["holdem"].finished == []
    caplog.clear()
    with running_server(settings) as base:
        pass  # start-up recovers the table, and tells the operator
    told = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    line = "table holdem recovered: hand #1 voided, 2 player(s) stood up, 80 chips back"
    assert any(m.startswith(line) for m in told), told
    summary = records.hands("holdem")["holdem"]
    assert summary.dealt == [1] and summary.voided == [1] and summary.finished == []
    entries = [e for _, e in records.entries("holdem")]
    voided = next(e for e in entries if e["type"] == "HandVoided")
    assert sorted(map(tuple, voided["stacks"])) == [(0, 40), (1, 40)]  # start-of-hand stacks
    left = [e for e in entries if e["type"] == "PlayerLeft"]
    assert {(e["player"], e["cashed_out"], e["reason"]) for e in left} == {
        (a_id, 40, "table_closed"),
        (b_id, 40, "table_closed"),
    }
    for pid in (a_id, b_id):
        assert ledger.balance(AccountRef.player(pid, Currency.PLAY)) == chips
        assert ledger.balance(AccountRef.stack("holdem", pid, Currency.PLAY)) == 0
    engine.dispose()
    assert money_problems(settings.database_url) == []
    with running_server(settings) as base:  # the player's own history shows it cancelled
        token = account(base, "alice", "password1")["token"]
        page = httpx.get(base + "/api/hands", headers={"Authorization": f"Bearer {token}"})
    (hand,) = page.json()["hands"]
    assert (hand["table_id"], hand["hand_no"], hand["voided"]) == ("holdem", 1, True)
    kinds = [e["type"] for e in hand["events"]]
    assert kinds[0] == "HandDealt" and kinds[-1] == "HandVoided" and "HandCancelled" in kinds
    assert any(e["type"] == "Acted" and e["kind"] == "raise" for e in hand["events"])
    returned = sorted(map(tuple, hand["events"][-1]["stacks"]))
    assert returned == [(0, 40), (1, 40)]  # every stack back to its start-of-hand value
    assert hand["phh"] is None and "cancelled" in hand["phh_note"]
    assert hand["phh_refusal"] == "cancelled"  # a stable code a client may switch on


async def _half_a_hand(base: str, run: int = 1) -> tuple[str, str]:
    """Two players sit at holdem; the first to act raises; the hand is left unfinished
    (``run``: new message ids for a later run: the same ids would be resends)."""
    a, a_id, b, b_id = await seated_pair(base, f"j{run}")
    actor, _ = await first_turn([a, b], "holdem")
    await actor.send("act", id=f"r{run}", table="holdem", kind="raise", amount=10)
    assert (await answer(actor, f"r{run}"))["type"] == "ok"
    return a_id, b_id


def test_10_10_ledger_recover_with_the_server_stopped_recovers_from_the_records(
    settings: ServerSettings, capsys: pytest.CaptureFixture[str]
) -> None:
    """The operator's `cardroom ledger recover` after a crash does what a start does:
    the cut hand cancelled in the table's record and the chips returned in the same
    step. Before, it paid the stacks out through the ledger alone, the record still
    seated everyone, and every later start failed paying them out again."""
    with running_server(settings) as base:
        a_id, b_id = asyncio.run(_half_a_hand(base))
    url = settings.database_url
    assert url is not None
    assert cli_main(["ledger", "recover", "--db", url]) == 0
    out = capsys.readouterr().out
    assert "table holdem: returned 40 to alice (play money)" in out, out
    assert "table holdem: returned 40 to bobby (play money)" in out, out
    assert cli_main(["ledger", "check", "--db", url]) == 0
    assert "every invariant holds" in capsys.readouterr().out
    engine = make_engine(url)
    ledger, records = SqlLedger(engine), TableRecords(engine)
    summary = records.hands("holdem")["holdem"]
    assert summary.dealt == [1] and summary.voided == [1] and summary.finished == []
    for pid in (a_id, b_id):
        assert ledger.balance(AccountRef.player(pid, Currency.PLAY)) == settings.signup_play_chips
    assert cli_main(["ledger", "recover", "--db", url]) == 0  # again: nothing left
    assert "nothing to recover" in capsys.readouterr().out
    with running_server(settings) as base:  # the room starts, and plays on
        asyncio.run(_half_a_hand(base, run=2))
    assert records.hands("holdem")["holdem"].voided == [1]
    engine.dispose()
    assert money_problems(url) == []


def test_ledger_check_finds_table_stacks_that_disagree_with_the_records(
    settings: ServerSettings, capsys: pytest.CaptureFixture[str]
) -> None:
    with running_server(settings) as base:
        a_id, _ = asyncio.run(_half_a_hand(base))
    url = settings.database_url
    assert url is not None
    engine = make_engine(url)
    stack = AccountRef.stack("holdem", a_id, Currency.PLAY)
    paid = Transfer("behind", Reason.CASH_OUT, stack, AccountRef.player(a_id, Currency.PLAY), 40)
    SqlLedger(engine).post_all([paid])  # chips moved behind the table's back
    engine.dispose()
    assert cli_main(["ledger", "check", "--db", url]) == 1
    out = capsys.readouterr().out
    assert "alice's stack at table holdem (play money) holds 0" in out, out
    assert "the table's record says 40" in out


def test_the_tables_file_is_checked_with_the_table_and_key_named(tmp_path: Path) -> None:
    assert len(load_tables(None)) >= 5  # several games by default
    path = tmp_path / "t.toml"
    holdem = '[[table]]\nid = "a"\ngame = "holdem"\nstakes = { small_blind = 1, big_blind = 2 }\n'
    path.write_text(holdem + 'money = "real"\nseats = 9\naction_seconds = 12\n')
    (spec,) = load_tables(path)
    assert spec.settings.currency is Currency.REAL and spec.settings.seat_count == 9
    assert spec.settings.action_seconds == 12
    path.write_text(holdem + "seats = 9\nbots = 2\n")
    assert load_tables(path)[0].bots == 2
    for body, words in [
        ('[[table]]\nid = "a"\ngame = "holdem"\nstakes = { small_blind = 1, big_blind = 2 }\n'
         'colour = "red"\n', "colour"),
        ('[[table]]\nid = "a"\ngame = "holdum"\nstakes = { small_blind = 1 }\n', "'a'"),
        ('[[table]]\nid = "a b"\ngame = "holdem"\nstakes = {}\n', "id"),
        ('[[table]]\nid = "a"\ngame = "holdem"\nstakes = { small_blind = 1, big_blind = 2 }\n'
         'seed = "x"\n', "seed"),
        (holdem + 'money = "real"\nbots = 1\n', "play money"),  # house bots have none
    ]:  # fmt: skip
        path.write_text(body)
        with pytest.raises(TablesFileError, match=words):
            load_tables(path)
    twice = '[[table]]\nid = "a"\ngame = "razz"\nstakes = { small_bet = 2, big_bet = 4 }\n'
    path.write_text(twice * 2)
    with pytest.raises(TablesFileError, match="twice"):
        load_tables(path)


def test_ledger_recover_refuses_while_a_server_runs_on_the_database(
    settings: ServerSettings, capsys: pytest.CaptureFixture[str]
) -> None:
    """A recovery under a live server would stand its players up behind its back (its
    next step then fails): the server holds the database's lease, and the command
    refuses while it does; a clean stop gives it back (``test_lease.py``: the rest)."""
    from cardroom.server.lease import server_seen

    url = settings.database_url
    assert url is not None
    with running_server(settings) as base:
        asyncio.run(_half_a_hand(base))
        assert cli_main(["ledger", "recover", "--db", url]) == 1
        err = capsys.readouterr().err
        assert "a server is running on this database" in err, err
        engine = make_engine(url)
        try:
            assert server_seen(engine) is not None
            assert TableRecords(engine).hands("holdem")["holdem"].voided == []  # untouched
        finally:
            engine.dispose()
    assert cli_main(["ledger", "recover", "--db", url]) == 0  # stopped cleanly: given back
    assert "table holdem: returned 40" in capsys.readouterr().out
    assert money_problems(url) == []


def test_the_tables_file_doc_names_every_key_the_tables_file_takes() -> None:
    """docs/tables_file.md's table of keys is what the tables file takes (and no less)."""
    from dataclasses import fields

    from cardroom.games import Stakes
    from cardroom.server import tables_file

    doc = (Path(__file__).resolve().parents[2] / "docs" / "tables_file.md").read_text()
    keys = set(tables_file.KEYS) | {f.name for f in fields(Stakes)}
    missing = sorted(k for k in keys if f"`{k}`" not in doc)
    assert missing == [], f"docs/tables_file.md does not name {missing}"


def test_a_second_server_on_a_database_in_use_does_not_start(settings: ServerSettings) -> None:
    """A second `cardroom serve` on the same database used to run its start-up recovery
    on the first one's live tables, standing their players up behind its back."""
    from cardroom.server.room import AlreadyServing, Room
    from cardroom.server.storage import Storage

    url = settings.database_url
    assert url is not None

    async def second() -> str:
        storage = Storage(url, threads=1)
        try:
            room = Room(storage, settings)
            try:
                await room.open([])
            except AlreadyServing as exc:
                return str(exc)
            finally:
                await room.stop()  # a refused room forgets nothing of the running one's
            return "started"
        finally:
            storage.close()

    with running_server(settings) as base:
        a_id, _ = asyncio.run(_half_a_hand(base))
        refused = asyncio.run(second())
        assert "another server is running on this database" in refused, refused
        engine = make_engine(url)
        try:
            from cardroom.server.lease import server_seen

            assert server_seen(engine) is not None  # the first one's lease stays
            held = SqlLedger(engine).balance(AccountRef.stack("holdem", a_id, Currency.PLAY))
            assert held == 40  # its players still seated
        finally:
            engine.dispose()
    assert money_problems(url) == []


def test_a_tables_file_edited_between_starts_is_told_not_silent(
    settings: ServerSettings, caplog: pytest.LogCaptureFixture
) -> None:
    """A table whose entry in the tables file changed since its last run (here play 1/2
    to 5/10 and a seat less) reopens with one warning naming each change; unchanged
    tables, and a start with the same file, say nothing of it."""
    assert settings.tables_file is not None
    with running_server(settings):
        pass
    caplog.clear()
    with running_server(settings):
        pass
    assert not [r for r in caplog.records if "settings changed" in r.getMessage()]
    text = settings.tables_file.read_text()
    edited = text.replace(
        "stakes = { small_blind = 1, big_blind = 2 }\nseats = 6\nhand_pause_seconds",
        "stakes = { small_blind = 5, big_blind = 10 }\nseats = 5\nhand_pause_seconds",
    )
    assert edited != text
    settings.tables_file.write_text(edited)
    caplog.clear()
    with running_server(settings):
        pass
    told = [r.getMessage() for r in caplog.records if "settings changed" in r.getMessage()]
    assert len(told) == 1 and told[0].startswith("table holdem reopens"), told
    assert "games[0].max_seats: 6 -> 5" in told[0], told
    assert "games[0].stakes.big_blind: 2 -> 10" in told[0], told


def test_10_10_players_stood_up_with_no_hand_voided_are_told_quietly(
    settings: ServerSettings, caplog: pytest.LogCaptureFixture
) -> None:
    """A clean stop leaves players seated and the start stands them up: the rule, said at
    INFO; a WARNING is kept for a start that voided a hand (the test above)."""

    async def sit_alone(base: str) -> None:
        alone, _ = await player(base, "alice")
        await alone.send("join", id="j", table="holdem", seat=0, amount=40)
        assert (await answer(alone, "j"))["type"] == "ok"
        await alone.close()

    with running_server(settings) as base:
        asyncio.run(sit_alone(base))  # no hand with one player
    caplog.clear()
    caplog.set_level(logging.INFO, logger="cardroom.server")
    with running_server(settings):
        pass
    told = [(r.levelno, r.getMessage()) for r in caplog.records if "recovered" in r.getMessage()]
    line = "table holdem recovered: 1 player(s) stood up, 40 chips back to their accounts"
    assert told == [(logging.INFO, line)], told


def test_a_table_opened_through_the_api_and_not_in_the_tables_file_is_closed_with_a_warning(
    settings: ServerSettings, caplog: pytest.LogCaptureFixture
) -> None:
    """The start closed such a table without a word: now one WARNING a table on the
    ``cardroom`` logger (``cardroom serve`` writes it to stderr), naming it and why; the
    tables the file names say nothing of it."""
    assert settings.database_url is not None
    body = {"alias": "boss1", "password": "password1"}
    with running_server(settings) as base:
        made = httpx.post(base + "/api/register", json={**body, "age_confirmed": True})
        assert made.status_code == 201, made.text
        engine = make_engine(settings.database_url)
        try:
            Players(engine).set_role("boss1", "operator", operator="test")
        finally:
            engine.dispose()
        token = httpx.post(base + "/api/login", json=body).json()["token"]
        spec = {"id": "extra-1", "game": "holdem", "stakes": {"small_blind": 1, "big_blind": 2}}
        opened = httpx.post(
            base + "/api/operator/tables", json=spec, headers={"authorization": f"Bearer {token}"}
        )
        assert opened.status_code == 201, opened.text
    caplog.clear()
    with running_server(settings):
        pass
    told = [
        (r.levelno, r.getMessage())
        for r in caplog.records
        if r.name.startswith("cardroom") and "tables file" in r.getMessage()
    ]
    line = "table extra-1 closed: the tables file no longer names it"
    assert told == [(logging.WARNING, line)], told


def test_a_table_that_cannot_be_built_leaves_no_record_to_stop_the_next_start(
    database_url: str,
) -> None:
    """The operator's open of table id "x\\n" (before its pattern ended at the end) was
    refused by the ledger's account rule after the table's record was stored: every
    later start then closed that table, met the same refusal and stopped (exit 3), on
    both databases, until someone edited the database. The table is built before its
    record is stored."""
    spec = spec_from_dict(
        {"id": "t9", "game": "holdem", "stakes": {"small_blind": 1, "big_blind": 2}}
    )
    unbuildable = replace(spec, settings=replace(spec.settings, table_id="t8\n"))

    async def go() -> None:
        storage = Storage(database_url, threads=1)
        try:
            await storage.run(storage.migrate)
            first = Room(storage, ServerSettings(database_url=database_url))
            await first.open([spec])
            with pytest.raises(LedgerError):
                await first.open_table(unbuildable)
            await first.stop()
            assert TableRecords(storage.engine).load("t8\n") is None
            again = Room(storage, ServerSettings(database_url=database_url))
            await again.open([spec])  # the next start
            assert set(again.actors) == {"t9"}
            await again.stop()
        finally:
            storage.close()

    asyncio.run(go())
