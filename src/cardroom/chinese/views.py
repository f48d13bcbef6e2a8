"""What each seat may see: the one place hidden cards are cut out.

Public: every face-up placed card, who is in Fantasyland, how many cards
each player holds, placed face down or discarded, and the showdown. Private
(to the owner only): one's unplaced cards, one's discards (Pineapple,
Fantasyland; they stay private after the showdown), and cards set face down
(classic and Fantasyland) until the showdown reveals the rows. The deck is
never shown. ``seat=None`` is a spectator.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardroom.chinese.codec import encode_event
from cardroom.chinese.events import (
    CardsDealt,
    CardsPlaced,
    Event,
    HandSettled,
    HandStarted,
)
from cardroom.chinese.variants import ROWS

if TYPE_CHECKING:
    from cardroom.chinese.hand import ChineseHand, PlayerState


def project_hand(hand: ChineseHand, seat: int | None) -> dict[str, Any]:
    """The hand as ``seat`` sees it (``None``: a spectator)."""
    return {
        "variant": hand.variant.key,
        "name": hand.variant.name,
        "button": hand.button,
        "seats": list(hand.seats),
        "point_value": hand.point_value,
        "street": hand.street,
        "to_act": list(hand.to_act()),
        "finished": hand.finished,
        "players": [_player(hand, p, seat) for p in hand.players.values()],
        "results": _results(hand),
        "options": _options(hand, seat),
    }


def _options(hand: ChineseHand, seat: int | None) -> dict[str, Any] | None:
    """What the viewer may do now (their own cards only), or None."""
    options = hand.legal_actions(seat) if seat is not None else []
    if not options:
        return None
    opt = options[0]
    return {"place": opt.place, "discard": opt.discard, "free": dict(opt.free)}


def _player(hand: ChineseHand, p: PlayerState, viewer: int | None) -> dict[str, Any]:
    mine = viewer == p.seat
    revealed = mine or hand.finished
    hidden = set() if revealed else set(p.face_down)
    return {
        "seat": p.seat,
        "in_fantasyland": bool(p.fantasyland),
        "rows": {r: [str(c) for c in p.rows[r] if c not in hidden] for r in ROWS},
        "face_down": len(hidden),
        "pending": [str(c) for c in p.pending] if mine else len(p.pending),
        "discards": [str(c) for c in p.discards] if mine else len(p.discards),
    }


def _results(hand: ChineseHand) -> list[dict[str, Any]] | None:
    if hand.results is None:
        return None
    return list(encode_event(HandSettled(hand.results))["results"])


def project_event(event: Event, seat: int | None) -> dict[str, Any]:
    """An event as ``seat`` may receive it."""
    data = encode_event(event)
    if isinstance(event, HandStarted):
        del data["deck"]
        data["deck_size"] = len(event.deck)
        return data
    if isinstance(event, CardsDealt) and event.seat != seat:
        data["cards"] = len(event.cards)
    if isinstance(event, CardsPlaced) and event.seat != seat:
        data["discarded"] = len(event.discarded)
        if event.face_down:
            for row in ROWS:
                data[row] = len(getattr(event, row))
    return data
