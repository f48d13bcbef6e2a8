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

from dataclasses import dataclass
from typing import Final

# Forced-bet schemes.
BLINDS: Final = "blinds"
BUTTON_BLIND: Final = "button_blind"
BRING_IN: Final = "bring_in"

# Who opens a betting round (first round, later rounds).
LEFT_OF_BIG_BLIND: Final = "left_of_big_blind"
LEFT_OF_BUTTON: Final = "left_of_button"
BRING_IN_PLAYER: Final = "bring_in"
BEST_SHOWING: Final = "best_showing"
LOWEST_SHOWING: Final = "lowest_showing"

NO_LIMIT: Final = "no_limit"
POT_LIMIT: Final = "pot_limit"
HALF_POT_LIMIT: Final = "half_pot_limit"
FIXED_LIMIT: Final = "fixed_limit"
SPREAD_LIMIT: Final = "spread_limit"
STRUCTURES: Final = (NO_LIMIT, POT_LIMIT, HALF_POT_LIMIT, FIXED_LIMIT, SPREAD_LIMIT)
"""Betting structures (RULEBOOK §5)."""


@dataclass(frozen=True, slots=True)
class Street:
    """One street: what is dealt, then a betting round (``betting``).

    ``big_bet`` picks the fixed-limit size (small bet otherwise); ``spread_tier``
    picks the spread-limit maximum (0, 1 or 2 for a "1-2-3" game).
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
    structure: str
    high: str
    low: str | None
    max_seats: int
    first_to_act: tuple[str, str]
    rake_street: int
    max_raises: int = 3
    phh_code: str | None = None

    @property
    def hole_cards(self) -> int:
        """Cards each player holds when all are dealt (before any draw)."""
        return sum(s.hole_down + s.hole_up for s in self.streets)

    @property
    def board_cards(self) -> int:
        """Community cards dealt over the whole hand."""
        return sum(s.board for s in self.streets)


def _flop_streets(hole: int, exposed: int = 0) -> tuple[Street, ...]:
    return (
        Street("pre-flop", hole_down=hole, board=exposed, burn=exposed > 0),
        Street("flop", board=3 - exposed, burn=True),
        Street("turn", board=1, burn=True, big_bet=True, spread_tier=1),
        Street("river", board=1, burn=True, big_bet=True, spread_tier=2),
    )


def _flop_game(
    name: str,
    title: str,
    hole: int,
    structure: str,
    high: str,
    *,
    low: str | None = None,
    max_seats: int = 10,
    exposed: int = 0,
    deck: str = "standard",
    forced: str = BLINDS,
    phh: str | None = None,
) -> Variant:
    first = LEFT_OF_BIG_BLIND if forced == BLINDS else LEFT_OF_BUTTON
    return Variant(
        name=name,
        title=title,
        deck=deck,
        streets=_flop_streets(hole, exposed),
        forced_bets=forced,
        structure=structure,
        high=high,
        low=low,
        max_seats=max_seats,
        first_to_act=(first, LEFT_OF_BUTTON),
        rake_street=1,
        phh_code=phh,
    )


HOLDEM: Final = _flop_game("holdem", "Texas Hold'em", 2, NO_LIMIT, "high", phh="NT")
SHORT_DECK: Final = _flop_game(
    "short_deck",
    "Short Deck Hold'em",
    2,
    NO_LIMIT,
    "short_deck",
    deck="short",
    forced=BUTTON_BLIND,
    phh="NS",
)
OMAHA: Final = _flop_game("omaha", "Omaha", 4, POT_LIMIT, "omaha_high", phh="PO")
PLO5: Final = _flop_game("plo5", "Omaha 5-Card", 5, POT_LIMIT, "omaha_high", max_seats=8)
OMAHA_HI_LO: Final = _flop_game(
    "omaha_hi_lo", "Omaha Hi-Lo", 4, POT_LIMIT, "omaha_high", low="omaha_low8", phh="FO/8"
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

VARIANTS: dict[str, Variant] = {
    v.name: v for v in (HOLDEM, SHORT_DECK, OMAHA, PLO5, OMAHA_HI_LO, COURCHEVEL, COURCHEVEL_HI_LO)
}
"""Every game by name; other modules (stud, draw) register theirs with :func:`register`."""


def register(variant: Variant) -> Variant:
    """Add ``variant`` to :data:`VARIANTS` (refusing a second game of the same name)."""
    if variant.name in VARIANTS and VARIANTS[variant.name] != variant:
        raise ValueError(f"a different variant called {variant.name!r} is already registered")
    VARIANTS[variant.name] = variant
    return variant


def get_variant(name: str) -> Variant:
    """The variant called ``name``; ValueError lists the known names otherwise."""
    try:
        return VARIANTS[name]
    except KeyError:
        raise ValueError(f"no game called {name!r}; known: {', '.join(sorted(VARIANTS))}") from None
