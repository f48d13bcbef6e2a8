"""The stud rules applied to a hand in progress (RULEBOOK §4–§7, stud family).

:class:`StudPlay` is the per-hand stud state (the bring-in, the 4th-street open
pair, the burns). The :class:`~cardroom.games.hand.Hand` asks it for decisions
at a few points of its state machine and applies them itself: how to deal a
street (burn before the up card, the community card when the deck runs short),
who opens a betting round (the bring-in seat, the best or lowest showing hand:
the game's ``first_to_act`` data), the bet sizes (completing the bring-in, the
4th-street open pair), and who shows first. StudPlay never touches the hand:
it gets the cards and amounts it needs as arguments. The rules themselves are
the pure functions of :mod:`cardroom.games.stud`.

Readings: a bring-in seat already all-in on the ante passes the bring-in to
the next player able to act (as PokerKit); an all-in over the bring-in of at
least half the completion counts as the completion (RULEBOOK §5's half rule).
Verified in fixed limit (the stud default); other structures are untested.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from cardroom.cards import Card
from cardroom.games import events as ev
from cardroom.games.actions import LegalActions
from cardroom.games.stud import (
    StudRules,
    bring_in_seat,
    first_best_key,
    first_to_act,
    fourth_street_bets,
    has_open_pair,
    plan_last_card,
    rank_counts,
    showing_key_of_counts,
)
from cardroom.games.variants import BEST_SHOWING, BRING_IN_PLAYER, LOWEST_SHOWING

if TYPE_CHECKING:
    from cardroom.games.config import TableConfig
    from cardroom.games.dealer import Dealer
    from cardroom.games.dealing import StreetDeal
    from cardroom.games.reshuffle import Reshuffler
    from cardroom.games.variants import Street

Holes = Sequence[Sequence[Card]]
"""Every seat's cards, by seat, in the order dealt."""
Flags = Sequence[Sequence[bool]]
"""Which of every seat's cards are face up, by seat."""


class StudPlay:
    """Per-hand stud state: the bring-in, the 4th-street bet choice, the burns."""

    __slots__ = (
        "big_bet_made",
        "bring_in_due",
        "bring_in_seat",
        "burns",
        "config",
        "low",
        "open_pair",
        "rules",
        "up_slices",
    )

    def __init__(self, rules: StudRules, config: TableConfig) -> None:
        self.rules = rules
        self.config = config
        self.up_slices = up_card_slices(config.variant.streets)
        # Razz: the lowest showing hand acts first (the game's first_to_act says which).
        self.low = config.variant.first_to_act[1] == LOWEST_SHOWING
        self.bring_in_seat: int | None = None
        self.bring_in_due = False
        self.open_pair = False
        self.big_bet_made = False
        self.burns: list[Card] = []

    def __eq__(self, other: object) -> bool:
        """Equal state, so a hand compares equal to a copy of itself."""
        return type(other) is type(self) and all(
            getattr(self, name) == getattr(other, name) for name in self.__slots__
        )

    __hash__ = None  # type: ignore[assignment]

    # ----------------------------------------------------------------- dealing

    def deal(
        self,
        dealer: Dealer,
        deal: StreetDeal,
        players_in: int,
        folded: Callable[[], list[tuple[int, list[Card]]]],
        reshuffle: Reshuffler,
        out: list[ev.Event],
    ) -> Card | None:
        """Burn before a stud street; when the deck runs short, deal the community card.

        Returns that card (the hand puts it on the board) or None: the hand deals the
        players' cards as usual. ``folded`` gives the folded seats and their cards, which
        join the burns in the muck when the stub is empty.
        """
        burn = deal.burn_first
        if deal.down + deal.up != 1:
            if burn:
                self._burn(dealer, out)
            return None
        plan = plan_last_card(dealer.stub, players_in, burn)
        if plan.burn:
            self._burn(dealer, out)
        if not plan.community:
            return None
        if plan.from_muck:
            stub = reshuffle(self.burns + [c for _, cards in folded() for c in cards])
            out.append(ev.StubReshuffled(tuple(stub)))
            dealer.restock(stub)
        card = dealer.card()
        out.append(ev.BoardDealt((card,)))
        return card

    def _burn(self, dealer: Dealer, out: list[ev.Event]) -> None:
        card = dealer.card()
        self.burns.append(card)
        out.append(ev.Burned(card))

    # ----------------------------------------------------------------- betting

    def opener(
        self,
        rule: str,
        index: int,
        live: list[int],
        holes: Holes,
        flags: Flags,
        board: Sequence[Card],
    ) -> int:
        """The seat that opens round ``index`` under the game's first-to-act ``rule``."""
        if rule == BRING_IN_PLAYER:
            return self.bring_in_opener(live, holes, flags)
        if rule not in (BEST_SHOWING, LOWEST_SHOWING):
            raise ValueError(f"a stud round cannot open by {rule!r}")
        low = rule == LOWEST_SHOWING
        return self.showing_opener(index, live, holes, flags, board, low=low)

    def bring_in_opener(self, live: list[int], holes: Holes, flags: Flags) -> int:
        """The seat that brings in (it opens the first round); the bring-in is then due."""
        where = self.up_slices[0]  # the door card is the last up card
        if where is None:
            doors = [(s, _up_cards(holes[s], flags[s])[-1]) for s in live]
        else:
            doors = [(s, holes[s][where.stop - 1]) for s in live]
        seat = bring_in_seat(
            doors, self.rules.bring_in, by_position=self.config.bring_in_by_position
        )
        self.bring_in_seat = seat
        self.bring_in_due = self.config.stakes.effective_bring_in > 0
        return seat

    def showing_opener(
        self,
        index: int,
        live: list[int],
        holes: Holes,
        flags: Flags,
        board: Sequence[Card],
        *,
        low: bool,
    ) -> int:
        """The seat that opens round ``index`` (4th street on): the best showing hand, or
        the lowest (``low``); notes a 4th-street open pair."""
        self.big_bet_made = False
        self.bring_in_due = False  # a 3rd street nobody could act on leaves none owed
        ups = self._showing(live, holes, flags, index)
        pairs = index == 1 and self.rules.open_pair
        if board or low or self.config.stud_order_ties != "position":
            self.open_pair = pairs and any(has_open_pair(up) for _, up in ups)
            return self.best_showing(ups, board, low=low)
        # The usual case (a high game, ties by position): each showing key found once.
        keys = [(showing_key_of_counts(rank_counts(up)), s) for s, up in ups]
        self.open_pair = pairs and any(key[0] for key, _ in keys)  # a pair or better
        return first_best_key(keys)

    def best_showing(
        self, ups: list[tuple[int, Sequence[Card]]], board: Sequence[Card], *, low: bool
    ) -> int:
        """:func:`~cardroom.games.stud.first_to_act` of ``(seat, up cards)`` with the board."""
        showing = [(s, [*up, *board]) for s, up in ups] if board else ups
        return first_to_act(showing, low=low, ties=self.config.stud_order_ties)

    def _showing(
        self, live: list[int], holes: Holes, flags: Flags, index: int
    ) -> list[tuple[int, Sequence[Card]]]:
        """``(seat, up cards)`` of the ``live`` seats after street ``index`` was dealt."""
        where = self.up_slices[index]
        if where is not None:  # every seat's up cards sit together (all stud games)
            return [(s, holes[s][where]) for s in live]
        return [(s, _up_cards(holes[s], flags[s])) for s in live]

    def first_to_show(
        self, index: int, live: list[int], holes: Holes, flags: Flags, board: Sequence[Card]
    ) -> int | None:
        """Who shows first when nobody bet the last round: the best showing hand (Razz:
        the lowest)."""
        if not live:
            return None
        return self.best_showing(self._showing(live, holes, flags, index), board, low=self.low)

    def bring_in_amount(self, stack: int) -> int:
        """The bring-in a seat with ``stack`` chips posts (all-in for less when short)."""
        return min(self.config.stakes.effective_bring_in, stack)

    def posted_bring_in(self, amount: int) -> bool:
        """The bring-in was posted; True when it is the opening bet (a full small bet)."""
        self.bring_in_due = False
        return amount >= self.config.stakes.effective_small_bet

    def legal_bring_in(
        self, seat: int, amount: int, bounds: tuple[int, int] | None
    ) -> LegalActions:
        """The bring-in seat's first decision: post ``amount`` or complete within ``bounds``."""
        lo, hi = (None, None) if bounds is None else bounds
        return LegalActions(seat, False, False, None, lo, hi, bring_in=amount)

    def bet_size(self, street: int, bets: int, to_match: int, size: int) -> int:
        """The fixed-limit full bet now: completing the bring-in (no bet yet on 3rd street,
        ``to_match`` the bring-in), the open-pair big bet on 4th street, else ``size``."""
        if street == 0 and bets == 0:
            return size - to_match  # completing the bring-in: the bet becomes the small bet
        if street == 1 and self.open_pair:
            stakes = self.config.stakes
            sizes = fourth_street_bets(
                self.config.fourth_street_pair,
                True,
                stakes.effective_small_bet,
                stakes.effective_big_bet,
                self.big_bet_made,
            )
            return sizes[0]
        return size

    def choice(self, street: int) -> int | None:
        """The big bet when the bettor may choose it instead (``fourth_street_pair="option"``)."""
        if not self.open_pair or self.big_bet_made or street != 1:
            return None
        if self.config.fourth_street_pair != "option":
            return None
        return self.config.stakes.effective_big_bet

    def widen(
        self, street: int, bounds: tuple[int, int], to_match: int, all_in: int
    ) -> tuple[int, int]:
        """Raise bounds with the open-pair option: up to the big bet instead of the small
        (``all_in``: the seat's bet with its whole stack)."""
        big = self.choice(street)
        lo, hi = bounds
        if big is None:
            return bounds
        return lo, max(hi, min(to_match + big, all_in))

    def after_raise(self, street: int, size: int) -> None:
        """A raise completes the bring-in; a big bet on 4th street makes later raises big."""
        self.bring_in_due = False
        if street == 1 and size >= self.config.stakes.effective_big_bet:
            self.big_bet_made = True


def raise_sizes(bounds: tuple[int, int] | None) -> tuple[int, ...]:
    """The totals a bet may reach under the open-pair option: the small or the big bet."""
    return () if bounds is None else tuple(sorted(set(bounds)))


@lru_cache(maxsize=64)
def up_card_slices(streets: tuple[Street, ...]) -> tuple[slice | None, ...]:
    """Where each player's up cards sit in the hand after each street is dealt.

    Every player still in gets the same cards street by street (face-down ones
    first), so the up cards have the same positions in every hand: one slice
    per street, or ``None`` when they are not together (then the flags decide).
    The community card is on the board, not in the hands.

    >>> from cardroom.games.variants import VARIANTS
    >>> up_card_slices(VARIANTS["stud"].streets)
    (slice(2, 3, None), slice(2, 4, None), slice(2, 5, None), slice(2, 6, None), slice(2, 6, None))
    """
    out: list[slice | None] = []
    up: list[int] = []
    held = 0
    for street in streets:
        held += street.hole_down
        up.extend(range(held, held + street.hole_up))
        held += street.hole_up
        together = not up or up == list(range(up[0], up[-1] + 1))
        out.append((slice(up[0], up[-1] + 1) if up else slice(0, 0)) if together else None)
    return tuple(out)


def _up_cards(hole: Sequence[Card], flags: Sequence[bool]) -> list[Card]:
    return [c for c, up in zip(hole, flags, strict=True) if up]
