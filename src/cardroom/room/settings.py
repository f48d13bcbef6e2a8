"""A cash table's settings as data: its game(s), currency, buy-in range, clocks and options.

Defaults follow RULEBOOK §10; every field can be set per table and is shown to
players (:func:`settings_to_dict`). The time bank rule (§10.5 leaves it to us):
a player sits down with ``time_bank_start`` seconds; every ``time_bank_every``
hands dealt in adds ``time_bank_refill`` seconds, never above ``time_bank_max``.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from cardroom.games import (
    RakeRule,
    TableConfig,
    config_from_dict,
    config_to_dict,
    seed_003_rule,
)
from cardroom.games.betting import STRUCTURE_RULES
from cardroom.games.errors import ConfigError
from cardroom.games.variants import BLINDS, BUTTON_BLIND
from cardroom.ledger import Currency
from cardroom.room.chinese_table import ChineseTableConfig
from cardroom.room.errors import BAD_COMMAND, TableError
from cardroom.room.rotation import Rotation, rotation_from_dict, rotation_to_dict


def blind_units(config: TableConfig) -> tuple[int, int]:
    """The (small, big) blind a buy-in is measured in: the blinds of a blind game, the
    ante and button blind in Short Deck, half the small bet and the small bet in stud."""
    stakes = config.stakes
    if config.variant.forced_bets == BLINDS:
        return stakes.small_blind, stakes.big_blind
    if config.variant.forced_bets == BUTTON_BLIND:
        return stakes.ante, stakes.effective_button_blind
    small_bet = stakes.effective_small_bet
    return small_bet // 2, small_bet


def default_buy_in(config: TableConfig) -> tuple[int, int]:
    """RULEBOOK §10.2 (seed 001): limit games 10x the small blind to 20x the big blind;
    big-bet games 10x to 20x the big blind."""
    small, big = blind_units(config)
    if STRUCTURE_RULES[config.betting].limit:
        return max(1, 10 * small), 20 * big
    return 10 * big, 20 * big


CHINESE_BUY_IN_POINTS = (30, 300)
"""A Chinese poker table's default buy-in, in points (times ``point_value``): a hand
often moves 10 to 30 points, so the minimum covers a bad hand or two."""


def chinese_buy_in(config: ChineseTableConfig) -> tuple[int, int]:
    """The default buy-in of a Chinese poker table (:data:`CHINESE_BUY_IN_POINTS`)."""
    low, high = CHINESE_BUY_IN_POINTS
    return low * config.point_value, high * config.point_value


def forced_need(config: TableConfig) -> int:
    """Chips a player needs to be dealt in (RULEBOOK §10.2, cash games): the ante plus the
    largest blind, straddle, button blind or bring-in the seat may owe (a straddle is
    its seat's forced bet, §4: one who cannot cover it is not dealt in). At least one
    chip: the engine deals no empty stack, and a stud table with no ante and a bring-in
    rounded down to 0 (a 1-chip small bet) dealt a busted player in, failing every deal."""
    stakes = config.stakes
    forced = config.variant.forced_bets
    if forced == BLINDS:
        need = stakes.ante + max((stakes.big_blind_ante + stakes.big_blind, *stakes.straddles))
    elif forced == BUTTON_BLIND:
        need = stakes.ante + stakes.effective_button_blind
    else:
        need = stakes.ante + stakes.effective_bring_in
    return max(1, need)


LANGUAGE_TAG: Final = re.compile(r"[a-z]{2,3}(-[A-Za-z0-9]{2,8})*")
"""A table's chat language: a BCP 47 tag's language and subtags (``en``, ``el``, ``pt-BR``)."""


@dataclass(frozen=True, slots=True)
class TableSettings:
    """One cash table. ``games`` holds its one configuration, or, with ``mixed`` (a
    :class:`~cardroom.room.rotation.Rotation`), the configuration of each game of the
    rotation in order (:meth:`with_rotation`; :mod:`cardroom.room.games_port` picks one
    per hand). A Chinese poker table (:meth:`chinese_table`) has no ``games`` and its
    game in ``chinese``; ``action_seconds`` is then the time to place a street."""

    table_id: str
    games: tuple[TableConfig, ...]
    currency: Currency = Currency.PLAY
    min_buy_in: int | None = None
    max_buy_in: int | None = None
    whole_balance: bool = False
    """Seed 003's option: fixed-limit players may bring their whole balance (no maximum);
    a table whose every game is played at a limit only."""
    action_seconds: float = 30.0
    time_bank_start: float = 30.0
    time_bank_refill: float = 10.0
    time_bank_every: int = 10
    time_bank_max: float = 60.0
    sit_out_minutes: float = 10.0
    reconnect_seconds: float = 30.0
    disconnect_protection: bool | None = None
    """None: on at fixed- and spread-limit real-money tables, off otherwise (§10.6)."""
    disconnect_allins_per_day: int = 2
    allowance_resets_per_day: int = 1
    waitlist_offer_seconds: float = 60.0
    reducing_minutes: float = 30.0
    hand_pause_seconds: float = 0.0
    mixed: Rotation | None = None
    rake: RakeRule | None = None
    default_rake: bool = True
    """With no ``rake`` rule: seed 003's schedule for the stake (real money only)."""
    draw_button: bool = True
    """At a new table the button goes to the highest card of a draw (RULEBOOK §3); False:
    to the first seat dealt in (tests and benchmarks that pin the positions)."""
    seed: str | None = None
    """Reproducible decks (tests, simulations): hand n is shuffled from ``f"{seed}:{n}"``."""
    chinese: ChineseTableConfig | None = None
    """A Chinese poker table's game (RULEBOOK §8): variant, chips per point, seats."""
    language: str = "en"
    """The table's chat language (§10.7: "per-table chat in the table language"), a
    language tag such as ``en``, ``el`` or ``pt-BR``, shown with the table's terms."""

    def __post_init__(self) -> None:
        if bool(self.games) == (self.chinese is not None):
            raise TableError(BAD_COMMAND, "a table plays poker games or one Chinese game")
        low, high = self.buy_in_range
        if not 0 < low <= (high if high is not None else low):
            raise TableError(BAD_COMMAND, f"bad buy-in range {low}..{high}")
        if self.whole_balance and not (
            self.games and all(STRUCTURE_RULES[c.betting].limit for c in self.games)
        ):
            raise TableError(BAD_COMMAND, "whole_balance is for limit games only (§10.2)")
        if self.time_bank_every < 1:
            raise TableError(BAD_COMMAND, "time_bank_every must be >= 1")
        if self.time_bank_start > self.time_bank_max:  # the bank is never above its max
            raise TableError(BAD_COMMAND, "time_bank_start must not exceed time_bank_max")
        if type(self.language) is not str or not LANGUAGE_TAG.fullmatch(self.language):
            raise TableError(BAD_COMMAND, f"language: a language tag, not {self.language!r}")

    @staticmethod
    def single(table_id: str, config: TableConfig, **options: Any) -> TableSettings:
        """A table of one game."""
        return TableSettings(table_id, (config,), **options)

    @staticmethod
    def with_rotation(
        table_id: str, rotation: Rotation, rules: Mapping[str, Any] | None = None, **options: Any
    ) -> TableSettings:
        """A mixed table (RULEBOOK §9): one configuration per game of ``rotation``, each
        with the table's rule options ``rules`` (a game plays by those that concern it).
        Not ``hi_lo``: a rotation's games name their own halves (``omaha_hi_lo``)."""
        rules = dict(rules or {})
        if "hi_lo" in rules:
            raise ConfigError("hi_lo: a mixed table's games name their own halves")
        per = rotation.hands_per_game
        games = tuple(rotation.game_for(i * per, **rules) for i in range(len(rotation.games)))
        return TableSettings(table_id, games, mixed=rotation, **options)

    @staticmethod
    def chinese_table(table_id: str, config: ChineseTableConfig, **options: Any) -> TableSettings:
        """A Chinese poker table (OFC, Pineapple, ...: :mod:`cardroom.room.chinese_room`)."""
        return TableSettings(table_id, (), chinese=config, **options)

    @property
    def seat_count(self) -> int:
        """Seats at the table: the most restrictive game's (§3, mixed games)."""
        if self.chinese is not None:
            return self.chinese.seat_count
        return min(c.seat_limit for c in self.games)

    @property
    def source(self) -> TableConfig | Rotation | ChineseTableConfig:
        """What the table plays, as the lobby lists it: its rotation, Chinese game or game."""
        return self.mixed or self.chinese or self.games[0]

    @property
    def buy_in_range(self) -> tuple[int, int | None]:
        """(minimum, maximum) buy-in; maximum None with ``whole_balance``."""
        if self.chinese is not None:
            defaults = [chinese_buy_in(self.chinese)]
        else:
            defaults = [default_buy_in(c) for c in self.games]
        low = self.min_buy_in if self.min_buy_in is not None else max(d[0] for d in defaults)
        high = self.max_buy_in if self.max_buy_in is not None else max(d[1] for d in defaults)
        return low, None if self.whole_balance else high

    @property
    def protection(self) -> bool:
        """Whether disconnect all-ins are offered in every hand (§10.6, seed 003)."""
        if self.disconnect_protection is not None:
            return self.disconnect_protection
        if self.chinese is not None:
            return False  # no bets, so no all-in to give
        return all(self.protection_for(c) for c in self.games)

    def protection_for(self, config: TableConfig) -> bool:
        """Whether a hand of ``config`` offers disconnect all-ins (§10.6, seed 003): as
        ``disconnect_protection`` says, else at real money in fixed- and spread-limit
        hands. A mixed table decides per hand: 8-Game protects its limit games and not
        NL Hold'em or PLO; HORSE (all limit) every hand."""
        if self.disconnect_protection is not None:
            return self.disconnect_protection
        return STRUCTURE_RULES[config.betting].limit and self.currency is Currency.REAL

    def hand_config(self, config: TableConfig) -> TableConfig:
        """``config`` with this table's rake: none on play money (§10.8: play money is free)."""
        rake = None
        if self.currency is Currency.REAL:
            rake = self.rake
            if rake is None and self.default_rake:
                rake = seed_003_rule(config.betting, config.stakes.effective_small_bet)
        if rake == config.rake:
            return config
        return dataclasses.replace(config, rake=rake)


def settings_to_dict(settings: TableSettings) -> dict[str, Any]:
    """The settings as JSON data (the seed is left out: it is the server's secret)."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(settings):
        value = getattr(settings, f.name)
        if f.name == "games":
            value = [config_to_dict(c) for c in value]
        elif f.name == "currency":
            value = value.value
        elif f.name == "rake":
            value = None if value is None else dataclasses.asdict(value)
        elif f.name == "mixed":
            value = None if value is None else rotation_to_dict(value)
        elif f.name == "chinese":
            value = None if value is None else dataclasses.asdict(value)
        elif f.name == "seed":
            continue
        out[f.name] = value
    return out


def settings_from_dict(data: dict[str, Any], seed: str | None = None) -> TableSettings:
    """The inverse of :func:`settings_to_dict` (the seed comes separately)."""
    values = dict(data)
    values["games"] = tuple(config_from_dict(c) for c in data["games"])
    values["currency"] = Currency(data["currency"])
    rake = data.get("rake")
    mixed = data.get("mixed")
    values["mixed"] = None if mixed is None else rotation_from_dict(mixed)
    chinese = data.get("chinese")
    values["chinese"] = None if chinese is None else ChineseTableConfig(**chinese)
    values["rake"] = (
        None
        if rake is None
        else RakeRule(**{**rake, "caps": tuple(tuple(c) for c in rake["caps"])})
    )
    return TableSettings(**values, seed=seed)
