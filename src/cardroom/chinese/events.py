"""Actions and events of a Chinese poker hand.

Events are the truth: :meth:`ChineseHand.replay` rebuilds a hand's state from
them exactly. They hold everything, hidden cards included (the deck, a
Fantasyland hand, the discards); what each seat may see is cut out only in
:mod:`cardroom.chinese.views`. Every event turns into JSON data and back
through :mod:`cardroom.chinese.codec` for the event log.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from cardroom.cards import CARDS, Card, CardError, parse_cards
from cardroom.chinese.errors import ChineseError


def _cards(value: Iterable[int | str]) -> tuple[Card, ...]:
    out: list[Card] = []
    for c in value:
        if isinstance(c, str):
            try:
                out.extend(parse_cards([c]))
            except CardError as exc:
                raise ChineseError(str(exc)) from None
        elif isinstance(c, int) and not isinstance(c, bool) and 0 <= c < 52:
            out.append(CARDS[c])
        else:
            raise ChineseError(f"{c!r} is not a card")
    return tuple(out)


@dataclass(frozen=True)
class Place:
    """A player's placement: cards added to each row, left to right, and cards discarded.

    One action serves every game: the first five of OFC, a Pineapple street
    (two placed, one discarded), a classic hand or a Fantasyland set (all
    thirteen, pressing Play). Cards may be given as ``Card`` or as names.
    """

    seat: int
    top: tuple[Card, ...] = ()
    middle: tuple[Card, ...] = ()
    bottom: tuple[Card, ...] = ()
    discard: tuple[Card, ...] = ()

    @classmethod
    def of(
        cls,
        seat: int,
        *,
        top: Iterable[int | str] = (),
        middle: Iterable[int | str] = (),
        bottom: Iterable[int | str] = (),
        discard: Iterable[int | str] = (),
    ) -> Place:
        """Build from card names or cards; raises :class:`ChineseError` for a non-card."""
        return cls(seat, _cards(top), _cards(middle), _cards(bottom), _cards(discard))

    @property
    def placed(self) -> tuple[Card, ...]:
        """Every card put into a row."""
        return self.top + self.middle + self.bottom


@dataclass(frozen=True)
class PlaceOptions:
    """What a seat may do now: place ``place`` of ``cards`` into free slots, discard the rest."""

    seat: int
    cards: tuple[Card, ...]
    place: int
    discard: int
    free: Mapping[str, int]
    face_down: bool


@dataclass(frozen=True)
class HandStarted:
    """A hand begins. ``seats`` is the play order (left of the button first);
    ``fantasyland`` the cards each of them is dealt in Fantasyland (0 for none)."""

    variant: str
    seats: tuple[int, ...]
    button: int
    fantasyland: tuple[int, ...]
    point_value: int
    deck: tuple[Card, ...]
    royalties: Mapping[str, Any] | None = None
    kind: str = field(default="hand_started", init=False)


@dataclass(frozen=True)
class CardsDealt:
    """Cards dealt to one seat for a street (street 0 also carries a Fantasyland deal)."""

    seat: int
    street: int
    cards: tuple[Card, ...]
    kind: str = field(default="cards_dealt", init=False)


@dataclass(frozen=True)
class CardsPlaced:
    """A seat placed cards (face down for classic and Fantasyland until the showdown)."""

    seat: int
    street: int
    top: tuple[Card, ...]
    middle: tuple[Card, ...]
    bottom: tuple[Card, ...]
    discarded: tuple[Card, ...]
    face_down: bool
    kind: str = field(default="cards_placed", init=False)


@dataclass(frozen=True)
class SeatResult:
    """One seat at the showdown: its rows (now public), foul, royalties, units and chips."""

    seat: int
    top: tuple[Card, ...]
    middle: tuple[Card, ...]
    bottom: tuple[Card, ...]
    fouled: bool
    royalties: Mapping[str, int]
    points: int
    chips: int
    fantasyland_next: int


@dataclass(frozen=True)
class HandSettled:
    """The showdown: every seat's result; points and chips sum to zero."""

    results: tuple[SeatResult, ...]
    kind: str = field(default="hand_settled", init=False)


Event = HandStarted | CardsDealt | CardsPlaced | HandSettled
