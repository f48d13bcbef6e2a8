"""``cardroom bench eval``: units in the JSON, and progress on a terminal only."""

from __future__ import annotations

import io
import json

import pytest

from cardroom.bench import eval_bench
from cardroom.cli import main

TINY = ["bench", "eval", "--json", "--hands", "100", "--batch-hands", "2000", "--repeat", "1"]


class Terminal(io.StringIO):
    """A stderr that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_json_names_every_unit_and_progress_goes_to_a_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    assert main(TINY) == 0
    results = json.loads(capsys.readouterr().out)
    units = results.pop("units")
    assert set(units) == set(results)  # today's keys are kept, each with its unit
    assert units["7card_single"] == "evaluations/s" and units["equity_omaha_mc"] == "boards/s"
    assert all(units[name] == "ms" for name in results if name.endswith("_ms"))
    shown = terminal.getvalue()
    for name in results:
        assert name in shown
    steps = eval_bench.STEPS
    assert f" {steps}/{steps} " in shown and shown.endswith("bench eval: done\n")


def test_no_progress_when_stderr_is_not_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    quiet = io.StringIO()
    monkeypatch.setattr("sys.stderr", quiet)
    progress = eval_bench.terminal_progress()
    progress("7card_single")
    progress("done")
    assert quiet.getvalue() == ""
