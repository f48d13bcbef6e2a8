"""The room's integrity review (RULEBOOK §10.9, §10.1): one monitor for every table.

Chip dumping need not happen at one table, and a second account from the same
address need not sit down at the same table as the first. So a table does not
judge itself: it sets aside what the review needs in its outbox
(:meth:`~cardroom.room.table.Table.take_reviews`): each settled hand
(:class:`SettledHand`: its events, who sat where, each player's result as
settled) and the address of each sit-down
(:class:`~cardroom.room.integrity.Access`). The room hands them to its one
:class:`~cardroom.room.integrity.IntegrityMonitor` (:func:`review_table`), after
the step that made them is stored (a server's actor) or after each command (a
simulated room), and the flags are recorded into that table's record as
``ReviewFlagged`` events, for an operator and shown to no player. Hands are
named room-wide, ``table#n`` (:func:`hand_ref`).

The review is not part of a table's state: a table rebuilt from its record
starts with an empty outbox, and a monitor's windows live as long as its room.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cardroom.games import Event
from cardroom.room.integrity import Access, Flag, IntegrityMonitor

if TYPE_CHECKING:
    from cardroom.room.table import AnyEvent, Table


@dataclass(frozen=True, slots=True)
class SettledHand:
    """A hand as a table settled it: ``hand`` its room-wide name (:func:`hand_ref`),
    ``events`` the engine hand's events (empty for a Chinese poker hand: no betting to
    read), ``players`` the account in each dealt seat, ``net`` each account's result
    (chips won, losses negative), ``at`` when it was settled (seconds), ``money`` the
    table's (``play`` or ``real``: a pot rule counts one money's chips)."""

    hand: str
    events: Sequence[Event]
    players: Mapping[int, str]
    net: Mapping[str, int]
    at: float = 0.0
    money: str = "play"


Review = SettledHand | Access
"""One item of a table's review outbox."""


def hand_ref(table_id: str, hand_no: int) -> str:
    """A hand's room-wide name: ``table#n``."""
    return f"{table_id}#{hand_no}"


def review(monitor: IntegrityMonitor, items: Iterable[Review]) -> list[Flag]:
    """Show ``items`` to ``monitor`` in order; the flags they raise."""
    flags: list[Flag] = []
    for item in items:
        if isinstance(item, SettledHand):
            flags += monitor.observe_events(
                item.hand, item.events, item.players, item.net, item.at, item.money
            )
        else:
            flags += monitor.observe_access(item)
    return flags


def review_table(monitor: IntegrityMonitor, table: Table) -> list[AnyEvent]:
    """Review what ``table`` set aside since last asked; the ``ReviewFlagged`` events
    its flags became (recorded into the table)."""
    return table.record_flags(review(monitor, table.take_reviews()))
