"""Optional compiled build of the engine's hot modules (everything else is in pyproject.toml).

``CARDROOM_COMPILE=1 python3 -m pip install .`` compiles the modules of
:data:`COMPILED` with mypyc (shipped with mypy) into C extensions; without the
variable the package is pure Python. The same sources, the same tests: CI runs
the whole suite against both builds (``.ci/run``). A compiled build is for a room
that deploys the package; for development use the editable, pure install of the
README (an editable compiled install would keep running the stale extension
after a source edit).

Which modules: the rules engine and the evaluators it calls, whose inputs are
typed values (``Action``, which arrives from the network, stays a plain class:
see ``actions.py``). Not compiled: modules that take raw input and must answer
bad types with their own errors (``config``, ``variants``, parsers, ``cards``,
whose ``Card`` subclasses ``int``) and everything above the engine.
"""

from __future__ import annotations

import os

from setuptools import setup

COMPILED = [
    "cardroom/games/actions.py",
    "cardroom/games/betting.py",
    "cardroom/games/dealing.py",
    "cardroom/games/draw.py",
    "cardroom/games/draw_play.py",
    "cardroom/games/events.py",
    "cardroom/games/forced.py",
    "cardroom/games/hand.py",
    "cardroom/games/pots.py",
    "cardroom/games/reshuffle.py",
    "cardroom/games/showdown.py",
    "cardroom/games/stud.py",
    "cardroom/games/stud_play.py",
    "cardroom/evaluation/badugi.py",
    "cardroom/evaluation/fast.py",
    "cardroom/evaluation/high.py",
    "cardroom/evaluation/lowball.py",
    "cardroom/evaluation/short_deck_fast.py",
    "cardroom/evaluation/tables.py",
]
"""The modules compiled when ``CARDROOM_COMPILE=1`` (paths under ``src/``)."""

MYPY = "mypy>=1.10"


def _extensions() -> list[object]:
    if os.environ.get("CARDROOM_COMPILE") != "1":
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        # In an isolated build, setuptools first asks for the build requirements:
        # setup_requires below names mypy, which brings mypyc, then this runs again.
        return []
    return list(mypycify([f"src/{path}" for path in COMPILED], opt_level="3"))


extensions = _extensions()
setup(
    ext_modules=extensions,
    setup_requires=[MYPY] if os.environ.get("CARDROOM_COMPILE") == "1" else [],
)
