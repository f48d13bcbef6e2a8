"""A named instant at which the server kills itself, for the crash tests (RULEBOOK §10.10).

``CARDROOM_CRASH_AFTER=[TABLE/]TYPE[:N]`` makes the process send itself SIGKILL right
after the ``N``-th stored step (default the first) holding an entry of ``TYPE`` (at
table ``TABLE``, else any): the step is committed, nothing of it is sent or answered,
and nothing after it runs. So a test kills a real process at the instant it means
(a waiting-list offer open, a rebuy stored, a chat offence stored...) instead of
sleeping and hoping. Unset, as in production, it costs one comparison a step.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Mapping, Sequence
from typing import Any

ENV = "CARDROOM_CRASH_AFTER"
"""The environment variable naming the instant."""


def _parse(text: str | None) -> tuple[str | None, str, int] | None:
    if not text:
        return None
    table, _, rest = text.rpartition("/")
    kind, _, count = rest.partition(":")
    return table or None, kind, int(count or 1)


_POINT = _parse(os.environ.get(ENV))
_seen = 0


def after_step(table_id: str, entries: Sequence[Mapping[str, Any]]) -> None:
    """A step of ``table_id`` with ``entries`` was just committed: die if it is the one."""
    global _seen
    if _POINT is None:
        return
    table, kind, count = _POINT
    if table not in (None, table_id) or not any(e.get("type") == kind for e in entries):
        return
    _seen += 1
    if _seen >= count:
        os.kill(os.getpid(), signal.SIGKILL)
