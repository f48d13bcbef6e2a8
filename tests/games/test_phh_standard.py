"""Constructs of the PHH standard (``phh-std/required.rst``, ``optional.rst``) met by an
audit: each is either replayed to the result the standard gives (PokerKit, its reference
implementation, as the oracle) or refused with a PhhError saying why, never replayed to
another result."""

from __future__ import annotations

import warnings

import pokerkit  # a dev dependency: a test that needs it fails without it
import pytest

from cardroom.cards import Card
from cardroom.games.phh import PhhError, loads
from cardroom.games.phh_replay import replay


def pokerkit_stacks(text: str) -> list[int]:
    """PokerKit's finishing stacks for PHH ``text``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PokerKit warns about cash-game folds and such
        states = list(pokerkit.HandHistory.loads(text))
    return [int(s) for s in states[-1].stacks]


# p3 (the button) has 3 chips for an ante of 5 and holds the best hand.
SHORT_ANTE = """variant = "NT"
ante_trimming_status = {trimming}
antes = [5, 5, 5]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [200, 200, 3]
actions = ["d dh p1 ????", "d dh p2 ????", "d dh p3 AsAd", "p1 cc", "p2 cc",
  "d db 2c3c4d", "p1 cc", "p2 cc", "d db 9h", "p1 cc", "p2 cc", "d db Th", "p1 cc", "p2 cc",
  "p1 sm", "p2 sm KsKd", "p3 sm AsAd"]
"""


def test_a_short_ante_with_trimming_plays_for_what_was_matched_as_pokerkit() -> None:
    text = SHORT_ANTE.format(trimming="true")
    assert list(replay(loads(text)[0]).finishing_stacks) == pokerkit_stacks(text) == [193, 201, 9]


def test_a_short_ante_without_trimming_is_refused_since_it_wins_every_ante_in_full() -> None:
    # optional.rst: with ante_trimming_status false (the default) a player short of the
    # ante can win all the antes: PokerKit gives p3 13 (5 + 5 + 3), the engine's side pots
    # (RULEBOOK §5) 9. The engine has no such rule, so the file is refused, not misplayed.
    text = SHORT_ANTE.format(trimming="false")
    assert pokerkit_stacks(text) == [193, 197, 13]
    with pytest.raises(PhhError, match="ante_trimming_status") as caught:
        replay(loads(text)[0])
    assert "p3" in str(caught.value)
    # Without the field (false by default) the same.
    with pytest.raises(PhhError, match="ante_trimming_status"):
        replay(loads(text.replace("ante_trimming_status = false\n", ""))[0])


def test_a_short_ante_that_wins_nothing_is_replayed_without_trimming() -> None:
    # The two readings differ only in what the short player wins: beaten, he takes
    # nothing either way, and the same hand takes every ante (PokerKit agrees).
    text = SHORT_ANTE.format(trimming="false").replace("d dh p3 AsAd", "d dh p3 7s2d")
    text = text.replace("p3 sm AsAd", "p3 sm 7s2d")
    assert list(replay(loads(text)[0]).finishing_stacks) == pokerkit_stacks(text) == [193, 210, 0]


def test_a_stack_that_covers_the_ante_is_replayed_without_trimming() -> None:
    text = SHORT_ANTE.format(trimming="false").replace("[200, 200, 3]", "[200, 200, 5]")
    assert list(replay(loads(text)[0]).finishing_stacks) == pokerkit_stacks(text) == [193, 197, 15]


# p2 posts a big-blind ante of 2 beside his big blind; p3 raises and takes the pot.
BIG_BLIND_ANTE = """variant = "NT"
ante_trimming_status = {trimming}
antes = [0, 2, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = ["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "p3 cbr 6", "p1 f", "p2 f"]
"""


def test_a_big_blind_ante_with_trimming_is_refused_since_trimming_gives_it_back() -> None:
    # Trimming cuts each ante to the second largest: a lone big-blind ante goes back to
    # its poster, so PokerKit plays the hand as if nobody anted (p3 wins the blinds only).
    # A file with such an ante means dead money (as with false), so it is refused, not
    # replayed to either result.
    text = BIG_BLIND_ANTE.format(trimming="true")
    assert pokerkit_stacks(text) == [99, 98, 103]
    with pytest.raises(PhhError, match="gives a lone big-blind ante back"):
        replay(loads(text)[0])
    dead = BIG_BLIND_ANTE.format(trimming="false")
    assert list(replay(loads(dead)[0]).finishing_stacks) == pokerkit_stacks(dead)
    assert pokerkit_stacks(dead) == [99, 96, 105]


# required.rst: a board deal names "a valid card notation", which may be unknown (??).
UNKNOWN_RIVER = """variant = "NT"
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [200, 200]
actions = ["d dh p1 AsAd", "d dh p2 KsKd", "p2 cc", "p1 cc", "d db 2c3c4d", "p1 cc", "p2 cc",
  "d db 9h", "p1 cc", "p2 cc", "d db {river}", "p1 cc", "p2 cc", "p1 sm AsAd", "p2 sm KsKd"]
"""


def test_a_showdown_an_unknown_board_card_decides_is_refused_not_won_by_a_filler() -> None:
    # Aces against kings: a king on the river (or a club, for neither) would change the
    # winner, and the file does not say which card came. The replay must not pick one.
    text = UNKNOWN_RIVER.format(river="??")
    with pytest.raises(PhhError, match="unknown") as caught:
        replay(loads(text)[0])
    assert caught.value.action == 11  # the deal that left the card unknown
    assert list(replay(loads(UNKNOWN_RIVER.format(river="Kh"))[0]).finishing_stacks) == [198, 202]


def test_an_unknown_board_is_no_matter_when_one_hand_claims_the_pot() -> None:
    folded = UNKNOWN_RIVER.format(river="??").replace(
        '"p1 cc", "p2 cc", "p1 sm AsAd", "p2 sm KsKd"]', '"p1 cbr 2", "p2 f"]'
    )
    mucked = UNKNOWN_RIVER.format(river="??").replace('"p2 sm KsKd"', '"p2 sm"')
    for text in (folded, mucked):
        assert list(replay(loads(text)[0]).finishing_stacks) == [202, 198]


def test_a_flop_dealt_card_by_card_is_one_street_with_one_burn() -> None:
    # Hole cards may come card by card (test_phh_replay); so may a street's board cards,
    # as PokerKit reads them: the three "d db" of the flop follow one burn, not three.
    text = UNKNOWN_RIVER.format(river="Th").replace('"d db 2c3c4d"', '"d db 2c", "d db 3c4d"')
    ours = replay(loads(text)[0])
    assert list(ours.hand.board) == [Card.parse(c) for c in ("2c", "3c", "4d", "9h", "Th")]
    assert list(ours.finishing_stacks) == pokerkit_stacks(text) == [202, 198]
    by_card = text.replace('"d db 3c4d"', '"d db 3c", "d db 4d"')
    assert list(replay(loads(by_card)[0]).finishing_stacks) == pokerkit_stacks(by_card)


def test_a_button_straddle_is_refused_saying_the_engine_straddles_in_turn_only() -> None:
    # required.rst's own example, [1, 2, 0, 0, 0, 4]: PokerKit lets the small blind act
    # first after it. The engine's straddles are posted in turn from p3 (forced.py).
    text = """variant = "NT"
antes = [0, 0, 0, 0, 0, 0]
blinds_or_straddles = [1, 2, 0, 0, 0, 4]
min_bet = 2
starting_stacks = [200, 200, 200, 200, 200, 200]
actions = ["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "d dh p4 ????", "d dh p5 ????",
  "d dh p6 ????", "p1 f", "p2 f", "p3 f", "p4 f", "p5 f"]
"""
    assert pokerkit_stacks(text) == [199, 198, 200, 200, 200, 203]
    with pytest.raises(PhhError, match="p6 straddles but p3 does not"):
        replay(loads(text)[0])


def test_an_error_about_a_fractional_file_says_the_unit_of_the_engine_s_amounts() -> None:
    # The engine counts a 0.50/1 file in tenths (its finest amount): "must be to between
    # 30 and 1000, not 25" needs its unit said beside the file's own "cbr 2.5" (a
    # whole-chip file needs none).
    cents = """variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [0.50, 1, 0]
min_bet = 1
starting_stacks = [100, 100, 100]
actions = ["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "p3 cbr 2", "p1 cbr 2.50"]
"""
    with pytest.raises(PhhError) as caught:
        replay(loads(cents)[0])
    said = str(caught.value)
    assert said.startswith("action 5 (p1 cbr 2.5): ") and "not 25 " in said
    assert said.endswith("(the engine's amounts are in units of 0.1)")
    assert caught.value.action == 5
    chips = cents.replace("0.50, 1, 0", "1, 2, 0").replace("min_bet = 1", "min_bet = 2")
    chips = chips.replace("cbr 2.50", "cbr 5").replace("cbr 2", "cbr 4")
    with pytest.raises(PhhError) as whole:
        replay(loads(chips)[0])
    assert "units of" not in str(whole.value) and str(whole.value).startswith("action 5")
