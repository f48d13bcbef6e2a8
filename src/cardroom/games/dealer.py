"""The dealer of one hand: the deck and the position of its next card.

A :class:`Dealer` is the only thing that takes cards off a hand's deck. The
:class:`~cardroom.games.hand.Hand` and the family rules (stud's burns and
community card, a draw's replacements) ask it for cards; when a draw or stud's
last card needs the muck shuffled into a new stub, :meth:`Dealer.restock` puts
that stub after the cards already dealt. The order the cards go out in is
described once, in :mod:`cardroom.games.dealing`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cardroom.cards import Card


@dataclass(slots=True)
class Dealer:
    """A deck (top first) and ``position``, the index of the next card to deal."""

    deck: list[Card]
    position: int = 0

    @property
    def stub(self) -> int:
        """How many cards are left to deal."""
        return len(self.deck) - self.position

    def card(self) -> Card:
        """Deal the next card.

        >>> from cardroom.cards import parse_cards
        >>> dealer = Dealer(parse_cards("As Kd 7c"))
        >>> str(dealer.card()), dealer.stub
        ('As', 2)
        """
        card = self.deck[self.position]
        self.position += 1
        return card

    def cards(self, count: int) -> list[Card]:
        """Deal the next ``count`` cards (fewer when the stub runs out)."""
        start = self.position
        dealt = self.deck[start : start + count]
        self.position = start + len(dealt)
        return dealt

    def round_robin(self, players: int, down: int, up: int) -> list[tuple[Card, ...]]:
        """One street's cards to ``players`` players, one card at a time round the table,
        the face-down ones first: player ``j`` gets cards ``j, j + players, ...`` of each
        block. Returns each player's cards, down ones first.

        >>> from cardroom.cards import parse_cards, format_cards
        >>> dealt = Dealer(parse_cards("As Kd 7c 2h 3s 4s")).round_robin(2, 2, 1)
        >>> [format_cards(cards) for cards in dealt]
        ['As 7c 3s', 'Kd 2h 4s']
        """
        start, deck = self.position, self.deck
        downs = deck[start : start + players * down]
        ups = deck[start + players * down : start + players * (down + up)]
        self.position = start + players * (down + up)
        return [(*downs[j::players], *ups[j::players]) for j in range(players)]

    def restock(self, stub: Sequence[Card]) -> None:
        """Replace the cards not yet dealt with ``stub`` (a muck shuffled into a new stub)."""
        self.deck = [*self.deck[: self.position], *stub]
