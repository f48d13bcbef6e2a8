"""The examples in the package's docstrings are tests too: each module's doctests run here.

Every module of ``cardroom`` is imported and its ``>>>`` examples are run, so an
example that drifts from the code fails the suite. Skipped: Alembic's migration
environment (it runs only inside Alembic) and ``__main__`` (it runs the CLI).
"""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import pkgutil
import sys
from pathlib import Path
from types import ModuleType

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


def _source_module(name: str) -> ModuleType:
    """The module ``name`` as Python source.

    In a compiled build (``CARDROOM_COMPILE=1``, see ``setup.py``) some modules are
    extensions whose functions doctest cannot see; their ``.py`` source sits beside
    them and is loaded under a private name to run the same examples.
    """
    module = importlib.import_module(name)
    path = Path(module.__file__ or "")
    if path.suffix == ".py" or not path.with_name(path.name.split(".")[0] + ".py").exists():
        return module
    source = path.with_name(path.name.split(".")[0] + ".py")
    spec = importlib.util.spec_from_file_location(f"_source_of_{name.replace('.', '_')}", source)
    assert spec is not None and spec.loader is not None
    loaded = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = loaded  # dataclasses look their module up while being built
    spec.loader.exec_module(loaded)
    return loaded


def test_the_package_has_docstring_examples() -> None:
    finder = doctest.DocTestFinder()
    examples = sum(
        len(test.examples) for name in MODULES for test in finder.find(_source_module(name), name)
    )
    assert examples >= 20


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = _source_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
