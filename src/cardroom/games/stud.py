"""Stud-family rules (RULEBOOK §4–§7): bring-in, first to act, open pairs, the community card.

Everything here is a pure function of cards and seats, so the state machine
asks it questions and never the other way round. Seats are passed *in dealing
order* (clockwise from the first seat left of the button), which is how every
positional tie is broken: earlier in that order is "closest clockwise from the
button".

>>> from cardroom.cards import parse_cards
>>> doors = [(1, parse_cards("3d")[0]), (4, parse_cards("3c")[0]), (6, parse_cards("Ks")[0])]
>>> bring_in_seat(doors, STUD_BRING_IN)
4
>>> bring_in_seat(doors, STUD_BRING_IN, by_position=True)
1
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from cardroom.cards import Card
from cardroom.games.options import (
    FOURTH_STREET_PAIR_CHOICES,
    STUD_ORDER_TIES_CHOICES,
    FourthStreetPair,
    StudOrderTies,
)


@dataclass(frozen=True, slots=True)
class BringInRule:
    """Which door card brings in: the lowest or the highest, and whether aces count low.

    Ties on rank go by suit in the same direction (the lowest card is the lowest
    suit, clubs first; the highest is the highest suit, spades first), unless the
    table sets ``bring_in_by_position``.
    """

    highest: bool
    aces_low: bool


STUD_BRING_IN = BringInRule(highest=False, aces_low=False)
"""Seven-Card Stud and Stud Hi-Lo: lowest door card, aces high, clubs lowest."""
RAZZ_BRING_IN = BringInRule(highest=True, aces_low=True)
"""Razz: highest door card, aces low (a king is highest), spades highest."""
SOKO_BRING_IN = BringInRule(highest=True, aces_low=False)
"""Soko: highest up card, aces high, spades > hearts > diamonds > clubs."""


def rank_value(card: Card, aces_low: bool) -> int:
    """The card's rank as a number to compare: 0 = deuce .. 12 = ace, or ace = -1 when low."""
    rank = card.rank
    return -1 if aces_low and rank == 12 else rank


def bring_in_seat(
    doors: Sequence[tuple[int, Card]], rule: BringInRule, *, by_position: bool = False
) -> int:
    """The seat that brings in, given ``(seat, door card)`` pairs in dealing order.

    ``by_position``: a tie on rank goes to the seat closest to the dealer's left
    (first in ``doors``) instead of to the suit order (seed 001).
    """
    if not doors:
        raise ValueError("no door cards: nobody can bring in")
    sign = 1 if rule.highest else -1
    low_ace = 12 if rule.aces_low else -1  # the rank that counts below the deuce, if any
    best_seat, best = -1, (-99, -99)
    for position, (seat, card) in enumerate(doors):
        rank = card >> 2  # a card is rank * 4 + suit
        tie = -position if by_position else sign * (card & 3)
        key = (sign * (-1 if rank == low_ace else rank), tie)
        if key > best:
            best_seat, best = seat, key
    return best_seat


# Made-hand categories of the up cards; straights and flushes never count.
_HIGH_CARD, _PAIR, _TWO_PAIR, _TRIPS, _FULL_HOUSE, _QUADS = range(6)


def showing_hand(up: Sequence[Card], *, aces_low: bool = False) -> tuple[int, ...]:
    """A comparable key for the up cards: ``(category, ranks...)``.

    Categories: high card < pair < two pair < trips < full house < quads
    (straights and flushes do not count). The ranks follow, grouped by
    multiplicity and then from the highest down. For high games the largest key
    is the best showing hand; for Razz (``aces_low=True``) the smallest key is
    the best (lowest) one, pairs counting against it.
    """
    # A card is rank * 4 + suit; in Razz an ace (12) counts below the deuce.
    if aces_low:
        ranks = sorted([(c >> 2) - 13 * (c >> 2 == 12) for c in up], reverse=True)
    else:
        ranks = sorted([c >> 2 for c in up], reverse=True)
    return _showing_key(tuple(ranks))


@lru_cache(maxsize=4096)
def _showing_key(ranks: tuple[int, ...]) -> tuple[int, ...]:
    """``showing_hand`` of ranks sorted from the highest down (cached: few distinct boards)."""
    counts = Counter(ranks)
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    if shape[:1] == [4]:
        category = _QUADS
    elif shape[:2] == [3, 2]:
        category = _FULL_HOUSE
    elif shape[:1] == [3]:
        category = _TRIPS
    elif shape[:2] == [2, 2]:
        category = _TWO_PAIR
    elif shape[:1] == [2]:
        category = _PAIR
    else:
        category = _HIGH_CARD
    return (category, *(rank for rank, count in groups for _ in range(count)))


def _suit_order(up: Sequence[Card], aces_low: bool) -> tuple[int, ...]:
    """Suits of the up cards in the showing hand's reading order (the highest card first)."""
    counts = Counter(rank_value(c, aces_low) for c in up)
    ordered = sorted(
        up,
        key=lambda c: (counts[rank_value(c, aces_low)], rank_value(c, aces_low), c.suit),
        reverse=True,
    )
    return tuple(c.suit for c in ordered)


def first_to_act(
    showing: Sequence[tuple[int, Sequence[Card]]],
    *,
    low: bool = False,
    ties: StudOrderTies = "position",
) -> int:
    """The seat that opens a stud betting round from 4th street on.

    ``showing`` holds ``(seat, up cards)`` for every player still in, in dealing
    order; a shared community card should be included in every player's up
    cards. High games: the best showing hand acts first; Razz (``low=True``):
    the lowest. Equal hands: the first in dealing order (``ties="position"``) or
    the suit of the highest card (``ties="suit"``: spades first in high games,
    clubs first in Razz, as in seed 000's example 6♣2♠ before 6♦2♣).
    """
    if not showing:
        raise ValueError("nobody is showing cards: no one can act first")
    if ties not in STUD_ORDER_TIES_CHOICES:
        raise ValueError(f"stud_order_ties must be one of {STUD_ORDER_TIES_CHOICES}, not {ties!r}")
    if ties == "position" and not low:
        return _best_high_showing(showing)
    sign = -1 if low else 1
    # One pass, keeping the first seat of the best key: in position order an earlier
    # seat wins an equal hand; by suit the suits decide (``max`` by key, unrolled).
    best_seat = -1
    best: tuple[tuple[int, ...], tuple[int, ...]] | None = None
    for position, (seat, up) in enumerate(showing):
        hand = showing_hand(up, aces_low=low)
        if low:
            hand = tuple(-v for v in hand)
        tie = tuple(sign * s for s in _suit_order(up, low)) if ties == "suit" else (-position,)
        key = (hand, tie)
        if best is None or key > best:
            best, best_seat = key, seat
    return best_seat


# A card's rank as one digit of a base-16 number: the sum over some cards counts each
# rank, whatever the order of the cards (a rank occurs at most four times).
RANK_DIGIT = tuple(1 << (4 * (c >> 2)) for c in range(52))
KEY_OF_COUNTS: dict[int, tuple[int, ...]] = {}
"""Showing keys by rank counts, filled as they are met (at most one per rank multiset)."""


def rank_counts(cards: Sequence[Card]) -> int:
    """How many cards of each rank ``cards`` hold, one base-16 digit per rank: the sum
    of two card sets' counts is the counts of both together."""
    return sum(map(RANK_DIGIT.__getitem__, cards))


def showing_key_of_counts(counts: int) -> tuple[int, ...]:
    """``showing_hand`` of the up cards whose :func:`rank_counts` is ``counts`` (high games).

    >>> from cardroom.cards import parse_cards
    >>> showing_key_of_counts(rank_counts(parse_cards("Kd 7c Ks")))
    (1, 11, 11, 5)
    """
    key = KEY_OF_COUNTS.get(counts)
    if key is None:  # cached: there are few distinct rank multisets
        ranks = tuple(r for r in range(12, -1, -1) for _ in range(counts >> 4 * r & 15))
        key = KEY_OF_COUNTS[counts] = _showing_key(ranks)
    return key


def _best_high_showing(showing: Sequence[tuple[int, Sequence[Card]]]) -> int:
    """:func:`first_to_act` of a high game with ties by position: the first best key wins."""
    return first_best_key([(showing_key_of_counts(rank_counts(up)), seat) for seat, up in showing])


def first_best_key(keys: Sequence[tuple[tuple[int, ...], int]]) -> int:
    """The seat of the best ``(showing key, seat)`` in position order: an equal later key
    does not win, the first in order does."""
    best_seat = -1
    best: tuple[int, ...] = ()
    for key, seat in keys:
        if key > best:  # any key beats the empty tuple
            best, best_seat = key, seat
    return best_seat


def has_open_pair(up: Sequence[Card]) -> bool:
    """True when the up cards hold a pair (or better) of the same rank."""
    ranks = {c >> 2 for c in up}
    return len(ranks) < len(up)


def fourth_street_bets(
    rule: FourthStreetPair,
    any_open_pair: bool,
    small_bet: int,
    big_bet: int,
    big_bet_made: bool,
) -> tuple[int, ...]:
    """The bet sizes allowed for the next bet or raise on 4th street.

    ``rule`` is the table's ``fourth_street_pair``; ``any_open_pair`` whether any
    player still in shows a pair; ``big_bet_made`` whether a big bet was already
    made this round (under ``"option"`` raises are then big). Returns one size, or
    ``(small, big)`` when the bettor may choose.
    """
    if rule not in FOURTH_STREET_PAIR_CHOICES:
        raise ValueError(
            f"fourth_street_pair must be one of {FOURTH_STREET_PAIR_CHOICES}, not {rule!r}"
        )
    if not any_open_pair or rule == "small":
        return (small_bet,)
    if rule == "big" or big_bet_made:
        return (big_bet,)
    return (small_bet, big_bet)


@dataclass(frozen=True, slots=True)
class SeventhStreetDeal:
    """How the last stud card is dealt: ``burn`` first or not, then each player a card or
    one community card; ``from_muck`` when the stub is empty and the muck must be shuffled."""

    burn: bool
    community: bool
    from_muck: bool


def plan_last_card(stub: int, players_in: int, burn_cards: bool) -> SeventhStreetDeal:
    """Decide how to deal one more card to each of ``players_in`` from a stub of ``stub`` cards.

    If the stub can give everyone a card (after the burn), it does. Otherwise one
    community card is dealt face up for all (RULEBOOK §6.4); the burn is then
    skipped unless a card would still remain for the community card, and if the
    stub is empty (eight players, burns) the community card comes from the
    shuffled muck.
    """
    burn = 1 if burn_cards else 0
    if stub >= burn + players_in:
        return SeventhStreetDeal(burn=burn_cards, community=False, from_muck=False)
    if stub == 0:
        return SeventhStreetDeal(burn=False, community=True, from_muck=True)
    return SeventhStreetDeal(burn=burn_cards and stub >= 2, community=True, from_muck=False)


@dataclass(frozen=True, slots=True)
class StudRules:
    """What makes a game a stud game, as data on its :class:`~cardroom.games.variants.Variant`:
    who brings in, and whether an open pair on 4th street can change the bet size (not in
    Razz). Whether the best or the lowest showing hand acts first is the game's
    ``first_to_act`` (``best_showing``, ``lowest_showing``)."""

    bring_in: BringInRule
    open_pair: bool = True


SEVEN_STUD_RULES = StudRules(STUD_BRING_IN)
RAZZ_RULES = StudRules(RAZZ_BRING_IN, open_pair=False)
SOKO_RULES = StudRules(SOKO_BRING_IN, open_pair=False)
