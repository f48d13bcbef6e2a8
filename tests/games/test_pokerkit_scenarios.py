"""Hand-built scenarios checked against PokerKit, an independent implementation.

Our seat ``i`` is PokerKit's player ``i`` with the button on the last seat. The
broad random differential harness is ``test_pokerkit_diff.py``; these pin the
rulebook examples themselves.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pokerkit  # a dev dependency: a test that needs it fails without it
from tests.games.pokerkit_differences import (
    Reopening,
    payout_difference,
    short_forced_bet,
)

from cardroom.bench.engine_driver import EngineDriver
from cardroom.bench.pokerkit_peer import Decision, PokerKitGame, PokerKitHand
from cardroom.cards import parse_cards
from cardroom.games import Action, Hand, Stakes, TableConfig, arrange_deck

ROOT = Path(__file__).resolve().parents[2]
AUTOMATIONS = (
    pokerkit.Automation.ANTE_POSTING,
    pokerkit.Automation.BET_COLLECTION,
    pokerkit.Automation.BLIND_OR_STRADDLE_POSTING,
    pokerkit.Automation.CARD_BURNING,
    pokerkit.Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    pokerkit.Automation.HAND_KILLING,
    pokerkit.Automation.CHIPS_PUSHING,
    pokerkit.Automation.CHIPS_PULLING,
)


def ours(config: TableConfig, stacks: list[int], holes: list[str], board: str) -> Hand:
    n = len(stacks)
    order = tuple(range(n))  # the button is the last seat
    deck = arrange_deck(
        config, order, {s: parse_cards(h) for s, h in enumerate(holes)}, parse_cards(board)
    )
    return Hand(config, stacks, n - 1, deck)


def theirs(kind: type, stacks: list[int], holes: list[str], blinds: tuple[int, int]) -> object:
    state = kind.create_state(AUTOMATIONS, True, 0, blinds, blinds[1], tuple(stacks), len(stacks))
    for h in holes:
        state.deal_hole(h.replace(" ", ""))
    return state


def test_three_all_ins_side_pots_match_pokerkit() -> None:
    stacks = [50, 100, 200, 400]
    holes = ["Ah Ad", "Kh Kd", "Qh Qd", "7c 6d"]
    board = "2c 5d 9h Js 3s"
    hand = ours(TableConfig.of("holdem", Stakes.blinds(1, 2)), stacks, holes, board)
    state = theirs(pokerkit.NoLimitTexasHoldem, stacks, holes, (1, 2))
    for seat, kind, amount in ((2, "raise", 200), (3, "call", 0), (0, "call", 0), (1, "call", 0)):
        hand.apply(Action(seat, kind, amount))
        if kind == "raise":
            state.complete_bet_or_raise_to(amount)
        else:
            state.check_or_call()
    for cards in ("2c5d9h", "Js", "3s"):
        while state.can_check_or_call():
            state.check_or_call()
        state.deal_board(cards)
    assert hand.result is not None
    assert list(hand.result.stacks) == list(state.stacks)


def test_pot_limit_maximum_matches_pokerkit() -> None:
    stacks = [1000, 1000, 1000]
    holes = ["Ah Ad Kc Qs", "Kh Kd 2c 3d", "Qh Qd 4c 5d"]
    config = TableConfig.of("omaha", Stakes.blinds(5, 10))
    hand = ours(config, stacks, holes, "2s 7d 9h Js 3h")
    state = theirs(pokerkit.PotLimitOmahaHoldem, stacks, holes, (5, 10))
    script = [(2, "raise", 35), (0, "call", 0), (1, "raise", 120)]
    for seat, kind, amount in script:
        legal = hand.legal_actions(seat)
        assert legal.max_raise_to == state.max_completion_betting_or_raising_to_amount
        assert legal.min_raise_to == state.min_completion_betting_or_raising_to_amount
        hand.apply(Action(seat, kind, amount))
        if kind == "raise":
            state.complete_bet_or_raise_to(amount)
        else:
            state.check_or_call()
    legal = hand.legal_actions(2)
    assert (legal.min_raise_to, legal.max_raise_to) == (
        state.min_completion_betting_or_raising_to_amount,
        state.max_completion_betting_or_raising_to_amount,
    )


def test_pokerkit_is_a_dev_dependency_no_test_skips_without_it() -> None:
    """A test that needs PokerKit fails when it is missing: none skips (issue 12)."""
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert '"pokerkit==' in pyproject.split("[project.optional-dependencies]")[1]
    needle = "importorskip(" + '"pokerkit"'  # built so that this file does not match itself
    skipping = [p.name for p in (ROOT / "tests").rglob("*.py") if needle in p.read_text()]
    assert skipping == []


def _short_big_blind() -> tuple[EngineDriver, PokerKitHand]:
    """5/10, the big blind has 7: the engine's §4 bet to call is 10, PokerKit's 7."""
    config = TableConfig.of("holdem", Stakes.blinds(5, 10))
    ours = EngineDriver(config, [200, 7, 200], deck_seed=1)
    amounts = {"min_bet": 10}  # PokerKit deals its own cards: only the betting is compared
    game = PokerKitGame("NT", antes=(0,) * 3, blinds=(5, 10, 0), amounts=amounts, deal=True)
    theirs = game.hand([200, 7, 200])
    return ours, theirs


def test_4_pokerkit_calls_a_short_big_blind_for_what_was_posted_a_named_difference() -> None:
    ours, theirs = _short_big_blind()
    mine, pk = ours.options(), theirs.options()
    assert (mine.call, mine.min_raise_to) == (10, 20)  # RULEBOOK §4
    assert (pk.call, pk.min_raise_to) == (7, 17)  # PokerKit: the largest bet posted
    assert short_forced_bet(ours.hand, mine, pk)
    # Recognised exactly: any other difference in the same fields is not excused.
    assert not short_forced_bet(ours.hand, mine, replace(pk, call=6))
    assert not short_forced_bet(ours.hand, mine, replace(pk, min_raise_to=18))
    assert not short_forced_bet(ours.hand, mine, replace(pk, max_raise_to=199))
    assert Reopening().explain(ours.hand, mine, pk, theirs.state) is None


def test_a_payout_difference_outside_the_known_rules_is_not_excused() -> None:
    ours, theirs = _short_big_blind()
    for _ in range(3):  # everyone folds to the big blind: same stacks in both engines
        if ours.over:
            break
        decision = Decision("fold")
        ours.apply(decision)
        theirs.apply(decision)
    assert ours.over and theirs.over and list(ours.hand.stacks) == theirs.stacks
    theirs.state.stacks[0] -= 1  # one chip moved from one player to another
    theirs.state.stacks[2] += 1
    assert payout_difference(ours.hand, theirs.state) is None
