"""The tables file refuses a key it does not know, wherever the typo is: inside a
table's ``stakes`` (named as the file names it, not as a Python constructor's
complaint) or at the top of the file (a misspelt ``[[tabel]]`` used to be skipped
without a word, so the table it held never opened)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cardroom.server.tables_file import TablesFileError, load_tables, spec_from_dict

GOOD = '[[table]]\nid = "nl"\ngame = "holdem"\nstakes = { small_blind = 1, big_blind = 2 }\n'


def test_an_unknown_stakes_key_is_refused_naming_the_table_stakes_and_the_key() -> None:
    entry = {"id": "t1", "game": "holdem", "stakes": {"small_blind": 1, "bigblind": 2}}
    with pytest.raises(TablesFileError) as caught:
        spec_from_dict(entry)
    message = str(caught.value)
    assert "table 't1'" in message and "stakes" in message and "'bigblind'" in message
    assert "__init__" not in message and "keyword argument" not in message


def test_a_key_beside_the_tables_is_refused_naming_it(tmp_path: Path) -> None:
    # A misspelt array of tables: its table must not be skipped in silence.
    path = tmp_path / "tables.toml"
    path.write_text(GOOD + '\n[[tabel]]\nid = "plo"\ngame = "omaha"\n', encoding="utf-8")
    with pytest.raises(TablesFileError, match=r"unknown keys \['tabel'\]"):
        load_tables(path)
    path.write_text("bots = 2\n" + GOOD, encoding="utf-8")
    with pytest.raises(TablesFileError, match=r"unknown keys \['bots'\]"):
        load_tables(path)


def test_a_table_id_ending_in_a_line_feed_is_refused_naming_the_key(tmp_path: Path) -> None:
    # ``$`` in Python also matches before a last line feed: id = "nl\n" passed the file's
    # check and stopped the start with the ledger's traceback (exit 3), not the file's line.
    path = tmp_path / "tables.toml"
    path.write_text(GOOD.replace('id = "nl"', 'id = "nl\\n"'), encoding="utf-8")
    with pytest.raises(TablesFileError, match="id: 1 to 40 letters"):
        load_tables(path)


def test_a_file_saved_with_a_byte_order_mark_loads(tmp_path: Path) -> None:
    # Windows editors save UTF-8 with a BOM: the start stopped with "Invalid statement
    # (at line 1, column 1)", a line the operator could not act on (the PHH reader
    # reads past one already).
    path = tmp_path / "tables.toml"
    path.write_text("\ufeff" + GOOD, encoding="utf-8")
    assert [s.settings.table_id for s in load_tables(path)] == ["nl"]


def test_a_file_of_tables_alone_still_loads(tmp_path: Path) -> None:
    path = tmp_path / "tables.toml"
    path.write_text(GOOD, encoding="utf-8")
    assert [s.settings.table_id for s in load_tables(path)] == ["nl"]


@pytest.mark.parametrize(
    ("entry", "told"),
    [
        ({"seats": "6"}, "seats: a whole number, e.g. seats = 6, not '6'"),
        ({"seats": -1}, "seats: a whole number, e.g. seats = 6, not -1"),
        ({"game": "ofc", "point_value": 1, "seats": 3.0}, "seats: a whole number"),
        ({"mixed": "HORSE", "stakes": {"small_bet": 4}, "seats": "6"}, "seats: a whole number"),
        ({"stakes": {"small_blind": 1, "big_blind": 2, "straddles": 4}},
         "stakes.straddles: a list of amounts, e.g. straddles = [4] or [4, 8], not 4"),
        ({"stakes": {"small_blind": "1", "big_blind": 2}},
         "stakes.small_blind: a whole number of chips, e.g. small_blind = 1, not '1'"),
        ({"stakes": {"small_blind": 1, "big_blind": 2, "straddles": ["4"]}},
         "stakes.straddles: a list of amounts, e.g. straddles = [4] or [4, 8], not ['4']"),
    ],
)  # fmt: skip
def test_a_value_of_the_wrong_type_is_told_with_the_file_s_key_and_a_toml_example(
    entry: dict[str, Any], told: str
) -> None:
    # `seats = "6"` was told as `max_seats ...`, `straddles = 4` as "a tuple ... e.g. (4,)":
    # names and syntax of the code, not of the file the operator wrote.
    base = {"id": "t1", "game": "holdem", "stakes": {"small_blind": 1, "big_blind": 2}}
    for key in ("mixed", "point_value"):  # a mixed table names no game, Chinese no stakes
        if key in entry:
            del base["game" if key == "mixed" else "stakes"]
    with pytest.raises(TablesFileError) as caught:
        spec_from_dict({**base, **entry})
    message = str(caught.value)
    assert message.startswith("table 't1': ") and told in message, message
    assert "max_seats" not in message and "tuple" not in message and "(4," not in message


def test_10_7_a_table_s_chat_language_is_a_language_tag() -> None:
    entry: dict[str, Any] = {
        "id": "gr",
        "game": "holdem",
        "stakes": {"small_blind": 1, "big_blind": 2},
    }
    assert spec_from_dict({**entry, "language": "el"}).settings.language == "el"
    assert spec_from_dict(entry).settings.language == "en"
    for wrong in (5, True, "Greek"):
        with pytest.raises(TablesFileError, match="language: a language tag"):
            spec_from_dict({**entry, "language": wrong})


@pytest.mark.parametrize(
    "entry",
    [  # 10 to 20 big blinds of 2**53 - 1: no player could buy in (a join holds 2**53 - 1)
        {"id": "t", "game": "holdem", "stakes": {"small_blind": 2**52, "big_blind": 2**53 - 1}},
        {"id": "t", "game": "holdem", "stakes": {"small_blind": 1, "big_blind": 2**49}},
        {"id": "t", "game": "holdem", "stakes": {"small_blind": 1, "big_blind": 2},
         "min_buy_in": 2**52, "max_buy_in": 2**52 + 2},  # two buy-ins pass 2**53 - 1
        {"id": "t", "mixed": "HORSE", "stakes": {"small_bet": 2**51}},
        {"id": "t", "game": "ofc", "point_value": 2**53 - 1},
        {"id": "t", "game": "ofc", "point_value": 2**70, "min_buy_in": 30, "max_buy_in": 300},
    ],
)  # fmt: skip
def test_10_9_a_table_whose_money_passes_what_a_table_holds_is_refused(
    entry: dict[str, Any],
) -> None:
    # Each opened before, listed buy-ins and points past 2**53 (which a browser's numbers
    # show wrong), and either seated nobody or dealt until a stack passed what the
    # engine deals, then failed at every deal.
    with pytest.raises(TablesFileError, match=r"2\*\*53 - 1"):
        spec_from_dict(entry)


def test_10_9_the_largest_table_that_fits_is_taken() -> None:
    entry = {"id": "t", "game": "holdem", "stakes": {"small_blind": 1, "big_blind": 2},
             "min_buy_in": 2**52 - 1, "max_buy_in": 2**53 - 1}  # fmt: skip
    assert spec_from_dict(entry).settings.buy_in_range == (2**52 - 1, 2**53 - 1)


@pytest.mark.parametrize(
    "extra", [{"min_points": 301}, {"min_points": 10, "min_buy_in": 5, "max_buy_in": 9}]
)
def test_a_chinese_table_whose_players_could_never_be_dealt_in_is_refused(
    extra: dict[str, Any],
) -> None:
    # Opened before: every player who sat down (300 points at most by default) was sat
    # out at once, needing min_points' worth to be dealt in, and no hand was ever dealt.
    entry = {"id": "t", "game": "ofc", "point_value": 1, **extra}
    with pytest.raises(TablesFileError, match=r"min_points: .* more than the largest buy-in"):
        spec_from_dict(entry)
    spec_from_dict({"id": "t", "game": "ofc", "point_value": 2, "min_points": 300})


def test_hands_per_game_is_a_count_a_browser_shows_exactly() -> None:
    # 2**63 opened a table whose view said hands_left 9223372036854775807 (a browser
    # shows ...808); the operator API takes 1 to 1000.
    entry = {"id": "t", "mixed": "HORSE", "stakes": {"small_bet": 4}, "hands_per_game": 2**63}
    with pytest.raises(TablesFileError, match=r"hands_per_game: a whole number from 1 to"):
        spec_from_dict(entry)
    spec_from_dict({**entry, "hands_per_game": 2**53 - 1})


@pytest.mark.parametrize(
    "entry",
    [  # the largest buy-in below the ante and the largest forced bet of a seat
        {"id": "t", "game": "stud", "stakes": {"small_bet": 4, "ante": 100}},  # 80 < 102
        {"id": "t", "game": "short_deck", "stakes": {"ante": 50, "button_blind": 1}},  # 20 < 51
        {"id": "t", "game": "holdem", "stakes": {"small_blind": 1, "big_blind": 2},
         "min_buy_in": 1, "max_buy_in": 1},  # 1 < 2
        {"id": "t", "game": "holdem", "stakes": {"small_blind": 1, "big_blind": 2,
         "straddles": [41]}},  # 40 < 41
    ],
)  # fmt: skip
def test_10_2_a_table_whose_largest_buy_in_cannot_pay_the_forced_bets_is_refused(
    entry: dict[str, Any],
) -> None:
    # Opened before: every player who sat down, at most the largest buy-in, was sat out
    # short of the forced bets at the first deal (§10.2) and no hand was ever dealt; a
    # rebuy could not help, the stack being capped at that same largest buy-in.
    with pytest.raises(TablesFileError, match=r"needs \d+ chips to be dealt in .* largest buy-in"):
        spec_from_dict(entry)
    spec_from_dict({**entry, "min_buy_in": 102, "max_buy_in": 2000})
