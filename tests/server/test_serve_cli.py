"""``cardroom serve``: its options, and failures before anything listens."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardroom.cli import main


def test_serve_refuses_a_bad_table_list_as_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "tables.toml"
    bad.write_text('[[table]]\nid = "t"\ngame = "holdem"\nstakes = { small_blind = 1 }\nfoo = 1\n')
    assert main(["serve", "--tables", str(bad), "--port", "0"]) == 2
    assert "table 't'" in capsys.readouterr().err


def test_serve_refuses_an_unusable_database_before_listening(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["serve", "--db", "mysql://somewhere/db", "--port", "0", "--no-bots"]) == 1
    captured = capsys.readouterr()
    assert "unsupported database" in captured.err and "serving" not in captured.out


def test_serve_help_names_host_port_db_and_tables(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    text = capsys.readouterr().out
    for option in ("--host", "--port", "--db", "--tables", "127.0.0.1", "CARDROOM_DATABASE_URL"):
        assert option in text
    assert "--integrity-keep-seconds" in text
    assert "--login-keep-days" in text


@pytest.mark.parametrize("days", ["0", "-5", "1.5", "forever"])
def test_serve_refuses_a_login_retention_that_is_no_number_of_days(
    days: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["serve", "--port", "0", "--login-keep-days", days])
    assert exited.value.code == 2
    assert "--login-keep-days" in capsys.readouterr().err


@pytest.mark.parametrize("seconds", ["0", "-5", "nan", "inf", "soon"])
def test_serve_refuses_a_keep_period_that_is_no_duration(
    seconds: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["serve", "--port", "0", "--integrity-keep-seconds", seconds])
    assert exited.value.code == 2
    assert "--integrity-keep-seconds" in capsys.readouterr().err


def test_serve_on_a_port_in_use_says_so_in_one_line_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # An operator's mistake (another program, or a server on another database, holds
    # the port), not a fault of the server: it ended in an OSError traceback.
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        db = f"sqlite:///{tmp_path / 'room.db'}"
        assert main(["serve", "--db", db, "--port", str(port), "--no-bots"]) == 1
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and f"cannot listen on 127.0.0.1:{port}" in lines[0], captured.err
    assert "serving" not in captured.out
