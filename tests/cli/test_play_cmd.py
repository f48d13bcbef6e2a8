"""``cardroom play``: a terminal game that drives the engine through its public API."""

from __future__ import annotations

import io
import re

import pytest

from cardroom.cli import main
from cardroom.cli.play_cmd import _parse


@pytest.mark.parametrize("game", ["holdem", "short_deck", "stud", "triple_draw_27", "badugi"])
def test_watching_bots_conserves_chips(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--game", game, "--watch", "--seed", "4", "--hands", "4"]) == 0
    out = capsys.readouterr().out
    finals = re.findall(r"stacks: \[([0-9, ]+)\]", out)
    assert finals, out
    for line in finals:  # no rake at a play-money table: chips only change hands
        assert sum(int(x) for x in line.split(",")) == 3 * 200
    # The bots act only within the legal set, and a watcher sees every seat act.
    assert "not allowed" not in out
    assert {"seat 0:", "seat 1:", "seat 2:"} <= set(re.findall(r"seat \d:", out))


def test_human_seat_sees_only_own_cards(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("x\nr 1\nf\n"))
    assert main(["play", "--seed", "2", "--hands", "1", "--players", "2"]) == 0
    out = capsys.readouterr().out
    assert "type f, k, c" in out  # bad input gets a clear message and a new prompt
    assert "not allowed" in out  # a raise below the minimum is refused by the engine
    shown = re.findall(r"you: (\S\S \S\S)", out)
    assert shown and "??" not in shown[0]


def test_parse_words() -> None:
    assert _parse(3, "r 40").amount == 40 and _parse(3, "r 40").kind == "raise"
    assert str(_parse(1, "d 7h 2c").cards[0]) == "7h" and _parse(1, "d").cards == ()
    with pytest.raises(ValueError, match="total to raise to"):
        _parse(0, "r lots")


def test_bad_settings_exit_2() -> None:
    assert main(["play", "--players", "9"]) == 2
    assert main(["play", "--blinds", "x"]) == 2
