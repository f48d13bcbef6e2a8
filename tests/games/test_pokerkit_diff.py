"""Differential tests: the engine against PokerKit 0.7.7 on random hands.

Both engines get the same seats, stacks, forced bets and cards; at every
decision they must agree on who acts and on the legal set (fold, check, the
call amount, the smallest and largest bet/raise total), and at the end on the
finishing stacks. Random stacks (short ones included: all-ins for less than
the blinds or the ante), antes, blinds and seat counts.

Hands per variant: ``CARDROOM_DIFF_HANDS`` (default 120; run with e.g. 100000
for a long soak). Our defaults already match PokerKit's options where it has
them (tournament mode: one run-out; no rake; ``ante_trimming_status=True``: antes
count in side pots like any chip). PokerKit's tournament mode refuses a fold when
checking is possible, which the rulebook allows (§5): the engine-neutral legal set
(``cardroom.bench.engine_driver``) offers only the fold facing a bet, and both engines
play the same decisions.

Table options get setups of their own (``"NT bba"``: a code, then the option):
``bba`` a big-blind ante (PokerKit: ``antes = (0, X, 0, ...)`` with
``ante_trimming_status=False``, dead money for the main pot; heads-up too),
``straddle`` one to three live straddles (PokerKit: ``blinds_or_straddles``
after the two blinds; heads-up none), sometimes with antes or a big-blind ante.

Where PokerKit's rule differs from the rulebook and cannot be configured, the
hand is still played and the difference is recognised exactly, never skipped
blindly, then counted and capped reason by reason
(:mod:`tests.games.pokerkit_differences`): a forced bet posted all-in for less
(§4), reopening after short all-ins (§5), odd chips and hi-lo side pots (§7).
Harness conventions:

- PokerKit asks a player to check when nobody else can act (the others are
  all-in and the player already matches the bet); the engine does not ask.
  The harness answers those checks for PokerKit, only when check is the sole
  legal action.
- PokerKit caps fixed-limit rounds at four player bets or raises, so its
  pre-flop allows a fifth bet over the big blind; the PokerKit peer is built
  with the pre-flop cap lowered by one (the big blind is the bet, RULEBOOK §5).
- Heads-up with a small blind equal to the big blind, PokerKit takes the
  button for the big blind; random heads-up stakes keep the small blind smaller.
- PokerKit's ``FO/8`` class plays pot limit: we compare it with our pot-limit
  Omaha Hi-Lo (small and big bet both the big blind, as its minimum bet).
"""

from __future__ import annotations

import os
import random
from collections import Counter
from dataclasses import dataclass, field, replace

import pokerkit  # noqa: F401  (a dev dependency: the test fails without it, never skips)
import pytest
from tests.games.pokerkit_differences import (
    SHORT_FORCED_BET,
    Reopening,
    check_caps,
    payout_difference,
    short_forced_bet,
    without_raises,
)

from cardroom.bench.engine_driver import EngineDriver
from cardroom.bench.pokerkit_peer import Decision, PokerKitGame, PokerKitHand, choose
from cardroom.cards import format_cards
from cardroom.games.config import Stakes, TableConfig
from cardroom.games.variants import FIXED_LIMIT, NO_LIMIT, POT_LIMIT

HANDS = int(os.environ.get("CARDROOM_DIFF_HANDS", "120"))
CODES = ("NT", "FT", "PO", "NS", "FO/8", "NT bba", "PO bba", "NT straddle", "PO straddle")


@dataclass(frozen=True)
class Setup:
    """One random deal: our configuration and PokerKit's arguments for the same table."""

    code: str
    config: TableConfig
    stacks: tuple[int, ...]
    antes: tuple[int, ...]
    blinds: tuple[int, ...]
    amounts: dict[str, int]
    ante_trimming: bool = True


def _stack(rng: random.Random, big: int) -> int:
    roll = rng.random()
    if roll < 0.15:
        return rng.randint(1, 2 * big)  # all-in for less than the blinds or the ante
    if roll < 0.4:
        return rng.randint(2 * big, 12 * big)
    return rng.randint(12 * big, 150 * big)


def random_setup(code: str, rng: random.Random) -> Setup:
    """Random seats, stacks and stakes for ``code`` (PokerKit's and our view of one table);
    ``code`` may name a table option after the PHH code: ``"NT bba"``, ``"PO straddle"``."""
    code, _, option = code.partition(" ")
    setup = _plain_setup(code, rng)
    if option == "bba":
        return _with_big_blind_ante(setup, rng)
    if option == "straddle":
        return _with_straddles(setup, rng)
    return setup


def _with_big_blind_ante(setup: Setup, rng: random.Random) -> Setup:
    """The big blind's seat alone antes, dead money (no equal antes): PokerKit's antes
    ``(0, X, 0, ...)`` (heads-up it charges player 0, the big blind, entry 1)."""
    big = setup.config.stakes.big_blind
    amount = rng.choice((big, 2 * big, 1, rng.randint(1, 3 * big)))
    stakes = replace(setup.config.stakes, ante=0, big_blind_ante=amount)
    antes = (0, amount) + (0,) * (len(setup.stacks) - 2)
    config = replace(setup.config, stakes=stakes)
    return replace(setup, config=config, antes=antes, ante_trimming=False)


def _with_straddles(setup: Setup, rng: random.Random) -> Setup:
    """One to three straddles, each above the blind before it (twice it, or any size);
    sometimes with a big-blind ante too."""
    if rng.random() < 0.3:
        setup = _with_big_blind_ante(setup, rng)
    stakes = setup.config.stakes
    straddles: list[int] = []
    previous = stakes.big_blind
    for _ in range(rng.randint(1, 3)):
        previous = 2 * previous if rng.random() < 0.6 else previous + rng.randint(1, 2 * previous)
        straddles.append(previous)
    players = len(setup.stacks)
    posted = tuple(straddles[: max(players - 2, 0)])
    blinds = setup.blinds[:2] + posted + (0,) * (players - 2 - len(posted))
    config = replace(
        setup.config,
        stakes=replace(stakes, straddles=tuple(straddles)),
        straddle_raise="big_blind",  # PokerKit's sizing of a raise over a straddle
    )
    return replace(setup, config=config, blinds=blinds)


def _plain_setup(code: str, rng: random.Random) -> Setup:
    players = rng.randint(3 if code == "NS" else 2, 9)
    big = rng.randint(2, 20)
    small = rng.randint(1, big) if rng.random() < 0.3 else big // 2
    if players == 2 and small == big:
        small = big // 2  # PokerKit takes the button for the big blind when both are equal
    ante = rng.choice((0, 0, 1, rng.randint(1, big)))
    stacks = tuple(_stack(rng, big) for _ in range(players))
    antes = (ante,) * players
    blinds = (small, big) + (0,) * (players - 2)
    if code == "NT":
        config = TableConfig.of("holdem", Stakes.blinds(small, big, ante), structure=NO_LIMIT)
        amounts = {"min_bet": big}
    elif code == "FT":
        stakes = Stakes(small, big, ante, small_bet=big, big_bet=2 * big)
        config = TableConfig.of("holdem", stakes, structure=FIXED_LIMIT)
        amounts = {"small_bet": big, "big_bet": 2 * big}
    elif code == "PO":
        config = TableConfig.of("omaha", Stakes.blinds(small, big, ante), structure=POT_LIMIT)
        amounts = {"min_bet": big}
    elif code == "NS":
        ante = max(ante, 1)
        antes = (ante,) * players
        button_blind = rng.randint(1, 3 * ante)
        config = TableConfig.of("short_deck", Stakes.short_deck(ante, button_blind))
        blinds = (0,) * (players - 1) + (button_blind,)
        amounts = {"min_bet": button_blind}
    else:  # PokerKit's FO/8 class is pot limit: compare with our pot-limit Omaha Hi-Lo
        stakes = Stakes.blinds(small, big, ante)
        config = TableConfig.of("omaha_hi_lo", stakes, structure=POT_LIMIT)
        amounts = {"small_bet": big, "big_bet": big}
    return Setup(code, config, stacks, antes, blinds, amounts)


class Mismatch(AssertionError):
    """The engines disagree; the message holds the deal to reproduce it."""


@dataclass
class Outcome:
    """How one hand compared: decisions checked and the recognised rule differences."""

    decisions: int = 0
    known: set[str] = field(default_factory=set)


def _sync_cards(ours: EngineDriver, theirs: PokerKitHand) -> None:
    """Deal PokerKit the cards our engine dealt (PokerKit asks; we answer from our hand)."""
    while True:
        player = theirs.needs_hole()
        if player is not None:
            theirs.deal_hole(player, _cards(ours.hand.hole_cards(player)))
            continue
        count = theirs.board_count_needed()
        if not count:
            return
        done = len(theirs.state.board_cards)
        board = ours.hand.board[done : done + count]
        if len(board) != count:
            raise Mismatch(f"PokerKit deals {count} board cards our engine never dealt")
        theirs.deal_board(_cards(board))


def _cards(cards: object) -> str:
    return format_cards(cards).replace(" ", "")  # type: ignore[arg-type]


def play(setup: Setup, seed: int) -> Outcome:
    """Play one hand on both engines with the same random decisions; raise Mismatch."""
    rng = random.Random(seed)
    ours = EngineDriver(setup.config, setup.stacks, deck_seed=seed)
    theirs = PokerKitGame(
        setup.code,
        antes=setup.antes,
        blinds=setup.blinds,
        amounts=setup.amounts,
        ante_trimming=setup.ante_trimming,
    ).hand(setup.stacks)
    outcome = Outcome()
    reopening = Reopening()
    where = f"{setup} seed={seed}"
    while True:
        _sync_cards(ours, theirs)
        if _pokerkit_asks_a_forced_check(ours, theirs):
            continue
        if ours.over or theirs.over:
            break
        mine, pk = ours.options(), theirs.options()
        if mine != pk:
            if short_forced_bet(ours.hand, mine, pk):
                outcome.known.add(SHORT_FORCED_BET)
                return outcome  # the engines take different chips from here
            reason = reopening.explain(ours.hand, mine, pk, theirs.state)
            if reason is None:
                raise Mismatch(f"decision {outcome.decisions}: ours {mine} PokerKit {pk}; {where}")
            outcome.known.add(reason)
            mine = without_raises(mine)  # the choices both engines allow
        decision = choose(mine, rng)
        reopening.see(ours.hand, decision.kind, decision.amount)
        ours.apply(decision)
        theirs.apply(decision)
        outcome.decisions += 1
    _sync_cards(ours, theirs)
    if not (ours.over and theirs.over):
        raise Mismatch(f"one engine finished, the other did not; {where}")
    if list(ours.hand.stacks) != theirs.stacks:
        reason = payout_difference(ours.hand, theirs.state)
        if reason is None:
            raise Mismatch(
                f"finishing stacks ours {ours.hand.stacks} PokerKit {theirs.stacks}; {where}"
            )
        outcome.known.add(reason)
    return outcome


def _pokerkit_asks_a_forced_check(ours: EngineDriver, theirs: PokerKitHand) -> bool:
    """PokerKit asks a player who can only check (everyone else all-in); we do not ask.

    The engine closes the round at once; PokerKit waits for that check. Answer
    it for PokerKit, only when the decision really has no alternative.
    """
    if theirs.over or theirs.actor is None or (not ours.over and ours.actor == theirs.actor):
        return False
    pk = theirs.options()
    if pk.check and not pk.fold and pk.call is None and pk.min_raise_to is None:
        theirs.apply(Decision("check"))
        return True
    return False


@pytest.mark.slow
@pytest.mark.parametrize("code", CODES)
def test_same_legal_actions_and_payouts_as_pokerkit(code: str) -> None:
    rng = random.Random(f"diff-{code}")
    decisions = 0
    known: Counter[str] = Counter()
    for _ in range(HANDS):
        seed = rng.getrandbits(48)
        outcome = play(random_setup(code, random.Random(seed)), seed)
        decisions += outcome.decisions
        known.update(outcome.known)
    print(f"\n{code}: {HANDS} hands, {decisions} decisions compared, differences {dict(known)}")
    assert decisions >= 3 * HANDS  # the hands really were played, not folded away
    check_caps(known, HANDS)  # each recognised difference stays rare
