"""One betting round's own state: the bet to match, the raises, who acted at which level.

A :class:`BettingRound` knows nothing of chips behind or cards: the
:class:`~cardroom.games.hand.Hand` keeps the stacks and bets by seat and tells
the round what happened (:meth:`BettingRound.acted`, :meth:`BettingRound.raised`);
the round answers who acts next (:meth:`BettingRound.next_actor`) and whether a
seat that already acted may raise again (:meth:`BettingRound.may_reopen`, the
incomplete-raise rule of RULEBOOK §5).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field


@dataclass(slots=True)
class BettingRound:
    """The betting round in progress (or the last one, once closed).

    ``rotations`` holds the dealing order starting at each of its positions (the
    search order for the next actor from ``cursor``); ``seats`` is the table size.
    """

    rotations: tuple[tuple[int, ...], ...]
    seats: int
    to_match: int = 0
    """The bet to match: the largest bet in front of a player this round."""
    last_full: int = 0
    """The size of the last full bet or raise (0: none yet; the minimum bet applies)."""
    full_raises: int = 0
    """How many full bets or raises this round has seen (what reopens the betting)."""
    bets: int = 0
    """The bet and raises counted toward a fixed-limit cap (the opening bet included)."""
    uncapped: bool = False
    """No raise cap this round (``heads_up_uncapped`` with two players left)."""
    is_open: bool = False
    cursor: int = 0
    """The position in the dealing order where the search for the next actor starts."""
    aggressor: int | None = None
    """The seat that made the last bet or raise of the round (None: nobody)."""
    has_acted: list[bool] = field(default_factory=list)
    level: list[int] = field(default_factory=list)
    """The bet to match each seat last acted at."""
    full_seen: list[int] = field(default_factory=list)
    """``full_raises`` as each seat last acted."""

    def open(self, cursor: int, last_full: int, uncapped: bool, *, first: bool) -> None:
        """Open a round whose first actor is searched from ``cursor``; the ``first`` round
        keeps the bet to match and the bets the forced bets made."""
        n = self.seats
        if not first:
            self.to_match = 0
            self.bets = 0
        self.last_full = last_full
        self.full_raises = 0
        self.has_acted = [False] * n
        self.level = [0] * n
        self.full_seen = [0] * n
        self.uncapped = uncapped
        self.is_open = True
        self.cursor = cursor
        self.aggressor = None

    def close(self) -> bool:
        """Close the round; True when it was open. Its bets are gathered: nothing is left
        to match until the next round opens (a draw may come between two rounds, while
        the room sets advance actions and the views show the bet)."""
        was, self.is_open = self.is_open, False
        if was:
            self.to_match = 0
        return was

    def acted(self, seat: int) -> None:
        """``seat`` made a decision at the current level."""
        self.has_acted[seat] = True
        self.level[seat] = self.to_match
        self.full_seen[seat] = self.full_raises

    def raised(self, seat: int, to: int, size: int, full: bool) -> None:
        """``seat`` bet or raised to ``to``, by ``size``; ``full``: a full raise."""
        if full:
            if size > self.last_full:
                self.last_full = size
            self.full_raises += 1
            self.bets += 1
        self.to_match = to
        self.aggressor = seat

    def may_reopen(self, seat: int, half_rule: bool, full_size: Callable[[], int]) -> bool:
        """The incomplete-raise rule: may ``seat`` raise now the action is back to it?

        Yes when it has not acted or a full raise came since; under the TDA rule also
        when all-ins short of a full raise add up to one (``full_size()``) since it acted.
        """
        if not self.has_acted[seat] or self.full_seen[seat] < self.full_raises:
            return True
        return not half_rule and (self.to_match - self.level[seat] >= full_size())

    def next_actor(
        self,
        live: Sequence[bool],
        stack: Sequence[int],
        bet: Sequence[int],
        protected: Sequence[bool],
    ) -> int | None:
        """The next seat from the cursor that still has to act, or None: the round is over.

        By seat: ``live`` still in the hand, ``stack`` chips behind, ``bet`` chips bet this
        round, ``protected`` all-in by the room's decision (no longer acting).
        """
        # One pass from the cursor: count the seats able to act, note the first that must.
        cur, acted = self.to_match, self.has_acted
        start = self.cursor
        able = 0
        first = -1
        at = 0
        for i, s in enumerate(self.rotations[start]):
            if live[s] and stack[s] > 0 and not protected[s]:
                able += 1
                if first >= 0:
                    break  # a second seat able to act: the first one found acts
                if bet[s] < cur or not acted[s]:
                    first, at = s, i
                    if able > 1:
                        break
        # A lone seat able to act that covers every bet has nobody to act against (§4).
        if first < 0 or (able == 1 and bet[first] >= max(bet)):
            return None
        self.cursor = (start + at + 1) % len(self.rotations)
        return first
