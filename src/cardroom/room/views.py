"""Per-seat views of a table and of its events (RULEBOOK §12).

The table's own data is public (seats, stacks, who sits out, the button, the
clock, the game, the recent chat lines as they were broadcast: masked words stay
masked, blocked messages are not there), but for a player's pre-selected action,
which only that player sees. Of the table's events, those of ``rv.PRIVATE`` reach
their own seat only, ``rv.HIDDEN`` nobody, and the fields of ``rv.OWN_FIELDS`` (the
disconnect all-ins a player used today) their own seat only. Cards appear only
through the engine's projections (``hand.view(seat)``, ``event_view(event, seat)``,
and for Chinese poker ``cardroom.chinese.views``): no other code here touches a card.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final, cast

from cardroom.chinese import Event as ChineseEvent
from cardroom.chinese import project_event as chinese_event_view
from cardroom.games import Event as HandEvent
from cardroom.games import TableConfig, event_view
from cardroom.games.config import rules_set
from cardroom.room import events as rv
from cardroom.room.games_port import hands_left, shown_game
from cardroom.room.rotation import config_label

if TYPE_CHECKING:
    from cardroom.room.settings import TableSettings
    from cardroom.room.table import Table


def _game(table: Table, index: int) -> dict[str, Any]:
    config = table.settings.games[index]
    return {
        "game": config.variant.name,
        "title": config.variant.title,
        "structure": config.betting,
        "label": config_label(config),
        "rules": rules_set(config),  # every option is shown to players, between hands too
        # §10.6: whether being cut off here may leave one all in rather than folded (a
        # mixed table decides per hand: TableSettings.protection_for).
        "disconnect_protection": table.settings.protection_for(config),
        # §10.8: the rake this game's hands pay here (None: play money, or no rake), a
        # table option shown as every one is; the table's configs carry it per game.
        "rake": rake_view(table.configs[index]),
    }


def rake_view(config: TableConfig) -> dict[str, Any] | None:
    """A game's rake rule as players are shown it: ``per`` chips every ``unit`` of pot, at
    most the cap of the ``caps`` line ``[most players dealt in, cap]`` that fits, pots
    under ``small_pot_below`` paying ``small_per`` every ``small_unit``, and none before
    ``street`` is dealt (the game's own rake street: no flop, no drop, §10.8)."""
    rule = config.rake
    if rule is None:
        return None
    out = dataclasses.asdict(rule)
    out["caps"] = [list(cap) for cap in rule.caps]
    out["street"] = config.variant.streets[config.variant.rake_street].name
    return out


def terms(settings: TableSettings) -> dict[str, Any]:
    """The room's options of a table (§10.3-§10.6), shown to players as every option is
    (the rulebook's preamble): the decision clock and time bank, the wait for a
    disconnected player and the disconnect all-ins, the sit-out limit, how long a seat
    offered from the waiting list is held, the reducing rule's window, the chat's language."""
    return {
        "action_seconds": settings.action_seconds,
        "time_bank": {
            "start": settings.time_bank_start,
            "refill": settings.time_bank_refill,
            "every": settings.time_bank_every,
            "max": settings.time_bank_max,
        },
        "reconnect_seconds": settings.reconnect_seconds,
        "disconnect_allins_per_day": settings.disconnect_allins_per_day,
        "allowance_resets_per_day": settings.allowance_resets_per_day,
        "sit_out_minutes": settings.sit_out_minutes,
        "waitlist_offer_seconds": settings.waitlist_offer_seconds,
        "reducing_minutes": settings.reducing_minutes,
        "language": settings.language,  # the chat's (§10.7)
    }


def seat_rows(table: Table, live: Sequence[int | None] | None) -> list[dict[str, Any] | None]:
    """Each seat as everyone sees it; ``live``: the stacks of the hand in progress by seat
    (None: the settled stacks)."""
    state = table.state
    seats: list[dict[str, Any] | None] = []
    for s, seat in enumerate(state.seats):
        if seat is None:
            seats.append(None)
            continue
        dealt = state.in_hand and s in state.dealt
        stack = live[s] if dealt and live is not None else None
        seats.append(
            {
                "seat": s,
                "player": seat.player,
                "stack": seat.stack if stack is None else stack,
                "sitting_out": seat.sitting_out,
                "sit_out_next": seat.sit_out_next,  # asked in a hand (public: SitOutRequested)
                # Stands up after the hand (public: LeaveRequested; the seat is free next
                # hand). Why is not said: a sanction is the staff's (rv.SANCTIONED).
                "leaving": seat.leaving,
                "connected": seat.connected,
                "owes": seat.owes,
                "post_now": seat.post_now,  # posts what it owes at once (public: SatIn)
                "time_bank": seat.time_bank,
                "dealt_in": dealt,
            }
        )
    return seats


def frame(
    table: Table,
    player: str | None,
    seats: list[dict[str, Any] | None],
    games: tuple[dict[str, Any], dict[str, Any]],
    hand: dict[str, Any] | None,
) -> dict[str, Any]:
    """The view every kind of table shares, around its ``seats``, its game and the
    next one (``games``), and ``hand``: the hand's own projection for this player."""
    state = table.state
    me = None if player is None else state.seat_of(player)
    turn = state.turn
    out: dict[str, Any] = {
        "table": table.settings.table_id,
        "currency": table.settings.currency.value,
        "hand_no": state.hand_no,
        "button": None if state.positions is None else state.positions.button,
        "game": games[0],
        "next_game": games[1],
        "mixed": None if table.settings.mixed is None else table.settings.mixed.badge,
        "hands_left": hands_left(table.settings, state.rotation_hand(state.hand_no), state.in_hand),
        "terms": terms(table.settings),
        "seats": seats,
        "turn": None if turn is None else dataclasses.asdict(turn),
        "waitlist": list(state.waitlist),
        # Seats held for the waiting list (§10.3): empty, yet no one else's to take.
        "held": sorted(offer.seat for offer in state.offers.values()),
        "chat": [
            {"player": line.player, "text": line.text, "at": line.at} for line in table.chat.lines
        ],
        "you": me,
        "hand": hand,
    }
    if me is not None:
        mine = state.seats[me]
        assert mine is not None
        out["advance"] = None if mine.advance is None else dataclasses.asdict(mine.advance)
        out["auto_muck"] = mine.auto_muck
    if player is not None and player in state.offers:
        out["offer"] = dataclasses.asdict(state.offers[player])
    return out


def table_view(table: Table, player: str | None) -> dict[str, Any]:
    """The table as ``player`` sees it (None: a spectator)."""
    state, hand = table.state, table.hand
    me = None if player is None else state.seat_of(player)
    live = hand is not None and state.in_hand
    seats = seat_rows(table, hand.stacks if live and hand is not None else None)
    slot = shown_game(table.settings, state.rotation_hand(state.hand_no), state.in_hand)
    games = (_game(table, slot.index), _game(table, slot.next_index))
    out = frame(table, player, seats, games, hand.view(me) if live and hand is not None else None)
    # Between hands ``game`` is the next hand's: what was dealt last is said apart.
    out["last_game"] = _game(table, state.game) if state.hand_no else None
    return out


CHINESE_EVENTS: tuple[type, ...] = ChineseEvent.__args__
"""The events of a Chinese poker hand (:mod:`cardroom.chinese.events`)."""


_DEPARTURES: Final = (rv.PlayerLeft, rv.LeaveRequested, rv.WaitlistLeft)
"""The events whose ``reason`` may name a sanction."""


def project(
    event: rv.RoomEvent | HandEvent | ChineseEvent, seat: int | None
) -> dict[str, Any] | None:
    """``event`` as ``seat`` may see it (None: not shown to that seat)."""
    if type(event) in rv.ROOM_EVENTS:
        if isinstance(event, rv.HIDDEN):
            return None
        if isinstance(event, rv.PRIVATE) and getattr(event, "seat", None) != seat:
            return None
        out = {"type": type(event).__name__}
        out.update(dataclasses.asdict(event))
        if getattr(event, "seat", None) != seat:
            for name in rv.OWN_FIELDS.get(type(event), ()):
                del out[name]  # another seat's own (rv.OWN_FIELDS)
        if out.get("reason") in rv.SANCTIONED and isinstance(event, _DEPARTURES):
            out["reason"] = "left"  # a sanction is the staff's business (rv.SANCTIONED)
        return out
    if isinstance(event, CHINESE_EVENTS):
        return chinese_event_view(cast(ChineseEvent, event), seat)
    return event_view(cast(HandEvent, event), seat)
