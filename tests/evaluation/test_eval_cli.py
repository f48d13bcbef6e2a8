"""``cardroom eval``: names, JSON lines, Hi-Lo halves and bad input."""

from __future__ import annotations

import io
import json

import pytest

from cardroom.cli import main
from cardroom.cli.eval_cmd import games
from cardroom.games import VARIANTS


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["eval", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def run_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, game: str, text: str
) -> tuple[int, list[dict[str, object]]]:
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    code = main(["eval", "--game", game, "--stdin"])
    out, _ = capsys.readouterr()
    return code, [json.loads(line) for line in out.splitlines()]


def test_names_a_holdem_hand(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--game", "holdem", "--board", "Ks 7d 7h 2c 9s", "Kh Kd")
    assert (code, out) == (0, "Full House, Kings over Sevens\n")


def test_hi_lo_prints_both_halves(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--game", "stud_hi_lo", "Ac 2d 3h 4s 5c Kd Kh")
    assert code == 0
    assert out == "high: Straight, Five high\nlow: 5-4-3-2-A low\n"
    _, out, _ = run(capsys, "--game", "omaha_hi_lo", "--board", "3c 4d 9h Kc Qd", "Ac 2d Kh Ks")
    assert out.splitlines()[1] == "low: none (no 8-or-better low)"


@pytest.mark.parametrize(
    ("game", "hand", "name"),
    [
        ("short_deck", "As 6d | 7h 8c 9s Kd Kh", "Straight, Nine high"),
        ("short_deck", "Ks Kd | Kh Qc Jd Ts 9h", "Straight, King high"),
        ("short_deck_trips", "Ks Kd | Kh Qc Jd Ts 9h", "Three of a Kind, Kings"),
        ("omaha", "As Ks 7s 2s | 9s Td 4c 3h Jd", "High Card, Ace"),
        ("stud", "Kh Kd Ks 7c 7d 2c 3h", "Full House, Kings over Sevens"),
        ("razz", "8s 6h 4d 2c Ah Kd Kc", "8-6-4-2-A low"),
        ("triple_draw_a5", "Ac Ad 2h 3s 4c", "Pair of Aces, 4-3-2"),
        ("triple_draw_27", "7c 5d 4h 3s 2c", "7-5-4-3-2 low"),
        ("single_draw_27", "7c 5d 4h 3s 2c", "7-5-4-3-2 low"),
        ("five_card_draw", "7c 7d 4h 4s 2c", "Two Pair, Sevens and Fours"),
        ("plo5", "As Ks 7s 2s 3d | 9s Td 4c 3h Jd", "Pair of Threes"),
        ("badugi", "7c 4d 2h 2c", "three-card badugi 7-4-2"),
        ("soko", "Ah Kh 7h 3h 2c", "Ace-high 4-flush"),
        ("front3", "Qc Qd 2h", "Pair of Queens"),
    ],
)
def test_every_game(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    game: str,
    hand: str,
    name: str,
) -> None:
    code, records = run_stdin(capsys, monkeypatch, game, hand + "\n")
    assert code == 0 and records[0]["name"] == name
    hole, _, board = hand.partition("|")
    argv = ["--game", game, hole] + (["--board", board] if board else [])
    assert run(capsys, *argv)[1] == name + "\n"


def test_games_are_the_engines_vocabulary() -> None:
    assert set(games()) == {*VARIANTS, "short_deck_trips", "front3"}
    for name, variant in VARIANTS.items():  # each ranks its hands with the engine's evaluators
        assert (games()[name].low is None) == (variant.low is None), name


@pytest.mark.parametrize(
    ("alias", "name"),
    [("omaha-hilo", "omaha_hi_lo"), ("Omaha-HiLo", "omaha_hi_lo"), ("shortdeck", "short_deck"),
     ("shortdeck-trips", "short_deck_trips"), ("stud-hilo", "stud_hi_lo"), ("HOLDEM", "holdem"),
     ("27", "triple_draw_27"), ("a5", "triple_draw_a5")],
)  # fmt: skip
def test_aliases_are_accepted_at_the_command_line(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    alias: str,
    name: str,
) -> None:
    lines = "As Ad Kd 2c | 3c 4d 5h 6s 8h\n" if name.startswith("omaha") else "7c 5d 4h 3s 2c\n"
    if name.startswith(("holdem", "short")):
        lines = "As Ad | Kd Qd Jc\n"
    a = run_stdin(capsys, monkeypatch, alias, lines)
    b = run_stdin(capsys, monkeypatch, name, lines)
    assert a == b and a[0] == 0


def test_stdin_json_lines_rank_orders_hands(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = "Kh Kd | Ks 7d 7h 2c 9s\n2c 3d | Ks 7d 7h 2s 9s\n\nKc Kh | Ks 7d 7h 2c 9s\n"
    code, records = run_stdin(capsys, monkeypatch, "holdem", text)
    assert code == 0 and len(records) == 3  # blank lines are skipped
    assert records[0] == {
        "category": "Full House",
        "name": "Full House, Kings over Sevens",
        "cards": ["Ks", "Kh", "Kd", "7h", "7d"],
        "rank": 6 << 20 | 0xBBB55,
    }
    ranks = [r["rank"] for r in records]
    assert isinstance(ranks[0], int) and isinstance(ranks[1], int)
    assert ranks[0] > ranks[1]  # kings full beat sevens and deuces
    assert ranks[2] == ranks[0]  # the same full house with other kings: a tie


def test_stdin_hi_lo_shape(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = "Ac 2d Kh Ks | 3c 4d 8h Kc Qd\nAc 2d Kh Ks | 3c 4d 9h Kc Qd\n"
    code, records = run_stdin(capsys, monkeypatch, "omaha_hi_lo", text)
    assert code == 0
    assert records[0]["high"]["name"] == "Three of a Kind, Kings"  # type: ignore[index]
    assert records[0]["low"]["name"] == "8-4-3-2-A low"  # type: ignore[index]
    assert records[1]["low"] is None


def test_stdin_bad_line_reports_and_continues(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = "Kh Kd | Ks 7d 7h 2c 9s\n1x 2c | Ks 7d 7h\nKh Kh | Ks 7d 7h\nKh | Ks 7d 7h\nAs Ad\n"
    code, records = run_stdin(capsys, monkeypatch, "holdem", text)
    assert code == 1
    assert "name" in records[0]
    errors = records[1:]
    assert [e["line"] for e in errors] == [2, 3, 4, 5]
    assert "'1x' is not a card" in str(errors[0]["error"])
    assert "more than once" in str(errors[1]["error"])
    assert "2 hole cards" in str(errors[2]["error"])
    assert "needs a board" in str(errors[3]["error"])


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--game", "holdem", "--board", "Ks 7d 7h", "Ks Kd"], "both in the hand and on the board"),
        (["--game", "badugi", "Ac 2d 3h"], "takes 4 hole cards"),
        (["--game", "short_deck", "--board", "Ks 7d 7h", "2s Kd"], "not in this deck"),
        (["--game", "triple_draw_27", "Zz 2d 3h 4s 5c"], "not a card"),
        (["--game", "razz", "--board", "2c 3c 4c", "Ac 2d 3h 4s 5c"], "has no board"),
        (["--game", "holdem"], "no cards given"),
    ],
)
def test_a_bad_hand_on_the_command_line_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and message in err


def test_stdin_bytes_that_are_not_utf8_are_one_bad_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A strict UTF-8 stdin (any locale but C, or PYTHONIOENCODING) raised mid-loop: now the
    bad line is reported and the lines around it are still ranked."""
    data = b"Kh Kd | Ks 7d 7h 2c 9s\n\xff\xfe Kh | Ks 7d 7h\nAh Ad | Ks 7d 7h 2c 9s\n"
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    code = main(["eval", "--game", "holdem", "--stdin"])
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert code == 1
    assert "name" in records[0] and "name" in records[2]
    assert records[1] == {"line": 2, "error": "line 2 is not UTF-8 text"}


def test_an_error_quotes_a_long_line_clipped(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hostile line is quoted, not dumped (cardroom.words.clipped): a megabyte in, not out."""
    code, records = run_stdin(capsys, monkeypatch, "holdem", "As" * 500_000 + "K\n")
    assert code == 1
    assert len(str(records[0]["error"])) < 500
    code, _, err = run(capsys, "--game", "holdem", "As" * 100_000 + "K")
    assert code == 2 and len(err) < 600
