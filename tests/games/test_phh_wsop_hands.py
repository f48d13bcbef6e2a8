"""Real hands: the WSOP 2023 hands of PokerKit's own test suite, replayed by us.

PokerKit ships, with its tests, every hand of two 2023 WSOP final days
(Event #43, the $50,000 Poker Players Championship, nine games; Event #54).
Each test builds the hand in PokerKit; we catch the finished state, let
PokerKit write it as PHH, read that text and replay it through our engine: the
finishing stacks must be PokerKit's. Every finished hand is compared, the big-blind
ante hands (``antes = [0, X, 0, ...]``, ``ante_trimming_status = false``: dead
money for the main pot) included.
"""

from __future__ import annotations

import importlib
import unittest
import warnings
from collections.abc import Iterator
from typing import Any

import pokerkit  # a dev dependency: a test that needs it fails without it

from cardroom.games.phh import loads
from cardroom.games.phh_replay import replay

MODULES = ("pokerkit.tests.test_wsop.test_2023_43_5", "pokerkit.tests.test_wsop.test_2023_54_4")


def wsop_hands() -> Iterator[tuple[str, str, list[int]]]:
    """(test name, PHH text, PokerKit's finishing stacks) of every finished WSOP hand."""
    from pokerkit.games import Poker

    made: list[tuple[Any, Any]] = []
    original = Poker.__call__

    def record(self: Any, *args: Any, **kwargs: Any) -> Any:
        state = original(self, *args, **kwargs)
        made.append((self, state))
        return state

    Poker.__call__ = record  # type: ignore[method-assign]
    try:
        for name in MODULES:
            try:
                module = importlib.import_module(name)
            except ImportError:
                continue
            for case in unittest.defaultTestLoader.loadTestsFromModule(module):
                for test in case:  # type: ignore[union-attr]
                    made.clear()
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        test.run(unittest.TestResult())
                    if not made or made[0][1].status:
                        continue
                    game, state = made[0]
                    text = pokerkit.HandHistory.from_game_state(game, state).dumps()
                    yield test.id().rsplit(".", 1)[-1], text, list(state.stacks)
    finally:
        Poker.__call__ = original  # type: ignore[method-assign]


def test_wsop_2023_hands_replay_to_pokerkit_stacks() -> None:
    compared = total = big_blind_antes = 0
    variants: set[str] = set()
    for name, text, stacks in wsop_hands():
        total += 1
        (hh,) = loads(text)
        ours = replay(hh)
        assert list(ours.finishing_stacks) == stacks, f"{name}\n{text}"
        compared += 1
        variants.add(hh.variant)
        if ours.hand.config.stakes.big_blind_ante:
            big_blind_antes += 1
    assert compared == total >= 95
    assert big_blind_antes >= 25
    assert variants >= {"F7S", "F7S/8", "FR", "FO/8", "FT", "F2L3D", "NT", "PO", "N2L1D"}
