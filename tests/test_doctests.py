"""The examples in the package's docstrings are tests too: each module's doctests run here.

Every module of ``cardroom`` is imported and its ``>>>`` examples are run, so an
example that drifts from the code fails the suite. Skipped: Alembic's migration
environment (it runs only inside Alembic) and ``__main__`` (it runs the CLI).
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import cardroom

SKIPPED = ("cardroom.store.migrations", "cardroom.__main__")


def _modules() -> list[str]:
    names = [
        info.name
        for info in pkgutil.walk_packages(cardroom.__path__, prefix="cardroom.")
        if not info.name.startswith(SKIPPED)
    ]
    return ["cardroom", *sorted(names)]


MODULES = _modules()


def test_the_package_has_docstring_examples() -> None:
    finder = doctest.DocTestFinder()
    examples = sum(
        len(test.examples)
        for name in MODULES
        for test in finder.find(importlib.import_module(name), name)
    )
    assert examples >= 20


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
