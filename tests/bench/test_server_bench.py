"""``cardroom bench server`` at tiny sizes: a real server process, real bot clients."""

from __future__ import annotations

import json

import pytest

from cardroom.bench.server_bench import LatencyProbe, bot_aliases, plan_seats, table_list
from cardroom.cli import main
from cardroom.ledger import validate_alias


@pytest.mark.parametrize("procs", [1, 2])
def test_bench_server_prints_one_json_line_with_the_figures(
    procs: int, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["bench", "server", "--clients", "8", "--tables", "2", "--seconds", "2",
            "--warmup", "1", "--procs", str(procs), "--json"]  # fmt: skip
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert (out["clients"], out["tables"]) == (8, 2)
    assert out["actions_per_s"] > 0 and out["errors"] == 0 and out["unseated"] == 0
    lat = out["latency_ms"]
    assert 0 < lat["p50"] <= lat["p99"] <= lat["max"]
    assert out["server_rss_mb"] > 10 and out["server_cpu_percent"] > 0
    assert out["server_runqueue_percent"] >= 0


def test_every_run_number_gives_its_bots_aliases_the_rules_accept() -> None:
    # The run number is random; about 1 in 400 made a prefix that reads as a refused
    # word once digits read as letters (bn194x0...), and a CI run failed on it.
    for run in range(2_000):
        aliases = bot_aliases(8, run)
        assert len(set(aliases)) == 8 and all(validate_alias(a) == a for a in aliases)
    assert bot_aliases(12, 194)[0].startswith("bn195")  # the next run number's prefix


def test_clients_are_dealt_round_the_tables_and_each_table_has_a_seat_for_each() -> None:
    seats = plan_seats(13, 3)
    assert len(set(seats)) == 13
    assert max(s for _, s in seats) == 4 and {t for t, _ in seats} == {0, 1, 2}
    assert table_list(13, 3).count("[[table]]") == 3 and "seats = 5" in table_list(13, 3)


def test_latency_is_counted_from_the_send_at_the_other_seats_and_stale_sends_are_ignored() -> None:
    probe = LatencyProbe()
    probe.recording = True
    probe.sent("t", 1, 10.0)
    probe.seen("t", 1, 10.004)
    probe.seen("t", 1, 10.006)
    probe.seen("t", 2, 10.006)  # seat 2 sent nothing: no sample
    probe.seen("t", 1, 25.0)  # long after the first receipt: a timeout, not this send
    assert [round(s, 3) for s in probe.samples] == [0.004, 0.006]
    assert probe.actions == 1
