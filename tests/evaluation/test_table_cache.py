"""The disk cache of the evaluator tables: same tables, and never a reason to fail."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest

from cardroom.evaluation import table_cache, tables
from cardroom.evaluation.table_cache import cache_dir, cached, version_key


class Builds:
    """A table builder that counts its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self) -> dict[int, list[int]]:
        self.calls += 1
        return {5: [1, 2, 3], 7: list(range(100))}


def good(value: Any) -> bool:
    return isinstance(value, dict) and set(value) == {5, 7}


@pytest.fixture
def source(tmp_path: Path) -> Path:
    path = tmp_path / "generator.py"
    path.write_text("TABLE = 1\n")
    return path


def test_a_table_is_built_once_then_read_back(tmp_path: Path, source: Path) -> None:
    build, folder = Builds(), tmp_path / "cache"
    first = cached("t", source, build, good, folder)
    second = cached("t", source, build, good, folder)
    assert first == second == Builds()() and build.calls == 1
    assert [p.name for p in folder.iterdir()] == [f"t-{version_key(source)}.marshal"]


def test_an_edited_generator_never_reads_the_old_table(tmp_path: Path, source: Path) -> None:
    build, folder = Builds(), tmp_path / "cache"
    cached("t", source, build, good, folder)
    old_key = version_key(source)
    source.write_text("TABLE = 2\n")
    assert version_key(source) != old_key
    cached("t", source, build, good, folder)
    assert build.calls == 2 and len(list(folder.iterdir())) == 2


@pytest.mark.parametrize(
    "damage",
    [
        lambda raw: raw[: len(raw) // 2],  # truncated
        lambda raw: raw[:-1] + bytes([raw[-1] ^ 1]),  # one bit flipped
        # a bit of the last value (99 -> 98): still reads back, still of the right shape
        lambda raw: raw[:-5] + bytes([raw[-5] ^ 1]) + raw[-4:],
        lambda raw: b"",  # emptied
    ],
)
def test_a_damaged_file_is_rebuilt(tmp_path: Path, source: Path, damage: Any) -> None:
    build, folder = Builds(), tmp_path / "cache"
    cached("t", source, build, good, folder)
    (path,) = folder.iterdir()
    path.write_bytes(damage(path.read_bytes()))
    assert cached("t", source, build, good, folder) == Builds()() and build.calls == 2
    assert cached("t", source, build, good, folder) == Builds()() and build.calls == 2  # repaired


def test_a_table_of_the_wrong_shape_is_rebuilt(tmp_path: Path, source: Path) -> None:
    build, folder = Builds(), tmp_path / "cache"
    cached("t", source, lambda: {"wrong": 1}, lambda _: True, folder)
    assert cached("t", source, build, good, folder) == Builds()() and build.calls == 1


def test_an_unwritable_place_just_means_building(tmp_path: Path, source: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    build = Builds()
    assert cached("t", source, build, good, blocker / "cache") == Builds()()
    assert cached("t", source, build, good, blocker / "cache") == Builds()()
    assert build.calls == 2
    if os.geteuid() != 0:  # root writes anywhere: the read-only case needs another user
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        assert cached("t", source, build, good, locked) == Builds()()


def test_where_the_cache_lives(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in (table_cache.ENV_DIR, table_cache.ENV_OFF, "XDG_CACHE_HOME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert cache_dir() == tmp_path / ".cache" / "cardroom"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")
    assert cache_dir() == tmp_path / ".cache" / "cardroom"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir() == tmp_path / "xdg" / "cardroom"
    monkeypatch.setenv(table_cache.ENV_DIR, str(tmp_path / "mine"))
    assert cache_dir() == tmp_path / "mine"
    monkeypatch.setenv(table_cache.ENV_OFF, "0")  # "0" leaves the cache on
    assert cache_dir() == tmp_path / "mine"
    monkeypatch.setenv(table_cache.ENV_OFF, "1")
    assert cache_dir() is None


def test_another_python_version_never_reads_the_table(
    monkeypatch: pytest.MonkeyPatch, source: Path
) -> None:
    # marshal's format may change between Python versions: the version is in the key.
    key = version_key(source)
    monkeypatch.setattr(sys, "version_info", (3, 99, 0))
    assert version_key(source) != key


def test_cached_high_tables_are_the_generated_ones(tmp_path: Path) -> None:
    built = tables.build_tables()
    assert tables.well_formed(built)
    assert built == (tables.NON_FLUSH, tables.FLUSH)  # whatever this process read or built
    source = Path(tables.__file__)
    stored = cached("high", source, tables.build_tables, tables.well_formed, tmp_path)
    read_back = cached("high", source, lambda: pytest.fail("rebuilt"), tables.well_formed, tmp_path)
    assert stored == read_back == built
    assert not tables.well_formed((built[0], built[1][:-1]))
    assert not tables.well_formed(({5: {}}, built[1]))
