"""The draw rules applied to a hand in progress (RULEBOOK §6.6–§6.7).

:class:`DrawPlay` is the per-hand state the :class:`~cardroom.games.hand.Hand`
consults on a draw street: who still has to draw (clockwise from the first
player still in left of the button, all-in players included), the muck, the
reshuffle when the stub runs out, and the seats that timed out on the draw and
may not bet or raise in the next betting round. The rules themselves are the
pure functions of :mod:`cardroom.games.draw`.

A discard street (``Street.discard``, Irish) is played the same way, in the same
order, except that each player throws exactly that many cards and is dealt none;
a player who times out there has the last cards of the hand thrown for them
(:func:`~cardroom.games.draw.timed_out_discards`), and is not barred from raising:
that rule is the draw's (standing pat), and a discard cannot stand pat.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardroom.cards import Card
from cardroom.games import events as ev
from cardroom.games.actions import LegalActions
from cardroom.games.draw import draw_order, replace_cards, timed_out_discards

if TYPE_CHECKING:
    from cardroom.games.hand import Hand
    from cardroom.games.reshuffle import Reshuffler


class DrawPlay:
    """Per-hand draw state: seats still to draw, the muck, the timed-out seats."""

    __slots__ = ("discard", "muck", "mucked_folds", "no_raise", "pending", "reshuffle")

    def __init__(self, reshuffle: Reshuffler) -> None:
        self.reshuffle = reshuffle
        self.discard = 0  # on a discard street: the cards each player throws
        self.pending: list[int] = []
        self.muck: list[Card] = []
        self.mucked_folds: set[int] = set()
        self.no_raise: set[int] = set()

    def __eq__(self, other: object) -> bool:
        """Equal state, so a hand compares equal to a copy of itself."""
        return type(other) is type(self) and all(
            getattr(self, name) == getattr(other, name) for name in self.__slots__
        )

    __hash__ = None  # type: ignore[assignment]

    def open(self, hand: Hand, out: list[ev.Event]) -> None:
        """Start a draw or a discard: burn (if the street burns, the table burns cards and
        a card is left), list who draws."""
        self.no_raise.clear()
        self.discard = hand.street.discard
        if hand.street.burn and hand.config.burn_cards and hand._next_card < len(hand._deck):
            card = hand._card()
            self.muck.append(card)
            out.append(ev.Burned(card))
        self.pending = draw_order(hand.order, [s for s in hand.order if hand._live[s]])

    def legal(self, seat: int, hand: Hand) -> LegalActions:
        """A drawing seat may discard from none to all of its cards; on a discard street,
        exactly the street's number."""
        held = tuple(hand._hole[seat])
        if self.discard:
            n = self.discard
            return LegalActions(seat, False, False, None, None, None, draw=n, held=held, draw_min=n)
        return LegalActions(seat, False, False, None, None, None, draw=len(held), held=held)

    def draw(
        self,
        hand: Hand,
        seat: int,
        discards: tuple[Card, ...],
        timed_out: bool,
        out: list[ev.Event],
    ) -> None:
        """Discard ``discards`` (checked by the hand against :meth:`legal`) and deal as many;
        ``timed_out``: the room stood the seat pat, and it may not bet or raise next round."""
        hole = hand._hole[seat]
        if self.discard:
            self._throw(hand, seat, discards, timed_out, out)
            return
        gone = set(discards)
        start, deck = hand._next_card, hand._deck
        if start + len(discards) <= len(deck):  # the usual case: the stub suffices
            dealt = tuple(deck[start : start + len(discards)])
            hand._next_card = start + len(dealt)
            self.muck.extend(discards)
        else:
            dealt = self._reshuffle_and_deal(hand, discards, out)
        kept = [c for c in hole if c not in gone] if gone else hole
        hand._hole[seat] = kept + list(dealt)
        out.append(ev.Drew(seat, tuple(discards), dealt, timed_out))
        if timed_out:
            self.no_raise.add(seat)
        self.pending.pop(0)
        if not self.pending and hand.street.betting:
            hand._open_round(hand.street_index)

    def _throw(
        self,
        hand: Hand,
        seat: int,
        discards: tuple[Card, ...],
        timed_out: bool,
        out: list[ev.Event],
    ) -> None:
        """A discard street: the seat throws ``discards`` (the room's choice on a timeout)."""
        hole = hand._hole[seat]
        if timed_out:
            discards = timed_out_discards(hole, self.discard)
        gone = set(discards)
        hand._up[seat] = [up for c, up in zip(hole, hand._up[seat], strict=True) if c not in gone]
        hand._hole[seat] = [c for c in hole if c not in gone]
        self.muck.extend(discards)
        out.append(ev.Drew(seat, discards, (), timed_out))
        self.pending.pop(0)
        if not self.pending and hand.street.betting:
            hand._open_round(hand.street_index)

    def _reshuffle_and_deal(
        self, hand: Hand, discards: tuple[Card, ...], out: list[ev.Event]
    ) -> tuple[Card, ...]:
        """The stub runs out: shuffle the muck (folded hands joining it once) into a new one."""
        folded = [s for s in hand.order if not hand._live[s] and s not in self.mucked_folds]
        muck = self.muck + [c for s in folded for c in hand._hole[s]]
        start = hand._next_card
        # A DrawError cannot happen within the seat limits; should it, apply restores the hand.
        r = replace_cards(hand._deck[start:], muck, discards, self.reshuffle)
        self.mucked_folds.update(folded)
        if r.reshuffled is not None:
            out.append(ev.StubReshuffled(r.reshuffled))
        hand._deck = [*hand._deck[:start], *r.dealt, *r.stub]
        hand._next_card = start + len(r.dealt)
        self.muck = list(r.muck)
        return r.dealt
