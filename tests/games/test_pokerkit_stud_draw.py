"""Differential tests: stud and draw games against PokerKit 0.7.7 on random hands.

Both engines get the same seats, stacks, antes, blinds or bring-in, and cards
(PokerKit is dealt exactly what our engine dealt, replacement cards included).
At every decision they must agree on who acts and on the legal set (fold,
check, call amount, smallest and largest bet/raise total, the bring-in, a
draw); at the end on the finishing stacks.

A-5 Triple Draw and Five-card Draw are not PokerKit games: they are compared
with custom PokerKit games built from its parts (2-7 triple draw's streets with
A-5 low hands; a fixed-limit single draw with small and big bets).

Hands per variant: ``CARDROOM_DIFF_HANDS`` (default 200; e.g. 20000 for a soak).
``"N2L1D bba"`` and ``"F2L3D bba"`` play with a big-blind ante instead of antes
(PokerKit: ``antes = (0, X)`` with ``ante_trimming_status=False``, dead money for
the main pot; heads-up PokerKit charges player 0, the big blind, entry 1).

Table options set to PokerKit's rules (each is a table option of ours):
``fourth_street_pair="small"`` (PokerKit has no open-pair rule),
``burn_cards=False`` (PokerKit is told to burn unknown cards),
``max_raises=3`` at stud (PokerKit counts the completion among its four
wagers). Stud tables have at most 7 players, so the deck never runs short
(PokerKit reshuffles instead of dealing a community card). Differences that
cannot be configured are recognised exactly, as in ``test_pokerkit_diff.py``
(:mod:`tests.games.pokerkit_differences`), each counted and capped on its own: a
bring-in posted all-in for less (§4), reopening after short all-ins (§5), odd chips
and hi-lo side pots where nobody eligible has a low (§7).
"""

from __future__ import annotations

import os
import random
import warnings
from collections import Counter
from dataclasses import dataclass, replace
from typing import Any

import pokerkit as pk  # a dev dependency: the test fails without it, never skips
import pytest
from tests.games.pokerkit_differences import (
    SHORT_FORCED_BET,
    Reopening,
    check_caps,
    payout_difference,
    short_forced_bet,
    without_raises,
)

from cardroom.bench.engine_driver import to_action
from cardroom.bench.pokerkit_peer import Options, choose
from cardroom.cards import format_cards
from cardroom.games import Action, Hand, Stakes, TableConfig

HANDS = int(os.environ.get("CARDROOM_DIFF_HANDS", "200"))


class FixedLimitAceToFiveTripleDraw(pk.FixedLimitDeuceToSevenLowballTripleDraw):
    """A custom PokerKit game: 2-7 triple draw's streets with ace-to-five low hands."""

    hand_types = (pk.RegularLowHand,)


class FixedLimitFiveCardDraw(pk.games.FixedLimitPokerMixin, pk.games.Draw):
    """A custom PokerKit game: five cards, small bet, one draw, big bet, high hands."""

    deck = pk.Deck.STANDARD
    hand_types = (pk.StandardHighHand,)
    hole_dealing_count = 5

    def __init__(
        self,
        automations: tuple[Any, ...],
        ante_trimming_status: bool,
        raw_antes: Any,
        raw_blinds_or_straddles: Any,
        small_bet: int,
        big_bet: int,
        *,
        mode: Any,
    ) -> None:
        cap = self.max_completion_betting_or_raising_count
        position = pk.Opening.POSITION
        streets = (
            pk.Street(False, (False,) * 5, 0, False, position, small_bet, cap),
            pk.Street(True, (), 0, True, position, big_bet, cap),
        )
        super().__init__(
            automations,
            streets,
            ante_trimming_status,
            raw_antes,
            raw_blinds_or_straddles,
            0,
            mode=mode,
        )


STUD_CODES = ("F7S", "F7S/8", "FR")
DRAW_CODES = ("N2L1D", "F2L3D", "FB", "A5TD", "F5CD", "N2L1D bba", "F2L3D bba")
GAMES: dict[str, tuple[str, Any]] = {
    "F7S": ("stud", pk.FixedLimitSevenCardStud),
    "F7S/8": ("stud_hi_lo", pk.FixedLimitSevenCardStudHighLowSplitEightOrBetter),
    "FR": ("razz", pk.FixedLimitRazz),
    "N2L1D": ("single_draw_27", pk.NoLimitDeuceToSevenLowballSingleDraw),
    "F2L3D": ("triple_draw_27", pk.FixedLimitDeuceToSevenLowballTripleDraw),
    "FB": ("badugi", pk.FixedLimitBadugi),
    # not in PHH: custom PokerKit games
    "A5TD": ("triple_draw_a5", FixedLimitAceToFiveTripleDraw),
    "F5CD": ("five_card_draw", FixedLimitFiveCardDraw),
}


@dataclass(frozen=True)
class Setup:
    """One random table: our configuration and PokerKit's game for the same deal."""

    code: str
    config: TableConfig
    stacks: tuple[int, ...]
    game: Any


def _stack(rng: random.Random, unit: int) -> int:
    roll = rng.random()
    if roll < 0.15:
        return rng.randint(1, 2 * unit)
    if roll < 0.4:
        return rng.randint(2 * unit, 12 * unit)
    return rng.randint(12 * unit, 80 * unit)


def random_setup(code: str, rng: random.Random) -> Setup:
    """Random seats, stacks and stakes for ``code`` (``"... bba"``: a big-blind ante)."""
    code, _, option = code.partition(" ")
    game_name, cls = GAMES[code]
    automations = (
        pk.Automation.ANTE_POSTING,
        pk.Automation.BET_COLLECTION,
        pk.Automation.BLIND_OR_STRADDLE_POSTING,
        pk.Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        pk.Automation.HAND_KILLING,
        pk.Automation.CHIPS_PUSHING,
        pk.Automation.CHIPS_PULLING,
    )
    if code in STUD_CODES:
        players = rng.randint(2, 7)
        small = rng.randint(2, 20)
        bring_in = rng.randint(1, small - 1)
        ante = rng.choice((0, 1, rng.randint(1, small)))
        stacks = tuple(_stack(rng, small) for _ in range(players))
        stakes = Stakes(ante=ante, small_bet=small, big_bet=2 * small, bring_in=bring_in)
        config = TableConfig.of(
            game_name, stakes, burn_cards=False, max_raises=3, fourth_street_pair="small"
        )
        game = cls(automations, True, ante, bring_in, small, 2 * small, mode=pk.Mode.TOURNAMENT)
        return Setup(code, config, stacks, game)
    players = rng.randint(2, 6)
    big = rng.randint(2, 20)
    small = big // 2 if rng.random() < 0.7 else rng.randint(1, big - 1)
    ante = rng.choice((0, 0, 1))
    stacks = tuple(_stack(rng, big) for _ in range(players))
    blinds = (small, big)
    bba = rng.choice((big, 2 * big, rng.randint(1, 3 * big))) if option == "bba" else 0
    antes: Any = (0, bba) if bba else ante
    trimming = not bba  # a big-blind ante is dead money (PokerKit's False)
    if bba:
        ante = 0
    if code == "N2L1D":
        stakes = Stakes.blinds(small, big, ante, big_blind_ante=bba)
        config = TableConfig.of(game_name, stakes, burn_cards=False)
        game = cls(automations, trimming, antes, blinds, big, mode=pk.Mode.TOURNAMENT)
    else:
        stakes = Stakes(small, big, ante, small_bet=big, big_bet=2 * big, big_blind_ante=bba)
        config = TableConfig.of(game_name, stakes, burn_cards=False)
        game = cls(automations, trimming, antes, blinds, big, 2 * big, mode=pk.Mode.TOURNAMENT)
        # PokerKit counts four player wagers; the big blind is our first bet (§5).
        first = game.streets[0]
        cap = first.max_completion_betting_or_raising_count - 1
        streets = (replace(first, max_completion_betting_or_raising_count=cap), *game.streets[1:])
        game.streets = streets
    return Setup(code, config, stacks, game)


class Mismatch(AssertionError):
    """The engines disagree; the message holds the deal to reproduce it."""


def _cards(cards: object) -> str:
    return format_cards(cards).replace(" ", "")  # type: ignore[arg-type]


def _sync(hand: Hand, state: Any) -> None:
    """Burn unknown cards and deal PokerKit the cards our engine dealt."""
    while True:
        if state.can_burn_card("??"):
            state.burn_card("??")
            continue
        if not state.can_deal_hole():
            return
        p = state.hole_dealee_index
        need = len(state.hole_dealing_statuses[p])
        have = len(state.hole_cards[p])
        ours = hand.hole_cards(p)[have : have + need]
        if len(ours) != need:
            raise Mismatch(f"PokerKit deals {need} cards to {p} our engine never dealt")
        state.deal_hole(_cards(ours), p)


def _ours(hand: Hand) -> Options:
    seat = hand.actor
    assert seat is not None
    la = hand.legal_actions(seat)
    return Options(
        seat,
        la.fold and not la.check,  # PokerKit's tournament mode refuses a free fold (§5 allows it)
        la.check,
        la.call,
        la.min_raise_to,
        la.max_raise_to,
        la.bring_in,
        None if la.draw is None else len(hand.hole_cards(seat)),
    )


def _theirs(state: Any) -> Options:
    drawer = state.stand_patter_or_discarder_index
    if drawer is not None:
        return Options(drawer, False, False, None, None, None, None, len(state.hole_cards[drawer]))
    seat = state.actor_index
    if state.can_post_bring_in():
        lo = hi = None
        if state.can_complete_bet_or_raise_to():
            lo = state.min_completion_betting_or_raising_to_amount
            hi = state.max_completion_betting_or_raising_to_amount
        amount = state.effective_bring_in_amount
        if lo == hi == amount:
            lo = hi = None  # PokerKit's "completion" all-in for the bring-in is the bring-in
        return Options(seat, False, False, None, lo, hi, amount)
    can_call = state.can_check_or_call()
    amount = state.checking_or_calling_amount if can_call else None
    can_raise = state.can_complete_bet_or_raise_to()
    return Options(
        seat,
        state.can_fold(),
        bool(can_call and amount == 0),
        amount if can_call and amount else None,
        state.min_completion_betting_or_raising_to_amount if can_raise else None,
        state.max_completion_betting_or_raising_to_amount if can_raise else None,
    )


def _apply_theirs(state: Any, action: Action) -> None:
    if action.kind == "draw":
        state.stand_pat_or_discard(_cards(action.cards))
    elif action.kind == "bring_in":
        state.post_bring_in()
    elif action.kind == "fold":
        state.fold()
    elif action.kind in ("check", "call"):
        state.check_or_call()
    else:
        state.complete_bet_or_raise_to(action.amount)


def _forced_check(hand: Hand, state: Any) -> bool:
    """PokerKit asks for a check nobody else can answer; our engine closes the round."""
    if not state.status or state.actor_index is None:
        return False
    seat = hand.actor
    drawing = seat is not None and hand.legal_actions(seat).draw is not None
    if not hand.is_over and seat == state.actor_index and not drawing:
        return False
    lone_check = state.can_check_or_call() and state.checking_or_calling_amount == 0
    if lone_check and not state.can_complete_bet_or_raise_to():
        state.check_or_call()
        return True
    return False


def play(setup: Setup, seed: int) -> set[str]:
    """Play one hand on both engines; return the recognised differences; raise Mismatch."""
    rng = random.Random(seed)
    n = len(setup.stacks)
    hand = Hand(setup.config, list(setup.stacks), n - 1, seed=seed)
    state = setup.game(setup.stacks, n)
    where = f"{setup.code} stacks={setup.stacks} {setup.config.stakes} seed={seed}"
    known: set[str] = set()
    reopening = Reopening()
    decisions = 0
    while True:
        _sync(hand, state)
        if _forced_check(hand, state):
            continue
        if hand.is_over or not state.status:
            break
        mine, theirs = _ours(hand), _theirs(state)
        if mine != theirs:
            if short_forced_bet(hand, mine, theirs):
                return known | {SHORT_FORCED_BET}  # the engines take different chips from here
            reason = reopening.explain(hand, mine, theirs, state)
            if reason is None:
                raise Mismatch(f"decision {decisions}: ours {mine} PokerKit {theirs}; {where}")
            known.add(reason)
            mine = without_raises(mine)  # the choices both engines allow
        seat = mine.actor
        decision = choose(mine, rng)
        reopening.see(hand, decision.kind, decision.amount)
        action = to_action(hand, seat, decision)
        hand.apply(action)
        _apply_theirs(state, action)
        decisions += 1
    _sync(hand, state)
    if not hand.is_over or state.status:
        raise Mismatch(f"one engine finished, the other did not; {where}")
    if list(hand.stacks) != list(state.stacks):
        reason = payout_difference(hand, state)
        if reason is None:
            raise Mismatch(
                f"stacks ours {list(hand.stacks)} PokerKit {list(state.stacks)}; {where}"
            )
        known.add(reason)
    return known


def run(code: str, hands: int) -> tuple[Counter[str], int]:
    """Play ``hands`` random hands of ``code``: the recognised differences (hands with
    each) and the hands compared to the end."""
    rng = random.Random(f"stud-draw-diff-{code}")
    known: Counter[str] = Counter()
    whole = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PokerKit warns about cards it did not pick itself
        for _ in range(hands):
            seed = rng.getrandbits(48)
            why = play(random_setup(code, random.Random(seed)), seed)
            known.update(why)
            whole += SHORT_FORCED_BET not in why
    return known, whole


@pytest.mark.slow
@pytest.mark.parametrize("code", STUD_CODES + DRAW_CODES)
def test_same_legal_actions_and_payouts_as_pokerkit(code: str) -> None:
    known, whole = run(code, HANDS)
    print(f"\n{code}: {HANDS} hands, {whole} compared to the end, differences {dict(known)}")
    check_caps(known, HANDS)  # each recognised difference stays rare
