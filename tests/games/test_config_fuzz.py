"""Configurations from anywhere: only a valid configuration or a ConfigError (issue 11 §3).

Random JSON-ish values (floats, bools, huge and negative ints, strings, lists,
nested objects, missing and unknown keys) fed to ``config_from_dict`` and to the
constructors give a configuration that plays, or ConfigError, never another
exception. A valid configuration of every game and structure, with rake rules,
spread tiers, straddles and antes, round-trips ``config_to_dict`` ->
``json.dumps``/``json.loads`` -> ``config_from_dict`` to an equal one: the event
record stores ``HandStarted.config`` that way.

``CARDROOM_CONFIG_EXAMPLES`` sets the number of Hypothesis examples (default 120).
"""

from __future__ import annotations

import json
import os
import random
from dataclasses import fields, replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardroom.games import (
    STRUCTURES,
    VARIANTS,
    Action,
    ConfigError,
    Hand,
    RakeRule,
    Seat,
    Stakes,
    TableConfig,
    Variant,
    config_from_dict,
    config_to_dict,
    seed_003_rule,
)
from cardroom.games.checks import MAX_CHIPS
from cardroom.games.config import OPTIONS
from cardroom.games.options import (
    FOURTH_STREET_PAIR_CHOICES,
    INCOMPLETE_RAISE_RULE_CHOICES,
    STRADDLE_RAISE_CHOICES,
    STUD_ORDER_TIES_CHOICES,
)
from cardroom.games.variants import BLINDS, BRING_IN, FIXED_LIMIT, SPREAD_LIMIT

EXAMPLES = int(os.environ.get("CARDROOM_CONFIG_EXAMPLES", "120"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
BIG_BET = ("no_limit", "pot_limit", "half_pot_limit")

# Values a configuration field is likely to be checked against, and anything JSON can hold.
NUMBERS = [0, 1, 2, 3, -1, 10, MAX_CHIPS, MAX_CHIPS + 1, 2**62, 1.0, 0.5, True, False]
WORDS = [None, "", "2", "tda", "half", "big", "option", "straddle", "position", "no_limit"]
SHAPES = ["fixed_limit", "spread_limit", "holdem", [], [1, 2, 3], [[10, 400]], [[2, 75]], {}]
NEAR = st.sampled_from([*NUMBERS, *WORDS, *SHAPES])
JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=8,
)
VALUES = st.one_of(NEAR, JSON)


# ------------------------------------------------------------------ valid configurations


def stakes_for(game: str, structure: str, draw: st.DrawFn) -> Stakes:
    """Random stakes that suit ``game`` at ``structure``."""
    variant = VARIANTS[game]
    amount = st.integers(1, 10**9)
    ante = draw(st.integers(0, 50))
    kw: dict[str, Any] = {"ante": ante, "min_bet": draw(st.none() | amount)}
    if variant.forced_bets == BLINDS:
        kw["big_blind"] = big = draw(amount)
        kw["small_blind"] = draw(st.integers(0, big))
        if not ante:
            kw["big_blind_ante"] = draw(st.integers(0, 2 * big))
        if structure in BIG_BET and draw(st.booleans()):
            kw["straddles"] = (2 * big, 4 * big)
    elif variant.forced_bets == BRING_IN:
        kw["small_bet"] = draw(amount)
        kw["bring_in"] = draw(st.none() | st.integers(0, kw["small_bet"]))
    else:  # Short Deck: an ante, a button blind, or both
        kw["button_blind"] = draw(st.none() | amount) if ante else draw(amount)
    if structure == FIXED_LIMIT:
        kw.setdefault("small_bet", draw(amount))
        kw["big_bet"] = draw(st.none() | amount)
    stakes = Stakes(**kw)
    if structure == SPREAD_LIMIT:  # each tier at least the minimum bet
        floor = stakes.effective_min_bet
        stakes = Stakes(**kw, spread=tuple(floor + draw(st.integers(0, 100)) for _ in range(3)))
    return stakes


def rake_rules() -> st.SearchStrategy[RakeRule | None]:
    def rule(per: int, unit: int, players: list[int], caps: list[int], small: int) -> RakeRule:
        return RakeRule(
            per=min(per, unit),
            unit=unit,
            caps=tuple(zip(sorted(set(players)), caps, strict=False)),
            small_pot_below=small,
            small_per=1,
            small_unit=20,
        )

    ints = st.integers(1, 10)
    return st.none() | st.builds(
        rule,
        st.integers(0, 100),
        st.integers(1, 1000),
        st.lists(st.integers(1, 10), min_size=1, max_size=4),
        st.lists(st.integers(0, 10**6), min_size=4, max_size=4),
        st.integers(0, 500) | ints,
    )


@st.composite
def variants(draw: st.DrawFn, game: str) -> Variant:
    """The game called ``game``, or (a third of the time) a game built from it outside
    ``VARIANTS``, which a record keeps whole."""
    variant = VARIANTS[game]
    if draw(st.integers(0, 2)):
        return variant
    return replace(
        variant,
        name=f"{game}_{draw(st.integers(0, 99))}",
        title=draw(st.text(min_size=1, max_size=8)),
        max_seats=draw(st.integers(4, variant.max_seats)),  # room for two straddles
        rake_street=draw(st.integers(0, len(variant.streets) - 1)),
        max_raises=draw(st.integers(0, 6)),
    )


@st.composite
def valid_configs(draw: st.DrawFn) -> TableConfig:
    game = draw(st.sampled_from(sorted(VARIANTS)))
    variant = draw(variants(game))
    structure = draw(st.sampled_from((None, *STRUCTURES)))
    betting = structure or variant.structure
    hi_lo_ok = variant.low is not None or variant.high == "omaha_high"
    stakes = stakes_for(game, betting, draw)
    fewest = 2 + len(stakes.straddles)  # the straddlers are neither blind
    return TableConfig(
        variant,
        stakes,
        structure=structure,
        max_seats=draw(st.none() | st.integers(fewest, variant.max_seats)),
        burn_cards=draw(st.booleans()),
        max_raises=draw(st.none() | st.integers(0, 6)),
        heads_up_uncapped=draw(st.booleans()),
        incomplete_raise_rule=draw(st.sampled_from(INCOMPLETE_RAISE_RULE_CHOICES)),
        short_deck_trips_beat_straight=draw(st.booleans()),
        hi_lo=draw(st.sampled_from((None, False, True) if hi_lo_ok else (None, False))),
        straddle_raise=draw(st.sampled_from(STRADDLE_RAISE_CHOICES)),
        fourth_street_pair=draw(st.sampled_from(FOURTH_STREET_PAIR_CHOICES)),
        bring_in_by_position=draw(st.booleans()),
        stud_order_ties=draw(st.sampled_from(STUD_ORDER_TIES_CHOICES)),
        community_card_betting=draw(st.booleans()),
        rake=draw(rake_rules()),
    )


def round_trip(config: TableConfig) -> TableConfig:
    return config_from_dict(json.loads(json.dumps(config_to_dict(config))))


def play_out(config: TableConfig, seed: int) -> None:
    """Play a hand of ``config`` with random legal actions; the chips add up at the end."""
    rng = random.Random(seed)
    players = min(config.seat_limit, 3)
    stacks = [rng.choice((1, 5, 10**3, 10**9, MAX_CHIPS // 4)) for _ in range(players)]
    hand = Hand(config, stacks, button=0, seed=seed)
    for _ in range(400):
        seat = hand.actor
        if seat is None:
            break
        legal = hand.legal_actions(seat)
        choices = [Action.fold(seat)] if legal.fold else []
        choices += [Action.check(seat)] if legal.check else []
        choices += [Action.call(seat)] if legal.call is not None else []
        choices += [Action.bring_in(seat)] if legal.bring_in is not None else []
        if legal.draw is not None:  # none on a draw, exactly draw_min on a discard street
            choices.append(Action.draw(seat, legal.held[: legal.draw_min]))
        if legal.min_raise_to is not None and legal.max_raise_to is not None:
            assert legal.min_raise_to > hand.bets[seat], "a raise adds chips"
            sizes = legal.raise_sizes or (legal.min_raise_to, legal.max_raise_to)
            choices += [Action.raise_to(seat, size) for size in sizes]
        hand.apply(rng.choice(choices))
    assert hand.result is not None, "the hand ends"
    left = sum(s for s in hand.result.stacks if s is not None)
    assert left + hand.result.rake == sum(stacks)


def fixed_stakes(game: str, structure: str) -> Stakes:
    """Small stakes for ``game`` at ``structure``: straddles at big-bet blind games, a
    big-blind ante at the other blind games, spread tiers at spread limit."""
    forced = VARIANTS[game].forced_bets
    if forced == BLINDS:
        extra = {"straddles": (4, 8)} if structure in BIG_BET else {"big_blind_ante": 2}
        kw: dict[str, Any] = {"small_blind": 1, "big_blind": 2, **extra}
    elif forced == BRING_IN:
        kw = {"ante": 1, "small_bet": 2, "bring_in": 1}
    else:
        kw = {"ante": 1, "button_blind": 2}
    if structure == FIXED_LIMIT:
        kw.update(small_bet=2, big_bet=4)
    if structure == SPREAD_LIMIT:
        kw["spread"] = (2, 4, 6)
    return Stakes(**kw)


@pytest.mark.parametrize("structure", STRUCTURES)
@pytest.mark.parametrize("game", sorted(VARIANTS))
def test_every_game_and_structure_round_trips_and_plays(game: str, structure: str) -> None:
    rake = seed_003_rule(structure, 100)
    config = TableConfig.of(game, fixed_stakes(game, structure), structure=structure, rake=rake)
    assert config.rake is not None
    assert round_trip(config) == config
    assert config_to_dict(round_trip(config)) == config_to_dict(config)
    play_out(config, seed=len(game) * 7 + STRUCTURES.index(structure))


@FUZZ
@given(valid_configs(), st.integers(0, 2**32))
def test_a_valid_configuration_round_trips_through_json_and_plays(
    config: TableConfig, seed: int
) -> None:
    again = round_trip(config)
    assert again == config
    assert config_to_dict(again) == config_to_dict(config)
    play_out(config, seed)


# ------------------------------------------------------------------ fuzz


def mutate(data: dict[str, Any], draw: st.DrawFn) -> None:
    """Change, delete or add one key somewhere in a stored configuration."""
    game = data.get("variant")
    streets = game.get("streets") if isinstance(game, dict) else None
    inner = [*streets] if isinstance(streets, list) else []
    inner += [game.get("stud")] if isinstance(game, dict) else []
    places = [data, data.get("stakes"), data.get("rake"), game, *inner]
    places = [p for p in places if isinstance(p, dict)]
    place = draw(st.sampled_from(places))
    keys = st.sampled_from(sorted(place)) if place else st.nothing()
    key = draw(keys | st.text(max_size=6))
    what = draw(st.sampled_from(("set", "set", "set", "delete", "nested")))
    if what == "delete":
        place.pop(key, None)
    elif what == "nested" and isinstance(place.get(key), list) and place[key]:
        inner = place[key]
        index = draw(st.integers(0, len(inner) - 1))
        if isinstance(inner[index], list) and inner[index]:
            inner[index][draw(st.integers(0, len(inner[index]) - 1))] = draw(VALUES)
        else:
            inner[index] = draw(VALUES)
    else:
        place[key] = draw(VALUES)


def accepted(build: Any, *args: Any, **kwargs: Any) -> Any:
    """``build(*args, **kwargs)``, or None when it raised ConfigError (and nothing else)."""
    try:
        return build(*args, **kwargs)
    except ConfigError:
        return None


@FUZZ
@given(valid_configs(), st.data(), st.integers(0, 2**32))
def test_a_mutated_record_gives_a_valid_configuration_or_a_config_error(
    config: TableConfig, data: st.DataObject, seed: int
) -> None:
    stored = json.loads(json.dumps(config_to_dict(config)))
    for _ in range(data.draw(st.integers(1, 3))):
        mutate(stored, data.draw)
    read = accepted(config_from_dict, stored)
    if read is not None:
        assert round_trip(read) == read
        play_out(read, seed)


@FUZZ
@given(st.one_of(VALUES, st.dictionaries(st.sampled_from(["game", "stakes", "rake"]), VALUES)))
def test_any_json_value_gives_a_configuration_or_a_config_error(value: object) -> None:
    read = accepted(config_from_dict, value)
    assert read is None or round_trip(read) == read


STAKES_FIELDS = [f.name for f in fields(Stakes)]
RAKE_FIELDS = [f.name for f in fields(RakeRule)]


@FUZZ
@given(
    st.dictionaries(st.sampled_from(STAKES_FIELDS), VALUES, max_size=3),
    st.dictionaries(st.sampled_from(RAKE_FIELDS), VALUES, max_size=2),
    st.dictionaries(st.sampled_from(OPTIONS), VALUES, max_size=2),
    st.tuples(VALUES, VALUES, VALUES),
    st.sampled_from(sorted(VARIANTS)) | VALUES,
)
def test_the_constructors_give_a_valid_value_or_a_config_error(
    stakes: dict[str, Any],
    rake: dict[str, Any],
    options: dict[str, Any],
    seat: tuple[Any, Any, Any],
    game: Any,
) -> None:
    built = accepted(Stakes, **{"small_blind": 1, "big_blind": 2, **stakes})
    rule = accepted(RakeRule, **{"per": 5, "unit": 100, "caps": ((10, 400),), **rake})
    accepted(Seat, *seat)
    accepted(Stakes.limit, stakes.get("small_bet", 4), stakes.get("big_bet"))
    if built is not None:
        config = accepted(TableConfig.of, game, built, **{"rake": rule, **options})
        if config is not None:
            assert round_trip(config) == config


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -0.0, 2**53, 10**30, "1e3"])
def test_an_amount_that_only_looks_like_a_number_is_refused(value: object) -> None:
    data = config_to_dict(TableConfig.of("holdem", Stakes.blinds(1, 2)))
    data["stakes"]["big_blind"] = value
    with pytest.raises(ConfigError, match="big_blind"):
        config_from_dict(data)
