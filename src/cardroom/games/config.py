"""A table's configuration as data: game, betting structure, stakes, table options.

Every table option the rulebook names for these games is a field of
:class:`TableConfig` with the rulebook's default; the room shows them to players.
The option choices are ``Literal`` types of :mod:`cardroom.games.options`.

Every value is checked where it is built (:class:`Stakes`, :class:`Seat`,
:class:`TableConfig`, and the rake rule and game they hold): a bad one raises
:class:`~cardroom.games.errors.ConfigError` and nothing else, so no float, bool,
negative or huge amount, unknown choice, or structure in which a raise adds no
chips reaches a hand. :func:`config_to_dict` and :func:`config_from_dict` turn a
configuration into JSON data and back, losslessly (the event record stores
``HandStarted.config`` that way).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, Final

from cardroom.games.betting import STRUCTURE_RULES
from cardroom.games.checks import (
    choice,
    flag,
    is_whole,
    json_array,
    json_object,
    maybe_whole,
    shown,
    unknown_name,
    whole,
    wholes,
)
from cardroom.games.errors import ConfigError
from cardroom.games.options import (
    FOURTH_STREET_PAIR_CHOICES,
    INCOMPLETE_RAISE_RULE_CHOICES,
    SEAT_POST_CHOICES,
    STRADDLE_RAISE_CHOICES,
    STRUCTURE_CHOICES,
    STUD_ORDER_TIES_CHOICES,
    FourthStreetPair,
    IncompleteRaiseRule,
    SeatPost,
    StraddleRaise,
    Structure,
    StudOrderTies,
)
from cardroom.games.rake import RakeRule
from cardroom.games.variants import (
    BLINDS,
    BRING_IN,
    BUTTON_BLIND,
    MOST_RAISES,
    VARIANTS,
    Variant,
    get_variant,
    variant_from_dict,
    variant_to_dict,
)
from cardroom.values import value

TDA: Final = "tda"
HALF: Final = "half"

# Extra posts a room asks of a seat (RULEBOOK §10.3, §10.4).
POST_BIG_BLIND: Final = "big_blind"
"""A new or returning player posts one big blind, live, to be dealt in now."""
POST_BOTH_BLINDS: Final = "big_and_dead_small"
"""A player who missed both blinds posts the big blind live and the small blind dead."""


@dataclass(frozen=True, slots=True)
class Stakes:
    """Blinds, antes and bet sizes in integer chips.

    Unset sizes follow RULEBOOK §4–§5: ``small_bet`` defaults to the big blind,
    ``big_bet`` to twice the small bet, ``button_blind`` to twice the ante,
    ``bring_in`` to half the small bet, ``min_bet`` to the big blind (the button
    blind in Short Deck). ``spread`` holds the spread-limit maxima by tier
    ("1-2-3" is ``(1, 2, 3)``).

    Checked when built (ConfigError): every amount an int (not a bool or a
    float) from 0 to :data:`~cardroom.games.checks.MAX_CHIPS`, ``spread`` and
    ``straddles`` tuples of them, the small blind no larger than the big blind.
    Whether the stakes suit a game is checked by :class:`TableConfig`.
    """

    small_blind: int = 0
    big_blind: int = 0
    ante: int = 0
    button_blind: int | None = None
    small_bet: int | None = None
    big_bet: int | None = None
    bring_in: int | None = None
    min_bet: int | None = None
    spread: tuple[int, ...] = ()
    big_blind_ante: int = 0
    straddles: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        whole(self.small_blind, "small_blind")
        whole(self.big_blind, "big_blind")
        whole(self.ante, "ante")
        whole(self.big_blind_ante, "big_blind_ante")
        maybe_whole(self.button_blind, "button_blind")
        maybe_whole(self.small_bet, "small_bet")
        maybe_whole(self.big_bet, "big_bet")
        maybe_whole(self.bring_in, "bring_in")
        maybe_whole(self.min_bet, "min_bet")
        wholes(self.spread, "spread")
        wholes(self.straddles, "straddles")
        if self.small_blind > self.big_blind:
            raise ConfigError("the small blind may not exceed the big blind")

    @staticmethod
    def blinds(
        small_blind: int,
        big_blind: int,
        ante: int = 0,
        *,
        big_blind_ante: int = 0,
        straddles: tuple[int, ...] = (),
    ) -> Stakes:
        """No-limit / pot-limit stakes: the table sets both blinds (and optional antes,
        a big-blind ante or straddles)."""
        return Stakes(
            small_blind=small_blind,
            big_blind=big_blind,
            ante=ante,
            big_blind_ante=big_blind_ante,
            straddles=straddles,
        )

    @staticmethod
    def limit(small_bet: int, big_bet: int | None = None, ante: int = 0) -> Stakes:
        """Fixed-limit stakes: small blind = half the small bet (rounded down), big blind = it."""
        whole(small_bet, "small_bet")  # before the arithmetic below
        return Stakes(
            small_blind=small_bet // 2,
            big_blind=small_bet,
            ante=ante,
            small_bet=small_bet,
            big_bet=2 * small_bet if big_bet is None else big_bet,
        )

    @staticmethod
    def short_deck(ante: int, button_blind: int | None = None) -> Stakes:
        """Short Deck stakes: everyone antes; the button blind defaults to twice the ante."""
        return Stakes(ante=ante, button_blind=button_blind)

    @staticmethod
    def spread_limit(maxima: tuple[int, ...], small_blind: int, big_blind: int) -> Stakes:
        """Spread-limit stakes such as 1-2-3: bets from the big blind up to each tier's maximum."""
        return Stakes(small_blind=small_blind, big_blind=big_blind, spread=maxima)

    @property
    def effective_button_blind(self) -> int:
        """The Short Deck button blind (twice the ante unless set)."""
        return 2 * self.ante if self.button_blind is None else self.button_blind

    @property
    def effective_small_bet(self) -> int:
        """The fixed-limit small bet."""
        return self.big_blind if self.small_bet is None else self.small_bet

    @property
    def effective_big_bet(self) -> int:
        """The fixed-limit big bet."""
        return 2 * self.effective_small_bet if self.big_bet is None else self.big_bet

    @property
    def effective_bring_in(self) -> int:
        """The stud bring-in (half the small bet unless set)."""
        return self.effective_small_bet // 2 if self.bring_in is None else self.bring_in

    @property
    def effective_min_bet(self) -> int:
        """The smallest bet: the big blind, else the button blind, else the small bet."""
        if self.min_bet is not None:
            return self.min_bet
        if self.big_blind:
            return self.big_blind
        if self.button_blind is not None or self.ante:
            return max(1, self.effective_button_blind)
        return max(1, self.effective_small_bet)


@value
class Seat:
    """A player dealt into the hand: chips on the table and per-player settings.

    ``post`` asks for an extra forced bet (:data:`POST_BIG_BLIND`,
    :data:`POST_BOTH_BLINDS`); ``auto_muck`` mucks losing hands at showdown.
    """

    stack: int
    auto_muck: bool = True
    post: SeatPost | None = None

    def __post_init__(self) -> None:
        whole(self.stack, "a seat's stack (a player dealt in needs chips)", low=1)
        flag(self.auto_muck, "auto_muck")
        if self.post is not None:
            choice(self.post, "a seat's post", SEAT_POST_CHOICES)


@dataclass(frozen=True, slots=True)
class TableConfig:
    """A table's game, structure, stakes, options and rake rule.

    ``structure`` None means the game's usual one; ``max_raises`` None means the
    game's default cap (3: one bet and three raises; stud tables 4).

    Checked when built (ConfigError): every field's type and choices, stakes that
    suit the game, and a structure in which every bet or raise adds chips.
    """

    variant: Variant
    stakes: Stakes
    structure: Structure | None = None
    max_seats: int | None = None
    burn_cards: bool = True
    max_raises: int | None = None
    heads_up_uncapped: bool = False
    incomplete_raise_rule: IncompleteRaiseRule = TDA
    short_deck_trips_beat_straight: bool = False
    hi_lo: bool | None = None
    straddle_raise: StraddleRaise = "straddle"
    """How much a raise over a straddle must add: ``"straddle"`` (at least the straddle,
    the straddle being the last full bet: to 8 over a 4 straddle at 1/2, as card rooms
    play) or ``"big_blind"`` (at least the big blind: to 6; PokerKit's sizing, so PHH's)."""
    # Stud-family options (RULEBOOK §4–§6); read by the stud rules.
    fourth_street_pair: FourthStreetPair = "big"
    bring_in_by_position: bool = False
    stud_order_ties: StudOrderTies = "position"
    community_card_betting: bool = True
    rake: RakeRule | None = None

    def __post_init__(self) -> None:
        _check(self)

    @staticmethod
    def of(game: str, stakes: Stakes, **options: Any) -> TableConfig:
        """A configuration for the game called ``game`` with ``options`` as fields.

        ConfigError for an unknown game (naming the nearest) or option (naming them all).
        """
        variant = get_variant(game)
        for name in options:
            if name not in OPTIONS:
                raise unknown_name("table option", name, OPTIONS)
        return TableConfig(variant, stakes, **options)

    @property
    def betting(self) -> Structure:
        """The betting structure in play."""
        return self.variant.structure if self.structure is None else self.structure

    @property
    def seat_limit(self) -> int:
        """How many seats the table has."""
        return self.variant.max_seats if self.max_seats is None else self.max_seats

    @property
    def raise_cap(self) -> int:
        """Raises allowed after the opening bet of a fixed-limit round."""
        return self.variant.max_raises if self.max_raises is None else self.max_raises

    @property
    def limit_rule_half(self) -> bool:
        """True when an all-in of at least half a raise counts as a full raise."""
        return STRUCTURE_RULES[self.betting].limit or self.incomplete_raise_rule == HALF

    @property
    def high_evaluator(self) -> str:
        """The evaluator name for the high hand, after the ranking options."""
        high = self.variant.high
        if high == "short_deck" and self.short_deck_trips_beat_straight:
            return "short_deck_trips"
        return high

    @property
    def low_evaluator(self) -> str | None:
        """The evaluator name for the low half (None: high only)."""
        if self.hi_lo is None:
            return self.variant.low
        if not self.hi_lo:
            return None
        return self.variant.low or "omaha_low8"


OPTIONS: Final = tuple(f.name for f in fields(TableConfig) if f.name not in ("variant", "stakes"))
"""The table options: every field of :class:`TableConfig` but the game and the stakes."""

RULE_OPTIONS: Final = tuple(o for o in OPTIONS if o not in ("structure", "max_seats", "rake"))
"""The game's rule options (RULEBOOK: each settable per table and shown to players):
every option but the structure, the seats and the rake, which a table names apart."""


def rules_set(config: TableConfig) -> dict[str, Any]:
    """The rule options ``config`` sets away from their defaults, by name: what a
    player must be told beyond the rules pages.

    >>> rules_set(TableConfig.of("holdem", Stakes.blinds(1, 2), burn_cards=False))
    {'burn_cards': False}
    """
    return {
        f.name: value
        for f in fields(TableConfig)
        if f.name in RULE_OPTIONS and (value := getattr(config, f.name)) != f.default
    }


_BOOL_OPTIONS = (
    "burn_cards",
    "heads_up_uncapped",
    "short_deck_trips_beat_straight",
    "bring_in_by_position",
    "community_card_betting",
)


def _check(config: TableConfig) -> None:
    _check_fields(config)
    _check_forced_bets(config)
    _check_raise_sizes(config)
    v = config.variant
    if not 2 <= config.seat_limit <= v.max_seats:
        raise ConfigError(f"{v.title} seats 2 to {v.max_seats} players")
    if config.hi_lo and not (v.low or v.high == "omaha_high"):
        raise ConfigError(f"{v.title} has no hi-lo version")
    _check_blind_options(config)


def _check_fields(config: TableConfig) -> None:
    """Each field on its own: its type, and one of its choices."""
    if not isinstance(config.variant, Variant):
        raise ConfigError(
            "variant must be a Variant: name a game with TableConfig.of('holdem', ...)"
        )
    if not isinstance(config.stakes, Stakes):
        raise ConfigError("stakes must be a Stakes, e.g. Stakes.blinds(1, 2)")
    if config.structure is not None:
        choice(config.structure, "structure", STRUCTURE_CHOICES)
    for name in _BOOL_OPTIONS:
        flag(getattr(config, name), name)
    if config.hi_lo is not None and not isinstance(config.hi_lo, bool):
        raise ConfigError(f"hi_lo must be true, false or unset, not {shown(config.hi_lo)}")
    choice(config.incomplete_raise_rule, "incomplete_raise_rule", INCOMPLETE_RAISE_RULE_CHOICES)
    choice(config.straddle_raise, "straddle_raise", STRADDLE_RAISE_CHOICES)
    choice(config.fourth_street_pair, "fourth_street_pair", FOURTH_STREET_PAIR_CHOICES)
    choice(config.stud_order_ties, "stud_order_ties", STUD_ORDER_TIES_CHOICES)
    maybe_whole(config.max_seats, "max_seats")
    maybe_whole(config.max_raises, "max_raises", high=MOST_RAISES)
    if config.rake is not None and not isinstance(config.rake, RakeRule):
        raise ConfigError("rake must be a RakeRule or unset")


def _check_forced_bets(config: TableConfig) -> None:
    """The stakes hold the forced bet the game starts with."""
    s, v = config.stakes, config.variant
    if v.forced_bets == BUTTON_BLIND:
        if s.effective_button_blind <= 0:
            raise ConfigError(f"{v.title} needs an ante or a button blind")
    elif v.forced_bets == BRING_IN:
        if s.effective_small_bet <= 0:
            raise ConfigError(f"{v.title} needs a small bet")
    elif s.big_blind <= 0:
        raise ConfigError(f"{v.title} needs a big blind")


def _check_raise_sizes(config: TableConfig) -> None:
    """Every bet or raise the structure allows adds at least one chip (RULEBOOK §5).

    Fixed limit bets and raises by the small bet and the big bet only (stud
    completes the bring-in to the small bet; a 4th-street open pair may bet big).
    The other structures raise by at least the minimum bet (or the last full
    raise, which is larger); spread limit also caps each street, and a cap below
    the minimum bet would leave no bet at all.
    """
    s = config.stakes
    if STRUCTURE_RULES[config.betting].fixed:
        if s.effective_small_bet < 1:
            raise ConfigError(
                "fixed limit needs a small bet of at least 1 chip: set small_bet "
                f"(it defaults to the big blind, here {s.big_blind})"
            )
        if s.effective_big_bet < 1:
            raise ConfigError("fixed limit needs a big bet of at least 1 chip")
        return
    if s.effective_min_bet < 1:
        raise ConfigError(
            f"{config.betting} needs a min_bet of at least 1 chip: a raise adds chips"
        )
    if not STRUCTURE_RULES[config.betting].spread:
        return
    tiers = 1 + max(st.spread_tier for st in config.variant.streets)
    if len(s.spread) < tiers:
        raise ConfigError("spread limit needs a maximum for every tier, e.g. (1, 2, 3)")
    for maximum in s.spread[:tiers]:
        if maximum < s.effective_min_bet:
            raise ConfigError(
                f"a spread-limit maximum of {maximum} is below the minimum bet "
                f"{s.effective_min_bet}: no bet could be made"
            )


def _check_blind_options(config: TableConfig) -> None:
    """The big-blind ante and straddles: only at blind games, straddles only in big-bet games."""
    s, v = config.stakes, config.variant
    if (s.big_blind_ante or s.straddles) and v.forced_bets != BLINDS:
        what = "a big-blind ante" if s.big_blind_ante else "straddles"
        raise ConfigError(f"{v.title} has no blinds: {what} needs a game with blinds")
    if s.big_blind_ante and s.ante:
        raise ConfigError("a table has either an ante for everyone or a big-blind ante, not both")
    if not s.straddles:
        return
    if STRUCTURE_RULES[config.betting].limit:
        raise ConfigError("straddles are played at no-limit and pot-limit tables only")
    previous = s.big_blind
    for amount in s.straddles:
        if amount <= previous:
            raise ConfigError(
                f"straddles {list(s.straddles)}: each straddle must exceed the blind before it"
            )
        previous = amount
    if len(s.straddles) > config.seat_limit - 2:
        raise ConfigError(f"{len(s.straddles)} straddles need more than {config.seat_limit} seats")


def check_seats(config: TableConfig, seats: Sequence[Seat | int | None]) -> tuple[Seat | None, ...]:
    """The seats of a hand as :class:`Seat` (an int is a stack); ConfigError for bad ones."""
    if not isinstance(seats, list | tuple) and (
        not isinstance(seats, Sequence) or isinstance(seats, str | bytes)
    ):
        raise ConfigError(f"the seats must be a list, not {shown(seats)}")
    if not 2 <= len(seats) <= config.seat_limit:
        raise ConfigError(f"this table has 2 to {config.seat_limit} seats, not {len(seats)}")
    out: list[Seat | None] = []
    for i, seat in enumerate(seats):
        if seat is None or isinstance(seat, Seat):  # a Seat was checked when it was built
            out.append(seat)
            continue
        if not is_whole(seat):
            raise ConfigError(f"seat {i}: a stack must be an int, not {shown(seat)}")
        if seat <= 0:
            raise ConfigError(f"seat {i}: a player dealt in needs chips, not {seat}")
        try:
            out.append(Seat(seat))
        except ConfigError as exc:
            raise ConfigError(f"seat {i}: {exc}") from None
    return tuple(out)


def config_to_dict(config: TableConfig) -> dict[str, Any]:
    """The configuration as JSON-able data (the game by name), for records and the lobby.

    Lossless: :func:`config_from_dict` of it, even after ``json.dumps``/``json.loads``,
    equals ``config``. A game of :data:`~cardroom.games.variants.VARIANTS` is written
    by its name; a game built outside it (Short Deck with blinds from a PHH file) is
    written whole too, under ``"variant"``.
    """
    variant = config.variant
    out: dict[str, Any] = {"game": variant.name}
    known = VARIANTS.get(variant.name)
    if known is not variant and known != variant:
        out["variant"] = variant_to_dict(variant)
    for name in OPTIONS:
        if name != "rake":
            out[name] = getattr(config, name)
    out["stakes"] = {
        f.name: list(v) if isinstance(v := getattr(config.stakes, f.name), tuple) else v
        for f in fields(config.stakes)
    }
    rake = config.rake
    out["rake"] = None if rake is None else _rake_to_dict(rake)
    return out


def _rake_to_dict(rake: RakeRule) -> dict[str, Any]:
    out: dict[str, Any] = {f.name: getattr(rake, f.name) for f in fields(rake)}
    out["caps"] = [list(cap) for cap in rake.caps]
    return out


_STAKES_KEYS: Final = frozenset(f.name for f in fields(Stakes))
_RAKE_KEYS: Final = frozenset(f.name for f in fields(RakeRule))
_TABLE_KEYS: Final = frozenset(("game", "variant", "stakes", *OPTIONS))


def config_from_dict(data: object) -> TableConfig:
    """The inverse of :func:`config_to_dict`: JSON data to a checked configuration.

    Anything malformed (an unknown key, a missing game or stakes, a float or a
    bool for an amount, a string for a list...) raises ConfigError, never another type.
    """
    table = json_object(data, "a table configuration", _TABLE_KEYS)
    for required in ("game", "stakes"):
        if required not in table:
            raise ConfigError(f"a table configuration needs {required!r}")
    variant = _variant_from_dict(table)
    stakes = dict(json_object(table["stakes"], "stakes", _STAKES_KEYS))
    for name in ("spread", "straddles"):
        if name in stakes:
            stakes[name] = json_array(stakes[name], name)
    options = {k: v for k, v in table.items() if k not in ("game", "variant", "stakes", "rake")}
    rake = _rake_from_dict(table.get("rake"))
    return TableConfig(variant, Stakes(**stakes), rake=rake, **options)


def _variant_from_dict(table: Mapping[str, Any]) -> Variant:
    """The game named by ``table["game"]``, or given whole under ``"variant"``.

    A game given whole is checked as any game is; a room that lets players open
    tables should accept only named games (refuse the ``"variant"`` key).
    """
    if "variant" not in table:
        return get_variant(table["game"])
    variant = variant_from_dict(table["variant"])
    if variant.name != table["game"]:
        raise ConfigError(
            f"the game is named {shown(table['game'])} but defined as {variant.name!r}"
        )
    return variant


def _rake_from_dict(data: object) -> RakeRule | None:
    if data is None:
        return None
    rake = dict(json_object(data, "rake", _RAKE_KEYS))
    for required in ("per", "unit", "caps"):
        if required not in rake:
            raise ConfigError(f"a rake rule needs {required!r}")
    rake["caps"] = tuple(
        json_array(cap, "a rake cap") for cap in json_array(rake["caps"], "rake caps")
    )
    return RakeRule(**rake)
