"""Games as data (RULEBOOK §3, §4, §6): a :class:`Variant` lists the deck, the
streets in order, the forced bets, the default betting structure, the
evaluators by name and the seat limit. Adding a game means adding a definition
here; the state machine in :mod:`cardroom.games.hand` reads nothing else.

A street is one step of the deal followed (normally) by a betting round: cards
to each player (down and/or up), community cards, or a draw. On every street
the cards go out one at a time clockwise starting left of the button: first
all ``hole_down`` cards round by round, then all ``hole_up`` cards, then
(after a burn when ``burn`` is set and the table burns cards) the board cards.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, fields
from typing import Any, Final

from cardroom.cards import CARDS, SHORT_DECK_CARDS, Card
from cardroom.evaluation.hand_value import EvaluationError
from cardroom.evaluation.registry import EVALUATORS
from cardroom.games.checks import (
    choice,
    flag,
    json_array,
    json_object,
    text,
    unknown_name,
    whole,
)
from cardroom.games.errors import ConfigError
from cardroom.games.options import STRUCTURE_CHOICES, Structure
from cardroom.games.stud import (
    RAZZ_RULES,
    SEVEN_STUD_RULES,
    SOKO_RULES,
    BringInRule,
    StudRules,
)

# Forced-bet schemes.
BLINDS: Final = "blinds"
BUTTON_BLIND: Final = "button_blind"
BRING_IN: Final = "bring_in"
FORCED_BETS: Final = (BLINDS, BUTTON_BLIND, BRING_IN)

# Who opens a betting round (first round, later rounds): the data the hand decides by.
LEFT_OF_BIG_BLIND: Final = "left_of_big_blind"
"""The first seat left of the big blind (or of the last straddle); left of the button
when the hand has no big blind."""
LEFT_OF_BUTTON: Final = "left_of_button"
"""The first seat still in left of the button."""
BRING_IN_PLAYER: Final = "bring_in"
"""Stud's first round: the seat the door cards name to bring in."""
BEST_SHOWING: Final = "best_showing"
"""Stud's later rounds: the best hand showing (ties: ``stud_order_ties``)."""
LOWEST_SHOWING: Final = "lowest_showing"
"""Razz's later rounds: the lowest hand showing, aces low."""
FIRST_TO_ACT: Final = (
    LEFT_OF_BIG_BLIND,
    LEFT_OF_BUTTON,
    BRING_IN_PLAYER,
    BEST_SHOWING,
    LOWEST_SHOWING,
)
STUD_FIRST_TO_ACT: Final = (BRING_IN_PLAYER, BEST_SHOWING, LOWEST_SHOWING)
"""The rules that read the up cards: exactly the stud games use them."""

DECK_CARDS: Final[dict[str, tuple[Card, ...]]] = {"standard": CARDS, "short": SHORT_DECK_CARDS}
"""The decks a game may deal from, by name: every card, or Short Deck's (no 2 to 5).
The one place that says which cards a deck holds (:attr:`Variant.cards` reads it)."""
DECKS: Final = tuple(DECK_CARDS)
MOST_SEATS: Final = 10
"""The most seats any table has (RULEBOOK §3)."""
MOST_TIERS: Final = 10
"""The most spread-limit tiers a game may have (one a street at most; "1-2-3" has three)."""
MOST_RAISES: Final = 1000
"""The largest fixed-limit raise cap a game or table may set (the usual one is 3 or 4)."""

NO_LIMIT: Final = "no_limit"
POT_LIMIT: Final = "pot_limit"
HALF_POT_LIMIT: Final = "half_pot_limit"
FIXED_LIMIT: Final = "fixed_limit"
SPREAD_LIMIT: Final = "spread_limit"
STRUCTURES: Final = STRUCTURE_CHOICES
"""Betting structures (RULEBOOK §5), in this order: no, pot, half-pot, fixed, spread limit."""


@dataclass(frozen=True, slots=True)
class Street:
    """One street: what is dealt, then a betting round (``betting``).

    ``big_bet`` picks the fixed-limit size (small bet otherwise); ``spread_tier``
    picks the spread-limit maximum (0, 1 or 2 for a "1-2-3" game).

    Two street kinds let the players change their cards after the deal, in turn
    clockwise from the first player still in left of the button (all-in players
    too), before the street's betting round: ``draw`` (each discards none to all
    and is dealt as many) and ``discard`` (each discards exactly that many and is
    dealt nothing in their place, as in Irish).
    """

    name: str
    hole_down: int = 0
    hole_up: int = 0
    board: int = 0
    burn: bool = False
    draw: bool = False
    betting: bool = True
    big_bet: bool = False
    spread_tier: int = 0
    discard: int = 0

    def __post_init__(self) -> None:
        text(self.name, "a street's name")
        whole(self.hole_down, "a street's hole_down cards", high=52)
        whole(self.hole_up, "a street's hole_up cards", high=52)
        whole(self.board, "a street's board cards", high=52)
        for name, value in (
            ("burn", self.burn),
            ("draw", self.draw),
            ("betting", self.betting),
            ("big_bet", self.big_bet),
        ):
            flag(value, f"a street's {name}")
        whole(self.spread_tier, "a street's spread tier", high=MOST_TIERS - 1)
        whole(self.discard, "a street's discards", high=52)
        if self.draw and self.discard:
            raise ConfigError("a street draws or discards, not both")


@dataclass(frozen=True, slots=True)
class Variant:
    """A game as data. ``high``/``low`` are evaluator names of
    :func:`cardroom.evaluation.get_evaluator`: ``high`` is the main ranking
    (a low-only game such as Razz names its low evaluator there), ``low`` the
    second half of a split-pot game (None: no split);
    ``rake_street`` is the index of the street that must be reached before rake
    may be taken (no flop, no drop)."""

    name: str
    title: str
    deck: str
    streets: tuple[Street, ...]
    forced_bets: str
    structure: Structure
    high: str
    low: str | None
    max_seats: int
    first_to_act: tuple[str, str]
    rake_street: int
    max_raises: int = 3
    stud: StudRules | None = None
    """Stud family only: bring-in, showing order and open-pair rules (see stud.py)."""

    def __post_init__(self) -> None:
        # A game built outside this module is checked as the table options are.
        text(self.name, "a game's name")
        text(self.title, "a game's title")
        choice(self.deck, "a game's deck", DECKS)
        if not isinstance(self.streets, tuple) or not self.streets:
            raise ConfigError("a game's streets must be a non-empty tuple of Street")
        if not all(isinstance(street, Street) for street in self.streets):
            raise ConfigError("a game's streets must be a non-empty tuple of Street")
        choice(self.forced_bets, "a game's forced bets", FORCED_BETS)
        choice(self.structure, "a game's betting structure", STRUCTURE_CHOICES)
        for evaluator in (self.high,) if self.low is None else (self.high, self.low):
            if not isinstance(evaluator, str) or evaluator not in EVALUATORS:
                raise unknown_name("evaluator", evaluator, EVALUATORS)
        whole(self.max_seats, "a game's seat limit", low=2, high=MOST_SEATS)
        if not isinstance(self.first_to_act, tuple) or len(self.first_to_act) != 2:
            raise ConfigError("a game's first_to_act is a pair: (first round, later rounds)")
        for rule in self.first_to_act:
            choice(rule, "a game's first to act", FIRST_TO_ACT)
        _check_stud_order(self)
        whole(self.rake_street, "a game's rake street", high=len(self.streets) - 1)
        whole(self.max_raises, "a game's raise cap", high=MOST_RAISES)
        if (self.stud is not None) != (self.forced_bets == BRING_IN):
            raise ConfigError("a game has stud rules exactly when its forced bet is a bring-in")
        if self.stud is not None and not isinstance(self.stud, StudRules):
            raise ConfigError("a game's stud rules must be a StudRules")
        _check_discards(self.streets)
        if _BUILT_IN_READY:  # the games defined below are checked by the tests instead
            check_rankable(self)

    @property
    def cards(self) -> tuple[Card, ...]:
        """Every card of the game's deck, in deck order."""
        return DECK_CARDS[self.deck]

    @property
    def hole_cards(self) -> int:
        """Cards each player holds at the showdown: every card dealt to the player, less
        those thrown on discard streets (a draw replaces every card it takes)."""
        return sum(s.hole_down + s.hole_up - s.discard for s in self.streets)

    @property
    def board_cards(self) -> int:
        """Community cards dealt over the whole hand."""
        return sum(s.board for s in self.streets)


_BUILT_IN_READY = False
"""False while this module defines its own games: ranking a sample hand loads the
evaluators' tables, which ``import cardroom.games`` must not (a command's start-up)."""


def check_rankable(variant: Variant) -> None:
    """The cards a player has at the showdown (hole and board) are a hand the game's
    evaluators can rank: a game that deals too few or too many is refused when built
    (every game built after this module's own, which ``tests/games`` checks)."""
    cards = variant.cards
    hole, board = variant.hole_cards, variant.board_cards
    if hole < 1 or hole + board > len(cards):
        raise ConfigError(f"a game must deal each player at least one card, not {hole}")
    sample_hole, sample_board = cards[:hole], cards[hole : hole + board]
    for name in (variant.high,) if variant.low is None else (variant.high, variant.low):
        try:
            EVALUATORS[name](sample_hole, sample_board)
        except EvaluationError as exc:
            raise ConfigError(
                f"{variant.name}: {hole} hole and {board} board cards cannot be ranked by "
                f"{name} ({exc})"
            ) from None


def _check_stud_order(variant: Variant) -> None:
    """A stud game opens with the bring-in, then the best or lowest showing hand; only a
    stud game reads up cards to decide who acts first."""
    first, later = variant.first_to_act
    if variant.forced_bets == BRING_IN:
        if first != BRING_IN_PLAYER or later not in (BEST_SHOWING, LOWEST_SHOWING):
            raise ConfigError(
                "a stud game's first_to_act is (bring_in, best_showing or lowest_showing)"
            )
    elif first in STUD_FIRST_TO_ACT or later in STUD_FIRST_TO_ACT:
        raise ConfigError(f"only a stud game's first to act may be one of {STUD_FIRST_TO_ACT}")


def _check_discards(streets: tuple[Street, ...]) -> None:
    """A discard street leaves every player at least one card."""
    held = 0
    for street in streets:
        held += street.hole_down + street.hole_up
        if street.discard and street.discard >= held:
            raise ConfigError(
                f"the {street.name} street discards {street.discard} of {held} cards: "
                "a player must keep at least one"
            )
        held -= street.discard


def _flop_streets(hole: int, exposed: int = 0, discard: int = 0) -> tuple[Street, ...]:
    # Irish: after the flop's betting each player still in throws ``discard`` cards,
    # before the turn is dealt (a street of its own, with no betting round).
    after_flop = (Street("discard", discard=discard, betting=False),) if discard else ()
    return (
        Street("pre-flop", hole_down=hole, board=exposed, burn=exposed > 0),
        Street("flop", board=3 - exposed, burn=True),
        *after_flop,
        Street("turn", board=1, burn=True, big_bet=True, spread_tier=1),
        Street("river", board=1, burn=True, big_bet=True, spread_tier=2),
    )


def _flop_game(
    name: str,
    title: str,
    hole: int,
    structure: Structure,
    high: str,
    *,
    low: str | None = None,
    max_seats: int = 10,
    exposed: int = 0,
    deck: str = "standard",
    forced: str = BLINDS,
    discard: int = 0,
) -> Variant:
    first = LEFT_OF_BIG_BLIND if forced == BLINDS else LEFT_OF_BUTTON
    return Variant(
        name=name,
        title=title,
        deck=deck,
        streets=_flop_streets(hole, exposed, discard),
        forced_bets=forced,
        structure=structure,
        high=high,
        low=low,
        max_seats=max_seats,
        first_to_act=(first, LEFT_OF_BUTTON),
        rake_street=1,
    )


HOLDEM: Final = _flop_game("holdem", "Texas Hold'em", 2, NO_LIMIT, "high")
SHORT_DECK: Final = _flop_game(
    "short_deck",
    "Short Deck Hold'em",
    2,
    NO_LIMIT,
    "short_deck",
    deck="short",
    forced=BUTTON_BLIND,
)
OMAHA: Final = _flop_game("omaha", "Omaha", 4, POT_LIMIT, "omaha_high")
PLO5: Final = _flop_game("plo5", "Omaha 5-Card", 5, POT_LIMIT, "omaha_high", max_seats=8)
OMAHA_HI_LO: Final = _flop_game(
    "omaha_hi_lo", "Omaha Hi-Lo", 4, POT_LIMIT, "omaha_high", low="omaha_low8"
)
COURCHEVEL: Final = _flop_game(
    "courchevel", "Courchevel", 5, POT_LIMIT, "omaha_high", max_seats=8, exposed=1
)
COURCHEVEL_HI_LO: Final = _flop_game(
    "courchevel_hi_lo",
    "Courchevel Hi-Lo",
    5,
    POT_LIMIT,
    "omaha_high",
    low="omaha_low8",
    max_seats=8,
    exposed=1,
)
# Three games beyond the seeds (issue 12 §5; rules in docs/games.md). Seat limits: the
# deck must hold every hole card, the five board cards and three burns (RULEBOOK §3).
BIG_O: Final = _flop_game(  # 8 x 5 + 5 + 3 = 48 cards; a ninth player would need 53
    "big_o", "Big O", 5, POT_LIMIT, "omaha_high", low="omaha_low8", max_seats=8
)
PLO6: Final = _flop_game(  # 7 x 6 + 5 + 3 = 50 cards; an eighth player would need 56
    "plo6", "Omaha 6-Card", 6, POT_LIMIT, "omaha_high", max_seats=7
)
IRISH: Final = _flop_game(  # 10 x 4 + 5 + 3 = 48 cards
    "irish", "Irish", 4, NO_LIMIT, "high", discard=2
)

# ------------------------------------------------------------ stud family (RULEBOOK §6.4–§6.5)


def _stud_streets() -> tuple[Street, ...]:
    return (
        Street("third street", hole_down=2, hole_up=1),
        Street("fourth street", hole_up=1, burn=True),
        Street("fifth street", hole_up=1, burn=True, big_bet=True),
        Street("sixth street", hole_up=1, burn=True, big_bet=True),
        Street("seventh street", hole_down=1, burn=True, big_bet=True),
    )


def _stud_game(
    name: str,
    title: str,
    high: str,
    rules: StudRules,
    *,
    lowest_first: bool = False,
    low: str | None = None,
    streets: tuple[Street, ...] | None = None,
) -> Variant:
    return Variant(
        name=name,
        title=title,
        deck="standard",
        streets=_stud_streets() if streets is None else streets,
        forced_bets=BRING_IN,
        structure=FIXED_LIMIT,
        high=high,
        low=low,
        max_seats=8,
        first_to_act=(BRING_IN_PLAYER, LOWEST_SHOWING if lowest_first else BEST_SHOWING),
        rake_street=1,  # no drop unless 4th street (Soko: the 3rd card) is dealt
        max_raises=4,  # seed 004: stud tables allow 4 raises
        stud=rules,
    )


STUD: Final = _stud_game("stud", "Seven-Card Stud", "high", SEVEN_STUD_RULES)
STUD_HI_LO: Final = _stud_game("stud_hi_lo", "Stud Hi-Lo", "high", SEVEN_STUD_RULES, low="a5_low8")
RAZZ: Final = _stud_game("razz", "Razz", "a5_low", RAZZ_RULES, lowest_first=True)
SOKO: Final = _stud_game(
    "soko",
    "Soko",
    "soko",
    SOKO_RULES,
    streets=(
        Street("second street", hole_down=1, hole_up=1),
        Street("third street", hole_up=1, burn=True),
        Street("fourth street", hole_up=1, burn=True, big_bet=True),
        Street("fifth street", hole_up=1, burn=True, big_bet=True),
    ),
)

# ------------------------------------------------------------ draw games (RULEBOOK §6.6–§6.7)


def _draw_game(
    name: str,
    title: str,
    hole: int,
    draws: int,
    high: str,
    structure: Structure,
    max_seats: int,
) -> Variant:
    # Fixed limit: five-card draw bets big after its draw; triple draws after the second.
    big_from = 1 if draws == 1 else 2
    names = ("draw",) if draws == 1 else ("first draw", "second draw", "third draw")
    draw_streets = tuple(
        Street(names[i], draw=True, burn=True, big_bet=i + 1 >= big_from) for i in range(draws)
    )
    return Variant(
        name=name,
        title=title,
        deck="standard",
        streets=(Street("pre-draw", hole_down=hole), *draw_streets),
        forced_bets=BLINDS,
        structure=structure,
        high=high,
        low=None,
        max_seats=max_seats,
        first_to_act=(LEFT_OF_BIG_BLIND, LEFT_OF_BUTTON),
        rake_street=1,  # no drop unless a draw took place
    )


FIVE_CARD_DRAW: Final = _draw_game("five_card_draw", "Five-card Draw", 5, 1, "high", FIXED_LIMIT, 6)
TRIPLE_DRAW_27: Final = _draw_game(
    "triple_draw_27", "2-7 Triple Draw", 5, 3, "27_low", FIXED_LIMIT, 6
)
TRIPLE_DRAW_A5: Final = _draw_game(
    "triple_draw_a5", "A-5 Triple Draw", 5, 3, "a5_low", FIXED_LIMIT, 6
)
SINGLE_DRAW_27: Final = _draw_game("single_draw_27", "2-7 Single Draw", 5, 1, "27_low", NO_LIMIT, 6)
BADUGI: Final = _draw_game("badugi", "Badugi", 4, 3, "badugi", FIXED_LIMIT, 8)

VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        HOLDEM,
        SHORT_DECK,
        OMAHA,
        PLO5,
        OMAHA_HI_LO,
        COURCHEVEL,
        COURCHEVEL_HI_LO,
        BIG_O,
        PLO6,
        IRISH,
        STUD,
        STUD_HI_LO,
        RAZZ,
        SOKO,
        FIVE_CARD_DRAW,
        TRIPLE_DRAW_27,
        TRIPLE_DRAW_A5,
        SINGLE_DRAW_27,
        BADUGI,
    )
}
"""Every game by name: the seeds and the games built from the same parts."""

_BUILT_IN_READY = True


def get_variant(name: str) -> Variant:
    """The variant called ``name``; ConfigError names the nearest and all known games else."""
    variant = VARIANTS.get(name) if isinstance(name, str) else None
    if variant is None:
        raise unknown_name("game", name, VARIANTS)
    return variant


# ------------------------------------------------------------ a game as JSON data


def variant_to_dict(variant: Variant) -> dict[str, Any]:
    """Every field of ``variant`` as JSON-able data: how a record keeps a game that is not
    one of :data:`VARIANTS` (e.g. Short Deck with blinds, built by the PHH importer)."""
    out: dict[str, Any] = {f.name: getattr(variant, f.name) for f in fields(variant)}
    out["streets"] = [{f.name: getattr(st, f.name) for f in fields(st)} for st in variant.streets]
    out["first_to_act"] = list(variant.first_to_act)
    stud = variant.stud
    out["stud"] = None
    if stud is not None:
        bring_in = {"highest": stud.bring_in.highest, "aces_low": stud.bring_in.aces_low}
        out["stud"] = {"bring_in": bring_in, "open_pair": stud.open_pair}
    return out


def variant_from_dict(data: object) -> Variant:
    """The inverse of :func:`variant_to_dict`, checked as any game is (ConfigError)."""
    game = dict(json_object(data, "a game", _VARIANT_FIELDS))
    _require(game, _VARIANT_FIELDS, "a game")
    game["streets"] = tuple(_street_from_dict(st) for st in json_array(game["streets"], "streets"))
    game["first_to_act"] = json_array(game["first_to_act"], "first_to_act")
    if game.get("stud") is not None:
        stud = json_object(game["stud"], "stud rules", ("bring_in", "open_pair"))
        _require(stud, {"bring_in": True, "open_pair": True}, "stud rules")
        rule = json_object(stud["bring_in"], "a bring-in rule", ("highest", "aces_low"))
        _require(rule, {"highest": True, "aces_low": True}, "a bring-in rule")
        game["stud"] = StudRules(
            BringInRule(flag(rule["highest"], "highest"), flag(rule["aces_low"], "aces_low")),
            open_pair=flag(stud["open_pair"], "open_pair"),
        )
    return Variant(**game)


def _street_from_dict(data: object) -> Street:
    street = json_object(data, "a street", _STREET_FIELDS)
    _require(street, _STREET_FIELDS, "a street")
    return Street(**street)


def _required(cls: type) -> dict[str, bool]:
    """The field names of dataclass ``cls``, each True when it has no default."""
    return {f.name: f.default is MISSING for f in fields(cls)}


_VARIANT_FIELDS: Final = _required(Variant)
_STREET_FIELDS: Final = _required(Street)


def _require(data: Any, names: dict[str, bool], what: str) -> None:
    for name, required in names.items():
        if required and name not in data:
            raise ConfigError(f"{what} needs {name!r}")
