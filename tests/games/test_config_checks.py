"""Every configuration value is checked when it is built (issue 11 §3, issue 12 §3).

A bad value raises ConfigError (and nothing else) where it is built: ``Stakes``,
``Seat``, ``TableConfig``, ``RakeRule``, ``RakeTier``, ``Street``, ``Variant``,
anything read by ``config_from_dict``, and the seed of a ``Hand``. A structure
in which a raise could add 0 chips is refused.
"""

from __future__ import annotations

import json
import typing
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from cardroom.games import (
    HOLDEM,
    RAZZ,
    SEED_003_SCHEDULE,
    STUD,
    VARIANTS,
    Action,
    ConfigError,
    Hand,
    RakeRule,
    RakeTier,
    Seat,
    Stakes,
    Street,
    TableConfig,
    Variant,
    config_from_dict,
    config_to_dict,
    get_variant,
)
from cardroom.games import options as opts
from cardroom.games import stud as stud_rules
from cardroom.games.checks import MAX_CHIPS
from cardroom.games.dealing import check_seed
from cardroom.games.variants import VARIANTS as VARIANTS_BY_NAME

GAMES_DIR = Path(__file__).resolve().parents[2] / "src" / "cardroom" / "games"
NL = TableConfig.of("holdem", Stakes.blinds(1, 2))


def stored(config: TableConfig) -> dict[str, Any]:
    """``config`` as the record stores it: JSON text read back."""
    data: dict[str, Any] = json.loads(json.dumps(config_to_dict(config)))
    return data


# ------------------------------------------------------------------ rake (RULEBOOK §10.8)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"per": -5}, "per unit"),  # tried: 600 in, 630 out
        ({"unit": 0}, "rake unit"),  # tried: ZeroDivisionError inside apply
        ({"unit": -100}, "rake unit"),
        ({"per": 101}, "per unit"),  # more than the whole pot
        ({"small_unit": 0}, "small-pot rake unit"),
        ({"small_per": -1}, "small-pot rake per unit"),
        ({"small_per": 2, "small_unit": 1}, "small-pot rake per unit"),
        ({"small_pot_below": -200}, "small-pot limit"),
        ({"per": 0.5}, "whole number"),
        ({"unit": 100.0}, "whole number"),
        ({"per": True}, "whole number"),
        ({"unit": 2**60}, "2\\*\\*53"),
        ({"caps": ()}, "non-empty"),
        ({"caps": [(10, 400)]}, "tuple"),
        ({"caps": ((10, -400),)}, "rake cap"),
        ({"caps": ((0, 400),)}, "player count"),
        ({"caps": ((4, 200), (2, 75))}, "increasing"),
        ({"caps": ((4, 200), (4, 300))}, "increasing"),
        ({"caps": ((10,),)}, "pair"),
        ({"caps": ((10, 4.5),)}, "whole number"),
    ],
)
def test_10_8_a_meaningless_rake_rule_is_refused_when_built(
    fields: dict[str, Any], message: str
) -> None:
    base: dict[str, Any] = {"per": 5, "unit": 100, "caps": ((2, 75), (10, 400))}
    RakeRule(**base)  # the valid rule each case changes
    with pytest.raises(ConfigError, match=message):
        RakeRule(**{**base, **fields})


def test_10_8_a_rule_at_its_limits_never_takes_more_than_the_pot() -> None:
    whole_pot = RakeRule(per=1, unit=1, caps=((10, MAX_CHIPS),))
    assert whole_pot.rake(37, 2) == 37
    assert RakeRule(per=0, unit=1, caps=((10, 0),)).rake(1000, 2) == 0


@pytest.mark.parametrize(
    ("structures", "max_small_bet", "rule", "message"),
    [
        (frozenset({"table_stakes"}), None, None, "structure"),
        (frozenset(), None, None, "non-empty"),
        ({"no_limit"}, None, None, "frozenset"),
        (frozenset({"no_limit"}), 0, None, "largest small bet"),
        (frozenset({"no_limit"}), 2.5, None, "largest small bet"),
        (frozenset({"no_limit"}), None, "5 per 100", "RakeRule"),
    ],
)
def test_10_8_a_bad_rake_tier_is_refused(
    structures: Any, max_small_bet: Any, rule: Any, message: str
) -> None:
    good = SEED_003_SCHEDULE[0].rule
    with pytest.raises(ConfigError, match=message):
        RakeTier(structures, max_small_bet, good if rule is None else rule)


def test_a_table_refuses_a_rake_that_is_not_a_rule() -> None:
    with pytest.raises(ConfigError, match="RakeRule"):
        TableConfig.of("holdem", Stakes.blinds(1, 2), rake={"per": 5})


# ------------------------------------------------------------------ amounts: ints in bounds


@pytest.mark.parametrize(
    "fields",
    [
        {"big_blind": 2.0},
        {"small_blind": 0.5, "big_blind": 1},
        {"ante": True},
        {"ante": -1},
        {"big_blind": 2**53},
        {"big_blind": 10**400},
        {"button_blind": 1.5},
        {"small_bet": "2"},
        {"big_bet": -4},
        {"bring_in": 0.5},
        {"min_bet": 2.0},
        {"spread": (1, 2.5, 3)},
        {"spread": [1, 2, 3]},
        {"straddles": (4.0,)},
        {"big_blind_ante": None},
        {"small_blind": 3, "big_blind": 2},
    ],
)
def test_stakes_are_whole_chips_in_bounds_when_built(fields: dict[str, Any]) -> None:
    with pytest.raises(ConfigError):
        Stakes(**{"small_blind": 1, "big_blind": 2, **fields})


def test_the_stakes_helpers_refuse_before_any_arithmetic() -> None:
    with pytest.raises(ConfigError, match="small_bet"):
        Stakes.limit("4")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="small_bet"):
        Stakes.limit(4.0)  # type: ignore[arg-type]
    assert Stakes.limit(MAX_CHIPS // 2).big_bet == MAX_CHIPS - 1


@pytest.mark.parametrize(
    ("stack", "auto_muck", "post", "message"),
    [
        (570.0, True, None, "whole number"),
        (0, True, None, "needs chips"),
        (-5, True, None, "needs chips"),
        (True, True, None, "whole number"),
        (2**62, True, None, "2\\*\\*53"),
        (100, 1, None, "auto_muck"),
        (100, True, "both", "post"),
        (100, True, 1, "post"),
    ],
)
def test_a_seat_is_checked_when_built(stack: Any, auto_muck: Any, post: Any, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        Seat(stack, auto_muck, post)


def test_json_floats_never_reach_the_stacks() -> None:
    """Tried: a stored configuration with float amounts left a stack of 570.0."""
    for path, value in (
        (("stakes", "big_blind"), 2.0),
        (("stakes", "ante"), 0.5),
        (("rake", "per"), 0.5),
        (("rake", "unit"), 10.0),
        (("max_raises",), 3.0),
    ):
        data = stored(replace(NL, rake=RakeRule(per=1, unit=10, caps=((10, 5),))))
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        with pytest.raises(ConfigError, match="whole number"):
            config_from_dict(data)
    with pytest.raises(ConfigError, match="seat 1"):
        Hand(NL, [100, 570.0], button=0, seed=1)


def test_a_huge_number_from_json_is_refused_cleanly() -> None:
    data = stored(NL)
    data["stakes"]["big_blind"] = 10**5000  # repr() of it fails: the message must not
    with pytest.raises(ConfigError, match="bit number"):
        config_from_dict(data)


# ------------------------------------------------------------------ names and options


def test_an_unknown_game_is_a_config_error_naming_the_nearest() -> None:
    with pytest.raises(ConfigError, match="did you mean 'holdem'") as info:
        TableConfig.of("holdm", Stakes.blinds(1, 2))
    assert "omaha_hi_lo" in str(info.value)  # and every known game
    with pytest.raises(ConfigError, match="no game called"):
        get_variant(["holdem"])  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="no game called"):
        config_from_dict({**stored(NL), "game": "hold'em please"})


def test_an_unknown_option_is_a_config_error_naming_the_options() -> None:
    with pytest.raises(ConfigError, match="did you mean 'burn_cards'") as info:
        TableConfig.of("holdem", Stakes.blinds(1, 2), burn=False)
    assert "straddle_raise" in str(info.value)
    with pytest.raises(ConfigError, match="table option"):
        TableConfig.of("holdem", Stakes.blinds(1, 2), variant=HOLDEM)
    with pytest.raises(ConfigError, match="key of a table configuration"):
        config_from_dict({**stored(NL), "burn": False})
    with pytest.raises(ConfigError, match="key of stakes"):
        config_from_dict({**stored(NL), "stakes": {"big_blind": 2, "bigblind": 2}})


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("incomplete_raise_rule", "TDA"),
        ("straddle_raise", "small_blind"),
        ("fourth_street_pair", ["big"]),
        ("stud_order_ties", None),
        ("structure", "table_stakes"),
        ("max_seats", 4.0),
        ("max_raises", -1),
        ("max_raises", 10**6),
        ("hi_lo", "yes"),
        ("community_card_betting", 0),
    ],
)
def test_an_option_outside_its_choices_is_refused(option: str, value: object) -> None:
    with pytest.raises(ConfigError, match=option):
        TableConfig.of("holdem", Stakes.blinds(1, 2), **{option: value})


def test_a_table_is_built_from_a_game_and_stakes() -> None:
    with pytest.raises(ConfigError, match="Variant"):
        TableConfig("holdem", Stakes.blinds(1, 2))  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="Stakes"):
        TableConfig(HOLDEM, (1, 2))  # type: ignore[arg-type]


def test_option_choices_are_literal_types_written_once() -> None:
    hints = typing.get_type_hints(TableConfig)
    assert hints["incomplete_raise_rule"] == opts.IncompleteRaiseRule
    assert hints["straddle_raise"] == opts.StraddleRaise
    assert hints["fourth_street_pair"] == opts.FourthStreetPair
    assert hints["stud_order_ties"] == opts.StudOrderTies
    assert hints["structure"] == opts.Structure | None
    assert typing.get_type_hints(Seat)["post"] == opts.SeatPost | None
    # The stud rules read the same choices, not a copy of them.
    assert stud_rules.FOURTH_STREET_PAIR_CHOICES is opts.FOURTH_STREET_PAIR_CHOICES
    assert stud_rules.StudOrderTies is opts.StudOrderTies
    assert typing.get_args(opts.StraddleRaise) == opts.STRADDLE_RAISE_CHOICES
    for name in ("config.py", "options.py", "stud.py", "stud_play.py"):
        assert "type: ignore[arg-type]" not in (GAMES_DIR / name).read_text(), name


# ------------------------------------------------------------------ seeds


@pytest.mark.parametrize(
    "seed",
    [
        *(1.5, 7.0, True, False, [7], (7,), {"seed": 7}, object()),
        pytest.param(10**5000, id="an-int-of-5001-digits"),  # str() of it raises ValueError
        pytest.param("1" * 5000, id="digits-text-of-5000"),
    ],
)
def test_a_seed_must_be_an_int_str_or_bytes(seed: object) -> None:
    with pytest.raises(ConfigError, match="seed"):
        check_seed(seed)
    with pytest.raises(ConfigError, match="seed"):
        Hand(NL, [100, 100], button=0, seed=seed)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", [None, 0, -7, 2**300, "7", "", b"\x00seed"])
def test_good_seeds_deal(seed: int | str | bytes | None) -> None:
    check_seed(seed)
    assert len(Hand(NL, [100, 100], button=0, seed=seed).hole_cards(0)) == 2


# ------------------------------------------------------------------ a raise adds chips (§5)


@pytest.mark.parametrize(
    ("game", "stakes", "structure", "message"),
    [
        ("short_deck", Stakes.short_deck(1), "fixed_limit", "small bet of at least 1"),
        ("holdem", Stakes(small_blind=1, big_blind=2, min_bet=0), None, "min_bet"),
        ("omaha", Stakes(small_blind=1, big_blind=2, min_bet=0), "pot_limit", "min_bet"),
        ("short_deck", Stakes(ante=1, min_bet=0), None, "min_bet"),
        ("stud", Stakes(ante=1, small_bet=2, min_bet=0), "no_limit", "min_bet"),
        ("holdem", Stakes(small_blind=1, big_blind=2, big_bet=0), "fixed_limit", "big bet"),
        ("razz", Stakes(ante=1, small_bet=2, big_bet=0), None, "big bet"),
        ("holdem", Stakes(1, 2, min_bet=0, spread=(2, 4, 6)), "spread_limit", "min_bet"),
        ("holdem", Stakes.spread_limit((1, 4, 6), 1, 2), "spread_limit", "below the minimum"),
        ("stud", Stakes(ante=1, small_bet=4, spread=(1,)), "spread_limit", "below the minimum"),
    ],
)
def test_5_a_structure_where_a_raise_adds_no_chips_is_refused(
    game: str, stakes: Stakes, structure: str | None, message: str
) -> None:
    with pytest.raises(ConfigError, match=message):
        TableConfig.of(game, stakes, structure=structure)


def test_5_fixed_limit_short_deck_plays_with_its_small_bet_set() -> None:
    config = TableConfig.of("short_deck", Stakes(ante=1, small_bet=2), structure="fixed_limit")
    hand = Hand(config, [100, 100, 100], button=0, seed=3)
    seat = hand.actor
    assert seat is not None
    legal = hand.legal_actions(seat)
    assert legal.min_raise_to == legal.max_raise_to == hand.current_bet + 2
    hand.apply(Action.raise_to(seat, hand.current_bet + 2))
    assert hand.committed[seat] == 1 + 4  # the ante, then a bet of two small bets to 4


# ------------------------------------------------------------------ games built outside


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"deck": "tiny"}, "deck"),
        ({"streets": ()}, "streets"),
        ({"streets": [Street("pre-flop", hole_down=2)]}, "streets"),
        ({"forced_bets": "none"}, "forced bets"),
        ({"structure": "table_stakes"}, "structure"),
        ({"high": "hihg"}, "did you mean 'high'"),
        ({"low": "omaha_low"}, "evaluator"),
        ({"max_seats": 1}, "seat limit"),
        ({"max_seats": 11}, "seat limit"),
        ({"first_to_act": ("left_of_button",)}, "first_to_act"),
        ({"first_to_act": ("dealer", "left_of_button")}, "first to act"),
        ({"rake_street": 4}, "rake street"),
        ({"max_raises": -1}, "raise cap"),
        ({"name": ""}, "name"),
        ({"stud": STUD.stud}, "stud rules"),
    ],
)
def test_a_game_built_outside_is_checked_when_built(fields: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        replace(HOLDEM, **fields)


@pytest.mark.parametrize(
    "fields",
    [{"hole_down": -1}, {"board": 2.0}, {"burn": 1}, {"spread_tier": -1}, {"name": None}],
)
def test_a_street_is_checked_when_built(fields: dict[str, Any]) -> None:
    with pytest.raises(ConfigError):
        Street(**{"name": "flop", "board": 3, **fields})


def test_a_game_built_outside_is_recorded_whole() -> None:
    """A registered game is recorded by name; one built outside (the PHH importer's Short
    Deck with blinds) is recorded whole, so it reads back as itself, not as another game."""
    assert "variant" not in stored(NL)
    six_max = replace(HOLDEM, name="holdem", max_seats=6)
    assert isinstance(six_max, Variant)
    with_blinds = replace(
        get_variant("short_deck"),
        name="short_deck_blinds",
        forced_bets="blinds",
        first_to_act=("left_of_big_blind", "left_of_button"),
    )
    wild = replace(STUD, name="stud_wild", stud=replace(RAZZ.stud, open_pair=True), low="a5_low8")
    for variant, stakes in (
        (six_max, Stakes.blinds(1, 2)),
        (with_blinds, Stakes.blinds(1, 2, 1)),
        (wild, Stakes(ante=1, small_bet=2)),
    ):
        config = TableConfig(variant, stakes)
        data = stored(config)
        assert data["variant"]["name"] == data["game"] == variant.name
        assert config_from_dict(data) == config
        renamed = {**data, "game": "holdem" if variant is not six_max else "omaha"}
        with pytest.raises(ConfigError, match="named"):
            config_from_dict(renamed)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"streets": "flop"}, "streets must be a list"),
        ({"streets": [{"hole_down": 2}]}, "a street needs 'name'"),
        ({"streets": [{"name": "deal", "hole_down": 2.0}]}, "whole number"),
        ({"deck": None}, "deck"),
        ({"first_to_act": "left_of_button"}, "first_to_act must be a list"),
        ({"stud": {"open_pair": True}}, "stud rules needs"),
        ({"stud": {"bring_in": [], "open_pair": False}}, "bring-in rule"),
        ({"high": "royal"}, "evaluator"),
        ({"colour": "red"}, "key of a game"),
    ],
)
def test_a_recorded_game_is_checked_as_it_is_read(change: dict[str, Any], message: str) -> None:
    data = stored(TableConfig(replace(HOLDEM, name="holdem_6", max_seats=6), Stakes.blinds(1, 2)))
    data["variant"] = {**data["variant"], **change}
    with pytest.raises(ConfigError, match=message):
        config_from_dict(data)
    data["variant"].pop(next(iter(change)))
    if next(iter(change)) in ("streets", "deck", "first_to_act", "high"):
        with pytest.raises(ConfigError, match="needs"):
            config_from_dict(data)


def test_malformed_records_are_config_errors() -> None:
    good = stored(NL)
    bad: list[object] = [
        None,
        [good],
        "holdem",
        {"stakes": good["stakes"]},
        {"game": "holdem"},
        {**good, "stakes": [1, 2]},
        {**good, "stakes": {**good["stakes"], "spread": "123"}},
        {**good, "stakes": {**good["stakes"], "straddles": {"4": 4}}},
        {**good, "rake": {"per": 5, "unit": 100}},
        {**good, "rake": {"per": 5, "unit": 100, "caps": [[10, 400, 1]]}},
        {**good, "rake": {"per": 5, "unit": 100, "caps": 400}},
        {**good, "rake": [5, 100]},
        {1: "holdem"},
    ]
    for data in bad:
        with pytest.raises(ConfigError):
            config_from_dict(data)


def test_the_phh_importers_short_deck_with_blinds_round_trips() -> None:
    from cardroom.games.phh import loads
    from cardroom.games.phh_variants import table_config

    text = (
        'variant = "NS"\nantes = [1, 1, 1]\nblinds_or_straddles = [1, 2, 0]\nmin_bet = 2\n'
        "starting_stacks = [100, 100, 100]\nactions = []\n"
    )
    config = table_config(loads(text)[0])
    assert config.variant.forced_bets == "blinds" and config.variant.name not in VARIANTS
    assert config_from_dict(stored(config)) == config


@pytest.mark.parametrize(("game", "hole_down"), [("badugi", 0), ("badugi", 3), ("holdem", 0)])
def test_a_game_whose_showdown_hand_cannot_be_ranked_is_refused(game: str, hole_down: int) -> None:
    # Found by the fuzz: badugi with no cards dealt was accepted, then crashed at showdown.
    from dataclasses import replace

    from cardroom.games.variants import VARIANTS

    variant = VARIANTS[game]
    first = replace(variant.streets[0], hole_down=hole_down)
    with pytest.raises(ConfigError):
        replace(variant, streets=(first, *variant.streets[1:]))


@pytest.mark.parametrize("name", sorted(VARIANTS_BY_NAME))
def test_every_built_in_game_deals_a_hand_its_evaluators_can_rank(name: str) -> None:
    # The module's own games skip the check when defined (it would load the tables).
    from cardroom.games.variants import check_rankable

    check_rankable(VARIANTS_BY_NAME[name])


@pytest.mark.parametrize("given", [("a", None), (0.0, 1), (0, 1, 2), (True, None), (5, 1), "ab"])
def test_blind_seats_from_the_room_are_checked_with_config_error(given: object) -> None:
    config = TableConfig.of("holdem", Stakes.blinds(1, 2))
    with pytest.raises(ConfigError):
        Hand(config, [100, 100, 100], 0, seed=1, blind_seats=given)  # type: ignore[arg-type]
