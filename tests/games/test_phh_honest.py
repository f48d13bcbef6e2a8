"""Replays read only a file's inputs and say what they could not check (issue 12, §1-§2):
unshown hands surrender at showdown, the chip unit ignores the outcome fields, every
error names the action at fault, a file that stops early is unfinished, live posts."""

from __future__ import annotations

import json
import random
import warnings
from pathlib import Path

import pytest

from cardroom.cli import main
from cardroom.games import events as ev
from cardroom.games.actions import Action
from cardroom.games.config import POST_BIG_BLIND, POST_BOTH_BLINDS, Seat, Stakes, TableConfig
from cardroom.games.hand import Hand
from cardroom.games.phh import PhhError, dumps, loads
from cardroom.games.phh_replay import export, replay

# Every hand plays the board (aces full of kings) unless it holds an ace or a king-pair
# beats nothing: almost every filler card would tie for the pot.
ACES_FULL = """variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = ["d dh p1 7c2d", "d dh p2 {p2}", "d dh p3 ????", "p3 cc", "p1 cc", "p2 cc",
  "d db AhAdAs", "p1 cc", "p2 cc", "p3 cc", "d db Kh", "p1 cc", "p2 cc", "p3 cc",
  "d db Kd", "p1 cc", "p2 cc", "p3 cc", "p1 sm 7c2d"{shows}]
"""


def aces_full(p2: str = "????", shows: str = ', "p2 sm"') -> str:
    return ACES_FULL.replace("{p2}", p2).replace("{shows}", shows)


def test_a_hand_never_shown_can_never_win_on_a_board_where_any_fill_ties() -> None:
    # p2 mucks, p3 is never shown: the shown seven-deuce takes the whole pot.
    ours = replay(loads(aces_full())[0])
    assert ours.finished
    assert ours.finishing_stacks == (104, 98, 98)
    assert ours.surrendered == {1, 2}


def test_a_known_hand_that_mucks_surrenders_its_claim_too() -> None:
    # p2's queens would tie (both play the board); its muck gives its share away.
    ours = replay(loads(aces_full("QcQd"))[0])
    assert ours.finishing_stacks == (104, 98, 98)


def test_a_shown_hand_still_splits_by_its_cards() -> None:
    text = aces_full("QcQd", ', "p2 sm QcQd", "p3 sm"')
    assert replay(loads(text)[0]).finishing_stacks == (101, 101, 98)  # 6 split, p3 out


def test_when_everyone_else_mucks_the_one_hand_never_shown_takes_the_pot() -> None:
    # p1 and p2 muck, p3's cards are never written: p3 alone kept a claim (as PokerKit reads it).
    text = aces_full().replace('"p1 sm 7c2d"', '"p1 sm"').replace("7c2d", "????")
    assert replay(loads(text)[0]).finishing_stacks == (98, 98, 104)


def test_a_contested_pot_with_two_unshown_claims_is_an_error() -> None:
    # p1 mucks; neither p2 nor p3 is shown or mucks: the file cannot say who won.
    text = aces_full(shows="").replace('"p1 sm 7c2d"', '"p1 sm"').replace("7c2d", "????")
    with pytest.raises(PhhError, match="shows none of its hands") as caught:
        replay(loads(text)[0])
    assert caught.value.action == len(loads(text)[0].actions)


ODD_CHIP = """variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = ["d dh p1 7c2d", "d dh p2 3h4h", "d dh p3 5s6c", "p3 cc", "p1 f", "p2 cc",
  "d db AhAdAs", "p2 cc", "p3 cc", "d db Kh", "p2 cc", "p3 cc", "d db Kd", "p2 cc", "p3 cc",
  "p2 sm 3h4h", "p3 sm 5s6c"]
"""


def test_outcome_fields_change_nothing_not_even_the_chip_unit() -> None:
    """Half chips in the file's outcome fields once made the unit 0.1 and split the odd chip."""
    bare = replay(loads(ODD_CHIP)[0])
    claimed = ODD_CHIP + "finishing_stacks = [99, 100.5, 100.5]\nwinnings = [0, 2.5, 2.5]\n"
    told = replay(loads(claimed)[0])
    assert told.history.scale == bare.history.scale == 1
    assert told.finishing_stacks == bare.finishing_stacks == (99, 101, 100)
    # The outcome fields are written back as read (here: finer than the unit, kept verbatim).
    assert "finishing_stacks = [99, 100.5, 100.5]" in dumps(told.history)


DWAN_IVEY = """variant = "NT"
antes = [500, 500, 500]
blinds_or_straddles = [1000, 2000, 0]
min_bet = 2000
starting_stacks = [1125600, 2000000, 553500]
actions = [
  "d dh p1 Ac2d", "d dh p2 ????", "d dh p3 7h6h",
  "p3 cbr 7000", "p1 cbr 23000", "p2 f", "p3 cc",
  "d db Jc3d5c", "p1 cbr 35000", "p3 cc",
  "d db 4h", "p1 cbr 90000", "p3 cbr 232600", "p1 cbr 1067100", "p3 cc",
  "p1 sm Ac2d", "p3 sm 7h6h", "d db Jh",
]
"""


@pytest.mark.parametrize(
    ("change", "number", "reason"),
    [
        (('"d dh p1 Ac2d"', '"d dh p1 Ac"'), 1, "p1 has been dealt 1 cards"),
        (('"d dh p3 7h6h"', '"d dh p3 7h6h5h"'), 3, "p3 has been dealt 3 cards"),
        (('"p1 sm Ac2d"', '"p1 sm AcKd"'), 16, "p1 shows AcKd but holds Ac2d"),
        (('"p3 sm 7h6h"', '"p3 sm 7h6hJh"'), 17, "p3 shows"),
        # More cards than the player holds, the extra one unknown (mutation audit phh R10).
        (('"p3 sm 7h6h"', '"p3 sm 7h6h??"'), 17, "p3 shows 7h6h\\?\\? but holds"),
        (('"p3 sm 7h6h"', '"p2 sm 7h6h"'), 17, "p2 shows cards after folding"),
        (('"p2 f"', '"p2 f", "d dh p2 Kd"'), 7, "p2 has been dealt 3 cards"),
        (('"p3 cbr 7000"', '"p2 cbr 7000"'), 4, "p2 acts but it is p3's turn"),
        (('"d db 4h"', '"d db 4h", "d db 9s"'), 12, "before the engine deals them"),
        (('"p2 f"', '"p2 f", "p3 sd 7h"'), 7, "p3 draws, but Texas Hold'em has no draw"),
        (('"d dh p2 ????"', '"d dh p2 7h??"'), 3, "deals 7h twice"),
    ],
)
def test_an_error_names_the_action_at_fault(
    change: tuple[str, str], number: int, reason: str
) -> None:
    text = DWAN_IVEY.replace(*change)
    with pytest.raises(PhhError, match=reason) as caught:
        replay(loads(text)[0])
    assert caught.value.action == number
    assert str(caught.value).startswith(f"action {number} (")


def test_a_file_that_stops_early_is_unfinished_with_chips_in_the_pot() -> None:
    text = DWAN_IVEY.replace('"p1 cbr 90000", "p3 cbr 232600", "p1 cbr 1067100", "p3 cc",', "")
    text = text.replace('"p1 sm Ac2d", "p3 sm 7h6h", "d db Jh",', "")
    ours = replay(loads(text)[0])
    assert not ours.finished
    assert ours.hand.actor == 0 and ours.hand.pot_total == 3 * 500 + 2000 + 2 * 58000
    assert sum(s for s in ours.finishing_stacks if s) + ours.hand.pot_total == 3679100


def test_a_deal_cut_short_by_the_end_of_the_file_is_not_an_error() -> None:
    text = DWAN_IVEY.split('"d dh p3 7h6h"')[0] + '"d dh p3 7h"]\n'
    assert not replay(loads(text)[0]).finished


# ----------------------------------------------------------------- live posts

POSTED = """variant = "NT"
antes = [0, 0, 0, 0]
blinds_or_straddles = [1, 2, 0, -2]
min_bet = 2
starting_stacks = [100, 100, 100, 100]
actions = ["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "d dh p4 ????",
  "p3 f", "p4 cc", "p1 cc", "p2 cc", "d db 2c3d4h", "p1 cc", "p2 cc", "p4 cbr 10", "p1 f",
  "p2 f"]
"""


def test_a_negative_blind_is_a_live_post_that_does_not_move_the_first_actor() -> None:
    ours = replay(loads(POSTED)[0])
    posted = [e for e in ours.hand.events if isinstance(e, ev.Posted)]
    assert [(e.seat, e.amount, e.live) for e in posted] == [
        (0, 1, True),
        (1, 2, True),
        (3, 2, True),
    ]
    assert ours.finishing_stacks == (98, 98, 100, 104)  # p4 checked its post, then won


def test_a_live_post_agrees_with_pokerkit() -> None:
    import pokerkit

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        states = list(pokerkit.HandHistory.loads(POSTED))
    assert list(states[-1].stacks) == list(replay(loads(POSTED)[0]).finishing_stacks)


# The small blind's seat is dead (p1 posts the big blind alone) and p3 joins with a live
# big blind: a room's usual hand (HandHQ's Ongame files hold such), read by PokerKit.
LONE_BLIND_POSTED = """variant = "NT"
antes = [0, 0, 0, 0]
blinds_or_straddles = [2, 0, -2, 0]
min_bet = 2
starting_stacks = [100, 100, 100, 100]
actions = ["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "d dh p4 ????",
  "p2 cbr 6", "p3 f", "p4 cbr 20", "p1 f", "p2 f"]
"""


def test_10_3_a_live_post_after_a_lone_big_blind_replays_as_pokerkit_reads_it() -> None:
    # §10.3: the joining player's big blind is live and does not move the first actor
    # (p2, left of the lone big blind); p4's raise takes the 2 + 2 + 6 of the others.
    import pokerkit

    ours = replay(loads(LONE_BLIND_POSTED)[0])
    posted = [e for e in ours.hand.events if isinstance(e, ev.Posted)]
    assert [(e.seat, e.amount, e.live) for e in posted] == [(0, 2, True), (2, 2, True)]
    assert ours.finishing_stacks == (98, 94, 98, 110)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        states = list(pokerkit.HandHistory.loads(LONE_BLIND_POSTED))
    assert list(states[-1].stacks) == list(ours.finishing_stacks)


@pytest.mark.parametrize(
    ("blinds", "reason"),
    [("[1, 2, 0, -3]", "a live post is the big blind"), ("[1, -2, 0, 0]", "posts a blind")],
)
def test_a_live_post_the_engine_cannot_play_is_refused(blinds: str, reason: str) -> None:
    with pytest.raises(PhhError, match=reason):
        replay(loads(POSTED.replace("[1, 2, 0, -2]", blinds))[0])


def _play_out(hand: Hand, rng: random.Random) -> None:
    while hand.actor is not None:
        seat = hand.actor
        legal = hand.legal_actions(seat)
        move = rng.random()
        if move < 0.3 and legal.min_raise_to is not None:
            hand.apply(Action.raise_to(seat, legal.min_raise_to))
        elif move < 0.5 and not legal.check:
            hand.apply(Action.fold(seat))
        else:
            hand.apply(Action.check(seat) if legal.check else Action.call(seat))


def test_an_engine_hand_with_a_live_post_exports_it_negative() -> None:
    config = TableConfig.of("holdem", Stakes.blinds(1, 2))
    rng = random.Random(3)
    for _ in range(20):
        seats: list[Seat | int] = [100, 100, 100, Seat(100, post=POST_BIG_BLIND), 100]
        hand = Hand(config, seats, 4, seed=rng.getrandbits(64))
        _play_out(hand, rng)
        hh = export(hand)
        assert hh.blinds_or_straddles == (1, 2, 0, -2, 0)
        again = replay(loads(dumps(hh))[0])
        assert again.finishing_stacks == tuple(hand.stacks[s] for s in hand.order)
    # Both blinds, the small one dead: the dead chip is the poster's ante (dead money).
    both = Hand(config, [100, 100, 100, Seat(100, post=POST_BOTH_BLINDS), 100], 4, seed=1)
    _play_out(both, rng)
    hh = export(both)
    assert (hh.antes, hh.blinds_or_straddles) == ((0, 0, 0, 1, 0), (1, 2, 0, -2, 0))
    assert not hh.ante_trimming_status
    again = replay(loads(dumps(hh))[0])
    assert again.finishing_stacks == tuple(both.stacks[s] for s in both.order)


def test_cli_reports_an_unfinished_hand_with_its_state_and_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "cut.phh"
    path.write_text(DWAN_IVEY.split('"d db 4h"')[0] + "]\n")
    assert main(["replay", str(path), "--json"]) == 1
    line = json.loads(capsys.readouterr().out)
    assert line["finishing_stacks"] is None and "error" not in line
    assert line["unfinished"] == {
        "stacks": [1067100, 1997500, 495000],
        "pot": 119500,
        "street": "turn",  # the flop's betting is over: the engine dealt the turn
        "actor": "p1",
    }
    assert main(["replay", str(path)]) == 1
    assert "unfinished on the turn" in capsys.readouterr().out


def test_an_engine_refusal_names_players_as_the_file_does() -> None:
    # The engine counts seats from 0 ("seat 0 is to draw"); the file's player is p1.
    from tests.games.test_phh_fuzz import _exported

    text = _exported("triple_draw_27", 0)
    draws = text.index('  "p1 sd ')
    text = text[:draws] + '  "p1 cc",\n' + text[text.index("\n", draws) + 1 :]
    with pytest.raises(PhhError) as caught:
        replay(loads(text)[0])
    assert "p1 is to draw or stand pat" in str(caught.value), caught.value
    assert "seat" not in str(caught.value)


def test_a_heads_up_stud_hand_with_a_dead_button_exports_and_replays() -> None:
    """HORSE freezes the button during its stud hands (§9), so a heads-up stud hand
    may have its button on an empty seat. Stud has no blinds: the button only says
    who is dealt first, the player on its left, as PHH's ``p1``; the hand is the same
    with the button on the other player. (It was refused as a blind game's would be.)"""
    import pokerkit

    config = TableConfig.of(
        "stud", Stakes(small_bet=4, big_bet=8, ante=1), max_raises=3, fourth_street_pair="small"
    )
    rng = random.Random(2)
    for seed in range(4):
        hand = Hand(config, [100, None, 120, None], button=3, seed=seed)
        while (seat := hand.actor) is not None and hand.legal_actions(seat).bring_in:
            hand.apply(Action.bring_in(seat))
        _play_out(hand, rng)
        text = dumps(export(hand))
        stacks = [hand.stacks[s] for s in hand.order]
        assert list(replay(loads(text)[0]).finishing_stacks) == stacks
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            *_, state = pokerkit.HandHistory.loads(text)
        assert list(state.stacks) == stacks, text


def test_a_straddler_back_from_missing_both_blinds_is_written_posting_the_small_one_dead() -> None:
    """§10.4 at a straddle table: a player back on the straddle seat posts the straddle
    (which covers his live big blind) and the small blind dead. The dead chip is his ante
    entry, as for any live poster; the importer read it only on a negative entry and
    refused the file ('antes [0, 0, 1, 0, 0] are not uniform')."""
    import pokerkit

    config = TableConfig.of("holdem", Stakes.blinds(1, 2, straddles=(4,)))
    rng = random.Random(4)
    for seed in range(6):
        seats: list[Seat | int] = [100, 100, Seat(100, post=POST_BOTH_BLINDS), 100, 100]
        hand = Hand(config, seats, 4, seed=seed)
        _play_out(hand, rng)
        hh = export(hand)
        assert (hh.antes, hh.blinds_or_straddles) == ((0, 0, 1, 0, 0), (1, 2, 4, 0, 0))
        assert not hh.ante_trimming_status
        text = dumps(hh)
        ours = replay(loads(text)[0])
        assert ours.hand.events[1:5] == hand.events[1:5]  # the straddle, then the dead blind
        stacks = tuple(hand.stacks[s] for s in hand.order)
        assert ours.finishing_stacks == stacks
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            *_, state = pokerkit.HandHistory.loads(text)
        assert tuple(state.stacks) == stacks, text


def test_a_straddler_short_of_both_posts_has_no_phh_and_says_why() -> None:
    """The engine posts the straddle, then the dead small blind from what is left; PHH
    posts antes first. A straddler short of both is refused as any live poster is, not
    written with a partial dead blind the importer then refuses (its own message)."""
    config = TableConfig.of("holdem", Stakes.blinds(2, 4, straddles=(8,)))
    hand = Hand(config, [100, 100, Seat(9, post=POST_BOTH_BLINDS), 100, 100], 4, seed=1)
    assert [e.amount for e in hand.events if isinstance(e, ev.Posted)] == [2, 4, 8, 1]
    _play_out(hand, random.Random(1))
    with pytest.raises(PhhError, match="dead small blind posted all-in"):
        export(hand)
