"""The compiled build (``setup.py``) is all or nothing, and CI gets the build it asked for."""

from __future__ import annotations

import ast
import importlib
import os
from pathlib import Path

from cardroom.bench.build import engine_build

ROOT = Path(__file__).resolve().parents[1]


def _compiled_modules() -> list[str]:
    """The module names listed in setup.py's COMPILED (read, not imported: it runs setup())."""
    tree = ast.parse((ROOT / "setup.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "COMPILED":
            paths = ast.literal_eval(node.value)
            return [p.removesuffix(".py").replace("/", ".") for p in paths]
    raise AssertionError("setup.py lists no COMPILED modules")


def test_every_listed_module_is_compiled_or_none_is() -> None:
    names = _compiled_modules()
    assert "cardroom.games.hand" in names
    kinds = {
        name: not (importlib.import_module(name).__file__ or "").endswith(".py") for name in names
    }
    assert len(set(kinds.values())) == 1, f"a partly compiled build: {kinds}"
    assert engine_build() == ("mypyc" if kinds["cardroom.games.hand"] else "python")


def test_the_build_is_the_one_asked_for() -> None:
    # .ci/run sets CARDROOM_EXPECT_BUILD for its second pass over the compiled build.
    expected = os.environ.get("CARDROOM_EXPECT_BUILD", engine_build())
    assert engine_build() == expected
