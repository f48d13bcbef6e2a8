"""Rake from a schedule given as data, no flop no drop (RULEBOOK §10.8, seed 003)."""

from __future__ import annotations

import pytest

from cardroom.games import (
    SEED_003_SCHEDULE,
    Action,
    Hand,
    RakeRule,
    Stakes,
    TableConfig,
    events,
    seed_003_rule,
)

NL = seed_003_rule("no_limit", 2)
assert NL is not None


@pytest.mark.parametrize(
    ("pot", "players", "rake"),
    [
        (1000, 2, 50),  # 5 per 100
        (1099, 3, 50),  # whole hundreds only
        (2000, 2, 75),  # capped at 75 for 2 players
        (5000, 4, 200),  # 200 for 3-4
        (5000, 5, 250),
        (20000, 10, 400),  # 400 for 5-10
        (199, 2, 9),  # pots under 200: 1 per 20
        (19, 2, 0),
    ],
)
def test_seed_003_no_limit_schedule(pot: int, players: int, rake: int) -> None:
    assert NL.rake(pot, players) == rake


def test_seed_003_limit_tiers_follow_the_stakes() -> None:
    low = seed_003_rule("fixed_limit", 50)
    mid = seed_003_rule("spread_limit", 100)
    high = seed_003_rule("fixed_limit", 200)
    assert low is not None and mid is not None and high is not None
    assert (low.rake(3000, 3), low.rake(3000, 4)) == (75, 100)
    assert mid.rake(999, 6) == 25 and mid.rake(10000, 6) == 200 and mid.rake(10000, 2) == 75
    assert high.rake(1999, 6) == 50 and high.rake(10000, 6) == 200
    assert len(SEED_003_SCHEDULE) == 4
    assert seed_003_rule("pot_limit", 10_000) == NL


def test_rule_is_plain_data() -> None:
    rule = RakeRule(per=1, unit=10, caps=((10, 3),))
    assert rule.rake(95, 6) == 3 and rule.rake(25, 6) == 2


def rake_events(hand: Hand) -> list[events.RakeTaken]:
    return [e for e in hand.events if isinstance(e, events.RakeTaken)]


def play_to_river(hand: Hand) -> None:
    while hand.actor is not None:
        legal = hand.legal_actions(hand.actor)
        hand.apply(Action(hand.actor, "check" if legal.check else "call"))


def test_no_flop_no_drop() -> None:
    config = TableConfig.of("holdem", Stakes.blinds(100, 200), rake=NL)
    hand = Hand(config, [10_000] * 3, button=0, seed=1)
    hand.apply(Action(0, "raise", 2000))
    hand.apply(Action(1, "call"))
    hand.apply(Action(2, "fold"))
    assert hand.street.name == "flop"
    hand.apply(Action(1, "check"))
    hand.apply(Action(0, "raise", 1000))
    hand.apply(Action(1, "fold"))
    # Pot 2000 + 2000 + 200 = 4200 reached the flop: 5 per 100 -> 210, capped 200 (3 players).
    assert hand.result is not None and hand.result.rake == 200
    assert sum(hand.result.stacks) + 200 == 30_000  # type: ignore[arg-type]

    preflop = Hand(config, [10_000] * 3, button=0, seed=1)
    preflop.apply(Action(0, "raise", 2000))
    preflop.apply(Action(1, "fold"))
    preflop.apply(Action(2, "fold"))
    assert preflop.result is not None and preflop.result.rake == 0 and not rake_events(preflop)


def test_rake_counts_players_dealt_in_and_one_pot_pays_it_all() -> None:
    config = TableConfig.of("holdem", Stakes.blinds(100, 200), rake=NL)
    hand = Hand(config, [1000, 10_000, 10_000, 10_000, 10_000], button=0, seed=2)
    for seat in (3, 4, 0, 1):
        hand.apply(Action(seat, "call"))
    hand.apply(Action(2, "check"))
    hand.apply(Action(1, "raise", 800))  # seat 0 has 800 behind
    for seat in (2, 3, 4):
        hand.apply(Action(seat, "fold"))
    hand.apply(Action(0, "call"))
    play_to_river(hand)
    assert hand.result is not None
    # Pot 1000 + 1000 + 3*200 = 2600: 130, under the 400 cap for five players dealt in.
    assert hand.result.rake == 130
    assert rake_events(hand) == [events.RakeTaken(0, 130)]
    won = sum(a.amount for p in hand.result.pots for a in p.awards)
    assert won == 2600 - 130


def test_10_8_side_pots_share_the_rake_in_proportion_to_their_size() -> None:
    """The rake audit (docs/outside_audits_17.md): the rake came off the main pot first,
    so a short all-in player paid what the side pot he could not win had earned. All in
    for 100 beside two stacks that build a side pot of 9,800: main pot 300, side pot
    9,800, rake 200 (5 per 100 of 10,100 is 505, capped at 200 for three dealt in). It
    was 200 from the main pot of 300. Each pot now pays its share: 200 * 300 / 10,100 =
    5.94, 200 * 9,800 / 10,100 = 194.06; the odd chip goes to the larger remainder (the
    main pot's .94)."""
    config = TableConfig.of("holdem", Stakes.blinds(10, 20), rake=NL)
    hand = Hand(config, [100, 10_000, 10_000], button=0, seed=3)
    hand.apply(Action(0, "raise", 100))  # all in
    hand.apply(Action(1, "raise", 5000))
    hand.apply(Action(2, "call"))
    play_to_river(hand)  # checked down
    assert hand.result is not None
    pots = [(p.amount, p.rake) for p in hand.result.pots]
    assert sorted(pots) == [(300, 6), (9800, 194)], pots
    assert hand.result.rake == 200  # the cap for three dealt in
    assert {(e.pot, e.amount) for e in rake_events(hand)} == {(0, 6), (1, 194)}
    stacks = [s for s in hand.result.stacks if s is not None]
    assert sum(stacks) + 200 == 20_100


def test_10_8_the_rake_s_odd_chips_go_to_the_largest_remainders() -> None:
    """Two equal shares' odd chip goes to the main pot (the first among equals); the
    shares always add up to the rake, and no pot pays more than it holds."""
    from cardroom.games.showdown import rake_shares

    assert rake_shares(5, [100, 100]) == [3, 2]
    assert rake_shares(7, [10, 20, 40]) == [1, 2, 4]
    assert rake_shares(3, [1, 1, 1]) == [1, 1, 1]
    assert rake_shares(0, [50, 50]) == [0, 0]
    for due, pots in [(9, [1, 99, 3]), (100, [33, 33, 34]), (1, [5, 5, 5])]:
        shares = rake_shares(due, pots)
        assert sum(shares) == due and all(0 <= r <= p for r, p in zip(shares, pots, strict=True))


def test_10_8_a_rate_that_would_create_chips_never_reaches_a_hand() -> None:
    """Tried: ``per=-5`` paid chips into the hand (600 in, 630 out); ``unit=0`` divided by
    zero inside ``apply``. Both are refused when the rule is built."""
    from cardroom.games import ConfigError

    with pytest.raises(ConfigError, match="per unit"):
        RakeRule(per=-5, unit=100, caps=((10, 400),))
    with pytest.raises(ConfigError, match="unit"):
        RakeRule(per=5, unit=0, caps=((10, 400),))
    # The largest rule allowed takes the whole pot at most: the chips still add up.
    everything = RakeRule(per=1, unit=1, caps=((10, 10**9),))
    config = TableConfig.of("holdem", Stakes.blinds(100, 200), rake=everything)
    hand = Hand(config, [300, 300, 300], button=0, seed=4)
    play_to_river(hand)
    assert hand.result is not None
    assert hand.result.rake == 600  # every chip of the pot
    assert sum(s for s in hand.result.stacks if s is not None) + hand.result.rake == 900


def test_10_8_the_small_pot_rate_is_for_pots_under_its_limit_only() -> None:
    """Mutation audit (docs/money_audit.md, K1): "pots under 200" are raked at the small
    rate; a pot of exactly the limit pays the main rate. Seed 003's two rates agree at
    200 (10 either way), so a rule whose rates differ there pins the boundary."""
    rule = RakeRule(5, 100, ((10, 1000),), small_pot_below=200, small_per=1, small_unit=10)
    assert rule.rake(199, 2) == 19  # 1 per 10
    assert rule.rake(200, 2) == 10  # 5 per 100
