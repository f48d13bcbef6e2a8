"""The choices of the table options, as ``Literal`` types, in one place.

Each option's values are written once, as a ``Literal`` type; the tuple of
choices beside it is read from that type, so the type checker (``TableConfig``'s
fields, the stud rules' parameters) and the configuration checks (what a JSON
configuration may hold) can never disagree. RULEBOOK §4–§6 and §10.3–§10.4 say
what each choice means.
"""

from __future__ import annotations

from typing import Final, Literal, get_args

Structure = Literal["no_limit", "pot_limit", "half_pot_limit", "fixed_limit", "spread_limit"]
"""A betting structure (RULEBOOK §5): ``TableConfig.structure`` and ``Variant.structure``."""
STRUCTURE_CHOICES: Final[tuple[Structure, ...]] = get_args(Structure)

IncompleteRaiseRule = Literal["tda", "half"]
"""Table option ``incomplete_raise_rule`` (RULEBOOK §5): in NL/PL an all-in short of a full
raise never reopens the betting (``"tda"``), or reopens it from half a raise (``"half"``)."""
INCOMPLETE_RAISE_RULE_CHOICES: Final[tuple[IncompleteRaiseRule, ...]] = get_args(
    IncompleteRaiseRule
)

StraddleRaise = Literal["straddle", "big_blind"]
"""Table option ``straddle_raise``: a raise over a straddle adds at least the straddle
(``"straddle"``, as card rooms play) or at least the big blind (``"big_blind"``, PokerKit)."""
STRADDLE_RAISE_CHOICES: Final[tuple[StraddleRaise, ...]] = get_args(StraddleRaise)

FourthStreetPair = Literal["big", "option", "small"]
"""Table option ``fourth_street_pair``: an open pair on 4th street makes the round's bet
the big bet (``"big"``, seed 004 default), lets the bettor choose (``"option"``, seeds 001
and 003), or changes nothing (``"small"``: Razz, and PHH/PokerKit hands)."""
FOURTH_STREET_PAIR_CHOICES: Final[tuple[FourthStreetPair, ...]] = get_args(FourthStreetPair)

StudOrderTies = Literal["position", "suit"]
"""Table option ``stud_order_ties``: equal showing hands are ordered by position
(closest clockwise from the button, seed 004) or by the suit of the highest card (seed 000)."""
STUD_ORDER_TIES_CHOICES: Final[tuple[StudOrderTies, ...]] = get_args(StudOrderTies)

SeatPost = Literal["big_blind", "big_and_dead_small"]
"""``Seat.post``, the extra post a room asks of a seat (RULEBOOK §10.3, §10.4):
``"big_blind"``, one big blind, live, to be dealt in now; ``"big_and_dead_small"``, for a
player who missed both blinds, the big blind live and the small blind dead."""
SEAT_POST_CHOICES: Final[tuple[SeatPost, ...]] = get_args(SeatPost)
