"""The only projections of a hand: what one seat (or a spectator) may see.

:func:`view` gives the table state and :func:`event_view` one event, both as
JSON-able dicts. A player sees their own cards, every face-up card, the board,
and hands shown at showdown; never another seat's down cards, the deck or a
burn card. ``seat=None`` is the spectator, who sees only public cards. Hidden
cards appear as ``None`` so their number stays visible.
"""

from __future__ import annotations

from dataclasses import fields
from typing import TYPE_CHECKING, Any

from cardroom.cards import Card
from cardroom.games import events as ev
from cardroom.games.config import config_to_dict

if TYPE_CHECKING:
    from cardroom.games.hand import Hand


def _card(c: Card) -> str:
    return str(Card(c))


def _cards(cards: tuple[Card, ...] | list[Card]) -> list[str]:
    return [_card(c) for c in cards]


def _seat_cards(hand: Hand, s: int, viewer: int | None) -> list[str | None]:
    cards = hand.hole_cards(s)
    if s == viewer or s in hand.shown:
        return [_card(c) for c in cards]
    return [_card(c) if up else None for c, up in zip(cards, hand.up_flags(s), strict=True)]


def _last_draws(hand: Hand) -> dict[int, int]:
    """How many cards each seat drew at its last draw of the hand (public, as the
    :class:`~cardroom.games.events.Drew` event's count is)."""
    return {e.seat: len(e.dealt) for e in hand.events if isinstance(e, ev.Drew)}


def view(hand: Hand, seat: int | None) -> dict[str, Any]:
    """The table as ``seat`` sees it (``None``: a spectator)."""
    cfg = hand.config
    stacks, bets = hand.stacks, hand.bets
    drew = _last_draws(hand)
    seats: list[dict[str, Any] | None] = []
    for s, spec in enumerate(hand.seats):
        if spec is None:
            seats.append(None)
            continue
        seats.append(
            {
                "seat": s,
                "stack": stacks[s],
                "bet": bets[s],
                "in_hand": hand.is_live(s),
                "all_in": hand.is_all_in(s),
                "cards": _seat_cards(hand, s, seat),
                "drew": drew.get(s),  # None: no draw yet this hand
            }
        )
    out: dict[str, Any] = {
        "game": cfg.variant.name,
        "title": cfg.variant.title,
        "deck": cfg.variant.deck,
        "structure": cfg.betting,
        "table": config_to_dict(cfg),  # every option is shown to players
        "button": hand.button,
        "street": hand.street.name,
        "board": _cards(hand.board),
        "pots": [{"amount": p.amount, "eligible": list(p.eligible)} for p in hand.pots()],
        "current_bet": hand.current_bet,
        "actor": hand.actor,
        "over": hand.is_over,
        "cancelled": hand.cancelled,
        "seats": seats,
        "you": seat,
    }
    if seat is not None and seat == hand.actor:
        legal = hand.legal_actions(seat)
        out["legal"] = {
            "actions": list(legal.kinds),
            "call": legal.call,
            "min_raise_to": legal.min_raise_to,
            "max_raise_to": legal.max_raise_to,
            "bring_in": legal.bring_in,
            "draw": legal.draw,
            "draw_min": legal.draw_min,
            "raise_sizes": list(legal.raise_sizes),
            "no_raise": legal.no_raise,
        }
    if hand.result is not None:
        out["result"] = _result(hand)
    return out


def _result(hand: Hand) -> dict[str, Any]:
    result = hand.result
    assert result is not None
    return {
        "rake": result.rake,
        "stacks": list(result.stacks),
        "pots": [
            {
                "pot": p.index,
                "amount": p.amount,
                "rake": p.rake,
                "eligible": list(p.eligible),
                "awards": [
                    {
                        "seat": a.seat,
                        "amount": a.amount,
                        "share": a.share,
                        "hand": a.hand,
                        "cards": _cards(a.cards),
                    }
                    for a in p.awards
                ],
            }
            for p in result.pots
        ],
    }


def event_view(event: ev.Event, seat: int | None) -> dict[str, Any]:
    """One event as ``seat`` may see it, as a JSON-able dict with its ``type``."""
    kind = type(event).__name__
    if isinstance(event, ev.HandStarted):
        return {
            "type": kind,
            "game": event.config.variant.name,
            "deck": event.config.variant.deck,  # public: which cards can come
            "structure": event.config.betting,
            "table": config_to_dict(event.config),
            "button": event.button,
            "stacks": [None if s is None else s.stack for s in event.seats],
        }
    if isinstance(event, ev.Burned):
        return {"type": kind}
    if isinstance(event, ev.StubReshuffled):
        return {"type": kind, "count": len(event.cards)}
    if isinstance(event, ev.Drew):
        # Who drew how many is public; which cards went and came is the drawer's alone.
        drew: dict[str, Any] = {"type": kind, "seat": event.seat, "count": len(event.dealt)}
        drew["timed_out"] = event.timed_out
        if event.seat == seat:
            drew["discarded"] = _cards(event.discarded)
            drew["dealt"] = _cards(event.dealt)
        return drew
    if isinstance(event, ev.HoleDealt):
        mine = event.seat == seat
        cards = [
            _card(c) if mine or up else None for c, up in zip(event.cards, event.up, strict=True)
        ]
        return {"type": kind, "seat": event.seat, "cards": cards, "up": list(event.up)}
    out: dict[str, Any] = {"type": kind}
    for f in fields(event):
        value = getattr(event, f.name)
        if isinstance(value, tuple):
            value = [_card(c) for c in value] if f.name == "cards" else list(value)
        out[f.name] = value
    return out
