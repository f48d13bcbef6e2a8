"""One exit-code rule for every command: 2 for a usage error, 1 for a failure, 0 for success."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from cardroom.cli import main


def code_of(argv: list[str], stdin: str = "") -> int:
    """The exit code of one in-process run, whether argparse or the command decided it."""
    import sys

    saved = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        return main(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0)
    finally:
        sys.stdin = saved


@pytest.mark.parametrize(
    "argv",
    [
        ["deal", "--short", "-n", "100"],
        ["deal", "-n", "0"],
        ["deal", "--seed", "seven"],
        ["eval", "--game", "holdem", "Zz Kd", "--board", "2c 3c 4c"],
        ["eval", "--game", "nope", "Kh Kd"],
        ["play", "--blinds", "2"],
        ["play", "--hands", "0"],
        ["account", "freeze", "x", "--hours", "0", "--db", "sqlite://"],
        ["ledger", "entries", "--limit", "-1", "--db", "sqlite://"],
        ["account", "ban", "x", "--hours", "99999999999999", "--db", "sqlite://"],
        ["simulate", "--tables", "0"],
        ["simulate", "--hands", "-1"],
        ["bench", "eval", "--hands", "0", "--json"],
        ["bench", "eval", "--repeat", "0"],
        ["bench", "eval", "--batch-hands", "0"],
        ["bench", "engine", "--seconds", "0"],
        ["bench", "engine", "--seconds", "-1"],
        ["bench", "room", "--seconds", "nan"],
        ["bench", "server", "--clients", "0"],
        ["bench", "chinese", "--hands", "0"],
    ],
)
def test_usage_errors_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert code_of(argv) == 2
    assert "error" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv",
    [
        ["deal", "--seed=--"],
        ["deal", "-n=--"],
        ["deal", "-n--"],
        ["eval", "--game=--", "Kh Kd"],
        ["play", "--hands=--", "--watch"],
        ["play", "--players=--"],
        ["simulate", "--tables=--"],
    ],
)
def test_an_option_given_the_value_dash_dash_is_a_usage_error(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """Python 3.11's argparse reads ``--seed=--`` as an empty list, which then failed deep in
    the command with a traceback; it is refused as the option's bad value."""
    assert code_of(argv) == 2
    err = capsys.readouterr().err
    assert "error" in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("argv", "stdin"),
    [
        (["chinese", "score"], "not json"),
        (["chinese", "arrange"], '{"variant": "ofc", "cards": []}'),
        (["eval", "--game", "holdem", "--stdin"], "Zz Kd | 2c 3c 4c\n"),
        (["ledger", "check", "--db", "sqlite://"], ""),
        (["replay", "no-such-file.phh"], ""),
    ],
)
def test_failures_exit_1(argv: list[str], stdin: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert code_of(argv, stdin) == 1
    capsys.readouterr()


def test_deal_says_how_many_cards_the_deck_has(capsys: pytest.CaptureFixture[str]) -> None:
    assert code_of(["deal", "--short", "-n", "100"]) == 2
    assert "the Short Deck has 36 cards" in capsys.readouterr().err
    assert code_of(["deal", "-n", "53"]) == 2
    assert "the deck has 52 cards" in capsys.readouterr().err
    assert code_of(["deal", "--short", "-n", "36"]) == 0
    assert len(capsys.readouterr().out.split()) == 36


def test_a_seed_is_a_number_so_007_is_7(capsys: pytest.CaptureFixture[str]) -> None:
    decks = []
    for seed in ("7", "007", "+7", " 7"):
        assert code_of(["deal", "--seed", seed, "-n", "10"]) == 0
        decks.append(capsys.readouterr().out)
    assert len(set(decks)) == 1 and len(decks[0].split()) == 10
    assert code_of(["deal", "--seed", "8", "-n", "10"]) == 0
    assert capsys.readouterr().out != decks[0]
    for seed in ("7", "007"):  # the bots and decks of a game too
        assert code_of(["play", "--watch", "--seed", seed, "--hands", "2"]) == 0
        decks.append(capsys.readouterr().out)
    assert decks[-1] == decks[-2]


def test_the_command_line_s_longest_sanction_is_the_api_s(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """One limit for both ways an operator sanctions: the command line took 876,000
    hours (100 years), the API 87,600 (ten years)."""
    import msgspec

    from cardroom.chat_bans import MAX_SANCTION_HOURS
    from cardroom.server.api_operator import SanctionBody

    schema = msgspec.json.schema(SanctionBody)["$defs"]["SanctionBody"]["properties"]["hours"]
    assert schema["anyOf"][0]["maximum"] == MAX_SANCTION_HOURS == 87_600
    longest = ["account", "ban", "x", "--hours", str(MAX_SANCTION_HOURS + 1), "--db", "sqlite://"]
    assert code_of(longest) == 2
    assert "--hours" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv",
    [
        ["account", "chat-ban", "Alice", "--reason", "spam \udcff"],
        ["account", "freeze", "Alice", "--operator", "op\udcfe"],
        ["account", "deposit", "Alice", "5", "--play", "--key", "k\udcff"],
        ["account", "create", "Bob", "--i-am-18", "--ip", "10.0.0.1\udcff"],
    ],
)
def test_a_command_line_text_that_is_not_utf8_is_a_usage_error(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Bytes that are not UTF-8 on the command line reach Python as lone surrogates
    (``surrogateescape``), which no database stores: a sanction's reason, an operator's
    name or a key of such bytes ended the command in a traceback (UnicodeEncodeError)."""
    url = f"sqlite:///{tmp_path / 'c.db'}"
    assert code_of(["db", "upgrade", "--db", url]) == 0
    create = ["account", "create", "Alice", "--i-am-18", "--db", url]
    assert code_of(create, "a long password\n") == 0
    assert code_of([*argv, "--db", url], "a long password\n") == 2
    err = capsys.readouterr().err
    assert "UTF-8" in err and "Traceback" not in err
    assert code_of(["account", "show", "Alice", "--json", "--db", url]) == 0
    assert '"sanctions": []' in capsys.readouterr().out  # nothing was done


def test_a_password_that_is_not_utf8_is_refused_in_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A password piped in bytes that are not UTF-8 (read as lone surrogates) ended
    ``account create`` in the hash's UnicodeEncodeError."""
    url = f"sqlite:///{tmp_path / 'c.db'}"
    assert code_of(["db", "upgrade", "--db", url]) == 0
    argv = ["account", "create", "Alice", "--i-am-18", "--db", url]
    assert code_of(argv, "a long \udcff password\n") == 1
    err = capsys.readouterr().err
    assert "UTF-8" in err and "Traceback" not in err
    assert code_of(["account", "show", "Alice", "--db", url]) == 1  # no account was made
