"""Rake as data (RULEBOOK §10.8): so much per so many chips of pot, capped by the
number of players dealt in, and only once the hand reached the rake street
("no flop, no drop").

:data:`SEED_003_SCHEDULE` is seed 003's schedule in cents; pick the rule for a
table with :func:`seed_003_rule`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from cardroom.games.betting import STRUCTURE_RULES
from cardroom.games.checks import choice, maybe_whole, shown, whole
from cardroom.games.errors import ConfigError
from cardroom.games.options import STRUCTURE_CHOICES


@dataclass(frozen=True, slots=True)
class RakeRule:
    """``per`` chips for every whole ``unit`` of pot; pots under ``small_pot_below``
    pay ``small_per`` for every whole ``small_unit`` instead. ``caps`` lists
    ``(most players dealt in, cap)`` in increasing order; more players than the
    last entry use the last cap.

    Checked when built (ConfigError): whole numbers, ``unit`` and ``small_unit``
    at least 1, never more than the whole pot (``per <= unit``), and at least one
    cap, with player counts increasing.
    """

    per: int
    unit: int
    caps: tuple[tuple[int, int], ...]
    small_pot_below: int = 0
    small_per: int = 0
    small_unit: int = 1

    def __post_init__(self) -> None:
        # A negative rate would create chips and a zero unit divide by zero inside a hand.
        unit = whole(self.unit, "the rake unit", low=1)
        whole(self.per, "the rake per unit", high=unit)
        small_unit = whole(self.small_unit, "the small-pot rake unit", low=1)
        whole(self.small_per, "the small-pot rake per unit", high=small_unit)
        whole(self.small_pot_below, "the small-pot limit")
        _check_caps(self.caps)

    def cap_for(self, players: int) -> int:
        """The most rake a hand with ``players`` dealt in can pay."""
        for most, cap in self.caps:
            if players <= most:
                return cap
        return self.caps[-1][1]  # caps are never empty (checked when built)

    def rake(self, pot: int, players: int) -> int:
        """The rake on a pot of ``pot`` chips with ``players`` dealt in."""
        if pot < self.small_pot_below:
            taken = pot // self.small_unit * self.small_per
        else:
            taken = pot // self.unit * self.per
        return min(taken, self.cap_for(players), pot)


@dataclass(frozen=True, slots=True)
class RakeTier:
    """One line of a schedule: the rule for ``structures`` up to a small bet ``max_small_bet``."""

    structures: frozenset[str]
    max_small_bet: int | None
    rule: RakeRule

    def __post_init__(self) -> None:
        if not isinstance(self.structures, frozenset) or not self.structures:
            raise ConfigError("a rake tier's structures must be a non-empty frozenset")
        for structure in self.structures:
            choice(structure, "a rake tier's structure", STRUCTURE_CHOICES)
        maybe_whole(self.max_small_bet, "a rake tier's largest small bet", low=1)
        if not isinstance(self.rule, RakeRule):
            raise ConfigError("a rake tier's rule must be a RakeRule")


def _check_caps(caps: object) -> None:
    """``caps``: a tuple of ``(most players, cap)`` pairs, players increasing."""
    if not isinstance(caps, tuple) or not caps:
        raise ConfigError(
            "rake caps must be a non-empty tuple of (most players, cap) pairs, e.g. ((10, 400),)"
        )
    previous = 0
    for pair in caps:
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise ConfigError(f"a rake cap is a (most players, cap) pair, not {shown(pair)}")
        players = whole(pair[0], "a rake cap's player count", low=1)
        whole(pair[1], "a rake cap")
        if players <= previous:
            raise ConfigError("rake caps must list player counts in increasing order")
        previous = players


def _rule(per: int, unit: int, caps: tuple[tuple[int, int], ...]) -> RakeRule:
    # Seed 003: pots under 2.00 pay 0.01 per 0.20 (RULEBOOK §10.8 states it for every line).
    return RakeRule(per, unit, caps, small_pot_below=200, small_per=1, small_unit=20)


_BIG_BET_GAMES = frozenset(name for name, s in STRUCTURE_RULES.items() if not s.limit)
_LIMIT_GAMES = frozenset(name for name, s in STRUCTURE_RULES.items() if s.limit)

SEED_003_SCHEDULE: Final = (
    RakeTier(_BIG_BET_GAMES, None, _rule(5, 100, ((2, 75), (4, 200), (10, 400)))),
    RakeTier(_LIMIT_GAMES, 50, _rule(5, 100, ((3, 75), (10, 100)))),
    RakeTier(_LIMIT_GAMES, 100, _rule(25, 500, ((3, 75), (10, 200)))),
    RakeTier(_LIMIT_GAMES, None, _rule(50, 1000, ((3, 75), (10, 200)))),
)
"""Seed 003's rake schedule in cents (RULEBOOK §10.8), first matching tier wins."""


def rule_for(schedule: tuple[RakeTier, ...], structure: str, small_bet: int) -> RakeRule | None:
    """The first tier of ``schedule`` matching the structure and the small bet (None: no rake)."""
    for tier in schedule:
        if structure in tier.structures and (
            tier.max_small_bet is None or small_bet <= tier.max_small_bet
        ):
            return tier.rule
    return None


def seed_003_rule(structure: str, small_bet: int) -> RakeRule | None:
    """Seed 003's rule for a ``structure`` table whose small bet (big blind) is ``small_bet``."""
    return rule_for(SEED_003_SCHEDULE, structure, small_bet)
