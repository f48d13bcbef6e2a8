"""The operator CLI end to end on SQLite and PostgreSQL (in-process, and once as a process)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from datetime import datetime, timedelta
from functools import partial
from typing import Any

import pytest
from sqlalchemy import text

from cardroom.cli import main
from cardroom.ledger import AccountRef, Currency, Reason, Transfer
from cardroom.store import Passwords, Players, SanctionKind, SqlLedger, make_engine

REAL = Currency.REAL

PW = "a fine password\n"


def run(capsys: Any, monkeypatch: Any, *argv: str, stdin: str = "") -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    # In-process runs hash with minimal argon2id cost (the subprocess test uses the real one).
    monkeypatch.setattr("cardroom.store.Players", partial(Players, passwords=Passwords(1, 8, 1)))
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_operator_flow(fresh_url: str, capsys: Any, monkeypatch: Any) -> None:
    def cli(*argv: str, stdin: str = "") -> tuple[int, str, str]:
        return run(capsys, monkeypatch, *argv, "--db", fresh_url, stdin=stdin)

    code, out, err = cli("account", "show", "nobody")
    assert code == 1 and "cardroom db upgrade" in err
    assert cli("db", "current")[0] == 1
    code, out, _ = cli("db", "upgrade")
    assert code == 0 and "empty -> 0013" in out
    assert cli("db", "current")[0] == 0

    assert cli("account", "create", "AceHigh", "--i-am-18", stdin=PW)[0] == 0
    assert cli("account", "create", "RiverRat", "--i-am-18", stdin=PW)[0] == 0
    for alias, reason in [
        ("acehigh", "taken"),
        ("no spaces", "only letters"),
        ("ab", "3 to 16"),
        ("fuuuck", "offensive"),
    ]:
        code, _, err = cli("account", "create", alias, "--i-am-18", stdin=PW)
        assert code == 1 and reason in err, (alias, err)
    code, _, err = cli("account", "create", "Youngster", stdin=PW)
    assert code == 2 and "--i-am-18" in err  # a usage error: the attestation is not given
    code, _, err = cli("account", "create", "ShortPw", "--i-am-18", stdin="short\n")
    assert code == 1 and "at least 8" in err

    code, out, _ = cli("account", "deposit", "acehigh", "1000")
    assert code == 0 and "AceHigh (real money)" in out and "player/" not in out
    assert cli("account", "deposit", "AceHigh", "250", "--play")[0] == 0
    code, _, err = cli("account", "transfer", "AceHigh", "RiverRat", "300")
    assert code == 1 and "RiverRat has never deposited" in err
    assert cli("account", "deposit", "riverrat", "1", "--key", "bank-7")[0] == 0
    assert cli("account", "deposit", "riverrat", "1", "--key", "bank-7")[0] == 0  # a retry
    code, out, _ = cli("account", "transfer", "AceHigh", "RiverRat", "300")
    assert code == 0 and "AceHigh (real money) -> RiverRat (real money)" in out
    code, out, _ = cli("account", "withdraw", "RiverRat", "100")
    assert code == 0 and "RiverRat (real money)" in out and "player/" not in out
    code, _, err = cli("account", "withdraw", "RiverRat", "1000")
    assert code == 1 and "holds 201" in err
    # Players are named by alias, never by their ledger account key (player/real/2).
    assert "RiverRat (real money) holds 201" in err and "player/" not in err

    code, out, _ = cli("account", "show", "acehigh", "--json")
    shown = json.loads(out)
    assert code == 0 and shown["alias"] == "AceHigh"
    assert shown["balances"] == {"real": 700, "play": 250}
    shown = json.loads(cli("account", "show", "RiverRat", "--json")[1])
    assert shown["balances"] == {"real": 201, "play": 0}

    code, out, _ = cli("ledger", "check", "--json")
    assert code == 0 and json.loads(out)["ok"] is True
    engine = make_engine(fresh_url)
    with engine.begin() as conn:  # tamper behind the ledger's back
        conn.execute(text("UPDATE ledger_accounts SET balance = balance + 1 WHERE kind = 'player'"))
    engine.dispose()
    code, out, _ = cli("ledger", "check")
    assert code == 1 and "FAIL drift" in out and "FAIL total" in out
    assert "player/" not in out and "AceHigh (real money)" in out
    code, out, _ = cli("ledger", "entries")
    assert code == 0 and "AceHigh (real money)" in out and "player/" not in out


def test_flags_freeze_and_reverse(fresh_url: str, capsys: Any, monkeypatch: Any) -> None:
    def cli(*argv: str, stdin: str = "") -> tuple[int, str, str]:
        return run(capsys, monkeypatch, *argv, "--db", fresh_url, stdin=stdin)

    cli("db", "upgrade")
    for alias in ("Dumper", "Taker"):
        cli("account", "create", alias, "--i-am-18", "--ip", "5.5.5.5", stdin=PW)
        cli("account", "deposit", alias, "500")
    for _ in range(3):
        assert cli("account", "transfer", "Dumper", "Taker", "100")[0] == 0
    code, out, _ = cli("ledger", "flags", "--json")
    report = json.loads(out)
    assert report["shared_access"][0]["players"] == ["Dumper", "Taker"]
    dump = report["chip_dumping"][0]
    assert (dump["sender"], dump["receiver"], dump["sent"]) == ("Dumper", "Taker", 300)

    code, out, _ = cli("account", "freeze", "Taker", "--reason", "chip dumping")
    assert code == 0
    code, _, err = cli("account", "transfer", "Dumper", "Taker", "1")
    assert code == 1 and "frozen" in err
    assert json.loads(cli("account", "show", "Taker", "--json")[1])["sanctions"] == ["freeze"]
    for entry_id in dump["entry_ids"]:
        code, out, _ = cli("ledger", "reverse", str(entry_id), "--reason", "chip dumping")
        assert code == 0 and f"reverses entry {entry_id}" in out
    code, out, _ = cli("ledger", "entries", "--after", str(dump["entry_ids"][-1]))
    assert out.count("(chip dumping)") == len(dump["entry_ids"])  # the reason is shown
    code, _, err = cli("ledger", "reverse", str(dump["entry_ids"][0]), "--reason", "again")
    assert code == 1 and "already reversed" in err
    balances = json.loads(cli("account", "show", "Taker", "--json")[1])["balances"]
    assert balances["real"] == 500
    assert cli("ledger", "check")[0] == 0
    code, out, _ = cli("ledger", "entries", "--json", "--after", "2", "--limit", "1")
    assert json.loads(out)["id"] == 3
    code, out, _ = cli("ledger", "recover")
    assert code == 0 and "nothing to recover" in out
    # A crash mid-hand: Dumper (player 1) sat down with 150 and bet 40.
    engine = make_engine(fresh_url)
    player, stack = AccountRef.player("1", REAL), AccountRef.stack("t9", "1", REAL)
    SqlLedger(engine).post_all(
        [
            Transfer("sit", Reason.BUY_IN, player, stack, 150),
            Transfer("bet", Reason.BET, stack, AccountRef.pot("t9", REAL), 40),
        ]
    )
    engine.dispose()
    code, out, _ = cli("ledger", "recover")
    assert code == 0 and "voided pot/real/t9: 1 entries" in out
    assert "returned 150 from Dumper's stack at table t9 (real money)" in out
    shown = json.loads(cli("account", "show", "Dumper", "--json")[1])
    assert shown["balances"]["real"] == 500 and cli("ledger", "check")[0] == 0


def test_url_from_environment_and_default_file(
    tmp_path: Any, capsys: Any, monkeypatch: Any
) -> None:
    url = f"sqlite:///{tmp_path / 'env.db'}"
    monkeypatch.setenv("CARDROOM_DATABASE_URL", url)
    assert run(capsys, monkeypatch, "db", "upgrade")[0] == 0
    assert (tmp_path / "env.db").exists()
    # --db before the action works too, and wins over the environment.
    other = f"sqlite:///{tmp_path / 'flag.db'}"
    assert run(capsys, monkeypatch, "db", "--db", other, "upgrade")[0] == 0
    assert (tmp_path / "flag.db").exists()
    monkeypatch.delenv("CARDROOM_DATABASE_URL")
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    assert run(capsys, monkeypatch, "db", "upgrade")[0] == 0
    assert (work / "cardroom.db").exists()
    code, _, err = run(capsys, monkeypatch, "ledger", "check", "--db", "mysql://x/y")
    assert code == 1 and "unsupported database" in err


def test_as_a_separate_process(tmp_path: Any) -> None:
    """The installed entry point, with the zero-setup default: cardroom.db in the cwd."""
    env = {k: v for k, v in os.environ.items() if k != "CARDROOM_DATABASE_URL"}

    def cardroom(*argv: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "cardroom", *argv],
            input=stdin,
            capture_output=True,
            text=True,
            env=env,
            cwd=tmp_path,
            timeout=300,
        )

    assert cardroom("db", "upgrade").returncode == 0
    assert (tmp_path / "cardroom.db").exists()
    created = cardroom("account", "create", "Proc_1", "--i-am-18", stdin=PW)
    assert created.returncode == 0, created.stderr
    taken = cardroom("account", "create", "PROC_1", "--i-am-18", stdin=PW)
    assert taken.returncode == 1 and "taken" in taken.stderr
    shown = cardroom("account", "show", "Proc_1", "--json")
    assert json.loads(shown.stdout)["balances"] == {"real": 0, "play": 0}


@pytest.mark.parametrize("bad", ["0", "-3", "1.5", "ten"])
def test_amounts_are_positive_whole_minor_units(bad: str, capsys: Any) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["account", "deposit", "x", bad, "--db", "sqlite://"])
    assert exit_.value.code == 2 and "whole number" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv",
    [
        ["ledger", "check"],
        ["ledger", "entries"],
        ["account", "show", "AceHigh"],
        ["db", "current"],
    ],
)
def test_a_read_on_a_missing_sqlite_file_creates_nothing(
    argv: list[str], tmp_path: Any, capsys: Any, monkeypatch: Any
) -> None:
    path = tmp_path / "never.db"
    code, out, err = run(capsys, monkeypatch, *argv, "--db", f"sqlite:///{path}")
    assert code == 1 and out == "" and "cardroom db upgrade" in err
    assert list(tmp_path.iterdir()) == []  # no empty database, no -wal or -shm file


def test_the_default_database_file_is_not_created_by_a_read(
    tmp_path: Any, capsys: Any, monkeypatch: Any
) -> None:
    monkeypatch.delenv("CARDROOM_DATABASE_URL", raising=False)
    monkeypatch.chdir(tmp_path)
    assert run(capsys, monkeypatch, "ledger", "check")[0] == 1
    assert not (tmp_path / "cardroom.db").exists()


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://cardroom_no_such_role@127.0.0.1:5432",
        "postgresql://cardroom_no_such_role@127.0.0.1:5432/",
        "postgres://cardroom_no_such_role:secret@127.0.0.1",
    ],
)
def test_a_postgresql_url_must_name_its_database(url: str, capsys: Any, monkeypatch: Any) -> None:
    # A role that does not exist: were the URL not refused up front, nothing is written anywhere.
    code, _, err = run(capsys, monkeypatch, "db", "upgrade", "--db", url)
    assert code == 1 and "names no database" in err and "secret" not in err


@pytest.mark.parametrize("hours", ["0", "-2", "1.5"])
def test_sanction_hours_are_refused_unless_positive(hours: str, capsys: Any) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["account", "freeze", "AceHigh", "--hours", hours, "--db", "sqlite://"])
    assert exit_.value.code == 2 and "--hours" in capsys.readouterr().err


def test_entries_limit_is_checked_alike_on_both_databases(
    db: Any, capsys: Any, monkeypatch: Any
) -> None:
    for bad in (["--limit", "-1"], ["--limit", "0"], ["--after", "-5"]):
        with pytest.raises(SystemExit) as exit_:
            main(["ledger", "entries", "--db", db.url, *bad])
        assert exit_.value.code == 2, (db.kind, bad)
    code, out, _ = run(capsys, monkeypatch, "ledger", "entries", "--db", db.url, "--limit", "1")
    assert (code, out) == (0, "")


def test_a_full_page_of_entries_says_how_to_read_the_next(
    fresh_url: str, capsys: Any, monkeypatch: Any
) -> None:
    # `ledger entries` printed the first 50 entries of a ledger of thousands and stopped
    # there, with nothing to say that more existed nor how to read them.
    def cli(*argv: str, stdin: str = "") -> tuple[int, str, str]:
        return run(capsys, monkeypatch, *argv, "--db", fresh_url, stdin=stdin)

    cli("db", "upgrade")
    assert cli("account", "create", "AceHigh", "--i-am-18", stdin=PW)[0] == 0
    for amount in ("100", "200", "300"):
        assert cli("account", "deposit", "AceHigh", amount)[0] == 0
    code, out, err = cli("ledger", "entries", "--limit", "2")
    last = int(out.strip().splitlines()[-1].split()[0])
    assert code == 0 and f"--after {last}" in err, err
    code, out, err = cli("ledger", "entries", "--after", str(last), "--limit", "2")
    assert code == 0 and len(out.strip().splitlines()) == 1 and err == ""  # the last page
    code, out, err = cli("ledger", "entries", "--json", "--limit", "2")
    assert code == 0 and "--after" in err and all(line.startswith("{") for line in out.splitlines())


def test_db_upgrade_refuses_while_a_server_serves_the_database(
    fresh_url: str, capsys: Any, monkeypatch: Any
) -> None:
    # `cardroom db upgrade` migrated a database a running server (of the older release
    # being replaced) still served: its steps went on being stored by the old code
    # into the new schema (a 0012 server's hands never reached migration 0013's
    # table_seatings, missing from its players' histories after the upgrade).
    from cardroom.server import lease
    from cardroom.store import migrate

    engine = make_engine(fresh_url)
    try:
        migrate.upgrade(engine, "0012")
        lease.LIVE.add("running")  # a room of this process serves the database
        assert lease.take(engine, "running") is None
        code, out, err = run(capsys, monkeypatch, "db", "--db", fresh_url, "upgrade")
        assert code == 1 and out == "" and "another server is running" in err
        assert migrate.current_revision(engine) == "0012"
        lease.LIVE.discard("running")  # stopped (its lease not given back: a kill -9)
        assert run(capsys, monkeypatch, "db", "--db", fresh_url, "upgrade")[0] == 0
        assert migrate.current_revision(engine) == migrate.head_revision()
    finally:
        lease.LIVE.discard("running")
        engine.dispose()


def test_an_operator_gives_a_player_a_new_password_and_ends_his_sessions(
    fresh_url: str, capsys: Any, monkeypatch: Any
) -> None:
    """A player whose password was stolen had no remedy: nothing, neither the API nor the
    command line, set a password (docs/api.md's login throttle already spoke of "an
    operator's reset after a theft"), and a ban revoked the thief's sessions only until he
    logged in again. ``cardroom account password`` reads the new password from stdin,
    ends every session of the account (an open WebSocket closes at the server's next
    look, docs/server.md) and is audited."""

    def cli(*argv: str, stdin: str = "") -> tuple[int, str, str]:
        return run(capsys, monkeypatch, *argv, "--db", fresh_url, stdin=stdin)

    assert cli("db", "upgrade")[0] == 0
    assert cli("account", "create", "Robbed", "--i-am-18", stdin=PW)[0] == 0
    engine = make_engine(fresh_url)
    players = Players(engine, passwords=Passwords(1, 8, 1))
    thief = players.login("Robbed", PW.strip(), ip="203.0.113.9")
    assert players.authenticate(thief) is not None
    code, _, err = cli("account", "password", "Robbed", stdin="short\n")
    assert code == 1 and "at least 8" in err
    code, _, err = cli("account", "password", "Nobody", stdin="a new password\n")
    assert code == 1 and "Nobody" in err
    code, out, _ = cli("account", "password", "robbed", stdin="a new password\n")
    assert code == 0 and "Robbed" in out and "1 session" in out
    assert players.authenticate(thief) is None
    assert not players.password_is("Robbed", PW.strip())
    assert players.password_is("Robbed", "a new password")
    with engine.connect() as conn:
        actions = conn.execute(text("select action, subject from audit_log")).all()
    assert ("set_password", "Robbed") in [tuple(a) for a in actions]
    engine.dispose()


def test_show_lists_each_sanction_with_the_id_to_lift_it(
    fresh_url: str, capsys: Any, monkeypatch: Any
) -> None:
    # It listed the kinds alone ("sanctions: chat_ban"): an operator at the command line
    # could not lift a chat ban the server imposed, `lift` taking the sanction's id.
    def cli(*argv: str) -> tuple[int, str, str]:
        return run(capsys, monkeypatch, *argv, "--db", fresh_url)

    cli("db", "upgrade")
    run(
        capsys, monkeypatch, "account", "create", "Mouthy", "--i-am-18", "--db", fresh_url, stdin=PW
    )
    engine = make_engine(fresh_url)
    try:  # as the server bans an offence at a table
        Players(engine).sanction("Mouthy", SanctionKind.CHAT_BAN, operator="server:chat",
                                 reason="advertising at nl1: www.", offence=True)  # fmt: skip
    finally:
        engine.dispose()
    code, out, _ = cli("account", "freeze", "Mouthy", "--reason", "review", "--hours", "3")
    assert code == 0
    shown = json.loads(cli("account", "show", "Mouthy", "--json")[1])
    chat, freeze = shown["sanctions_in_force"]
    assert shown["sanctions"] == ["chat_ban", "freeze"]
    assert (chat["kind"], chat["reason"], freeze["kind"]) == (
        "chat_ban",
        "advertising at nl1: www.",
        "freeze",
    )
    ends = datetime.fromisoformat(freeze["ends_at"]) - datetime.fromisoformat(freeze["starts_at"])
    assert ends == timedelta(hours=3)
    # A frozen account's money moves only on an operator's word, given with a reason.
    cli("account", "deposit", "Mouthy", "50")
    code, _, err = cli("account", "withdraw", "Mouthy", "20")
    assert code == 1 and "frozen or banned" in err
    code, out, _ = cli("account", "withdraw", "Mouthy", "20", "--despite-sanction", "closing")
    assert code == 0 and "Mouthy (real money)" in out
    code, out, _ = cli("account", "show", "Mouthy")
    assert (
        f"sanction {chat['id']}: chat_ban until {chat['ends_at']} (advertising at nl1: www.)" in out
    )
    assert cli("account", "lift", str(chat["id"]))[0] == 0
    assert json.loads(cli("account", "show", "Mouthy", "--json")[1])["sanctions"] == ["freeze"]
