"""``cardroom simulate``: headless tables of every game; the last line is a JSON summary
and the exit code says whether every invariant held."""

from __future__ import annotations

import json

import pytest

from cardroom.cli import main
from cardroom.room.money import TableBank


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, object]]:
    code = main(["simulate", *args])
    last = capsys.readouterr().out.strip().splitlines()[-1]
    return code, json.loads(last)


def test_simulate_prints_a_json_summary_and_exits_zero(capsys: pytest.CaptureFixture[str]) -> None:
    code, summary = run(capsys, "--tables", "9", "--hands", "6", "--seed", "5", "--json")
    assert code == 0 and summary["money_invariant"] == "held"
    assert summary["tables"] == 9 and summary["hands"] == 9 * 6
    assert "HORSE" in summary["games"]  # type: ignore[operator]
    assert {"timeouts", "missed_big_blinds"} <= set(summary["counters"])  # type: ignore[arg-type]


def test_simulate_exits_non_zero_when_money_goes_missing(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(TableBank, "settle", lambda self, hand_no, deltas, rake: None)
    code, summary = run(capsys, "--tables", "3", "--hands", "4", "--json")
    assert code == 1 and summary["money_invariant"] == "broken"
    assert summary["violations"]
