"""The stud rules applied to a hand in progress (RULEBOOK §4–§7, stud family).

:class:`StudPlay` is the per-hand state the :class:`~cardroom.games.hand.Hand`
consults at a few points of its state machine: dealing a street (burn before
the up card, the community card when the deck runs short), opening a betting
round (bring-in seat, best or lowest showing hand), bet sizes (completing the
bring-in, the 4th-street open pair), and who shows first. The rules
themselves are the pure functions of :mod:`cardroom.games.stud`.

Readings: a bring-in seat already all-in on the ante passes the bring-in to
the next player able to act (as PokerKit); an all-in over the bring-in of at
least half the completion counts as the completion (RULEBOOK §5's half rule).
Verified in fixed limit (the stud default); other structures are untested.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from cardroom.cards import Card
from cardroom.games import events as ev
from cardroom.games.actions import BRING_IN, LegalActions
from cardroom.games.stud import (
    KEY_OF_COUNTS,
    PAIRED_DIGITS,
    RANK_DIGIT,
    StudRules,
    bring_in_seat,
    first_to_act,
    fourth_street_bets,
    has_open_pair,
    plan_last_card,
    rank_counts,
    showing_key_of_counts,
)

if TYPE_CHECKING:
    from cardroom.games.config import TableConfig
    from cardroom.games.hand import Hand
    from cardroom.games.reshuffle import Reshuffler
    from cardroom.games.variants import Street


class StudPlay:
    """Per-hand stud state: the bring-in, the 4th-street bet choice, the burns."""

    __slots__ = (
        "big_bet_made",
        "bring_in_due",
        "bring_in_seat",
        "burns",
        "counted",
        "counts",
        "open_pair",
        "rules",
        "up_slices",
    )

    def __init__(self, rules: StudRules, streets: tuple[Street, ...]) -> None:
        self.rules = rules
        self.up_slices = up_card_slices(streets)
        self.bring_in_seat: int | None = None
        self.bring_in_due = False
        self.open_pair = False
        self.big_bet_made = False
        self.burns: list[Card] = []
        # High games, ties by position: each seat's up cards as rank counts, kept up to
        # date street by street (``counted``: the up positions already added).
        self.counts: list[int] = []
        self.counted = 0

    def __eq__(self, other: object) -> bool:
        """Equal state, so a hand compares equal to a copy of itself."""
        return type(other) is type(self) and all(
            getattr(self, name) == getattr(other, name) for name in self.__slots__
        )

    __hash__ = None  # type: ignore[assignment]

    # ----------------------------------------------------------------- dealing

    def deal(
        self,
        hand: Hand,
        street: Street,
        live: list[int],
        out: list[ev.Event],
        reshuffle: Reshuffler,
    ) -> bool:
        """Burn before a stud street; deal the community card if the deck runs short.

        Returns True when the street was dealt here (a community card), False
        when the hand should deal the players' cards as usual.
        """
        burn = street.burn and hand.config.burn_cards
        per_player = street.hole_down + street.hole_up
        if per_player != 1:
            if burn:
                self._burn(hand, out)
            return False
        plan = plan_last_card(len(hand._deck) - hand._next_card, len(live), burn)
        if plan.burn:
            self._burn(hand, out)
        if not plan.community:
            return False
        if plan.from_muck:
            muck = self.burns + [c for s in hand.order if not hand._live[s] for c in hand._hole[s]]
            stub = reshuffle(muck)
            out.append(ev.StubReshuffled(tuple(stub)))
            hand._deck = [*hand._deck[: hand._next_card], *stub]
        card = hand._card()
        hand.board.append(card)
        out.append(ev.BoardDealt((card,)))
        return True

    def _burn(self, hand: Hand, out: list[ev.Event]) -> None:
        card = hand._card()
        self.burns.append(card)
        out.append(ev.Burned(card))

    # ----------------------------------------------------------------- betting

    def opener(self, hand: Hand, index: int) -> int:
        """The seat that opens betting round ``index``: the bring-in, else the best showing."""
        live = [s for s in hand.order if hand._live[s]]
        config = hand.config
        if index == 0:
            where = self.up_slices[0]  # the door card is the last up card
            if where is None:
                doors = [(s, _up_cards(hand, s)[-1]) for s in live]
            else:
                doors = [(s, hand._hole[s][where.stop - 1]) for s in live]
            seat = bring_in_seat(
                doors, self.rules.bring_in, by_position=config.bring_in_by_position
            )
            self.bring_in_seat = seat
            self.bring_in_due = config.stakes.effective_bring_in > 0
            return seat
        self.big_bet_made = False
        self.bring_in_due = False  # a 3rd street nobody could act on leaves none owed
        if self._counting(config, index):
            return self._best_by_counts(hand, live, index)
        ups = self._showing(hand, live, index)
        self.open_pair = (
            index == 1 and self.rules.open_pair and any(has_open_pair(up) for _, up in ups)
        )
        board = hand.board
        return first_to_act(
            [(s, up + board) for s, up in ups] if board else ups,
            low=self.rules.low,
            ties=config.stud_order_ties,
        )

    def _counting(self, config: TableConfig, index: int) -> bool:
        """Whether the running rank counts decide the order (high game, ties by position)."""
        return (
            not self.rules.low
            and config.stud_order_ties == "position"
            and self.up_slices[index] is not None
        )

    def _best_by_counts(self, hand: Hand, live: list[int], index: int) -> int:
        """:func:`first_to_act` for a high game with ties by position, from the running
        rank counts (the same answer; tested against it); sets the 4th-street open pair."""
        where = self.up_slices[index]
        assert where is not None
        hole, counts = hand._hole, self.counts
        if not counts:
            counts = self.counts = [0] * len(hole)
            self.counted = where.start
        new = range(self.counted, where.stop)  # the up cards dealt since last time
        self.counted = max(self.counted, where.stop)
        board = rank_counts(hand.board) if hand.board else 0
        best_seat = -1
        best: tuple[int, ...] = ()  # any key beats the empty tuple
        known = KEY_OF_COUNTS  # the cache, asked directly: this runs for every seat
        for s in live:
            held, c = hole[s], counts[s]
            for p in new:
                c += RANK_DIGIT[held[p]]
            counts[s] = c
            showing = c + board
            key = known.get(showing) or showing_key_of_counts(showing)
            if key > best:  # an equal later key does not win: ties by position
                best_seat, best = s, key
        if index == 1:  # a pair (or better) showing on 4th street: a rank counted twice
            self.open_pair = self.rules.open_pair and any(counts[s] & PAIRED_DIGITS for s in live)
        return best_seat

    def _showing(self, hand: Hand, live: list[int], index: int) -> list[tuple[int, list[Card]]]:
        """``(seat, up cards)`` of the ``live`` seats after street ``index`` was dealt."""
        hole = hand._hole
        where = self.up_slices[index]
        if where is not None:  # every seat's up cards sit together (all stud games)
            return [(s, hole[s][where]) for s in live]
        return [(s, list(_up_cards(hand, s))) for s in live]

    def legal_bring_in(self, hand: Hand, seat: int) -> LegalActions:
        """The bring-in seat's first decision: post the bring-in or complete."""
        amount = min(hand.config.stakes.effective_bring_in, hand._stack[seat])
        bounds = hand._raise_bounds(seat) if hand._stack[seat] > amount else None
        lo, hi = (None, None) if bounds is None else bounds
        return LegalActions(seat, False, False, None, lo, hi, bring_in=amount)

    def post_bring_in(self, hand: Hand, seat: int) -> ev.Acted:
        """Post the bring-in as a live bet; the bet stays open to completion."""
        full = hand.config.stakes.effective_bring_in
        amount = min(full, hand._stack[seat])
        hand._put(seat, amount)
        hand._cur = max(hand._cur, full)  # §4: a bring-in posted all-in for less is called in full
        if full >= hand.config.stakes.effective_small_bet:
            hand._nbets = 1  # a bring-in of a full small bet is the opening bet
        self.bring_in_due = False
        return ev.Acted(seat, BRING_IN, amount, hand._bet[seat], hand._stack[seat] == 0)

    def bet_size(self, hand: Hand, size: int) -> int:
        """The fixed-limit full bet now: completing the bring-in, or the open-pair big bet."""
        if hand.street_index == 0 and hand._nbets == 0:
            return size - hand._cur  # completing the bring-in: the bet becomes the small bet
        if hand.street_index == 1 and self.open_pair:
            stakes = hand.config.stakes
            sizes = fourth_street_bets(
                hand.config.fourth_street_pair,
                True,
                stakes.effective_small_bet,
                stakes.effective_big_bet,
                self.big_bet_made,
            )
            return sizes[0]
        return size

    def choice(self, hand: Hand) -> int | None:
        """The big bet when the bettor may choose it instead (``fourth_street_pair="option"``)."""
        if not self.open_pair or self.big_bet_made or hand.street_index != 1:
            return None
        if hand.config.fourth_street_pair != "option":
            return None
        return hand.config.stakes.effective_big_bet

    def legal_with_choice(self, hand: Hand, seat: int) -> LegalActions:
        """The legal set while the open-pair option lets the bettor pick the small or big bet."""
        to_call = hand._cur - hand._bet[seat]
        call = min(to_call, hand._stack[seat]) if to_call > 0 else None
        bounds = hand._raise_bounds(seat)
        lo, hi = (None, None) if bounds is None else bounds
        sizes = () if bounds is None else tuple(sorted(set(bounds)))
        return LegalActions(seat, True, to_call <= 0, call, lo, hi, raise_sizes=sizes)

    def widen(self, hand: Hand, seat: int, bounds: tuple[int, int]) -> tuple[int, int]:
        """Raise bounds with the open-pair option: up to the big bet instead of the small."""
        big = self.choice(hand)
        lo, hi = bounds
        if big is None:
            return bounds
        return lo, max(hi, min(hand._cur + big, hand._bet[seat] + hand._stack[seat]))

    def after_raise(self, hand: Hand, size: int) -> None:
        """A raise completes the bring-in; a big bet on 4th street makes later raises big."""
        self.bring_in_due = False
        if hand.street_index == 1 and size >= hand.config.stakes.effective_big_bet:
            self.big_bet_made = True

    def first_to_show(self, hand: Hand) -> int | None:
        """Who shows first when nobody bet the last round: the best showing hand."""
        live = [s for s in hand.order if hand._live[s]]
        if not live:
            return None
        if self._counting(hand.config, hand.street_index):
            return self._best_by_counts(hand, live, hand.street_index)
        board = hand.board
        return first_to_act(
            [(s, up + board) for s, up in self._showing(hand, live, hand.street_index)],
            low=self.rules.low,
            ties=hand.config.stud_order_ties,
        )


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


def _up_cards(hand: Hand, seat: int) -> tuple[Card, ...]:
    return tuple([c for c, up in zip(hand._hole[seat], hand._up[seat], strict=True) if up])
