"""``cardroom chinese score --json`` and ``cardroom chinese arrange --json``."""

from __future__ import annotations

import io
import json
import re
from typing import Any

import pytest

from cardroom.cli import main


def run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], action: str, stdin: str
) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(["chinese", action, "--json"])
    out, err = capsys.readouterr()
    return code, out, err


ROYAL = {"top": ["Qh", "Qd", "2c"], "middle": ["Ah", "Kh", "Jh", "9h", "3h"],
         "bottom": ["2s", "3s", "4s", "5s", "6s"]}  # fmt: skip
FOULED = {"top": ["Ac", "Ad", "3c"], "middle": ["4c", "4d", "5c", "7d", "8d"],
          "bottom": ["Td", "Tc", "Th", "9c", "9d"]}  # fmt: skip


def test_score_prints_the_documented_json(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(
        monkeypatch, capsys, "score", json.dumps({"variant": "ofc", "players": [ROYAL, FOULED]})
    )
    assert code == 0
    assert json.loads(out) == {
        "players": [
            {"fouled": False, "royalties": {"top": 7, "middle": 8, "bottom": 15}, "points": 36,
             "fantasyland_next": 13},
            {"fouled": True, "royalties": {"top": 0, "middle": 0, "bottom": 0}, "points": -36,
             "fantasyland_next": 0},
        ]
    }  # fmt: skip


@pytest.mark.parametrize(
    ("variant", "in_fl", "expected"),
    [("ofc", None, 13), ("pineapple", None, 14), ("progressive", None, 14), ("turbo", None, 13),
     ("classic", None, 0), ("pineapple", [True, False], 14)],  # stays: a straight flush bottom
)  # fmt: skip
def test_score_fantasyland_next_by_variant(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    variant: str,
    in_fl: list[bool] | None,
    expected: int,
) -> None:
    payload: dict[str, Any] = {"variant": variant, "players": [ROYAL, FOULED]}
    if in_fl is not None:
        payload["in_fantasyland"] = in_fl
    code, out, _ = run(monkeypatch, capsys, "score", json.dumps(payload))
    assert code == 0
    assert json.loads(out)["players"][0]["fantasyland_next"] == expected


@pytest.mark.parametrize(
    "stdin",
    [
        "not json",
        "[]",
        json.dumps({"variant": "omaha", "players": [ROYAL, FOULED]}),
        json.dumps({"variant": "ofc", "players": [ROYAL]}),
        json.dumps({"variant": "ofc", "players": [ROYAL, ROYAL]}),
        json.dumps({"variant": "ofc", "players": [ROYAL, {"top": ["Xx"]}]}),
        json.dumps({"variant": "ofc", "players": [ROYAL, FOULED | {"top": ["Ac", "Ad"]}]}),
        json.dumps({"variant": "ofc", "players": [ROYAL, FOULED | {"top": "Ac Ad 3c"}]}),
        json.dumps({"variant": "ofc", "players": [ROYAL, FOULED], "in_fantasyland": [1, 0]}),
        json.dumps({"variant": "ofc", "players": [ROYAL, FOULED], "in_fantasyland": [True]}),
        json.dumps({"variant": "ofc", "players": "everyone"}),
    ],
)
def test_score_bad_input_is_a_clear_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], stdin: str
) -> None:
    code, out, err = run(monkeypatch, capsys, "score", stdin)
    assert code == 1 and out == ""  # bad data is a failure (1), not a usage error (2)
    assert err.startswith("error: ")


def test_score_three_players_sum_to_zero(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    plain = {"top": ["7c", "7h", "2d"], "middle": ["8c", "8h", "8s", "2h", "3d"],
             "bottom": ["Kc", "Kd", "Ks", "Jc", "Jd"]}  # fmt: skip
    payload = {"variant": "pineapple", "players": [ROYAL, FOULED, plain]}
    code, out, _ = run(monkeypatch, capsys, "score", json.dumps(payload))
    players = json.loads(out)["players"]
    assert code == 0 and sum(p["points"] for p in players) == 0
    assert players[2]["royalties"] == {"top": 2, "middle": 2, "bottom": 6}
    assert players[1]["points"] == -36 - 6 - 10


def test_arrange_prints_a_standing_arrangement(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    cards = ["As", "Ad", "Ac", "Ks", "Kd", "2c", "3c", "4c", "5c", "6c", "7h", "8h", "9h", "Th"]
    code, out, _ = run(
        monkeypatch, capsys, "arrange", json.dumps({"variant": "pineapple", "cards": cards})
    )
    result = json.loads(out)
    assert code == 0 and not result["fouled"]
    assert len(result["discard"]) == 1
    used = result["top"] + result["middle"] + result["bottom"] + result["discard"]
    assert sorted(used) == sorted(cards)
    code, _, err = run(monkeypatch, capsys, "arrange", json.dumps({"variant": "ofc", "cards": []}))
    assert code == 1 and "13 to 17" in err


def test_integers_are_refused_as_cards(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # 0, 1, 2 ... are valid card codes inside the engine, but never input: a typo must not score.
    numbered = {"top": [48, 49, 0], "middle": [1, 2, 3, 4, 5], "bottom": [6, 7, 8, 9, 10]}
    payload = {"variant": "ofc", "players": [ROYAL, numbered]}
    code, out, err = run(monkeypatch, capsys, "score", json.dumps(payload))
    assert code == 1 and out == "" and "card names" in err
    cards = list(range(13))
    code, _, err = run(
        monkeypatch, capsys, "arrange", json.dumps({"variant": "ofc", "cards": cards})
    )
    assert code == 1 and "card names" in err


def test_score_help_documents_the_input(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["chinese", "score", "--help"])
    out = capsys.readouterr().out
    assert exit_.value.code == 0
    for word in ('"variant"', '"players"', '"top"', '"middle"', '"bottom"', "in_fantasyland"):
        assert word in out
    assert "numbers are not cards" in out and "pineapple" in out


@pytest.mark.parametrize(
    ("stdin", "said"),
    [
        ("[" * 100_000, "nested too deeply"),  # json recurses: was a RecursionError
        ('{"variant": "ofc", "players": ' + "9" * 5000 + "}", "5000 digits is too long"),
        ('{"variant": "ofc", "players": [{"top": NaN}]}', "NaN is not a JSON number"),
        ('{"variant": "ofc", "points": Infinity, "players": []}', "Infinity is not"),
    ],
)
def test_hostile_json_is_a_clear_error_not_a_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], stdin: str, said: str
) -> None:
    code, out, err = run(monkeypatch, capsys, "score", stdin)
    assert (code, out) == (1, "")
    assert err.startswith("error: input is not JSON we read") and said in err


def test_an_error_quotes_a_huge_card_name_only_in_part(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    huge = {"top": ["A" * 100_000], "middle": [], "bottom": []}
    code, _, err = run(
        monkeypatch, capsys, "score", json.dumps({"variant": "ofc", "players": [huge]})
    )
    assert code == 1 and err.startswith("error: player 0: top row: 'AAAA")
    assert len(err) < 500 and re.search(r"\.\.\. \(\d{6} characters\)$", err.rstrip())
