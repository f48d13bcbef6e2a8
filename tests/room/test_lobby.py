"""The lobby model (RULEBOOK §12): badges, stakes, seats, average pot, hands per hour, filters."""

from __future__ import annotations

import pytest

from cardroom.games import (
    FIXED_LIMIT,
    NO_LIMIT,
    POT_LIMIT,
    VARIANTS,
    Stakes,
    TableConfig,
)
from cardroom.room.chinese_table import ChineseTableConfig
from cardroom.room.lobby import (
    HOUR,
    MIN_OBSERVED_SECONDS,
    Lobby,
    TableSummary,
    badge,
    filter_options,
    stake_level,
    stakes_text,
)
from cardroom.room.rotation import custom_mixed, eight_game, horse

NL = TableConfig.of("holdem", Stakes.blinds(1, 2))
PLO = TableConfig.of("omaha", Stakes.blinds(5, 10))
PLO5 = TableConfig.of("plo5", Stakes.blinds(1, 2))
STUD = TableConfig.of("stud", Stakes(ante=1, small_bet=10, big_bet=20))
FL_HOLDEM = TableConfig.of("holdem", Stakes.limit(4), structure=FIXED_LIMIT)
SHORT = TableConfig.of("short_deck", Stakes.short_deck(1))


def test_12_badges_name_structure_and_game_or_the_mix() -> None:
    assert badge(NL) == "NL Hold'em"
    assert badge(PLO) == "PL Omaha"
    assert badge(STUD) == "FL Stud"
    assert badge(FL_HOLDEM) == "FL Hold'em"
    assert badge(PLO5) == "PL Omaha 5-Card"
    assert badge(SHORT) == "NL Short Deck"
    assert badge(TableConfig.of("omaha", Stakes.blinds(1, 2), structure=NO_LIMIT)) == "NL Omaha"
    assert badge(custom_mixed(10)) == "CUSTOM_MIXED"
    assert badge(horse(10)) == "HORSE"
    assert badge(eight_game(10)) == "8-Game"


@pytest.mark.parametrize(
    ("variant", "name"),
    [
        ("classic", "Chinese Poker"),
        ("ofc", "OFC"),
        ("pineapple", "Pineapple OFC"),
        ("turbo", "OFC Turbo"),
        ("progressive", "Progressive Pineapple"),
        ("pineapple27", "Pineapple 2-7"),
    ],
)
def test_12_chinese_poker_badges_are_the_rulebook_s_names(variant: str, name: str) -> None:
    """§8 names each Chinese poker game; the lobby badge says it (not the engine's key),
    with the stakes in chips a point."""
    config = ChineseTableConfig(variant, point_value=5)
    assert (badge(config), stakes_text(config), stake_level(config)) == (name, "5 a point", 5)


def test_12_a_table_s_hi_lo_option_is_named_in_its_badge() -> None:
    """§6.3: Courchevel's option `hi_lo=true` makes Courchevel Hi-Lo (and an Omaha table
    may split as Omaha Hi-Lo, a Hi-Lo game may play for high only). The badge named
    the engine's game whatever the option: a Courchevel Hi-Lo table read "PL
    Courchevel", a Stud Hi-Lo table played for high only "FL Stud Hi-Lo"."""
    blinds = Stakes.blinds(1, 2)
    assert badge(TableConfig.of("courchevel", blinds, hi_lo=True)) == "PL Courchevel Hi-Lo"
    assert badge(TableConfig.of("omaha", blinds, hi_lo=True)) == "PL Omaha Hi-Lo"
    assert badge(TableConfig.of("omaha_hi_lo", blinds, hi_lo=False)) == "PL Omaha"
    high_only = TableConfig.of("stud_hi_lo", Stakes(ante=1, small_bet=4), hi_lo=False)
    assert badge(high_only) == "FL Stud"
    assert badge(TableConfig.of("big_o", blinds, hi_lo=False)) == "PL Big O (high only)"
    assert badge(TableConfig.of("omaha", blinds, hi_lo=False)) == "PL Omaha"  # as it was
    assert badge(TableConfig.of("omaha_hi_lo", blinds, hi_lo=True)) == "PL Omaha Hi-Lo"


def test_12_the_game_filter_finds_a_table_by_its_hi_lo_option() -> None:
    """§12 filters by game: a Courchevel table with `hi_lo=true` deals Courchevel Hi-Lo
    (§6.3) and is listed under it (it was under Courchevel only, where its badge now says
    Hi-Lo); still under its engine game too."""
    lobby = Lobby()
    config = TableConfig.of("courchevel", Stakes.blinds(1, 2), hi_lo=True)
    lobby.open_table("c", config, real_money=False, opened_at=0.0)
    lobby.open_table("p", PLO, real_money=False, opened_at=0.0)
    assert [r.table_id for r in lobby.tables(0.0, game="courchevel_hi_lo")] == ["c"]
    assert [r.table_id for r in lobby.tables(0.0, game="courchevel")] == ["c"]
    both = lobby.tables(0.0, game="courchevel_hi_lo", structure=POT_LIMIT)
    assert [r.table_id for r in both] == ["c"]
    assert [r.table_id for r in lobby.tables(0.0, game="omaha_hi_lo")] == []


def test_12_stakes_shown_and_compared_by_one_level() -> None:
    assert (stakes_text(NL), stake_level(NL)) == ("1/2", 2)
    assert (stakes_text(STUD), stake_level(STUD)) == ("10/20 ante 1", 10)
    assert (stakes_text(FL_HOLDEM), stake_level(FL_HOLDEM)) == ("4/8", 4)
    assert (stakes_text(SHORT), stake_level(SHORT)) == ("ante 1, button 2", 2)
    with_ante = TableConfig.of("holdem", Stakes.blinds(1, 2, 1))
    assert stakes_text(with_ante) == "1/2 ante 1"
    assert (stakes_text(horse(20)), stake_level(horse(20))) == ("20/40", 20)


def test_12_stakes_show_every_forced_bet_of_a_blind_game() -> None:
    """§12 stakes: a big-blind ante and straddles are posted every hand (games/forced.py),
    so a 1/2 table with a straddle of 4 is not listed as plain "1/2"."""
    bba = TableConfig.of("holdem", Stakes(small_blind=1, big_blind=2, big_blind_ante=2))
    assert stakes_text(bba) == "1/2 BB ante 2"
    straddled = TableConfig.of("holdem", Stakes(small_blind=1, big_blind=2, straddles=(4,)))
    assert stakes_text(straddled) == "1/2 straddle 4"
    both = Stakes(small_blind=1, big_blind=2, ante=1, straddles=(4, 8))
    assert stakes_text(TableConfig.of("holdem", both)) == "1/2 ante 1 straddles 4, 8"


def test_12_every_game_and_mixed_format_in_the_filters() -> None:
    options = filter_options()
    games = dict(options.games)
    assert set(VARIANTS) <= set(games)
    assert games["plo5"] == "Omaha 5-Card"
    assert {"CUSTOM_MIXED", "HORSE", "8-Game"} <= set(games)
    assert dict(options.structures)[POT_LIMIT] == "PL"
    assert len(options.structures) == 5


def _lobby() -> Lobby:
    lobby = Lobby()
    lobby.open_table("t1", NL, real_money=True, name="Alpha")
    lobby.open_table("t2", PLO5, real_money=False)
    lobby.open_table("t3", STUD, real_money=True)
    lobby.open_table("t4", eight_game(10), real_money=True)
    return lobby


def test_12_table_list_shows_seats_waiting_average_pot_hands_per_hour() -> None:
    lobby = _lobby()
    lobby.update(TableSummary("t1", at=0.0, seats_taken=6, waiting=0))
    for i, pot in enumerate((100, 200, 301)):
        lobby.update(TableSummary("t1", at=60.0 * (i + 1), seats_taken=9, waiting=2, pot=pot))
    (row,) = [r for r in lobby.tables(now=200.0) if r.table_id == "t1"]
    assert (row.name, row.badge, row.stakes) == ("Alpha", "NL Hold'em", "1/2")
    assert (row.seats_taken, row.max_seats, row.waiting) == (9, 10, 2)
    # Three hands in 200 s observed, measured over the least time (300 s): 36 an hour.
    assert (row.average_pot, row.hands_per_hour) == (601 // 3, 36)
    # An hour after the first hand it no longer counts; two hours on, nothing does.
    (row,) = [r for r in lobby.tables(now=3660.0, game="holdem") if r.table_id == "t1"]
    assert (row.average_pot, row.hands_per_hour) == ((200 + 301) // 2, 2)
    (row,) = [r for r in lobby.tables(now=7300.0, game="holdem") if r.table_id == "t1"]
    assert (row.average_pot, row.hands_per_hour) == (0, 0)


def test_12_filters_by_game_structure_stakes_and_money() -> None:
    lobby = _lobby()

    def ids(**filters: object) -> list[str]:
        return [r.table_id for r in lobby.tables(now=0.0, **filters)]  # type: ignore[arg-type]

    assert ids() == ["t4", "t3", "t1", "t2"]  # by badge: 8-Game, FL Stud, NL Hold'em, PL...
    assert ids(game="plo5") == ["t2"]
    assert ids(game="8-Game") == ["t4"]
    # A game matches a rotation that deals it, as a structure does: 8-Game deals razz.
    assert ids(game="razz") == ["t4"]
    assert ids(game="stud") == ["t4", "t3"]
    assert ids(game="holdem") == ["t4", "t1"]
    assert ids(game="HORSE") == []
    assert ids(structure=FIXED_LIMIT) == ["t4", "t3"]
    assert ids(structure=POT_LIMIT) == ["t4", "t2"]
    assert ids(min_stake=5) == ["t4", "t3"]
    assert ids(min_stake=10) == ["t4", "t3"]  # the bounds are inclusive (stud 10/20 is 10)
    assert ids(max_stake=2) == ["t1", "t2"]
    assert ids(real_money=False) == ["t2"]


def test_12_game_and_limit_filters_together_match_a_game_dealt_at_that_limit() -> None:
    """§12 filters by game and limit: "FL Hold'em" lists the tables that deal FL Hold'em,
    not a CUSTOM_MIXED table dealing NL Hold'em and FL Stud (each filter used to match
    on its own: a game in one hand of the rotation, the limit in another)."""
    lobby = Lobby()
    lobby.open_table("mix", custom_mixed(4, ("holdem", "omaha", "stud")), real_money=False)
    lobby.open_table("horse", horse(4), real_money=False)
    lobby.open_table("fl", FL_HOLDEM, real_money=False)

    def ids(game: str, structure: str) -> list[str]:
        return [r.table_id for r in lobby.tables(now=0.0, game=game, structure=structure)]

    assert ids("holdem", FIXED_LIMIT) == ["fl", "horse"]
    assert ids("holdem", NO_LIMIT) == ["mix"]
    assert ids("omaha", POT_LIMIT) == ["mix"]
    assert ids("omaha", FIXED_LIMIT) == []
    assert ids("stud", FIXED_LIMIT) == ["mix", "horse"]
    assert ids("CUSTOM_MIXED", POT_LIMIT) == ["mix"]  # a format: any limit it deals
    assert ids("HORSE", NO_LIMIT) == []


def test_12_mixed_table_shows_its_current_game() -> None:
    lobby = _lobby()
    (row,) = lobby.tables(now=0.0, game="8-Game")
    assert row.current_game == "FL 2-7 Triple Draw"
    assert row.max_seats == 6
    lobby.update(TableSummary("t4", at=5.0, seats_taken=5, waiting=0, pot=40, current_game="X"))
    (row,) = lobby.tables(now=5.0, game="8-Game")
    assert (row.current_game, row.seats_taken, row.average_pot) == ("X", 5, 40)


def test_12_tables_open_and_close() -> None:
    lobby = _lobby()
    with pytest.raises(ValueError):
        lobby.open_table("t1", NL, real_money=True)
    lobby.close_table("t1")
    assert "t1" not in [r.table_id for r in lobby.tables(now=0.0)]
    with pytest.raises(KeyError):
        lobby.update(TableSummary("t1", at=0.0, seats_taken=0, waiting=0))


def test_12_hands_per_hour_is_a_rate_over_the_time_observed() -> None:
    """A table listed 10 minutes ago that dealt a hand a minute reads 60 hands an hour,
    not the 10 hands it has had time for (the raw count used to be shown as the rate)."""
    lobby = Lobby()
    lobby.open_table("t", NL, real_money=False, opened_at=1000.0)
    for minute in range(10):
        lobby.update(TableSummary("t", at=1000.0 + 60.0 * minute, seats_taken=6, waiting=0, pot=10))
    (row,) = lobby.tables(now=1600.0)
    assert row.hands_per_hour == 60
    # Observed for the whole window: the hands of the last hour, as before.
    (row,) = lobby.tables(now=1000.0 + HOUR)
    assert row.hands_per_hour == 9  # the hand at 1000 s has left the window


def test_12_a_table_s_first_hand_is_measured_over_the_least_observed_time() -> None:
    """One hand a second after opening reads one hand in MIN_OBSERVED_SECONDS, not 3,600
    an hour."""
    lobby = Lobby()
    lobby.open_table("t", NL, real_money=False, opened_at=500.0)
    lobby.update(TableSummary("t", at=501.0, seats_taken=2, waiting=0, pot=10))
    (row,) = lobby.tables(now=502.0)
    assert row.hands_per_hour == int(HOUR / MIN_OBSERVED_SECONDS)


def test_12_a_table_listed_without_a_time_is_observed_from_its_first_news() -> None:
    """The server's feed lists a table when the lobby is first asked for and then takes
    the hands still in the table's recent events: the oldest of those starts the
    observation."""
    lobby = Lobby()
    lobby.open_table("t", NL, real_money=False)
    lobby.update(TableSummary("t", at=100.0, seats_taken=2, waiting=0, pot=10))
    lobby.update(TableSummary("t", at=400.0, seats_taken=2, waiting=0, pot=10))
    lobby.update(TableSummary("t", at=1300.0, seats_taken=2, waiting=0))
    (row,) = lobby.tables(now=1300.0)
    assert row.hands_per_hour == 2 * 3  # two hands in 1,200 s
    # News older than the first (a hand the feed reads after a later summary) moves the
    # observation's start back to it: three hands in 1,500 s, not in 1,200.
    lobby.update(TableSummary("t", at=-200.0, seats_taken=2, waiting=0, pot=10))
    (row,) = lobby.tables(now=1300.0)
    assert row.hands_per_hour == int(3 * HOUR / 1500)
