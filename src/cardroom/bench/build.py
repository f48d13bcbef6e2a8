"""Which build of the engine is running: pure Python, or compiled by ``setup.py``.

``CARDROOM_COMPILE=1 pip install .`` turns the modules listed in ``setup.py``
into mypyc extensions; speed figures mean little without saying which build made
them, so the benchmarks report it.
"""

from __future__ import annotations

import cardroom.games.hand

__all__ = ["engine_build"]


def engine_build() -> str:
    """``"mypyc"`` when the engine's modules are compiled extensions, else ``"python"``.

    >>> engine_build() in ("mypyc", "python")
    True
    """
    return "python" if (cardroom.games.hand.__file__ or "").endswith(".py") else "mypyc"
