"""``cardroom bench eval`` runs end to end on a tiny workload and prints one JSON object.

No timing is asserted here (speed is measured by the bench itself); this checks
the shape of the output: every workload, cardroom always, peers when installed.
"""

from __future__ import annotations

import json

import pytest

from cardroom.cli import main


def test_bench_eval_json_shape(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["bench", "eval", "--json", "--hands", "200", "--batch-hands", "4000", "--repeat", "1"]
    )
    assert code == 0
    results = json.loads(capsys.readouterr().out)
    results.pop("units")  # each workload's unit (tests/cli/test_bench_eval_output.py)
    assert set(results) == {
        "7card_single",
        "5card_single",
        "7card_batch",
        "5card_batch",
        "omaha_batch",
        "omaha_low8_batch",
        "equity_headsup_setup_ms",
        "equity_headsup_exact_ms",
        "equity_omaha_mc",
    }
    for rates in results.values():
        assert rates["cardroom"] > 0
    assert {"treys", "eval7", "pokerkit", "cardroom_card_ints"} <= set(results["7card_single"])


def test_bench_eval_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "eval", "--hands", "100", "--batch-hands", "2000", "--repeat", "1"]) == 0
    out = capsys.readouterr().out
    assert "7card_single" in out and "eval7" in out and "ms" in out
