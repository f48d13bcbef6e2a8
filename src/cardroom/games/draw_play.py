"""The draw rules applied to a hand in progress (RULEBOOK §6.6–§6.7).

:class:`DrawPlay` is the per-hand state the :class:`~cardroom.games.hand.Hand`
consults on a draw street: who still has to draw (clockwise from the first
player still in left of the button, all-in players included), the muck, the
reshuffle when the stub runs out, and the seats that timed out on the draw and
may not bet or raise in the next betting round. It never touches the hand: it
takes cards from the hand's :class:`~cardroom.games.dealer.Dealer`, gets the
cards it needs as arguments and returns what changed. The rules themselves are
the pure functions of :mod:`cardroom.games.draw`.

A discard street (``Street.discard``, Irish) is played the same way, in the same
order, except that each player throws exactly that many cards and is dealt none;
a player who times out there has the last cards of the hand thrown for them
(:func:`~cardroom.games.draw.timed_out_discards`), and is not barred from raising:
that rule is the draw's (standing pat), and a discard cannot stand pat.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from cardroom.cards import Card
from cardroom.games import events as ev
from cardroom.games.actions import LegalActions
from cardroom.games.draw import draw_order, replace_cards, timed_out_discards

if TYPE_CHECKING:
    from cardroom.games.dealer import Dealer
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

    def open(
        self,
        dealer: Dealer,
        burn: bool,
        order: Sequence[int],
        live: list[int],
        out: list[ev.Event],
        discard: int = 0,
    ) -> None:
        """Start a draw (or, ``discard`` > 0, a discard street): burn (when ``burn`` and a
        card is left), list who draws: the ``live`` seats in dealing ``order``."""
        self.no_raise.clear()
        self.discard = discard
        if burn and dealer.stub > 0:
            card = dealer.card()
            self.muck.append(card)
            out.append(ev.Burned(card))
        self.pending = draw_order(order, live)

    def legal(self, seat: int, held: tuple[Card, ...]) -> LegalActions:
        """A drawing seat may discard from none to all of the cards it holds (``held``); on
        a discard street, exactly the street's number."""
        if self.discard:
            n = self.discard
            return LegalActions(seat, False, False, None, None, None, draw=n, held=held, draw_min=n)
        return LegalActions(seat, False, False, None, None, None, draw=len(held), held=held)

    def draw(
        self,
        dealer: Dealer,
        seat: int,
        hole: list[Card],
        discards: tuple[Card, ...],
        timed_out: bool,
        folded: Callable[[], list[tuple[int, list[Card]]]],
        out: list[ev.Event],
    ) -> list[Card]:
        """Discard ``discards`` from ``hole`` (checked by the hand against :meth:`legal`) and
        deal as many; returns the seat's new hand. ``timed_out``: the room stood the seat
        pat, and it may not bet or raise next round. ``folded`` gives the folded seats
        and their cards, which join the muck at a reshuffle."""
        if self.discard:
            return self._throw(seat, hole, discards, timed_out, out)
        gone = set(discards)
        if len(discards) <= dealer.stub:  # the usual case: the stub suffices
            dealt = tuple(dealer.cards(len(discards)))
            self.muck.extend(discards)
        else:
            dealt = self._reshuffle_and_deal(dealer, discards, folded(), out)
        kept = [c for c in hole if c not in gone] if gone else hole
        out.append(ev.Drew(seat, tuple(discards), dealt, timed_out))
        if timed_out:
            self.no_raise.add(seat)
        self.pending.pop(0)
        return kept + list(dealt)

    def _throw(
        self,
        seat: int,
        hole: list[Card],
        discards: tuple[Card, ...],
        timed_out: bool,
        out: list[ev.Event],
    ) -> list[Card]:
        """A discard street: the seat throws ``discards`` (the room's choice on a timeout)
        and is dealt nothing; returns the cards kept."""
        if timed_out:
            discards = timed_out_discards(hole, self.discard)
        gone = set(discards)
        self.muck.extend(discards)
        out.append(ev.Drew(seat, discards, (), timed_out))
        self.pending.pop(0)
        return [c for c in hole if c not in gone]

    def _reshuffle_and_deal(
        self,
        dealer: Dealer,
        discards: tuple[Card, ...],
        folded: list[tuple[int, list[Card]]],
        out: list[ev.Event],
    ) -> tuple[Card, ...]:
        """The stub runs out: shuffle the muck (folded hands joining it once) into a new one."""
        joining = [(s, cards) for s, cards in folded if s not in self.mucked_folds]
        muck = self.muck + [c for _, cards in joining for c in cards]
        start = dealer.position
        # A DrawError cannot happen within the seat limits; should it, apply restores the hand.
        r = replace_cards(dealer.deck[start:], muck, discards, self.reshuffle)
        self.mucked_folds.update(s for s, _ in joining)
        if r.reshuffled is not None:
            out.append(ev.StubReshuffled(r.reshuffled))
        dealer.restock([*r.dealt, *r.stub])
        dealer.position = start + len(r.dealt)
        self.muck = list(r.muck)
        return r.dealt
