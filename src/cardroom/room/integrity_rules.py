"""The integrity rules as data (RULEBOOK §10.9): ``integrity_rules.ini`` (beside this
module) holds each rule's name, kind and thresholds, read once when the room starts
(:func:`default_rules`; :func:`load_rules` reads another file of that form). Each
becomes a frozen dataclass, checked when made (a rule that could never flag, or would
flag everyone, is refused); :mod:`cardroom.room.integrity` counts the tables' hands and
access against them (what each kind means: its docstring).
"""

from __future__ import annotations

import configparser
import dataclasses
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Final


@dataclass(frozen=True, slots=True, kw_only=True)
class FoldPattern:
    """A player folding to the same opponent's raises again and again."""

    name: str = "folds_to_same_raiser"
    window: int
    """A's last hands facing B's bet or raise."""
    threshold: int
    min_share_percent: int
    forget_days: int = 30
    """A pair quiet this long is forgotten (its window starts afresh)."""
    money: str = ""
    """``play`` or ``real``: only that money's hands count (see :data:`MONIES`)."""

    def __post_init__(self) -> None:
        _check_window_rule(self.name, self.window, self.threshold, self.forget_days)
        _check_percent(self.name, self.min_share_percent)
        _check_money(self.name, self.money)

    def counts(self, money: str) -> bool:
        """Whether a hand played for ``money`` (``play``, ``real``) counts."""
        return not self.money or self.money == money


@dataclass(frozen=True, slots=True, kw_only=True)
class PotPattern:
    """Repeated pots from one account to the same other account."""

    name: str = "repeated_pots"
    window: int
    """The last hands in which chips moved between A and B, either way."""
    threshold: int
    min_one_way_percent: int
    forget_days: int = 30
    """A pair quiet this long is forgotten (its window starts afresh)."""
    money: str = ""
    """``play`` or ``real``: only that money's hands count (see :data:`MONIES`)."""

    def __post_init__(self) -> None:
        _check_window_rule(self.name, self.window, self.threshold, self.forget_days)
        _check_percent(self.name, self.min_one_way_percent)
        _check_money(self.name, self.money)

    def counts(self, money: str) -> bool:
        """Whether a hand played for ``money`` (``play``, ``real``) counts."""
        return not self.money or self.money == money


MONIES: Final = ("", "play", "real")
"""A hand rule's ``money``: empty, every hand (a file written before it existed); else
only the hands of that money's tables (``ledger.Currency`` values). Play chips are free:
counted with real money, play hands made at will watered a real-money pattern down
(play pots won back cancelled real pots dumped; raises called at a play table diluted
the folds to them at a real one)."""


def _check_money(name: str, money: str) -> None:
    if money not in MONIES:
        raise ValueError(f"[{name}]: money is play or real, not {money!r}")


def _check_window_rule(name: str, window: int, threshold: int, forget_days: int) -> None:
    """A hand rule's window holds a hand or more, its threshold 1 to the window (0 flagged
    every pair that met, more never one), its pairs kept a day or more (else ValueError)."""
    if window < 1 or not 1 <= threshold <= window or forget_days < 1:
        raise ValueError(f"[{name}]: window, forget_days >= 1; threshold 1 to the window")


def _check_percent(name: str, percent: int) -> None:
    if not 0 <= percent <= 100:
        raise ValueError(f"[{name}]: a percentage is from 0 to 100, not {percent}")


@dataclass(frozen=True, slots=True, kw_only=True)
class AccessPattern:
    """Accounts sharing an IP address (``via="ip"``) or a device (``via="device"``)."""

    name: str = "shared_ip"
    via: str = "ip"
    window: float
    """Seconds."""
    threshold: int

    def __post_init__(self) -> None:
        # One account shares nothing (each player sitting down was flagged); no window, none.
        if self.via not in ("ip", "device") or self.window <= 0 or self.threshold < 2:
            raise ValueError(f"[{self.name}]: via is ip or device, window > 0, threshold >= 2")


Rule = FoldPattern | PotPattern | AccessPattern

RULES_FILE: Final = "integrity_rules.ini"
"""The shipped rules, beside this module."""
_KINDS: Final = {"folds": FoldPattern, "pots": PotPattern, "access": AccessPattern}
DAY: Final = 24 * 3600.0
"""Seconds in a day (windows and forgetting are set in days)."""
_OPTIONAL: Final = frozenset({"forget_days", "money"})
"""What a rules file may leave out (files written before it existed): its default."""
_TEXTS: Final = frozenset({"via", "money"})
"""The values that are words, not whole numbers."""


def load_rules(text: str, source: str = "integrity rules") -> tuple[Rule, ...]:
    """The rules of an ``integrity_rules.ini`` text: one ``[name]`` section per rule with
    its ``kind`` (``folds``, ``pots``, ``access``) and every threshold of that kind
    (whole numbers; an access rule's ``via`` and ``window_days``; ``forget_days`` may
    be left out, and so may a hand rule's ``money``, play or real: then every hand
    counts). ValueError names what is missing, unknown, malformed or out of range."""
    parser = configparser.ConfigParser(inline_comment_prefixes=("#",), interpolation=None)
    try:
        parser.read_string(text, source)
    except configparser.Error as exc:
        raise ValueError(f"{source}: {exc}") from None
    rules: list[Rule] = []
    for name in parser.sections():
        values = dict(parser[name])
        kind = _KINDS.get(values.pop("kind", ""))
        if kind is None:
            raise ValueError(f"{source} [{name}]: kind is one of {', '.join(_KINDS)}")
        wanted = {f.name for f in dataclasses.fields(kind)} - {"name"}
        if kind is AccessPattern:
            wanted = wanted - {"window"} | {"window_days"}
        if not wanted - _OPTIONAL <= set(values) <= wanted:
            takes = ", ".join(sorted(wanted))
            raise ValueError(f"{source} [{name}]: a {kind.__name__} takes {takes}")
        try:
            fields: dict[str, Any] = {k: v if k in _TEXTS else int(v) for k, v in values.items()}
        except ValueError:
            raise ValueError(f"{source} [{name}]: thresholds are whole numbers") from None
        if kind is AccessPattern:
            fields["window"] = fields.pop("window_days") * DAY
        try:
            rules.append(kind(name=name, **fields))
        except ValueError as exc:  # a window of no hand, a share over 100 %...
            raise ValueError(f"{source} {exc}") from None
    return tuple(rules)


@cache
def default_rules() -> tuple[Rule, ...]:
    """The shipped ``integrity_rules.ini`` (read once, when the room starts)."""
    text = resources.files("cardroom.room").joinpath(RULES_FILE).read_text("utf-8")
    return load_rules(text, RULES_FILE)
