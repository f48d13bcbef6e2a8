"""The big-blind ante and straddles (RULEBOOK §4 options, off by default): one test per rule.

Big-blind ante: the big blind's seat posts it before the blinds (short: the
ante first, all-in for less), as dead money: no part of any bet, not a call,
and it goes to the main pot, which every live player can win. Straddles: live
blinds left of the big blind; action starts left of the last straddler, who
has the option; a raise over a straddle adds at least the straddle (the
default) or the big blind (``straddle_raise="big_blind"``, PokerKit's sizing).
Seats here: button on the last seat, seat 0 the small blind, seat 1 the big
blind, seats 2, 3... the straddlers.
"""

from __future__ import annotations

import json
import random
import warnings
from dataclasses import replace
from pathlib import Path

import pytest
from tests.games.phh_read_otherwise import export_unless_read_otherwise

from cardroom.bench.engine_driver import EngineDriver
from cardroom.bench.pokerkit_peer import choose
from cardroom.cards import CARDS, Card, parse_cards
from cardroom.cli import main
from cardroom.games import (
    POST_BIG_BLIND,
    Action,
    ConfigError,
    Hand,
    IllegalAction,
    Seat,
    Stakes,
    TableConfig,
    events,
    replay,
)
from cardroom.games.config import config_from_dict, config_to_dict
from cardroom.games.phh import dumps, loads
from cardroom.games.phh_replay import export
from cardroom.games.phh_replay import replay as phh_replay
from cardroom.games.rake import RakeRule
from cardroom.games.variants import POT_LIMIT

BBA = TableConfig.of("holdem", Stakes.blinds(1, 2, big_blind_ante=10))
STRADDLE = TableConfig.of("holdem", Stakes.blinds(1, 2, straddles=(4,)))


def posts(hand: Hand) -> list[tuple[int, str, int, bool]]:
    return [(e.seat, e.what, e.amount, e.live) for e in hand.events if isinstance(e, events.Posted)]


def deck(holes: list[str], board: str) -> list[Card]:
    """Hold'em deck: hole cards round by round from seat 0, burn, flop, burn, turn, burn, river."""
    hands = [parse_cards(h) for h in holes]
    cards = [hands[s][r] for r in range(2) for s in range(len(hands))]
    b = parse_cards(board)
    burns = [c for c in CARDS if c not in cards and c not in b][:3]
    dealt = [*cards, burns[0], *b[:3], burns[1], b[3], burns[2], b[4]]
    return dealt + [c for c in CARDS if c not in dealt]


def call_or_check(hand: Hand) -> None:
    seat = hand.actor
    assert seat is not None
    hand.apply(Action(seat, "check" if hand.legal_actions(seat).check else "call"))


# ----------------------------------------------------------------- big-blind ante


def test_big_blind_ante_is_posted_by_the_big_blind_before_the_blinds() -> None:
    hand = Hand(BBA, [100, 100, 100], button=2, seed=1)
    assert posts(hand) == [
        (1, "big_blind_ante", 10, False),
        (0, "small_blind", 1, True),
        (1, "big_blind", 2, True),
    ]


def test_a_short_big_blind_posts_the_ante_first() -> None:
    # 11 chips: the whole ante, then 1 of the 2-chip blind, all in (TDA: the ante takes precedence).
    hand = Hand(BBA, [100, 11, 100], button=2, seed=1)
    assert posts(hand)[0] == (1, "big_blind_ante", 10, False)
    assert posts(hand)[2] == (1, "big_blind", 1, True)
    # 7 chips: all in on the ante, no blind at all.
    hand = Hand(BBA, [100, 7, 100], button=2, seed=1)
    assert [p for p in posts(hand) if p[0] == 1] == [(1, "big_blind_ante", 7, False)]
    assert hand.bets == (1, 0, 0) and hand.is_all_in(1)


def test_heads_up_the_big_blind_pays_the_big_blind_ante() -> None:
    hand = Hand(BBA, [100, 100], button=1, seed=1)  # heads-up: the button posts the small blind
    assert posts(hand) == [
        (0, "big_blind_ante", 10, False),
        (1, "small_blind", 1, True),
        (0, "big_blind", 2, True),
    ]


def test_big_blind_ante_does_not_count_as_a_call_or_a_bet() -> None:
    hand = Hand(BBA, [100, 100, 100, 100], button=3, seed=1)
    assert hand.actor == 2 and hand.current_bet == 2
    assert hand.bets == (1, 2, 0, 0) and hand.committed == (1, 12, 0, 0)
    assert hand.legal_actions(2).call == 2  # the blind to call, not blind plus ante
    assert hand.legal_actions(2).min_raise_to == 4
    for _ in range(3):
        call_or_check(hand)  # seats 2, 3 call, the small blind completes
    assert hand.actor == 1 and hand.legal_actions(1).check  # the big blind has the option
    hand.apply(Action(1, "check"))
    assert hand.pots()[0].amount == 4 * 2 + 10


def test_big_blind_ante_is_dead_money_for_the_main_pot() -> None:
    """Seat 2, all in for 1, wins the main pot with the whole dead ante in it.

    Counted as the big blind's chips in the side pots (12 of them), the ante would
    sit in the side pot seat 2 cannot win: main 3 (1 each from seats 0, 1, 2),
    and seat 2 would finish with 3. Dead: the main pot is 10 + 3 = 13, the side
    pot 1 + 1 = 2 between seats 0 and 1 (seat 0's Q-8 beats seat 1's 6-5).
    """
    cards = deck(["Qc8d", "6s5h", "AsAh", "JcTc"], "Kd7c2h9s3d")
    hand = Hand(BBA, [100, 100, 1, 100], button=3, deck=cards)
    hand.apply(Action(2, "call"))  # all in for 1
    hand.apply(Action(3, "fold"))
    hand.apply(Action(0, "call"))
    hand.apply(Action(1, "check"))
    while hand.actor is not None:
        hand.apply(Action(hand.actor, "check"))
    assert hand.result is not None
    assert [(p.amount, p.eligible) for p in hand.result.pots] == [(13, (0, 1, 2)), (2, (0, 1))]
    assert hand.stacks == (100 - 2 + 2, 100 - 12, 13, 100)


def test_the_dead_ante_goes_to_everyone_live_even_a_big_blind_all_in_on_it() -> None:
    # The big blind is all in on the ante (7 chips, no blind) and has the best hand:
    # it wins the 7 dead chips only; the side pot of the others goes to the best of them.
    cards = deck(["Qc8d", "AsAh", "6s5h"], "Kd7c2h9s3d")
    hand = Hand(BBA, [100, 7, 100], button=2, deck=cards)
    hand.apply(Action(2, "raise", 10))
    hand.apply(Action(0, "call"))
    while hand.actor is not None:
        hand.apply(Action(hand.actor, "check"))
    assert hand.result is not None
    assert [(p.amount, p.eligible) for p in hand.result.pots] == [(7, (0, 1, 2)), (20, (0, 2))]
    assert hand.stacks == (110, 7, 90)


def test_big_blind_ante_is_raked_like_any_chip_and_no_flop_no_drop_holds() -> None:
    rake = RakeRule(per=1, unit=10, caps=((10, 5),))
    config = replace(BBA, rake=rake)
    folded = Hand(config, [100, 100, 100], button=2, seed=3)
    folded.apply(Action(2, "fold"))
    folded.apply(Action(0, "fold"))
    assert folded.result is not None and folded.result.rake == 0  # no flop, no drop
    assert folded.stacks == (99, 101, 100)
    played = Hand(config, [100, 100, 100], button=2, seed=3)
    while played.actor is not None:
        call_or_check(played)
    assert played.result is not None
    assert played.result.rake == (3 * 2 + 10) // 10  # the dead ante counts in the pot
    assert sum(played.stacks) + played.result.rake == 300


# ----------------------------------------------------------------- straddles


def test_straddles_are_off_by_default() -> None:
    stakes = Stakes.blinds(1, 2)
    assert stakes.straddles == () and stakes.big_blind_ante == 0
    hand = Hand(TableConfig.of("holdem", stakes), [100] * 5, button=4, seed=1)
    assert [p[1] for p in posts(hand)] == ["small_blind", "big_blind"]
    assert hand.actor == 2 and hand.current_bet == 2


def test_a_straddle_is_a_live_blind_and_action_starts_left_of_it() -> None:
    hand = Hand(STRADDLE, [100] * 5, button=4, seed=1)
    assert posts(hand)[-1] == (2, "straddle", 4, True)
    assert hand.current_bet == 4 and hand.actor == 3  # left of the straddler, not of the blind
    assert hand.legal_actions(3).call == 4
    hand.apply(Action(3, "call"))
    assert hand.actor == 4
    hand.apply(Action(4, "call"))
    assert hand.actor == 0 and hand.legal_actions(0).call == 3  # the blinds act before it
    hand.apply(Action(0, "call"))
    assert hand.legal_actions(1).call == 2
    hand.apply(Action(1, "call"))
    # Later streets start left of the button as usual.
    assert hand.actor == 2


def test_several_straddles_action_starts_left_of_the_last() -> None:
    config = TableConfig.of("holdem", Stakes.blinds(1, 2, straddles=(4, 8)))
    hand = Hand(config, [100] * 6, button=5, seed=1)
    assert posts(hand)[-2:] == [(2, "straddle", 4, True), (3, "straddle", 8, True)]
    assert hand.actor == 4 and hand.legal_actions(4).call == 8


def test_the_straddler_has_the_option() -> None:
    hand = Hand(STRADDLE, [100] * 4, button=3, seed=1)
    hand.apply(Action(3, "call"))
    hand.apply(Action(0, "call"))
    hand.apply(Action(1, "call"))
    assert hand.actor == 2 and hand.street_index == 0
    legal = hand.legal_actions(2)
    assert legal.check and legal.call is None and legal.min_raise_to == 8
    hand.apply(Action(2, "check"))
    assert hand.street_index == 1  # nobody raised: the straddler's check closes the round


def test_a_raise_over_a_straddle_adds_at_least_the_straddle_by_default() -> None:
    config = TableConfig.of("holdem", Stakes.blinds(5, 10, straddles=(25,)))
    assert config.straddle_raise == "straddle"
    hand = Hand(config, [1000] * 4, button=3, seed=1)
    assert hand.legal_actions(3).min_raise_to == 50  # 25 + the straddle
    with pytest.raises(IllegalAction, match="between 50"):
        hand.apply(Action(3, "raise", 49))
    hand.apply(Action(3, "raise", 80))  # a raise of 55
    assert hand.legal_actions(0).min_raise_to == 135
    # After the pre-flop round the minimum bet is the big blind again.
    double = TableConfig.of("holdem", Stakes.blinds(1, 2, straddles=(4, 8)))
    assert Hand(double, [100] * 6, button=5, seed=1).legal_actions(4).min_raise_to == 16


def test_after_a_straddle_the_flop_minimum_bet_is_the_big_blind_again() -> None:
    """§5 NL: the minimum bet is the big blind; the straddle sizes raises of the
    pre-flop round only. 1/2 with a 4 straddle, everyone in for 4: on the flop the
    first bet may be 2, and a raise over it adds at least 2."""
    hand = Hand(STRADDLE, [100] * 4, button=3, seed=1)
    for seat in (3, 0, 1):
        hand.apply(Action(seat, "call"))
    hand.apply(Action(2, "check"))
    assert hand.street.name == "flop" and hand.actor == 0
    assert hand.legal_actions(0).min_raise_to == 2
    hand.apply(Action(0, "raise", 2))
    assert hand.legal_actions(1).min_raise_to == 4


def test_with_big_blind_sizing_a_raise_over_a_straddle_adds_the_big_blind() -> None:
    config = TableConfig.of(
        "holdem", Stakes.blinds(5, 10, straddles=(25,)), straddle_raise="big_blind"
    )
    hand = Hand(config, [1000] * 4, button=3, seed=1)
    assert hand.legal_actions(3).min_raise_to == 35  # 25 + the big blind (PokerKit)
    with pytest.raises(IllegalAction, match="between 35"):
        hand.apply(Action(3, "raise", 34))
    hand.apply(Action(3, "raise", 60))  # a raise of 35
    assert hand.legal_actions(0).min_raise_to == 95


def test_straddle_raise_is_checked() -> None:
    with pytest.raises(ConfigError, match="straddle_raise"):
        TableConfig.of("holdem", Stakes.blinds(1, 2), straddle_raise="double")


def test_no_straddle_heads_up_and_never_more_than_the_seats_allow() -> None:
    config = TableConfig.of("holdem", Stakes.blinds(1, 2, straddles=(4, 8)))
    heads_up = Hand(config, [100, 100], button=1, seed=1)
    assert [p[1] for p in posts(heads_up)] == ["small_blind", "big_blind"]
    assert heads_up.actor == 1  # the button (small blind) acts first pre-flop
    three = Hand(config, [100, 100, 100], button=2, seed=1)
    assert [p[1] for p in posts(three)] == ["small_blind", "big_blind", "straddle"]
    assert three.actor == 0
    # A dead small blind (the room's blind seats): still one seat of three left unforced.
    dead_small = Hand(config, [100, 100, 100], button=2, seed=1, blind_seats=(None, 1))
    assert [(p[0], p[1]) for p in posts(dead_small)] == [(1, "big_blind"), (2, "straddle")]
    assert dead_small.actor == 0


def test_a_short_straddler_posts_all_in_and_action_still_starts_left_of_it() -> None:
    hand = Hand(STRADDLE, [100, 100, 3, 100], button=3, seed=1)
    assert posts(hand)[-1] == (2, "straddle", 3, True)
    # §4: the short straddle is still called in full (test_short_forced_bets.py).
    assert hand.actor == 3 and hand.legal_actions(3).call == 4
    assert hand.legal_actions(3).min_raise_to == 4 + 4
    shorter = Hand(STRADDLE, [100, 100, 1, 100], button=3, seed=1)
    assert shorter.actor == 3 and shorter.legal_actions(3).call == 4


def test_a_straddle_covers_a_returning_players_big_blind() -> None:
    seats: list[Seat | int | None] = [100, 100, Seat(100, post=POST_BIG_BLIND), 100]
    hand = Hand(STRADDLE, seats, button=3, seed=1)
    assert [p for p in posts(hand) if p[0] == 2] == [(2, "straddle", 4, True)]


# ----------------------------------------------------------------- record, options


@pytest.mark.parametrize("config", [BBA, STRADDLE], ids=["bba", "straddle"])
def test_the_record_replays_and_the_options_survive_the_config_record(config: TableConfig) -> None:
    rng = random.Random(4)
    for _ in range(30):
        driver = EngineDriver(
            config, [rng.randint(1, 60) for _ in range(5)], deck_seed=rng.random()
        )
        while not driver.over:
            driver.apply(choose(driver.options(), rng))
        assert replay(driver.hand.events).events == driver.hand.events
        total = sum(s.stack for s in driver.hand.seats if s is not None)
        assert sum(driver.hand.stacks) == total
    assert config_from_dict(config_to_dict(config)) == config


@pytest.mark.parametrize(
    ("stakes", "game", "structure", "message"),
    [
        (Stakes.blinds(1, 2, straddles=(2,)), "holdem", None, "exceed"),
        (Stakes.blinds(1, 2, straddles=(8, 4)), "holdem", None, "exceed"),
        (Stakes.blinds(1, 2, 1, big_blind_ante=2), "holdem", None, "not both"),
        (Stakes(ante=1, small_bet=2, big_blind_ante=2), "stud", None, "no blinds"),
        (Stakes(ante=1, big_blind_ante=2), "short_deck", None, "no blinds"),
        (Stakes(ante=1, straddles=(4,)), "short_deck", None, "no blinds"),
        (Stakes.limit(2, 4), "holdem", "fixed_limit", None),  # the valid base of the next line
        (replace(Stakes.limit(2, 4), straddles=(4,)), "holdem", "fixed_limit", "no-limit"),
        (Stakes.blinds(1, 2, straddles=(4, 8, 16)), "badugi", POT_LIMIT, "more than"),
    ],
)
def test_bad_options_get_a_clear_config_error(
    stakes: Stakes, game: str, structure: str | None, message: str | None
) -> None:
    if message is None:
        TableConfig.of(game, stakes, structure=structure)
        return
    with pytest.raises(ConfigError, match=message):
        TableConfig.of(game, stakes, structure=structure, max_seats=4)


@pytest.mark.parametrize(
    ("straddles", "big_blind_ante", "message"),
    [((), -1, "non-negative"), ((-4,), 0, "non-negative"), ([4], 0, "tuple"), ((True,), 0, "non")],
)
def test_bad_stakes_are_refused_when_built(
    straddles: tuple[int, ...], big_blind_ante: int, message: str
) -> None:
    with pytest.raises(ConfigError, match=message):
        Stakes.blinds(1, 2, straddles=straddles, big_blind_ante=big_blind_ante)


def test_a_bad_option_in_a_stored_config_changes_nothing() -> None:
    data = config_to_dict(STRADDLE)
    data["stakes"]["straddles"] = [4, 3]
    with pytest.raises(ConfigError, match="exceed"):
        config_from_dict(data)
    assert STRADDLE.stakes.straddles == (4,)


# ----------------------------------------------------------------- PHH


@pytest.mark.parametrize("players", [2, 3, 6])
@pytest.mark.parametrize(
    "stakes",
    [
        Stakes.blinds(1, 2, big_blind_ante=2),
        Stakes.blinds(1, 2, straddles=(4, 8)),
        Stakes.blinds(1, 2, big_blind_ante=3, straddles=(5,)),
    ],
    ids=["bba", "straddles", "both"],
)
def test_phh_export_then_import_gives_the_same_hand(players: int, stakes: Stakes) -> None:
    config = TableConfig.of("holdem", stakes, structure="no_limit")
    rng = random.Random(f"{players}{stakes}")
    for _ in range(20):
        stacks = [rng.randint(1, 80) for _ in range(players)]
        driver = EngineDriver(config, stacks, deck_seed=rng.random())
        while not driver.over:
            driver.apply(choose(driver.options(), rng))
        exported = export_unless_read_otherwise(driver.hand)  # none: a forced bet short
        if exported is None:
            continue
        hh = exported
        if stakes.big_blind_ante:
            assert hh.ante_trimming_status is False
            assert hh.antes == (0, stakes.big_blind_ante) + (0,) * (players - 2)
        else:
            assert hh.ante_trimming_status is True and set(hh.antes) == {0}
        posted = tuple(stakes.straddles[: players - 2])
        assert hh.blinds_or_straddles == (1, 2, *posted) + (0,) * (players - 2 - len(posted))
        again = phh_replay(loads(dumps(hh))[0])
        assert played(again.hand) == played(driver.hand)
        assert again.finishing_stacks == tuple(driver.hand.stacks)


def played(hand: Hand) -> list[events.Event]:
    """The events but the start and the burns (PHH records neither)."""
    return [e for e in hand.events[1:] if not isinstance(e, events.Burned)]


def test_pokerkit_replays_our_exported_big_blind_ante_and_straddle_hands() -> None:
    import pokerkit

    config = TableConfig.of(
        "omaha", Stakes.blinds(1, 2, big_blind_ante=2, straddles=(4,)), structure=POT_LIMIT
    )
    rng = random.Random(7)
    for _ in range(10):
        players = rng.randint(2, 6)
        # Deep stacks: no all-in, so none of the all-in rules where PokerKit differs.
        stacks = [rng.randint(5000, 9000) for _ in range(players)]
        driver = EngineDriver(config, stacks, deck_seed=rng.random())
        while not driver.over:
            driver.apply(choose(driver.options(), rng))
        theirs = pokerkit.HandHistory.loads(dumps(export(driver.hand)))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            states = list(theirs)
        assert list(states[-1].stacks) == list(driver.hand.stacks)


BBA_FILE = """variant = "NT"
antes = [0, 3000, 0]
blinds_or_straddles = [1000, 2000, 4000]
min_bet = 2000
starting_stacks = [50000, 4000, 30000]
actions = [
  "d dh p1 Kc2d", "d dh p2 9s9h", "d dh p3 8h7h",
  "p1 cbr 30000", "p3 cc",
  "d db Jc3d5c", "d db 4h", "d db Jh",
  "p1 sm Kc2d", "p2 sm 9s9h", "p3 sm 8h7h",
]
"""


def test_cli_replays_a_big_blind_ante_and_straddle_file_as_pokerkit_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """p2 is all in on the big-blind ante and 1000 of the big blind; p3 straddles.

    Main pot: the dead 3000 plus 1000 from each = 6000, p2's jacks and nines win
    it; the side pot (29000 each of p1, p3) goes to p1's jacks with a king. Counted
    as p2's chips in the side pots, the ante would give p2 12000 instead of 6000.
    """
    path = tmp_path / "bba.phh"
    path.write_text(BBA_FILE)
    assert main(["replay", str(path), "--json"]) == 0
    stacks = json.loads(capsys.readouterr().out)["finishing_stacks"]
    assert stacks == [50000 - 30000 + 58000, 6000, 0]
    import pokerkit

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        states = list(pokerkit.HandHistory.loads(BBA_FILE))
    assert list(states[-1].stacks) == stacks


# ---------------------------------------------------------------- mutation audit (phh)

STRADDLE_RAISED_BY_A_BIG_BLIND = """variant = "NT"
antes = [0, 0, 0, 0]
blinds_or_straddles = [1, 2, 4, 0]
min_bet = 2
starting_stacks = [100, 100, 100, 100]
actions = [
  "d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "d dh p4 ????",
  "p4 cbr 6", "p1 f", "p2 f", "p3 f",
]
"""


def test_a_phh_raise_over_a_straddle_may_add_just_the_big_blind_as_pokerkit_plays_it() -> None:
    """PHH files are read with PokerKit's straddle sizing: over a straddle of 4 the raise
    adds the big blind (to 6), not the straddle (to 8), our table default (phh V5)."""
    stacks = phh_replay(loads(STRADDLE_RAISED_BY_A_BIG_BLIND)[0]).finishing_stacks
    assert stacks == (99, 98, 96, 107)
