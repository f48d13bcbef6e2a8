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


@pytest.mark.parametrize("seconds", ["0", "-5", "nan", "inf", "soon"])
def test_serve_refuses_a_keep_period_that_is_no_duration(
    seconds: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["serve", "--port", "0", "--integrity-keep-seconds", seconds])
    assert exited.value.code == 2
    assert "--integrity-keep-seconds" in capsys.readouterr().err
