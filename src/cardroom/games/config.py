"""A table's configuration as data: game, betting structure, stakes, table options.

Every table option the rulebook names for these games is a field of
:class:`TableConfig` with the rulebook's default; the room shows them to players.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, Final

from cardroom.games.errors import ConfigError
from cardroom.games.rake import RakeRule
from cardroom.games.variants import (
    BLINDS,
    BRING_IN,
    BUTTON_BLIND,
    FIXED_LIMIT,
    SPREAD_LIMIT,
    STRUCTURES,
    Variant,
    get_variant,
)

TDA: Final = "tda"
HALF: Final = "half"

# Extra posts a room asks of a seat (RULEBOOK §10.3, §10.4).
POST_BIG_BLIND: Final = "big_blind"
"""A new or returning player posts one big blind, live, to be dealt in now."""
POST_BOTH_BLINDS: Final = "big_and_dead_small"
"""A player who missed both blinds posts the big blind live and the small blind dead."""
POSTS: Final = (POST_BIG_BLIND, POST_BOTH_BLINDS)


@dataclass(frozen=True, slots=True)
class Stakes:
    """Blinds, antes and bet sizes in integer chips.

    Unset sizes follow RULEBOOK §4–§5: ``small_bet`` defaults to the big blind,
    ``big_bet`` to twice the small bet, ``button_blind`` to twice the ante,
    ``bring_in`` to half the small bet, ``min_bet`` to the big blind (the button
    blind in Short Deck). ``spread`` holds the spread-limit maxima by tier
    ("1-2-3" is ``(1, 2, 3)``).
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


@dataclass(frozen=True, slots=True)
class Seat:
    """A player dealt into the hand: chips on the table and per-player settings.

    ``post`` asks for an extra forced bet (:data:`POST_BIG_BLIND`,
    :data:`POST_BOTH_BLINDS`); ``auto_muck`` mucks losing hands at showdown.
    """

    stack: int
    auto_muck: bool = True
    post: str | None = None


STRADDLE_RAISES: Final = ("straddle", "big_blind")
"""Values of ``TableConfig.straddle_raise``."""


@dataclass(frozen=True, slots=True)
class TableConfig:
    """A table's game, structure, stakes, options and rake rule.

    ``structure`` None means the game's usual one; ``max_raises`` None means the
    game's default cap (3: one bet and three raises; stud tables 4).
    """

    variant: Variant
    stakes: Stakes
    structure: str | None = None
    max_seats: int | None = None
    burn_cards: bool = True
    max_raises: int | None = None
    heads_up_uncapped: bool = False
    incomplete_raise_rule: str = TDA
    short_deck_trips_beat_straight: bool = False
    hi_lo: bool | None = None
    straddle_raise: str = "straddle"
    """How much a raise over a straddle must add: ``"straddle"`` (at least the straddle,
    the straddle being the last full bet: to 8 over a 4 straddle at 1/2, as card rooms
    play) or ``"big_blind"`` (at least the big blind: to 6; PokerKit's sizing, so PHH's)."""
    # Stud-family options (RULEBOOK §4–§6); read by the stud rules.
    fourth_street_pair: str = "big"
    bring_in_by_position: bool = False
    stud_order_ties: str = "position"
    community_card_betting: bool = True
    rake: RakeRule | None = None

    def __post_init__(self) -> None:
        _check(self)

    @staticmethod
    def of(game: str, stakes: Stakes, **options: object) -> TableConfig:
        """A configuration for the game called ``game`` with ``options`` as fields."""
        return TableConfig(get_variant(game), stakes, **options)  # type: ignore[arg-type]

    @property
    def betting(self) -> str:
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
        return self.betting in (FIXED_LIMIT, SPREAD_LIMIT) or self.incomplete_raise_rule == HALF

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


_BOOL_OPTIONS = (
    "burn_cards",
    "heads_up_uncapped",
    "short_deck_trips_beat_straight",
    "bring_in_by_position",
    "community_card_betting",
)


def _check(config: TableConfig) -> None:
    s = config.stakes
    for name in _BOOL_OPTIONS:
        if not isinstance(getattr(config, name), bool):
            raise ConfigError(f"{name} must be true or false")
    if config.hi_lo is not None and not isinstance(config.hi_lo, bool):
        raise ConfigError("hi_lo must be true, false or unset")
    if config.fourth_street_pair not in ("big", "option", "small"):
        raise ConfigError("fourth_street_pair must be 'big', 'option' or 'small'")
    if config.straddle_raise not in STRADDLE_RAISES:
        raise ConfigError(f"straddle_raise must be one of {STRADDLE_RAISES}")
    if config.stud_order_ties not in ("position", "suit"):
        raise ConfigError("stud_order_ties must be 'position' or 'suit'")
    for name in ("max_seats", "max_raises"):
        value = getattr(config, name)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise ConfigError(f"{name} must be a whole number")
    if config.betting not in STRUCTURES:
        raise ConfigError(f"unknown betting structure {config.betting!r}")
    if config.incomplete_raise_rule not in (TDA, HALF):
        raise ConfigError("incomplete_raise_rule must be 'tda' or 'half'")
    amounts = (s.small_blind, s.big_blind, s.ante, s.button_blind, s.small_bet, s.big_bet)
    if not isinstance(s.straddles, tuple):
        raise ConfigError("straddles must be a tuple of amounts, e.g. (4,) or (4, 8)")
    for amount in (*amounts, s.bring_in, s.min_bet, *s.spread, s.big_blind_ante, *s.straddles):
        if amount is not None and (
            isinstance(amount, bool) or not isinstance(amount, int) or amount < 0
        ):
            raise ConfigError(f"stakes must be non-negative integers, got {amount!r}")
    v = config.variant
    if v.forced_bets == BUTTON_BLIND:
        if s.effective_button_blind <= 0:
            raise ConfigError(f"{v.title} needs an ante or a button blind")
    elif v.forced_bets == BRING_IN:
        if s.effective_small_bet <= 0:
            raise ConfigError(f"{v.title} needs a small bet")
    elif s.big_blind <= 0:
        raise ConfigError(f"{v.title} needs a big blind")
    if s.small_blind > s.big_blind:
        raise ConfigError("the small blind may not exceed the big blind")
    if config.betting == SPREAD_LIMIT and len(s.spread) < 1 + max(
        st.spread_tier for st in v.streets
    ):
        raise ConfigError("spread limit needs a maximum for every tier, e.g. (1, 2, 3)")
    if not 2 <= config.seat_limit <= v.max_seats:
        raise ConfigError(f"{v.title} seats 2 to {v.max_seats} players")
    if config.raise_cap < 0:
        raise ConfigError("max_raises may not be negative")
    if config.hi_lo and not (v.low or v.high == "omaha_high"):
        raise ConfigError(f"{v.title} has no hi-lo version")
    _check_blind_options(config)


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
    if config.betting in (FIXED_LIMIT, SPREAD_LIMIT):
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
    if not 2 <= len(seats) <= config.seat_limit:
        raise ConfigError(f"this table has 2 to {config.seat_limit} seats, not {len(seats)}")
    out: list[Seat | None] = []
    for i, seat in enumerate(seats):
        if type(seat) is int and seat > 0:  # the usual case: a plain stack
            out.append(Seat(seat))
            continue
        if seat is not None and not isinstance(seat, Seat):
            if isinstance(seat, bool) or not isinstance(seat, int):
                raise ConfigError(f"seat {i}: a stack must be an int, not {seat!r}")
            seat = Seat(seat)
        if seat is not None:
            if isinstance(seat.stack, bool) or not isinstance(seat.stack, int) or seat.stack <= 0:
                raise ConfigError(f"seat {i}: a player dealt in needs chips, not {seat.stack!r}")
            if seat.post not in (None, POST_BIG_BLIND, POST_BOTH_BLINDS):
                raise ConfigError(f"seat {i}: unknown post {seat.post!r}")
            if not isinstance(seat.auto_muck, bool):
                raise ConfigError(f"seat {i}: auto_muck must be true or false")
        out.append(seat)
    return tuple(out)


def config_to_dict(config: TableConfig) -> dict[str, Any]:
    """The configuration as JSON-able data (the game by name), for records and the lobby."""
    out: dict[str, Any] = {"game": config.variant.name}
    for f in fields(config):
        if f.name in ("variant", "stakes", "rake"):
            continue
        out[f.name] = getattr(config, f.name)
    out["stakes"] = {
        f.name: list(v) if isinstance(v := getattr(config.stakes, f.name), tuple) else v
        for f in fields(config.stakes)
    }
    rake = config.rake
    out["rake"] = (
        None
        if rake is None
        else {
            "per": rake.per,
            "unit": rake.unit,
            "caps": [list(c) for c in rake.caps],
            "small_pot_below": rake.small_pot_below,
            "small_per": rake.small_per,
            "small_unit": rake.small_unit,
        }
    )
    return out


def config_from_dict(data: Mapping[str, Any]) -> TableConfig:
    """The inverse of :func:`config_to_dict`; ConfigError for anything malformed."""
    try:
        options = {k: v for k, v in data.items() if k not in ("game", "stakes", "rake")}
        stakes_data = dict(data["stakes"])
        stakes_data["spread"] = tuple(stakes_data.get("spread", ()))
        stakes_data["straddles"] = tuple(stakes_data.get("straddles", ()))
        stakes = Stakes(**stakes_data)
        rake_data = data.get("rake")
        rake = None
        if rake_data is not None:
            rake = RakeRule(**{**rake_data, "caps": tuple(tuple(c) for c in rake_data["caps"])})
        return TableConfig(get_variant(data["game"]), stakes, rake=rake, **options)
    except ConfigError:
        raise
    except (KeyError, TypeError, ValueError) as exc:
        raise ConfigError(f"not a table configuration: {exc}") from exc
