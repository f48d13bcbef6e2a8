"""Dealing order, and building a prearranged deck from known cards.

The hand deals from the top of its deck (index 0). :func:`street_deal` is the one
description of the order of a street's cards, which the hand, the stud and draw
rules, :func:`arrange_deck` and :func:`needed_cards` all read: a burn before the
players' cards (a stud street that burns), every ``hole_down`` card one at a time
to each player still in, clockwise from the first dealt-in seat left of the
button, round after round (:func:`round_robin`); then the ``hole_up`` cards the
same way; then a burn and the board cards; a draw burns before the first player
draws. Burns happen only when the street burns and the table's ``burn_cards`` is
on. :func:`arrange_deck` turns "who holds what" into a deck in that order, so a
hand history (PHH) or a test can replay a known deal; unknown cards (``None``)
are filled with cards nobody holds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeVar

from cardroom.cards import CARDS, Card, CardError, Deck, Seed, seed_key, shuffled
from cardroom.games.config import TableConfig
from cardroom.games.errors import ConfigError
from cardroom.games.variants import Street

T = TypeVar("T")

_ANY_CARD = frozenset(CARDS)


@lru_cache(maxsize=1024)
def rotations(order: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """``order`` starting at each of its positions in turn (shared: a table's order repeats).

    >>> rotations((2, 3, 0))
    ((2, 3, 0), (3, 0, 2), (0, 2, 3))
    """
    return tuple(order[i:] + order[:i] for i in range(len(order)))


def dealing_order(occupied: Sequence[bool], button: int) -> tuple[int, ...]:
    """Seats dealt in, clockwise starting left of the button (the button last).

    >>> dealing_order([True, False, True, True], button=0)
    (2, 3, 0)
    """
    n = len(occupied)
    return tuple(s for i in range(1, n + 1) if occupied[s := (button + i) % n])


@dataclass(frozen=True, slots=True)
class StreetDeal:
    """One street's cards in the order they leave the deck (see the module docstring)."""

    burn_first: bool
    """A burn before the players' cards (a stud street that burns)."""
    down: int
    up: int
    burn_board: bool
    """A burn before the board cards."""
    board: int
    draw: bool
    burn_draw: bool
    """A burn before the first player draws."""

    def cards(self, players: int) -> int:
        """How many cards the street takes off the deck for ``players`` (draws not counted)."""
        burns = self.burn_first + self.burn_board + self.burn_draw
        return burns + players * (self.down + self.up) + self.board


@lru_cache(maxsize=256)
def street_deal(street: Street, burn_cards: bool) -> StreetDeal:
    """The order of ``street``'s cards at a table that burns cards (``burn_cards``) or not.

    >>> from cardroom.games.variants import HOLDEM, STUD
    >>> street_deal(HOLDEM.streets[1], True).cards(6)  # a burn and the flop
    4
    >>> fourth = street_deal(STUD.streets[1], True)  # a burn, then an up card each
    >>> fourth.burn_first, fourth.up, fourth.cards(6)
    (True, 1, 7)
    """
    burn = street.burn and burn_cards
    players = street.hole_down + street.hole_up > 0
    return StreetDeal(
        burn_first=burn and players and not street.board and not street.draw,
        down=street.hole_down,
        up=street.hole_up,
        burn_board=burn and street.board > 0,
        board=street.board,
        draw=street.draw or street.discard > 0,  # a discard street is played as a draw
        burn_draw=burn and (street.draw or street.discard > 0),
    )


def round_robin(hands: Sequence[Sequence[T]]) -> list[T]:
    """The deck order that deals ``hands`` (each player's cards of one street, down cards
    first, players in dealing order) one card at a time round the table: the inverse of
    :meth:`cardroom.games.dealer.Dealer.round_robin`.

    >>> round_robin([["As", "7c", "3s"], ["Kd", "2h"]])
    ['As', 'Kd', '7c', '2h', '3s']
    """
    width = max((len(h) for h in hands), default=0)
    return [h[r] for r in range(width) for h in hands if r < len(h)]


def needed_cards(config: TableConfig, players: int) -> int:
    """How many cards a hand of ``players`` may deal at most (burns included)."""
    burns = config.burn_cards
    needed = sum(street_deal(st, burns).cards(players) for st in config.variant.streets)
    # Stud: a full table cannot all get a 7th card (the community card rule).
    return min(needed, len(config.variant.cards))


def shuffle_deck(cards: Sequence[Card], seed: Seed | None = None) -> list[Card]:
    """``cards`` in a random order: :func:`cardroom.cards.shuffled` (the OS CSPRNG without
    a seed, real play; reproducibly from ``seed`` for tests and replays), with a bad seed
    reported as :class:`ConfigError` like every other bad input of a hand.

    >>> shuffle_deck(CARDS, seed=7) == shuffle_deck(CARDS, seed=7) != shuffle_deck(CARDS, seed=8)
    True
    >>> sorted(shuffle_deck(CARDS)) == list(CARDS)
    True
    """
    check_seed(seed)
    return shuffled(cards, seed)


def check_seed(seed: Seed | None) -> None:
    """Raise :class:`ConfigError` unless ``seed`` is None or a seed
    (:func:`cardroom.cards.seed_key` says which values are)."""
    if seed is not None:
        try:
            seed_key(seed)  # a caller may pass any value at run time
        except (CardError, ValueError) as exc:  # ValueError: an int past 4300 digits
            raise ConfigError(f"not a seed: {exc}") from None


def arrange_deck(
    config: TableConfig,
    order: Sequence[int],
    holes: Mapping[int, Sequence[Card | None]],
    board: Sequence[Card | None] = (),
    burns: Sequence[Card | None] = (),
) -> list[Card]:
    """A deck that deals ``holes`` (per seat, in the order each seat receives its cards)
    and ``board`` when every player in ``order`` stays in to the end.

    ``burns`` gives the burn cards in order (unknown ones are filled). Missing or
    ``None`` cards become unused cards of the variant's deck, in deck order.
    """
    universe = config.variant.cards
    slots: list[Card | None] = []
    held = dict.fromkeys(order, 0)  # cards placed so far, by seat
    burned = iter(burns)
    shared = iter(board)
    for street in config.variant.streets:
        deal = street_deal(street, config.burn_cards)
        if deal.burn_first:
            slots.append(next(burned, None))
        count = deal.down + deal.up
        if count:
            cards = [_padded(holes.get(s, ()), held[s], count) for s in order]
            slots.extend(round_robin(cards))
            held.update((s, held[s] + count) for s in order)
        if deal.board:
            if deal.burn_board:
                slots.append(next(burned, None))
            slots.extend(next(shared, None) for _ in range(deal.board))
    known = [c for c in slots if c is not None]
    if len(set(known)) != len(known):
        raise ConfigError("the same card is dealt twice")
    allowed = set(universe)
    bad = [c for c in known if c not in allowed]
    if bad:
        raise ConfigError(f"{Card(bad[0])} is not in the {config.variant.title} deck")
    taken = set(known)
    spare = iter([c for c in universe if c not in taken])
    deck = [c if c is not None else next(spare) for c in slots]
    deck.extend(spare)
    return deck


def _padded(cards: Sequence[Card | None], start: int, count: int) -> list[Card | None]:
    """``count`` of ``cards`` from ``start``, unknown (None) past their end."""
    return [cards[i] if i < len(cards) else None for i in range(start, start + count)]


def build_deck(
    config: TableConfig,
    deck: Sequence[Card] | Deck | None,
    seed: Seed | None,
    needed: int,
) -> list[Card]:
    """The deck a hand deals from: shuffled (``seed`` or CSPRNG) or the prearranged ``deck``,
    checked for repeats, foreign cards and size (``needed`` cards at most)."""
    universe = config.variant.cards
    check_seed(seed)  # also when a deck is given: the seed orders the hand's reshuffles
    if deck is None:
        return shuffled(universe, seed)
    cards = list(deck.cards) if isinstance(deck, Deck) else list(deck)
    if len(set(cards)) != len(cards):
        raise ConfigError("the deck holds the same card twice")
    allowed = set(universe)
    for c in cards:
        if isinstance(c, bool) or not isinstance(c, int) or c not in _ANY_CARD:
            raise ConfigError(f"{c!r} is not a card")
        if c not in allowed:
            raise ConfigError(f"{Card(c)} is not in the {config.variant.title} deck")
    if len(cards) < needed:
        raise ConfigError(f"the deck has {len(cards)} cards; this hand may need {needed}")
    return [Card(c) for c in cards]


def button_by_high_card(seats: Sequence[int], deck: Sequence[Card]) -> tuple[int, dict[int, Card]]:
    """Draw for the button at a new table (RULEBOOK §3): one card face up to each of
    ``seats`` in order from the top of ``deck``; the highest card wins, ties by suit
    (spades highest). Returns the button seat and the card each seat drew.

    >>> from cardroom.cards import parse_cards
    >>> button_by_high_card([0, 3, 5], parse_cards("Kd Ks 9c"))[0]
    3
    """
    if len(deck) < len(seats) or not seats:
        raise ConfigError("the draw for the button needs a card for every seat")
    drawn = {seat: Card(deck[i]) for i, seat in enumerate(seats)}
    # A card's index orders rank first, then suit clubs < diamonds < hearts < spades.
    return max(drawn, key=drawn.__getitem__), drawn
