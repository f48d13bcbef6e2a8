"""``cardroom play``: a terminal game that drives the engine through its public API.

What it prints comes from ``hand.view(seat)`` only: the tests check that a
player sees every seat's stack and status, the pots, street markers, up cards
and the showdown, and never another player's down cards.
"""

from __future__ import annotations

import io
import re

import pytest

from cardroom.cli import main
from cardroom.cli.play_cmd import GAMES, parse_action
from cardroom.cli.play_view import pots_line, showdown_lines, table_lines
from cardroom.games import VARIANTS, Action, Hand, Stakes, TableConfig


def final_stacks(out: str) -> list[list[int]]:
    """Every ``stacks:`` line of a run, a busted seat counted as 0."""
    rows = []
    for line in re.findall(r"stacks: (.*)", out):
        rows.append([0 if v == "busted" else int(v) for v in re.findall(r"seat \d (\w+)", line)])
    return rows


@pytest.mark.parametrize("game", ["holdem", "short_deck", "stud", "triple_draw_27", "badugi"])
def test_watching_bots_conserves_chips(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--game", game, "--watch", "--seed", "4", "--hands", "4"]) == 0
    out = capsys.readouterr().out
    finals = final_stacks(out)
    assert finals, out
    for row in finals:  # no rake at a play-money table: chips only change hands
        assert sum(row) == 3 * 200
    # The bots act only within the legal set, and a watcher sees every seat act.
    assert "not allowed" not in out
    assert {"seat 0:", "seat 1:", "seat 2:"} <= set(re.findall(r"seat \d:", out))


def test_human_seat_sees_only_own_cards(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("x\nr 1\nf\n"))
    assert main(["play", "--seed", "2", "--hands", "1", "--players", "2"]) == 0
    out = capsys.readouterr().out
    assert "type fold, check, call" in out  # bad input gets a clear message and a new prompt
    assert "not allowed" in out  # a raise below the minimum is refused by the engine
    mine = re.findall(r"seat 0 \(you\).*?stack +\d+(?:  bet \d+)?  (\S\S \S\S)", out)
    theirs = re.findall(r"seat 1 .*?stack +\d+(?:  bet \d+)?  (\S\S \S\S)", out)
    assert mine and "??" not in mine[0]
    assert theirs and theirs[0] == "?? ??"


def test_the_table_shows_every_seat_status_and_street(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("call\ncheck\ncheck\ncheck\nquit\n"))
    assert main(["play", "--seed", "5", "--players", "3"]) == 0
    out = capsys.readouterr().out
    assert "*** pre-flop ***" in out
    assert re.search(r"seat 0 \(you\).*to act +stack +\d+", out)
    assert re.search(r"seat [12] .*(in hand|folded|all-in|to act) +stack +\d+", out)
    assert re.search(r"bets this round \d+|pot \d+ \(seats", out)
    assert "legal: fold, call 2, raise 4..200" in out  # the words the prompt accepts


def test_stud_shows_every_players_up_cards(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["play", "--game", "stud", "--seed", "3", "--players", "4"]) == 0
    out = capsys.readouterr().out
    for seat in (1, 2, 3):  # two down cards hidden, the door card face up
        assert re.search(rf"seat {seat} .*stack +\d+.*  \?\? \?\? [2-9TJQKA][cdhs]$", out, re.M)
    assert re.search(r"seat 0 \(you\).*stack +\d+.*  ([2-9TJQKA][cdhs] ){2}[2-9TJQKA][cdhs]", out)


def test_side_pots_and_showdown_come_from_the_view() -> None:
    hand = Hand(TableConfig.of("holdem", Stakes.blinds(1, 2)), [200, 50, 30], button=0, seed=7)
    hand.apply(Action.raise_to(0, 60))
    hand.apply(Action.call(1))
    hand.apply(Action.call(2))  # both short stacks all in: a pot and one side pot
    view = hand.view(1)
    assert pots_line(view) == "  pot 90 (seats 0, 1, 2) | side pot 1 40 (seats 0, 1)"
    statuses = [re.search(r"(in hand|all-in)", line) for line in table_lines(view)[:3]]
    assert [m.group(1) if m else None for m in statuses] == ["in hand", "all-in", "all-in"]
    lines = showdown_lines(view, lambda hole, board: f"made from {len(hole) + len(board)}")
    assert lines[0].startswith("*** showdown ***  board: ")
    shown = [line for line in lines if " shows " in line]
    assert len(shown) == 3 and all(line.endswith(": made from 7") for line in shown)
    result = view["result"]
    wins = [line for line in lines if " wins " in line]
    assert len(wins) == sum(len(p["awards"]) for p in result["pots"])
    assert any("from side pot 1" in line for line in wins)
    assert lines[-1].startswith("  stacks: seat 0 ") and "busted" in lines[-1]


def test_showdown_names_every_shown_hand(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--game", "omaha_hi_lo", "--watch", "--seed", "4", "--hands", "1"]) == 0
    out = capsys.readouterr().out
    shows = re.findall(r"seat \d shows (?:\S\S ){3}\S\S: (.+)", out)
    assert shows and all("; low: " in made for made in shows), out


def test_a_busted_seat_is_shown_as_busted(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["play", "--watch", "--seed", "1", "--stack", "6", "--hands", "40", "--players", "3"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "busted" in out and "None" not in out


def test_plays_until_the_player_quits(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A passive player: check when free, else call; no --hands, so only end of input stops it.
    monkeypatch.setattr("sys.stdin", io.StringIO("check\ncall\n" * 120))
    assert main(["play", "--seed", "8", "--players", "2", "--stack", "400"]) == 0
    out = capsys.readouterr().out
    assert len(re.findall(r"=== hand \d+", out)) > 3  # the old default stopped after 3


@pytest.mark.parametrize(
    ("line", "kind", "amount"),
    [
        ("fold", "fold", None), ("FOLD", "fold", None), ("f", "fold", None),
        ("Check", "check", None), ("k", "check", None), ("call", "call", None),
        ("C", "call", None), ("raise 6", "raise", 6), ("RAISE 6", "raise", 6),
        ("r 6", "raise", 6), ("bet 8", "raise", 8), ("bring_in", "bring_in", None),
        ("Bring_In", "bring_in", None), ("bring in", "bring_in", None), ("b", "bring_in", None),
    ],
)  # fmt: skip
def test_accepts_the_words_it_prints_in_any_case(line: str, kind: str, amount: int | None) -> None:
    action = parse_action(3, line)
    raised = action.amount if action.kind == "raise" else None
    assert (action.seat, action.kind, raised) == (3, kind, amount)


def test_parse_draws_and_bad_words() -> None:
    assert [str(c) for c in parse_action(1, "DRAW 7H 2c").cards] == ["7h", "2c"]
    assert parse_action(1, "d").cards == () and parse_action(1, "draw").kind == "draw"
    assert parse_action(0, "complete", {"min_raise_to": 4, "max_raise_to": 4}).amount == 4
    with pytest.raises(ValueError, match="total to raise to"):
        parse_action(0, "raise lots")
    with pytest.raises(ValueError, match="type fold, check"):
        parse_action(0, "shove")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--players", "9"], "2 to 6 players"),
        (["--blinds", "x"], "SMALL/BIG"),
        (["--blinds", "2"], "SMALL/BIG"),
        (["--blinds", "2/1"], "at most the big"),
        (["--hands", "0"], "above zero"),
        (["--hands", "-3"], "above zero"),
        (["--stack", "0"], "above zero"),
        (["--game", "holdm"], "no game called"),
    ],
)
def test_bad_settings_are_usage_errors(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["play", *argv])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and message in err and "unpack" not in err


def test_game_names_are_the_engines_and_aliases_are_accepted(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert tuple(VARIANTS) == GAMES
    assert main(["play", "--game", "Omaha-HiLo", "--watch", "--seed", "1", "--hands", "1"]) == 0
    assert "Omaha Hi-Lo" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "hands", "said"),
    [
        (["--stack", str(10**22)], "1", "--stack"),  # past the engine's 2**53 - 1 at once
        (["--stack", str(2**53 - 1), "--players", "2"], "3", "--stack"),  # once a pot is won
        (["--blinds", f"1/{2**60}"], "1", "--blinds"),  # was "error:" and exit 1
    ],
)
def test_a_table_the_engine_cannot_hold_is_a_usage_error(
    argv: list[str], hands: str, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The engine holds amounts up to 2**53 - 1, and every chip at the table may end in one
    stack: a larger --stack failed in the engine with a traceback, at once or after a won
    pot. Both options are the command line's, so either is a usage error (exit 2)."""
    code = main(["play", "--watch", "--seed", "1", "--hands", hands, *argv])
    err = capsys.readouterr().err
    assert code == 2 and said in err and "2**53 - 1" in err


def test_the_largest_stack_the_table_holds_plays(capsys: pytest.CaptureFixture[str]) -> None:
    stack = (2**53 - 1) // 3
    assert main(["play", "--watch", "--seed", "1", "--hands", "3", "--stack", str(stack)]) == 0
    assert sum(final_stacks(capsys.readouterr().out)[-1]) == 3 * stack
