"""Per-seat views of a table and of its events (RULEBOOK §12).

The table's own data is public (seats, stacks, who sits out, the button, the
clock, the game), but for a player's pre-selected action, which only that player
sees. Cards appear only through the engine's projections (``hand.view(seat)``,
``event_view(event, seat)``): no other code here ever touches a card.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, cast

from cardroom.games import Event as HandEvent
from cardroom.games import event_view
from cardroom.room import events as rv
from cardroom.room.games_port import hands_left, shown_game
from cardroom.room.rotation import game_label

if TYPE_CHECKING:
    from cardroom.room.table import Table


def _game(table: Table, index: int) -> dict[str, str]:
    config = table.settings.games[index]
    return {
        "game": config.variant.name,
        "title": config.variant.title,
        "structure": config.betting,
        "label": game_label(config.variant.name, config.betting),
    }


def table_view(table: Table, player: str | None) -> dict[str, Any]:
    """The table as ``player`` sees it (None: a spectator)."""
    state, hand = table.state, table.hand
    me = None if player is None else state.seat_of(player)
    live = hand is not None and state.in_hand
    seats: list[dict[str, Any] | None] = []
    for s, seat in enumerate(state.seats):
        if seat is None:
            seats.append(None)
            continue
        dealt = live and s in state.dealt
        seats.append(
            {
                "seat": s,
                "player": seat.player,
                "stack": hand.stacks[s] if dealt and hand is not None else seat.stack,
                "sitting_out": seat.sitting_out,
                "connected": seat.connected,
                "owes": seat.owes,
                "time_bank": seat.time_bank,
                "dealt_in": dealt,
            }
        )
    slot = shown_game(table.settings, state.hand_no, state.in_hand)
    turn = state.turn
    out: dict[str, Any] = {
        "table": table.settings.table_id,
        "currency": table.settings.currency.value,
        "hand_no": state.hand_no,
        "button": None if state.positions is None else state.positions.button,
        "game": _game(table, slot.index),
        "next_game": _game(table, slot.next_index),
        "mixed": None if table.settings.mixed is None else table.settings.mixed.badge,
        "hands_left": hands_left(table.settings, state.hand_no, state.in_hand),
        "seats": seats,
        "turn": None if turn is None else dataclasses.asdict(turn),
        "waitlist": list(state.waitlist),
        "you": me,
        "hand": hand.view(me) if live and hand is not None else None,
    }
    if me is not None:
        mine = state.seats[me]
        assert mine is not None
        out["advance"] = None if mine.advance is None else dataclasses.asdict(mine.advance)
    if player is not None and player in state.offers:
        out["offer"] = dataclasses.asdict(state.offers[player])
    return out


def project(event: rv.RoomEvent | HandEvent, seat: int | None) -> dict[str, Any] | None:
    """``event`` as ``seat`` may see it (None: not shown to that seat)."""
    if type(event) in rv.ROOM_EVENTS:
        if isinstance(event, rv.HIDDEN):
            return None
        if isinstance(event, rv.PRIVATE) and getattr(event, "seat", None) != seat:
            return None
        out = {"type": type(event).__name__}
        out.update(dataclasses.asdict(event))
        return out
    return event_view(cast(HandEvent, event), seat)
