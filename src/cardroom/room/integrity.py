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
from collections import deque
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, Final, TypeVar

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
    return tuple(Transfer(*flow) for flow in _flows(net))


Flow = tuple[str, str, int]
"""(sender, receiver, amount): a :class:`Transfer` as the monitor counts it."""

Response = tuple[str, str, bool]
"""(player, raiser, folded): a :class:`RaiseResponse` as the monitor counts it."""


def _flows(net: Mapping[str, int]) -> list[Flow]:
    """:func:`transfers` of each player's net result (``net``: chips won, losses
    negative), as plain tuples."""
    losers = sorted((p, -n) for p, n in net.items() if n < 0)
    winners = sorted((p, n) for p, n in net.items() if n > 0)
    total_loss = sum(loss for _, loss in losers)
    out = []
    for winner, gain in winners:
        for loser, loss in losers:
            amount = gain * loss // total_loss
            if amount > 0:
                out.append((loser, winner, amount))
    return out


def _walk(events: Iterable[Event], players: Mapping[int, str]) -> tuple[list[Response], list[Flow]]:
    """One pass over a finished engine hand's events: each action after another
    player's bet or raise in the same betting round (it faced the last one), and who
    won chips from whom (:func:`_flows` of the net results)."""
    responses: list[Response] = []
    start: tuple[int, ...] = ()
    seats: list[int] = []
    net: dict[str, int] = {}
    aggressor: int | None = None
    for event in events:
        # A hand is mostly Acted events: test for it first, by exact type (the
        # engine's event classes have no subclasses).
        if type(event) is Acted:
            if aggressor is not None and aggressor != event.seat:
                responses.append((players[event.seat], players[aggressor], event.kind == FOLD))
            if event.kind == RAISE:
                aggressor = event.seat
            continue
        kind = type(event)  # the rest by exact type too; isinstance narrows once a hand
        if kind is StreetStarted:
            aggressor = None
        elif kind is HandStarted and isinstance(event, HandStarted):
            seats = [i for i, seat in enumerate(event.seats) if seat is not None]
            start = tuple(0 if seat is None else seat.stack for seat in event.seats)
        elif kind is HandEnded and isinstance(event, HandEnded):
            net = {players[s]: (event.stacks[s] or 0) - start[s] for s in seats}
    return responses, _flows(net)


def observe(hand: int, events: Iterable[Event], players: Mapping[int, str]) -> HandObservation:
    """The observation of a finished engine hand, from its events; ``players``: account
    by seat. A player acting after another's bet or raise in the same betting round
    faced that raise (the last one); chips moved as :func:`transfers` of the net results."""
    responses, flows = _walk(events, players)
    return HandObservation(
        hand, tuple(RaiseResponse(*r) for r in responses), tuple(Transfer(*f) for f in flows)
    )


Pair = tuple[str, str]
"""Two accounts, in the order a rule names them (folder and raiser, sender and receiver)."""

Accounts = tuple[str, ...]
"""The accounts a flag names: a :data:`Pair`, or the accounts sharing an address."""
_A = TypeVar("_A", bound=Accounts)


@dataclass
class _Window:
    """The pairs counted in each of the last ``size`` hands and, per pair, the ``hands``
    in which it counted (added and expired in O(pairs)). Plain dicts, not Counters: a
    table pushes every hand, and Counter's update and subtract run in Python."""

    size: int
    entries: deque[tuple[int, Collection[Pair]]] = field(default_factory=deque)
    hands: dict[Pair, int] = field(default_factory=dict)

    def push(self, hand: int, pairs: Collection[Pair]) -> set[Pair]:
        """Count one hand's pairs (each once); returns every pair whose totals changed."""
        self.entries.append((hand, pairs))
        hands = self.hands
        for pair in pairs:
            hands[pair] = hands.get(pair, 0) + 1
        touched = set(pairs)
        while len(self.entries) > self.size:
            _, old = self.entries.popleft()
            self.expire(old)
            touched.update(old)
        return touched

    def expire(self, pairs: Collection[Pair]) -> None:
        """Take a hand that left the window off the totals."""
        hands = self.hands
        for pair in pairs:
            left = hands[pair] - 1
            if left:
                hands[pair] = left
            else:  # keeps the counters as small as the window
                del hands[pair]

    def hands_with(self, pair: Pair) -> tuple[int, ...]:
        """The hands in the window that counted for ``pair``."""
        return tuple(hand for hand, pairs in self.entries if pair in pairs)


@dataclass
class _ChipWindow(_Window):
    """A window whose pairs also carry amounts (chips moved): ``sums`` per pair."""

    sums: dict[Pair, int] = field(default_factory=dict)

    def push(self, hand: int, pairs: Collection[Pair]) -> set[Pair]:
        """Count one hand's amounts (``pairs``: a dict pair -> positive amount)."""
        assert isinstance(pairs, dict)
        sums = self.sums
        for pair, n in pairs.items():
            sums[pair] = sums.get(pair, 0) + n
        return super().push(hand, pairs)

    def expire(self, pairs: Collection[Pair]) -> None:
        """Take a hand that left the window off the totals (and its amounts)."""
        assert isinstance(pairs, dict)
        super().expire(pairs)
        sums = self.sums
        for pair, n in pairs.items():
            if pair in self.hands:
                sums[pair] -= n
            else:
                del sums[pair]


class IntegrityMonitor:
    """Runs the rules over a table's (or a room's) observations; returns new flags.
    ``rules`` None: :func:`default_rules`."""

    def __init__(self, rules: Iterable[Rule] | None = None) -> None:
        self.rules = tuple(default_rules() if rules is None else rules)
        # A fold rule counts pairs that faced a raise and pairs that folded to it; a
        # pot rule the chips each pair moved (its hands: the pots).
        self._folds_seen: dict[str, tuple[_Window, _Window]] = {}
        self._pots_seen: dict[str, _ChipWindow] = {}
        for r in self.rules:
            if isinstance(r, FoldPattern):
                self._folds_seen[r.name] = (_Window(r.window), _Window(r.window))
            elif isinstance(r, PotPattern):
                self._pots_seen[r.name] = _ChipWindow(r.window)
        self._seen: dict[tuple[str, str], dict[str, float]] = {}
        # Rule -> the accounts whose condition holds (flagged when it became true).
        self._raised: dict[str, set[Accounts]] = {r.name: set() for r in self.rules}

    def observe_hand(self, observation: HandObservation) -> list[Flag]:
        """Count one finished hand; the flags it raises."""
        responses = [(r.player, r.raiser, r.folded) for r in observation.responses]
        flows = [(t.sender, t.receiver, t.amount) for t in observation.transfers]
        return self._count(observation.hand, responses, flows)

    def observe_events(
        self, hand: int, events: Iterable[Event], players: Mapping[int, str]
    ) -> list[Flag]:
        """``observe_hand(observe(hand, events, players))`` without building the
        observation's objects (what a table does after every hand)."""
        responses, flows = _walk(events, players)
        return self._count(hand, responses, flows)

    def _count(self, hand: int, responses: list[Response], flows: list[Flow]) -> list[Flag]:
        flags: list[Flag] = []
        for rule in self.rules:
            if isinstance(rule, FoldPattern):
                flags += self._folds(rule, hand, responses)
            elif isinstance(rule, PotPattern):
                flags += self._pots(rule, hand, flows)
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
            holds = len(accounts) >= rule.threshold
            if self._newly(rule.name, [accounts], {accounts} if holds else set()):
                evidence = f"{len(accounts)} accounts from {rule.via} {value}"
                flags.append(Flag(rule.name, accounts, evidence))
        return flags

    def _newly(self, rule: str, checked: Iterable[_A], holding: set[_A]) -> set[_A]:
        """Of the ``checked`` accounts (``holding``: those whose condition holds), those
        whose condition has just become true; the others' flags lapse. Set operations:
        a table checks every pair a hand touched."""
        raised = self._raised[rule]
        raised.difference_update(set(checked) - holding)
        new = holding - raised
        raised |= new
        return new

    def _folds(self, rule: FoldPattern, hand: int, responses: list[Response]) -> list[Flag]:
        # Counted once per hand per pair; a pair that folded also faced the raise.
        faced_w, folded_w = self._folds_seen[rule.name]
        touched = faced_w.push(hand, {(p, r) for p, r, _ in responses})
        folded_w.push(hand, {(p, r) for p, r, folded in responses if folded})
        threshold, share = rule.threshold, rule.min_share_percent
        folds, faced = folded_w.hands, faced_w.hands
        holding = {
            pair
            for pair in touched
            if (n := folds.get(pair, 0)) >= threshold and 100 * n >= share * faced.get(pair, 0)
        }
        flags = []
        for player, raiser in sorted(self._newly(rule.name, touched, holding)):  # fixed order
            n, m = folds[player, raiser], faced[player, raiser]
            evidence = f"{player} folded to {raiser}'s raises in {n} of {m} hands"
            hands = folded_w.hands_with((player, raiser))
            flags.append(Flag(rule.name, (player, raiser), evidence, hands))
        return flags

    def _pots(self, rule: PotPattern, hand: int, flows: list[Flow]) -> list[Flag]:
        chips: dict[Pair, int] = {}
        for sender, receiver, amount in flows:
            if amount > 0 and sender != receiver:
                chips[sender, receiver] = chips.get((sender, receiver), 0) + amount
        window = self._pots_seen[rule.name]
        touched = window.push(hand, chips)
        # Chips back from B to A weigh against A -> B: both directions are looked at.
        pairs = touched | {(b, a) for a, b in touched}
        counts, sums = window.hands, window.sums
        threshold, percent = rule.threshold, rule.min_one_way_percent
        holding = set()
        for pair in pairs:
            if counts.get(pair, 0) < threshold:
                continue
            sent, back = sums.get(pair, 0), sums.get((pair[1], pair[0]), 0)
            if sent > back and 100 * (sent - back) >= percent * (sent + back):
                holding.add(pair)
        found = []
        for sender, receiver in self._newly(rule.name, pairs, holding):
            net = sums[sender, receiver] - sums.get((receiver, sender), 0)
            found.append(((sender, receiver), counts[sender, receiver], net))
        flags = []
        for (sender, receiver), pots, net in sorted(found):  # in a fixed order
            evidence = f"{sender} lost {pots} pots to {receiver}, net {net} chips"
            hands = window.hands_with((sender, receiver))
            flags.append(Flag(rule.name, (sender, receiver), evidence, hands))
        return flags
