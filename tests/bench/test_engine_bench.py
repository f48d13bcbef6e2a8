"""``cardroom bench engine``: the command runs and prints rates per implementation.

No timing is asserted here (speed is measured by the command, not by tests).
"""

from __future__ import annotations

import json

import pytest

from cardroom.bench.engine_bench import WORKLOADS, Workload, _cardroom_player, _pokerkit_player
from cardroom.cli import main
from cardroom.games.phh_variants import PHH_GAMES


def test_json_maps_each_workload_to_each_implementation(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["bench", "engine", "--json", "--seconds", "0.05", "--workload", "nlhe_6max"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"nlhe_6max"}
    assert set(out["nlhe_6max"]) == {"cardroom", "pokerkit"}
    assert all(rate > 0 for rate in out["nlhe_6max"].values())


def test_every_workload_of_a_replayable_game_plays_whole_hands_on_both_engines() -> None:
    for workload in WORKLOADS:
        if workload.code not in PHH_GAMES:
            continue
        stacks = _cardroom_player(workload, seed=3)()
        assert sum(stacks) == workload.stack * workload.players  # chips are conserved
        theirs = _pokerkit_player(workload, seed=3)()
        assert sum(theirs) == workload.stack * workload.players


def test_a_workload_is_one_line_of_data() -> None:
    w = Workload("x", "NT", 3, (1, 2), {"min_bet": 2}, antes=1)
    hh = w.history()
    assert hh.blinds_or_straddles == (1, 2, 0) and hh.antes == (1, 1, 1)
    assert hh.starting_stacks == (200, 200, 200)
    button = Workload("y", "NS", 4, (), {"min_bet": 2}, antes=1, button_blind=2).history()
    assert button.blinds_or_straddles == (0, 0, 0, 2)
