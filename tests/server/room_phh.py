"""Hands played at a room table, as the server's hand history gives them out.

A :class:`~cardroom.room.simulation.Session` plays random players at one table; its
record is cut into hands (``HandDealt`` to ``HandFinished`` / ``HandVoided``), and
each hand goes through :func:`cardroom.server.api_history.hand_record` as the
server's ``/api/hands`` does with the stored entries. The room's own stacks after a
hand (``HandFinished``) are the truth that every reader of the PHH must reach.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import pokerkit

from cardroom.games import Event as EngineEvent
from cardroom.games.replay import replay as engine_replay
from cardroom.room import events as rv
from cardroom.room.codec import encode_entry
from cardroom.room.settings import TableSettings
from cardroom.room.simulation import Session
from cardroom.room.table import AnyEvent
from cardroom.server.api_history import HandRecord, hand_record
from cardroom.store.history import HandRef


@dataclass(frozen=True)
class RoomHand:
    """One hand of a table's record: its events, from ``HandDealt`` to its end."""

    table_id: str
    events: list[AnyEvent]

    @property
    def dealt(self) -> rv.HandDealt:
        first = self.events[0]
        assert isinstance(first, rv.HandDealt)
        return first

    @property
    def finished(self) -> rv.HandFinished | None:
        last = self.events[-1]
        return last if isinstance(last, rv.HandFinished) else None

    def record(self, seat: int) -> HandRecord:
        """The hand as the server gives it to ``seat`` (from its stored entries)."""
        entries = [encode_entry(e) for e in self.events]
        ref = HandRef(self.table_id, self.dealt.hand_no, seat, 1, len(entries), datetime.now(UTC))
        return hand_record(ref, entries)

    def stacks(self) -> list[int]:
        """The room's stacks after the hand, in PHH order (the engine's, button last)."""
        finished = self.finished
        assert finished is not None
        order = engine_replay(engine_events(self.events)).order
        after = dict(finished.stacks)
        return [after[s] for s in order]


def engine_events(events: list[AnyEvent]) -> list[EngineEvent]:
    return [e for e in events if type(e) not in rv.ROOM_EVENTS]  # type: ignore[misc]


def room_hands(settings: TableSettings, seed: int, hands: int) -> Iterator[RoomHand]:
    """The hands random players play at a table of ``settings``."""
    session = Session(settings, seed=seed, check_money=False)
    session.run(hands)
    current: list[AnyEvent] | None = None
    for event in session.record:
        if isinstance(event, rv.HandDealt):
            current = [event]
        elif current is not None:
            current.append(event)
            if isinstance(event, (rv.HandFinished, rv.HandVoided)):
                yield RoomHand(settings.table_id, current)
                current = None


def pokerkit_state(text: str) -> Any:
    """The state PokerKit replays a PHH text to (None: a code PokerKit does not know)."""
    history = pokerkit.HandHistory.loads(text)
    if history.variant not in pokerkit.HandHistory.game_types:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PokerKit warns as it plays (unknown cards, ...)
        *_, state = history  # the state after the last action
    return state


def pokerkit_stacks(text: str) -> list[int] | None:
    """The stacks PokerKit replays a PHH text to (None: a code PokerKit does not know)."""
    state = pokerkit_state(text)
    return None if state is None else [int(s) for s in state.stacks]
