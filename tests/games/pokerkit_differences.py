"""Where PokerKit 0.7.7's rules differ from the rulebook: each difference recognised exactly.

The differential tests (``test_pokerkit_diff.py``, ``test_pokerkit_stud_draw.py``)
compare every decision and the finishing stacks. A disagreement is excused only
when it is one of the differences below: the named fields differ, in the way the
named rule predicts, after the events that trigger it; anything else fails the
test. Each reason is counted on its own and capped (:data:`CAPS`, a share of the
hands played), so a bug cannot hide behind a known difference by becoming common.

Decisions (the legal set of :class:`~cardroom.bench.pokerkit_peer.Options`):

- :data:`SHORT_FORCED_BET` (RULEBOOK §4): a blind, straddle, button blind or
  bring-in posted all-in for less is still called in full and raised from its full
  amount; PokerKit's bet to call is the largest bet posted. Recognised when, in the
  first betting round before anyone matched the full forced bet (the bet to call
  is above every bet on the table), PokerKit's legal set is exactly our sizing
  applied to the largest bet posted. The engines have then taken different chips,
  so the hand is compared up to that decision only.
- Reopening after an all-in short of a full raise (RULEBOOK §5). PokerKit measures
  a full raise from zero each round (from the bring-in on 3rd street), so a short
  first wager counts as full; it adds short all-ins up only while they stay
  consecutive, has no half rule, and counts every all-in raise toward the
  fixed-limit cap. Only the raise bounds may differ, only after the wagers that
  trigger the rule, and PokerKit's own fields (its full-raise size, its short
  all-ins, who acted, its raise count) must show its rule at work; the player then
  acts from the choices both engines allow (call, check or fold), so the hand goes
  on being compared to the end: :data:`SHORT_DOES_NOT_REOPEN`,
  :data:`SHORT_ALL_INS_ADD_UP`, :data:`HALF_RULE`, :data:`CAP_COUNT`,
  :data:`SHORT_COMPLETION`.

Finishing stacks:

- :data:`ODD_CHIPS` (RULEBOOK §7: each pot split on its own, one odd chip each to
  the first winners from the button's left; PokerKit merges side pots with the same
  players and gives a whole remainder to the first winner): the stacks differ only
  between players paid from the same pot, by at most one chip per other player
  paid from it.
- :data:`LOW_HALF` (RULEBOOK §7: a pot for which no eligible player has a
  qualifying low goes whole to the high hand; PokerKit splits every pot high/low
  when anybody in the hand has a low, and shares that low half among the pot's
  players without one): PokerKit's pushes of such low halves, handed to their
  pot's high winners, give our stacks (up to odd chips).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any

from cardroom.bench.pokerkit_peer import Options
from cardroom.games import events as ev
from cardroom.games.betting import STRUCTURE_RULES, raise_bounds
from cardroom.games.hand import Hand
from cardroom.games.variants import FIXED_LIMIT

SHORT_FORCED_BET = "§4 short forced bet called in full (call and raise bounds)"
SHORT_DOES_NOT_REOPEN = "§5 a short all-in does not reopen (raise bounds)"
SHORT_COMPLETION = "§5 a stud all-in short of the completion does not complete (raise size)"
SHORT_ALL_INS_ADD_UP = "§5 short all-ins adding up to a full raise reopen (raise bounds)"
HALF_RULE = "§5 a limit all-in of half a bet is a raise (raise bounds)"
CAP_COUNT = "§5 a limit all-in short of half a bet is not counted to the cap (raise bounds)"
ODD_CHIPS = "§7 odd chips of each pot split on its own (stacks of tied winners)"
LOW_HALF = "§7 a pot without an eligible low goes to the high hand (stacks)"

CAPS: dict[str, float] = {
    # Measured on 1000 hands of each setup (2026-12-01), the cap about 1.5 times the most
    # seen. A short forced bet is common where up to three straddles are posted (18 %).
    SHORT_FORCED_BET: 0.25,
    SHORT_DOES_NOT_REOPEN: 0.05,
    SHORT_ALL_INS_ADD_UP: 0.02,
    HALF_RULE: 0.03,
    CAP_COUNT: 0.04,
    SHORT_COMPLETION: 0.02,
    ODD_CHIPS: 0.09,
    LOW_HALF: 0.02,
}
"""The most hands, as a share of those played, each difference may account for."""


def check_caps(known: Counter[str], hands: int) -> None:
    """Fail when a recognised difference is more common than its cap allows."""
    over = {why: n for why, n in known.items() if n > CAPS[why] * hands + 2}
    assert not over, f"more differences than expected in {hands} hands: {over}"


def full_raise(hand: Hand) -> int:
    """The size of a full bet or raise now (RULEBOOK §5), as the engine measures it."""
    return hand.full_raise


# ------------------------------------------------------------------------- §4


def short_forced_bet(hand: Hand, mine: Options, theirs: Options) -> bool:
    """The difference is RULEBOOK §4's: see the module docstring."""
    seat = hand.actor
    posted = max(hand.bets)
    if hand.street_index != 0 or seat is None or hand.current_bet <= posted:
        return False
    own, stack = hand.bets[seat], hand.stacks[seat]
    if mine.call != (min(hand.current_bet - own, stack) or None):
        return False
    return theirs == _options_facing(hand, posted, mine)


def _options_facing(hand: Hand, bet: int, mine: Options) -> Options:
    """Our legal set for the player to act if the bet to call were ``bet`` (no raise yet)."""
    seat = mine.actor
    own, stack = hand.bets[seat], hand.stacks[seat]
    call = min(bet - own, stack)
    callers = [s for s in hand.order if s != seat and hand.is_live(s)]
    callers = [s for s in callers if hand.stacks[s] + hand.bets[s] > bet]
    bounds = None
    if stack > bet - own and callers:
        stakes = hand.config.stakes
        if hand.config.variant.stud is not None:
            basis = stakes.effective_small_bet - bet  # completing the bring-in
        elif hand.config.betting == FIXED_LIMIT:
            basis = stakes.effective_small_bet
        else:
            basis = stakes.effective_min_bet
        pot = hand.pot_total
        bounds = raise_bounds(STRUCTURE_RULES[hand.config.betting], bet, own, stack, pot, basis, 0)
    low, high = (None, None) if bounds is None else bounds
    return replace(
        mine, fold=call > 0, check=call == 0, call=call or None, min_raise_to=low, max_raise_to=high
    )


# ------------------------------------------------------------------------- §5


@dataclass
class Wager:
    """A bet or raise of the current round, as the engine measured it."""

    seat: int
    size: int
    all_in: bool
    basis: int

    @property
    def short(self) -> bool:
        """An all-in short of a full raise."""
        return self.all_in and self.size < self.basis


@dataclass
class Reopening:
    """The wagers of the betting round being played, and when each player last acted."""

    street: int = -1
    wagers: list[Wager] = field(default_factory=list)
    acted_at: dict[int, int] = field(default_factory=dict)

    def see(self, hand: Hand, kind: str, amount: int) -> None:
        """Note a decision of the player to act, before it is applied."""
        seat = hand.actor
        assert seat is not None
        if hand.street_index != self.street:
            self.street, self.wagers, self.acted_at = hand.street_index, [], {}
        if kind == "raise":
            all_in = hand.bets[seat] + hand.stacks[seat] == amount
            size = amount - hand.current_bet
            self.wagers.append(Wager(seat, size, all_in, full_raise(hand)))
        self.acted_at[seat] = len(self.wagers)

    def explain(self, hand: Hand, mine: Options, theirs: Options, state: Any) -> str | None:
        """The §5 difference behind a disagreement on the raise bounds alone, or None.

        ``state`` is PokerKit's: why it refuses or allows a raise is read from its own
        fields (its full raise size, its short all-ins, who acted, its raise count).
        """
        if without_raises(mine) != without_raises(theirs):
            return None
        seat = mine.actor
        since = self.wagers[self.acted_at[seat] :] if seat in self.acted_at else []
        if mine.min_raise_to is not None and theirs.min_raise_to is not None:
            return self._completion(hand, mine, theirs)
        if mine.min_raise_to is None:  # PokerKit reopens, we do not
            why = hand.legal_actions(seat).no_raise
            measured = state.completion_betting_or_raising_amount
            reopened = since and measured < full_raise(hand) and any(w.short for w in since)
            ours = why.startswith("the betting was not reopened")
            return SHORT_DOES_NOT_REOPEN if ours and reopened else None
        # We offer a raise, PokerKit does not: its cap, or its rule on short all-ins.
        cap = state.street.max_completion_betting_or_raising_count
        if cap is not None and state.completion_betting_or_raising_count >= cap:
            shorts = [w for w in self.wagers if w.short and 2 * w.size < w.basis]
            return CAP_COUNT if hand.config.limit_rule_half and shorts else None
        measured, shorts = (
            state.completion_betting_or_raising_amount,
            state.consecutive_short_all_in_amounts,
        )
        to_call = state.checking_or_calling_amount
        blocked = bool(shorts) and sum(shorts) < measured and seat in state.acted_player_indices
        if not (blocked or (to_call is not None and to_call < measured)) or not since:
            return None  # neither of PokerKit's short all-in rules is at work
        if not all(w.short for w in since):
            return None
        if hand.config.limit_rule_half:
            return HALF_RULE if any(2 * w.size >= w.basis for w in since) else None
        added = sum(w.size for w in since) >= full_raise(hand)
        return SHORT_ALL_INS_ADD_UP if len(since) >= 2 and added else None

    def _completion(self, hand: Hand, mine: Options, theirs: Options) -> str | None:
        """Stud: after all-ins short of the completion we still offer the completion to
        the small bet; PokerKit counts the first as the completion and raises a bet more."""
        stakes = hand.config.stakes
        seat = mine.actor
        if hand.config.variant.stud is None or hand.street_index != 0 or not self.wagers:
            return None
        if not all(w.short for w in self.wagers) or mine.min_raise_to != stakes.effective_small_bet:
            return None
        to = min(hand.current_bet + stakes.effective_small_bet, hand.bets[seat] + hand.stacks[seat])
        return SHORT_COMPLETION if theirs.min_raise_to == theirs.max_raise_to == to else None


def without_raises(options: Options) -> Options:
    """The choices both engines allow when only one offers a raise."""
    return replace(options, min_raise_to=None, max_raise_to=None)


# ------------------------------------------------------------------------- §7


def odd_chips_only(hand: Hand, theirs: list[int]) -> bool:
    """True when the stacks differ only by indivisible chips among players paid from one pot."""
    paid: dict[int, list[int]] = {}  # pot: every seat paid from it (ties, high and low)
    for e in hand.events:
        if isinstance(e, ev.PotAwarded):
            paid.setdefault(e.pot, []).append(e.seat)
    bound: Counter[int] = Counter()
    for seats in paid.values():
        for seat in seats:
            bound[seat] += len(seats) - 1
    diff = [t - m for t, m in zip(theirs, hand.stacks, strict=True)]
    return sum(diff) == 0 and all(abs(d) <= bound[i] for i, d in enumerate(diff))


def payout_difference(hand: Hand, state: Any) -> str | None:
    """The §7 difference behind different finishing stacks, or None (PokerKit's ``state``)."""
    theirs = list(state.stacks)
    if odd_chips_only(hand, theirs):
        return ODD_CHIPS
    corrected = _low_halves_to_the_high(state)
    if corrected != theirs and (corrected == list(hand.stacks) or odd_chips_only(hand, corrected)):
        return LOW_HALF
    return None


def _low_halves_to_the_high(state: Any) -> list[int]:
    """PokerKit's finishing stacks with every low half it paid to players without a low
    handed to the high winners of the same pot (split evenly, the remainder to the first)."""
    import pokerkit

    stacks = list(state.stacks)
    pushes = [op for op in state.operations if isinstance(op, pokerkit.ChipsPushing)]
    for op in pushes:
        if op.hand_type_index != 1 or op.board_index is None:
            continue
        lows = list(state.get_up_hands(op.board_index, 1))
        paid = [i for i, amount in enumerate(op.amounts) if amount]
        if not paid or any(lows[i] is not None for i in paid):
            continue
        high = next(
            (p for p in pushes if p.pot_index == op.pot_index and p.hand_type_index == 0), None
        )
        if high is None:
            continue
        winners = [i for i, amount in enumerate(high.amounts) if amount]
        for i in paid:
            stacks[i] -= op.amounts[i]
        share, rest = divmod(op.total_amount, len(winners))
        for k, i in enumerate(winners):
            stacks[i] += share + (rest if k == 0 else 0)
    return stacks
