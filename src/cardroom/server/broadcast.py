"""Who watches a table, and what each of them is sent: per-seat projections only.

Every event goes out through :func:`cardroom.room.views.project` for the seat
the watcher held *when the event happened* (a player who takes a seat later
never sees the cards dealt to it before), and every snapshot through
``Table.view(player)``. Nothing here reads a card.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from cardroom.room import events as rv
from cardroom.room.seating import buy_in_bounds, reducing_floor
from cardroom.room.table import AnyEvent, Table
from cardroom.room.views import project
from cardroom.server import protocol as p

Send = Callable[[bytes], None]
"""Queue bytes for a connection (never blocks; a full queue drops the connection)."""


@dataclass(eq=False, slots=True)
class Watcher:
    """One connection watching one table, as ``player``."""

    conn: int
    player: str
    send: Send


@dataclass(frozen=True, slots=True)
class Stored:
    """An event with its sequence number and who sat where when it happened."""

    seq: int
    event: AnyEvent
    seats: dict[str, int]


@dataclass(slots=True)
class History:
    """The table's recent events (for reconnects) and the seating as of the last one."""

    seats: dict[str, int] = field(default_factory=dict)
    recent: deque[Stored] = field(default_factory=lambda: deque(maxlen=4000))

    def reset(self, table: Table) -> None:
        """Forget the events (after a rebuild); the seating is the table's now."""
        self.recent.clear()
        self.seats = dict(table.state.index)

    def add(self, first_seq: int, events: Iterable[AnyEvent]) -> list[Stored]:
        """Number ``events`` from ``first_seq``, following the seating through them."""
        out = []
        seats = self.seats
        for i, event in enumerate(events):
            if isinstance(event, rv.PlayerSeated):
                seats = {**seats, event.player: event.seat}
            elif isinstance(event, rv.PlayerLeft):
                seats = {k: v for k, v in seats.items() if k != event.player}
            stored = Stored(first_seq + i, event, seats)
            out.append(stored)
            self.recent.append(stored)
        self.seats = seats
        return out

    def since(self, seq: int) -> list[Stored] | None:
        """The events after ``seq``, or None when they are no longer all at hand."""
        if not self.recent:
            return None
        if seq < self.recent[0].seq - 1:
            return None
        return [s for s in self.recent if s.seq > seq]


def projected(stored: Iterable[Stored], player: str) -> list[p.TableEvent]:
    """The events as ``player`` may see them (those hidden from him left out)."""
    out = []
    for s in stored:
        view = project(s.event, s.seats.get(player))
        if view is not None:
            out.append(p.TableEvent(seq=s.seq, event=view))
    return out


def fan_out(table_id: str, stored: list[Stored], watchers: Iterable[Watcher]) -> None:
    """Send each watcher its projection of ``stored`` (computed once per distinct seat
    history, since a projection depends on nothing else)."""
    cache: dict[tuple[int | None, ...], bytes | None] = {}
    for w in watchers:
        key = tuple(s.seats.get(w.player) for s in stored)
        if key not in cache:
            events = projected(stored, w.player)
            cache[key] = p.encode(p.Events(table=table_id, events=events)) if events else None
        data = cache[key]
        if data is not None:
            w.send(data)


def snapshot(table: Table, seq: int, player: str, aliases: dict[str, str]) -> bytes:
    """The table as ``player`` sees it now, with the aliases of everyone named in it."""
    view = table.view(player)
    names = {pl: aliases.get(pl, pl) for pl in _players(table)}
    settings = table.settings
    info = p.TableInfo(
        buy_in=buy_in_bounds(table, player),  # the player's own (§10.2 reducing)
        max_stack=settings.buy_in_range[1],  # a rebuy's cap: the table's own (§10.2)
        currency=settings.currency.value,
        seats=settings.seat_count,
        reducing=_reducing(table, player),
    )
    message = p.Snapshot(table=settings.table_id, seq=seq, view=view, players=names, info=info)
    return p.encode(message)


def _reducing(table: Table, player: str) -> p.Reducing | None:
    """Why the reducing rule (§10.2) raised ``player``'s minimum here, for the buy-in form."""
    floor = reducing_floor(table, player)
    return None if floor is None else p.Reducing(chips=floor[0], until=floor[1])


def _players(table: Table) -> Iterator[str]:
    for seat in table.state.seats:
        if seat is not None:
            yield seat.player
    yield from table.state.waitlist


def turn_message(table: Table, seq: int) -> tuple[str, bytes] | None:
    """For the player whose turn it is: the legal actions and own cards (from the
    player's own view), or None when nobody is to act."""
    turn = table.state.turn
    if turn is None or not table.state.in_hand:
        return None
    seat = table.state.seats[turn.seat]
    if seat is None:
        return None
    view: dict[str, Any] = table.view(seat.player)
    try:
        legal, cards, board = table.turn_parts(view)
    except (KeyError, TypeError, IndexError, StopIteration):
        return None  # nothing to decide now
    message = p.Turn(
        table=table.settings.table_id,
        seq=seq,
        seat=turn.seat,
        deadline=turn.deadline,
        bank=turn.bank,
        legal=legal,
        cards=cards,
        board=board,
    )
    return seat.player, p.encode(message)
