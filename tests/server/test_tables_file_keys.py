"""The tables file refuses a key it does not know, wherever the typo is: inside a
table's ``stakes`` (named as the file names it, not as a Python constructor's
complaint) or at the top of the file (a misspelt ``[[tabel]]`` used to be skipped
without a word, so the table it held never opened)."""

from __future__ import annotations

from pathlib import Path

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


def test_a_file_of_tables_alone_still_loads(tmp_path: Path) -> None:
    path = tmp_path / "tables.toml"
    path.write_text(GOOD, encoding="utf-8")
    assert [s.settings.table_id for s in load_tables(path)] == ["nl"]
