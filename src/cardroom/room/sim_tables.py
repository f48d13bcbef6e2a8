"""The tables a simulation plays (``cardroom simulate``, the room's property tests and
``cardroom bench room``): a small-stakes configuration of every game, Chinese poker and
mixed tables, a random table, and a simulation's table ``i``."""

from __future__ import annotations

import random
from typing import Any

from cardroom.chinese import VARIANTS as CHINESE_VARIANTS
from cardroom.games import Stakes, TableConfig, get_variant
from cardroom.games.variants import BLINDS, BUTTON_BLIND, FIXED_LIMIT, VARIANTS
from cardroom.ledger import Currency
from cardroom.room.chinese_table import ChineseTableConfig
from cardroom.room.rotation import CUSTOM_MIXED, EIGHT_GAME, HORSE, custom_mixed, eight_game, horse
from cardroom.room.settings import TableSettings


def config_for(game: str) -> TableConfig:
    """A small-stakes configuration of ``game`` (its usual structure)."""
    variant = get_variant(game)
    if variant.forced_bets == BUTTON_BLIND:
        return TableConfig(variant, Stakes.short_deck(2))
    if variant.forced_bets != BLINDS:
        return TableConfig(variant, Stakes.limit(4, 8, ante=1))
    if variant.structure == FIXED_LIMIT:
        return TableConfig(variant, Stakes.limit(4, 8))
    return TableConfig(variant, Stakes.blinds(2, 4))


GAMES: tuple[str, ...] = tuple(VARIANTS)
"""Every game a table can play (the engine's variants)."""
CHINESE_GAMES: tuple[str, ...] = tuple(CHINESE_VARIANTS)
"""Every Chinese poker game (OFC, Pineapple, classic...)."""


def chinese_settings(table_id: str, game: str, seats: int, **options: Any) -> TableSettings:
    """A Chinese poker table of ``game`` at 1 chip a point."""
    config = ChineseTableConfig(game, point_value=1, max_seats=seats)
    return TableSettings.chinese_table(table_id, config, **options)


def mixed_settings(
    table_id: str, kind: str, hands_per_game: int = 8, **options: Any
) -> TableSettings:
    """A HORSE, 8-Game or CUSTOM_MIXED table at 4/8."""
    if kind == HORSE:
        rotation = horse(4, hands_per_game)
    elif kind == EIGHT_GAME:
        rotation = eight_game(4, hands_per_game)
    else:
        rotation = custom_mixed(4, hands_per_game=hands_per_game)
    return TableSettings.with_rotation(table_id, rotation, **options)


def random_settings(
    rng: random.Random, table_id: str, *, chinese: bool = False, **options: Any
) -> TableSettings:
    """A table of a random game (or a HORSE / 8-Game rotation; with ``chinese`` also a
    Chinese poker game), play or real money."""
    currency = rng.choice((Currency.PLAY, Currency.REAL))
    roll = rng.random()
    base: dict[str, Any] = {"currency": currency, **options}
    if roll < 0.15:
        kind = rng.choice((HORSE, EIGHT_GAME, CUSTOM_MIXED))
        return mixed_settings(table_id, kind, hands_per_game=3, **base)
    if chinese and roll < 0.25:
        game = rng.choice(CHINESE_GAMES)
        return chinese_settings(table_id, game, rng.randint(2, 3), **base)
    game = rng.choice(GAMES)
    config = config_for(game)
    seats = rng.randint(2, config.seat_limit)
    return TableSettings(
        table_id, (TableConfig(config.variant, config.stakes, max_seats=seats),), **base
    )


KINDS: tuple[str, ...] = GAMES + CHINESE_GAMES
"""What a simulation's single-game tables play in turn: every poker game, then every
Chinese poker game."""


def settings_for_index(i: int, seed: int, rng: random.Random) -> TableSettings:
    """Table ``i`` of a simulation: every game in turn (:data:`KINDS`), every eighth
    table a mixed rotation (HORSE, 8-Game, CUSTOM_MIXED in turn), play or real money at
    random."""
    currency = rng.choice((Currency.PLAY, Currency.REAL))
    table_id = f"sim{i}"
    # A random session's clock runs fast (minutes a hand): players away for a round of
    # blinds would be removed after the default 10 minutes.
    options: dict[str, Any] = {"currency": currency, "seed": f"{seed}:{i}", "sit_out_minutes": 60}
    if i % 8 == 7:
        kind = (HORSE, EIGHT_GAME, CUSTOM_MIXED)[(i // 8) % 3]
        return mixed_settings(table_id, kind, 3, **options)
    game = KINDS[(i - (i + 1) // 8) % len(KINDS)]
    if game in CHINESE_GAMES:
        seats = rng.randint(2, CHINESE_VARIANTS[game].max_players)
        return chinese_settings(table_id, game, seats, **options)
    config = config_for(game)
    seats = rng.randint(2, config.seat_limit)
    config = TableConfig(config.variant, config.stakes, max_seats=seats)
    return TableSettings(table_id, (config,), **options)


def table_name(settings: TableSettings) -> str:
    """What a table plays, as the summary counts it: a rotation's badge or a game's name."""
    if settings.mixed is not None:
        return settings.mixed.badge
    if settings.chinese is not None:
        return settings.chinese.variant
    return settings.games[0].variant.name
