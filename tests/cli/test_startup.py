"""Start-up: each command imports only what it uses, and ``cardroom --version``.

Timing is not asserted (a loaded CI machine is slow); what is imported is, in
a fresh interpreter, read from ``python -X importtime``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import cardroom
from cardroom.cli import COMMANDS, main

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("sqlalchemy", "alembic", "numpy", "cardroom.store", "cardroom.evaluation.tables")


def imported_by(*argv: str, stdin: str = "") -> set[str]:
    """Every module a fresh ``python -m cardroom ARGV`` imports."""
    env = os.environ | {"PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "cardroom", *argv],
        input=stdin, capture_output=True, text=True, env=env, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    return {
        line.rsplit("|", 1)[1].strip()
        for line in done.stderr.splitlines()
        if line.startswith("import time:") and "|" in line
    }


def heavy(modules: set[str]) -> set[str]:
    return {m for m in modules if m.startswith(HEAVY)}


def test_help_imports_no_command() -> None:
    modules = imported_by("--help")
    assert not heavy(modules)
    # Not even the engine: the command list comes from COMMANDS alone.
    assert not {m for m in modules if m.startswith(("cardroom.games", "cardroom.evaluation"))}
    assert not {f"cardroom.cli.{module}" for module, _ in COMMANDS.values()} & modules


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "--help"], ["eval", "--help"], ["db", "--help"], ["account", "show", "--help"],
        ["ledger", "entries", "--help"], ["chinese", "score", "--help"], ["bench", "--help"],
        ["deal", "--seed", "7", "-n", "5"],
    ],
)  # fmt: skip
def test_a_command_parser_imports_no_database_or_tables(argv: list[str]) -> None:
    assert not heavy(imported_by(*argv))


def test_eval_of_one_hand_builds_no_batch_tables_or_database() -> None:
    modules = imported_by("eval", "--game", "holdem", "--board", "Ks 7d 7h 2c 9s", "Kh Kd")
    assert not {m for m in modules if m.startswith(("sqlalchemy", "alembic", "numpy"))}
    assert "cardroom.evaluation.batch" not in modules


def test_version_is_the_packages(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert (
        capsys.readouterr().out == f"cardroom {declared}\n" == f"cardroom {cardroom.__version__}\n"
    )


def test_an_unknown_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["dela"])
    assert exit_.value.code == 2 and "invalid choice" in capsys.readouterr().err
