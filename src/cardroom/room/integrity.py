"""Integrity monitoring at the tables (RULEBOOK §10.9): rules as data, review flags.

A table reports small observations: after each hand, who faced whose raise
and folded or not (:class:`RaiseResponse`) and who won chips from whom
(:class:`Transfer`, see :func:`transfers`); when a player sits down or comes
back, the IP address and device it plays from (:class:`Access`). An
:class:`IntegrityMonitor` keeps rolling windows and returns a :class:`Flag` the
moment a rule's threshold is reached. :func:`observe` builds a hand's
observation from the engine's events. A flag is for an operator to review,
never a punishment: nothing here freezes, bans or moves chips.

The rules are data: ``integrity_rules.ini`` (beside this module) holds each
rule's name, kind and thresholds, read once when the room starts
(:func:`default_rules`; :func:`load_rules` reads another file of that form). Each
becomes a frozen dataclass:

- :class:`FoldPattern` (kind ``folds``; shipped as ``folds_to_same_raiser``, soft
  play): within the last ``window`` hands, player A folded to B's bet or raise in
  at least ``threshold`` hands, and in at least ``min_share_percent`` % of the
  hands in which A faced a raise by B. Counted once per hand per pair.
- :class:`PotPattern` (kind ``pots``; ``repeated_pots``, chip dumping): within the
  last ``window`` hands, chips went from A to B in at least ``threshold`` hands,
  and the net flow A to B over the window is at least ``min_one_way_percent`` % of
  all the chips that changed hands between them (pots traded both ways between two
  regulars cancel out).
- :class:`AccessPattern` (kind ``access``; ``shared_ip`` / ``shared_device``): at
  least ``threshold`` accounts seen from the same IP address (or device) within
  ``window`` seconds (``window_days`` in the file).

A flag is raised once when its condition becomes true, and again only after
it has been false (or, for shared access, when more accounts join the set).
"""

from __future__ import annotations

import configparser
import dataclasses
from collections import Counter, deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, Final

from cardroom.games import FOLD, RAISE, Event
from cardroom.games.events import Acted, HandEnded, HandStarted, StreetStarted


@dataclass(frozen=True, slots=True, kw_only=True)
class FoldPattern:
    """A player folding to the same opponent's raises again and again."""

    name: str = "folds_to_same_raiser"
    window: int
    threshold: int
    min_share_percent: int


@dataclass(frozen=True, slots=True, kw_only=True)
class PotPattern:
    """Repeated pots from one account to the same other account."""

    name: str = "repeated_pots"
    window: int
    threshold: int
    min_one_way_percent: int


@dataclass(frozen=True, slots=True, kw_only=True)
class AccessPattern:
    """Accounts sharing an IP address (``via="ip"``) or a device (``via="device"``)."""

    name: str = "shared_ip"
    via: str = "ip"
    window: float
    """Seconds."""
    threshold: int


Rule = FoldPattern | PotPattern | AccessPattern

RULES_FILE: Final = "integrity_rules.ini"
"""The shipped rules, beside this module."""
_KINDS: Final = {"folds": FoldPattern, "pots": PotPattern, "access": AccessPattern}
_DAY: Final = 24 * 3600.0


def load_rules(text: str, source: str = "integrity rules") -> tuple[Rule, ...]:
    """The rules of an ``integrity_rules.ini`` text: one ``[name]`` section per rule with
    its ``kind`` (``folds``, ``pots``, ``access``) and every threshold of that kind
    (whole numbers; an access rule's ``via`` and ``window_days``). ValueError names what
    is missing, unknown or malformed."""
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
        if set(values) != wanted:
            takes = ", ".join(sorted(wanted))
            raise ValueError(f"{source} [{name}]: a {kind.__name__} takes {takes}")
        try:
            fields: dict[str, Any] = {k: v if k == "via" else int(v) for k, v in values.items()}
        except ValueError:
            raise ValueError(f"{source} [{name}]: thresholds are whole numbers") from None
        if kind is AccessPattern:
            if fields["via"] not in ("ip", "device"):
                raise ValueError(f"{source} [{name}]: via is ip or device")
            fields["window"] = fields.pop("window_days") * _DAY
        rules.append(kind(name=name, **fields))
    return tuple(rules)


@cache
def default_rules() -> tuple[Rule, ...]:
    """The shipped ``integrity_rules.ini`` (read once, when the room starts)."""
    text = resources.files("cardroom.room").joinpath(RULES_FILE).read_text("utf-8")
    return load_rules(text, RULES_FILE)


@dataclass(frozen=True, slots=True)
class RaiseResponse:
    """In one hand, ``player`` faced a bet or raise by ``raiser`` and ``folded`` or not."""

    player: str
    raiser: str
    folded: bool


@dataclass(frozen=True, slots=True)
class Transfer:
    """In one hand, ``amount`` chips went from ``sender`` to ``receiver``."""

    sender: str
    receiver: str
    amount: int


@dataclass(frozen=True, slots=True)
class HandObservation:
    """What a table reports of one finished hand (``hand``: its number or id)."""

    hand: int
    responses: tuple[RaiseResponse, ...] = ()
    transfers: tuple[Transfer, ...] = ()


@dataclass(frozen=True, slots=True)
class Access:
    """``player`` seen playing from ``ip`` and ``device`` at time ``at`` (seconds)."""

    player: str
    ip: str = ""
    device: str = ""
    at: float = 0.0


@dataclass(frozen=True, slots=True)
class Flag:
    """A review flag: the rule, the accounts concerned, what was seen, and the hands."""

    rule: str
    accounts: tuple[str, ...]
    evidence: str
    hands: tuple[int, ...] = ()


def transfers(put_in: Mapping[str, int], won: Mapping[str, int]) -> tuple[Transfer, ...]:
    """Who won chips from whom in a hand: each winner's net gain is taken from the
    losers in proportion to their net losses (rounded down; rake makes the losses
    larger than the gains). ``put_in``/``won``: chips each player put in and won."""
    net = {p: won.get(p, 0) - put_in.get(p, 0) for p in {*put_in, *won}}
    losers = sorted((p, -n) for p, n in net.items() if n < 0)
    winners = sorted((p, n) for p, n in net.items() if n > 0)
    total_loss = sum(loss for _, loss in losers)
    out = []
    for winner, gain in winners:
        for loser, loss in losers:
            amount = gain * loss // total_loss
            if amount > 0:
                out.append(Transfer(loser, winner, amount))
    return tuple(out)


def observe(hand: int, events: Iterable[Event], players: Mapping[int, str]) -> HandObservation:
    """The observation of a finished engine hand, from its events; ``players``: account
    by seat. A player acting after another's bet or raise in the same betting round
    faced that raise (the last one); chips moved as :func:`transfers` of the net results."""
    responses: list[RaiseResponse] = []
    start: tuple[int, ...] = ()
    seats: list[int] = []
    net: dict[str, int] = {}
    aggressor: int | None = None
    for event in events:
        if isinstance(event, HandStarted):
            seats = [i for i, seat in enumerate(event.seats) if seat is not None]
            start = tuple(0 if seat is None else seat.stack for seat in event.seats)
        elif isinstance(event, StreetStarted):
            aggressor = None
        elif isinstance(event, Acted):
            if aggressor is not None and aggressor != event.seat:
                folded = event.kind == FOLD
                responses.append(RaiseResponse(players[event.seat], players[aggressor], folded))
            if event.kind == RAISE:
                aggressor = event.seat
        elif isinstance(event, HandEnded):
            net = {players[s]: (event.stacks[s] or 0) - start[s] for s in seats}
    put_in = {p: -n for p, n in net.items() if n < 0}
    won = {p: n for p, n in net.items() if n > 0}
    return HandObservation(hand, tuple(responses), transfers(put_in, won))


@dataclass
class _Window:
    """Per-key counters over the last ``size`` hands (added and expired in O(keys))."""

    size: int
    entries: deque[tuple[int, Counter[tuple[str, ...]]]] = field(default_factory=deque)
    totals: Counter[tuple[str, ...]] = field(default_factory=Counter)

    def push(self, hand: int, counts: Counter[tuple[str, ...]]) -> set[tuple[str, ...]]:
        """Add one hand's counts; returns every key whose totals changed."""
        self.entries.append((hand, counts))
        self.totals.update(counts)
        touched = set(counts)
        while len(self.entries) > self.size:
            _, old = self.entries.popleft()
            self.totals.subtract(old)
            for key in old:
                if self.totals[key] <= 0:
                    del self.totals[key]  # keeps the counters as small as the window
            touched |= set(old)
        return touched

    def hands_with(self, key: tuple[str, ...]) -> tuple[int, ...]:
        """The hands in the window that counted for ``key``."""
        return tuple(hand for hand, counts in self.entries if counts[key] > 0)


class IntegrityMonitor:
    """Runs the rules over a table's (or a room's) observations; returns new flags.
    ``rules`` None: :func:`default_rules`."""

    def __init__(self, rules: Iterable[Rule] | None = None) -> None:
        self.rules = tuple(default_rules() if rules is None else rules)
        self._windows = {
            r.name: _Window(r.window) for r in self.rules if not isinstance(r, AccessPattern)
        }
        self._seen: dict[tuple[str, str], dict[str, float]] = {}
        self._raised: set[tuple[str, tuple[str, ...]]] = set()

    def observe_hand(self, observation: HandObservation) -> list[Flag]:
        """Count one finished hand; the flags it raises."""
        flags: list[Flag] = []
        for rule in self.rules:
            if isinstance(rule, FoldPattern):
                flags += self._folds(rule, observation)
            elif isinstance(rule, PotPattern):
                flags += self._pots(rule, observation)
        return flags

    def observe_access(self, access: Access) -> list[Flag]:
        """Record where a player plays from; the flags it raises."""
        flags: list[Flag] = []
        for rule in self.rules:
            if not isinstance(rule, AccessPattern):
                continue
            value = access.ip if rule.via == "ip" else access.device
            if not value:
                continue
            seen = self._seen.setdefault((rule.name, value), {})
            seen[access.player] = access.at
            for player, at in list(seen.items()):
                if at < access.at - rule.window:
                    del seen[player]
            accounts = tuple(sorted(seen))
            if self._newly(rule.name, accounts, len(accounts) >= rule.threshold):
                evidence = f"{len(accounts)} accounts from {rule.via} {value}"
                flags.append(Flag(rule.name, accounts, evidence))
        return flags

    def _newly(self, rule: str, accounts: tuple[str, ...], holds: bool) -> bool:
        """True when the condition for ``accounts`` has just become true."""
        key = (rule, accounts)
        if not holds:
            self._raised.discard(key)
            return False
        if key in self._raised:
            return False
        self._raised.add(key)
        return True

    def _folds(self, rule: FoldPattern, observation: HandObservation) -> list[Flag]:
        counts: Counter[tuple[str, ...]] = Counter()
        for pair in {(r.player, r.raiser) for r in observation.responses}:
            counts[("faced", *pair)] = 1
        for pair in {(r.player, r.raiser) for r in observation.responses if r.folded}:
            counts[("folded", *pair)] = 1
        window = self._windows[rule.name]
        flags = []
        for kind, player, raiser in sorted(window.push(observation.hand, counts)):
            if kind != "faced":
                continue
            faced = window.totals[("faced", player, raiser)]
            folded = window.totals[("folded", player, raiser)]
            holds = folded >= rule.threshold and 100 * folded >= rule.min_share_percent * faced
            if self._newly(rule.name, (player, raiser), holds):
                evidence = f"{player} folded to {raiser}'s raises in {folded} of {faced} hands"
                hands = window.hands_with(("folded", player, raiser))
                flags.append(Flag(rule.name, (player, raiser), evidence, hands))
        return flags

    def _pots(self, rule: PotPattern, observation: HandObservation) -> list[Flag]:
        counts: Counter[tuple[str, ...]] = Counter()
        for t in observation.transfers:
            if t.amount > 0 and t.sender != t.receiver:
                counts[("pots", t.sender, t.receiver)] = 1
                counts[("chips", t.sender, t.receiver)] += t.amount
        window = self._windows[rule.name]
        flags = []
        touched = window.push(observation.hand, counts)
        pairs = {(a, b) for _, a, b in touched} | {(b, a) for _, a, b in touched}
        for sender, receiver in sorted(pairs):
            pots = window.totals[("pots", sender, receiver)]
            sent = window.totals[("chips", sender, receiver)]
            back = window.totals[("chips", receiver, sender)]
            net = sent - back
            holds = pots >= rule.threshold and 100 * net >= rule.min_one_way_percent * (sent + back)
            holds = holds and net > 0
            if self._newly(rule.name, (sender, receiver), holds):
                evidence = f"{sender} lost {pots} pots to {receiver}, net {net} chips"
                hands = window.hands_with(("pots", sender, receiver))
                flags.append(Flag(rule.name, (sender, receiver), evidence, hands))
        return flags
