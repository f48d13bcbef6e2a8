"""``cardroom deal``: the seeded deck is the one shuffle of the package (RULEBOOK §1)."""

from __future__ import annotations

import pytest

from cardroom.cards import Deck, format_cards
from cardroom.cli import main
from cardroom.games import Hand, Stakes, TableConfig


def _deal(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(["deal", *args]) == 0
    return capsys.readouterr().out.strip()


def test_1_deal_seed_007_and_7_are_the_same_seed(capsys: pytest.CaptureFixture[str]) -> None:
    assert _deal(capsys, "--seed", "007") == _deal(capsys, "--seed", "7")
    assert _deal(capsys, "--seed", "7") != _deal(capsys, "--seed", "8")
    assert _deal(capsys, "--seed", "7", "--short") == format_cards(Deck.short(7).cards)


def test_1_deal_shows_the_deck_a_hand_with_that_seed_deals(
    capsys: pytest.CaptureFixture[str],
) -> None:
    shown = _deal(capsys, "--seed", "7")
    assert shown == format_cards(Deck.standard(7).cards)
    config = TableConfig.of("holdem", Stakes.blinds(1, 2))
    seeded = Hand(config, [100, 100, 100], button=0, seed=7)
    given = Hand(config, [100, 100, 100], button=0, deck=Deck.standard(7))
    assert [seeded.hole_cards(s) for s in range(3)] == [given.hole_cards(s) for s in range(3)]
