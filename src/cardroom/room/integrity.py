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
from collections.abc import Iterable, Mapping
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


HandId = int | str
"""A hand as the monitor names it in a flag: a table's hand number, or the room's
``table#n`` (:func:`cardroom.room.review.hand_ref`) when one monitor sees every table."""


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

    hand: HandId
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
    hands: tuple[HandId, ...] = ()


def transfers(put_in: Mapping[str, int], won: Mapping[str, int]) -> tuple[Transfer, ...]:
    """Who won chips from whom in a hand: each winner's net gain is taken from the
    losers in proportion to their net losses (rounded down; rake makes the losses
    larger than the gains). ``put_in``/``won``: chips each player put in and won."""
    net = {p: won.get(p, 0) - put_in.get(p, 0) for p in sorted({*put_in, *won})}
    return tuple(Transfer(s, r, n) for (s, r), n in _flows(net).items())


Moved = dict[tuple[str, str], int]
"""(sender, receiver) -> chips (positive, between two accounts): one hand's
:class:`Transfer` s as the monitor counts them."""

Faced = dict[tuple[str, str], int]
"""(player, raiser) -> 1 if the player folded to that raiser's bet or raise in the hand,
0 if it only called or raised: one hand's raise responses as the monitor counts them
(once per pair, in the order they first happened)."""


def _flows(net: Mapping[str, int]) -> Moved:
    """:func:`transfers` of each player's net result (``net``: chips won, losses
    negative), as :data:`Moved` (in the order of ``net``)."""
    losers = [(p, -n) for p, n in net.items() if n < 0]
    total_loss = sum(loss for _, loss in losers)
    out: Moved = {}
    for winner, gain in net.items():
        if gain > 0:
            for loser, loss in losers:
                amount = gain * loss // total_loss
                if amount > 0:
                    out[loser, winner] = amount
    return out


def _walk(events: Iterable[Event], players: Mapping[int, str]) -> Faced:
    """One pass over a finished engine hand's events: each action after another
    player's bet or raise in the same betting round (it faced the last one)."""
    faced: Faced = {}
    raiser: str | None = None  # the last bettor or raiser of the round
    raiser_seat = -1
    for event in events:
        # A hand is mostly Acted events: test for it first, by exact type (the
        # engine's event classes have no subclasses).
        if type(event) is Acted:
            seat = event.seat
            if raiser is not None and seat != raiser_seat:
                if event.kind == FOLD:
                    faced[players[seat], raiser] = 1
                else:
                    faced.setdefault((players[seat], raiser), 0)
            if event.kind == RAISE:
                raiser, raiser_seat = players[seat], seat
        elif type(event) is StreetStarted:
            raiser = None
    return faced


def _net(events: Iterable[Event], players: Mapping[int, str]) -> dict[str, int]:
    """Each player's net result of a finished engine hand (chips won, losses negative)."""
    start: dict[int, int] = {}
    for event in events:
        if isinstance(event, HandStarted):
            start = {s: seat.stack for s, seat in enumerate(event.seats) if seat is not None}
        elif isinstance(event, HandEnded):
            return {players[s]: (event.stacks[s] or 0) - stack for s, stack in start.items()}
    return {}


def observe(hand: HandId, events: Iterable[Event], players: Mapping[int, str]) -> HandObservation:
    """The observation of a finished engine hand, from its events; ``players``: account
    by seat. A player acting after another's bet or raise in the same betting round
    faced that raise (the last one), one response per pair and hand (folded if it folded
    to it at all); chips moved as :func:`transfers` of the net results."""
    faced, flows = _walk(events, players), _flows(_net(events, players))
    return HandObservation(
        hand,
        tuple(RaiseResponse(p, r, bool(f)) for (p, r), f in faced.items()),
        tuple(Transfer(s, r, n) for (s, r), n in flows.items()),
    )


Pair = tuple[str, str]
"""Two accounts, in the order a rule names them (folder and raiser, sender and receiver)."""

Accounts = tuple[str, ...]
"""The accounts a flag names: a :data:`Pair`, or the accounts sharing an address."""
_A = TypeVar("_A", bound=Accounts)


@dataclass(eq=False, slots=True)
class _Tally:
    """One pair's counts over a window: the ``hands`` in which it counted and a second
    count, ``more`` (the hands in which A folded, for a fold rule; the chips A lost to
    B, for a pot rule)."""

    pair: Pair
    hands: int = 0
    more: int = 0


Counted = list[tuple[_Tally, int]]
"""A hand's entry in a window: each tally it counted in, with what it added to ``more``
(so a hand leaving the window takes its counts off without a single lookup)."""


@dataclass
class _Window:
    """Per pair, a :class:`_Tally` of the last ``size`` hands. A pair with no hand in the
    window has none, so the tallies stay as few as the window's pairs."""

    size: int
    tallies: dict[Pair, _Tally] = field(default_factory=dict)
    entries: deque[tuple[HandId, Counted]] = field(default_factory=deque)

    def push(self, hand: HandId, counted: Mapping[Pair, int]) -> tuple[Counted, Counted]:
        """Count one hand (``counted``: pair -> what it adds to ``more``); returns its
        entry and that of the hand that left the window (empty while it fills)."""
        tallies = self.tallies
        now: Counted = []
        for pair, more in counted.items():
            tally = tallies.get(pair)
            if tally is None:
                tally = tallies[pair] = _Tally(pair)
            tally.hands += 1
            tally.more += more
            now.append((tally, more))
        self.entries.append((hand, now))
        if len(self.entries) <= self.size:
            return now, []
        _, old = self.entries.popleft()
        for tally, more in old:
            tally.hands -= 1
            tally.more -= more
            if not tally.hands:
                del tallies[tally.pair]
        return now, old

    def hands_with(self, pair: Pair) -> tuple[HandId, ...]:
        """The hands in the window that added to ``pair``'s ``more`` (its folds, its
        chips lost)."""
        return tuple(
            hand for hand, now in self.entries if any(t.pair == pair and n for t, n in now)
        )


class IntegrityMonitor:
    """Runs the rules over a table's (or a room's) observations; returns new flags.
    ``rules`` None: :func:`default_rules`."""

    def __init__(self, rules: Iterable[Rule] | None = None) -> None:
        self.rules = tuple(default_rules() if rules is None else rules)
        # A fold rule counts pairs that faced a raise and pairs that folded to it; a
        # pot rule the chips each pair moved (its hands: the pots).
        self._windows = {
            r.name: _Window(r.window) for r in self.rules if not isinstance(r, AccessPattern)
        }
        self._seen: dict[tuple[str, str], dict[str, float]] = {}
        self._swept = float("-inf")  # when _seen was last swept of old sightings
        # Rule -> the accounts whose condition holds (flagged when it became true).
        self._raised: dict[str, set[Accounts]] = {r.name: set() for r in self.rules}

    def observe_hand(self, observation: HandObservation) -> list[Flag]:
        """Count one finished hand; the flags it raises."""
        faced: Faced = {}
        for r in observation.responses:  # once per pair, folded if it folded at all
            faced[r.player, r.raiser] = faced.get((r.player, r.raiser), 0) | r.folded
        chips: Moved = {}
        for t in observation.transfers:
            if t.amount > 0 and t.sender != t.receiver:
                chips[t.sender, t.receiver] = chips.get((t.sender, t.receiver), 0) + t.amount
        return self._count(observation.hand, faced, chips)

    def observe_events(
        self,
        hand: HandId,
        events: Iterable[Event],
        players: Mapping[int, str],
        net: Mapping[str, int] | None = None,
    ) -> list[Flag]:
        """``observe_hand(observe(hand, events, players))`` without building the
        observation's objects (what a table does after every hand); ``net``: each
        player's result, if known (the table settled it), else read from the events."""
        if net is None:
            net = _net(events, players)
        return self._count(hand, _walk(events, players), _flows(net))

    def _count(self, hand: HandId, faced: Faced, chips: Moved) -> list[Flag]:
        flags: list[Flag] = []
        for rule in self.rules:
            if isinstance(rule, FoldPattern):
                flags += self._folds(rule, hand, faced)
            elif isinstance(rule, PotPattern):
                flags += self._pots(rule, hand, chips)
        return flags

    @property
    def tracked_addresses(self) -> int:
        """How many (rule, address) pairs the access rules remember."""
        return len(self._seen)

    def observe_access(self, access: Access) -> list[Flag]:
        """Record where a player plays from; the flags it raises."""
        if access.at - self._swept >= _DAY:
            self._sweep(access.at)
        flags: list[Flag] = []
        for rule in self.rules:
            if not isinstance(rule, AccessPattern):
                continue
            value = access.ip if rule.via == "ip" else access.device
            if not value:
                continue
            seen = self._seen.setdefault((rule.name, value), {})
            self._expire(rule, seen, access.at)
            if access.player not in seen:  # the set grows: a flag on the smaller one is done
                self._raised[rule.name].discard(tuple(sorted(seen)))
            seen[access.player] = access.at
            accounts = tuple(sorted(seen))
            holds = len(accounts) >= rule.threshold
            if self._moved(rule.name, [accounts] if holds else [], [] if holds else [accounts]):
                evidence = f"{len(accounts)} accounts from {rule.via} {value}"
                flags.append(Flag(rule.name, accounts, evidence))
        return flags

    def _sweep(self, now: float) -> None:
        """Once a day: forget the sightings older than their rule's window everywhere.
        A room's monitor lives as long as its process, and an address never seen again
        would otherwise be kept (with the flag raised on it) for good."""
        self._swept = now
        rules = {r.name: r for r in self.rules if isinstance(r, AccessPattern)}
        for key, seen in list(self._seen.items()):
            self._expire(rules[key[0]], seen, now)
            if not seen:
                del self._seen[key]

    def _expire(self, rule: AccessPattern, seen: dict[str, float], now: float) -> None:
        """Drop the sightings in ``seen`` (player -> when) older than ``rule``'s window;
        a flag raised on the accounts seen before has lapsed."""
        old = [player for player, at in seen.items() if at < now - rule.window]
        if old:
            self._raised[rule.name].discard(tuple(sorted(seen)))
            for player in old:
                del seen[player]

    def forget(self, rule: str, accounts: Accounts) -> None:
        """A flag that could not be recorded: raise it again when its condition next
        moves its way (as if it had lapsed)."""
        self._raised[rule].discard(accounts)

    def _moved(self, rule: str, holding: Iterable[_A], lapsed: Iterable[_A]) -> list[_A]:
        """A flag is raised when its condition becomes true, and again only after it
        lapsed. ``holding``: accounts whose condition may have just become true, and
        holds; ``lapsed``: raised ones whose condition no longer holds. Returns those to
        flag now, in a fixed order. (The window rules' conditions are monotone in the
        window's counts, so a rule looks only at the pairs whose counts moved its way.)"""
        if not holding and not lapsed:  # most hands: nothing moved
            return []
        raised = self._raised[rule]
        raised.difference_update(lapsed)
        new = sorted(set(holding) - raised)
        raised.update(new)
        return new

    def _folds(self, rule: FoldPattern, hand: HandId, faced: Faced) -> list[Flag]:
        # Counted once per hand per pair (adding 1 to ``more`` if it folded).
        window = self._windows[rule.name]
        now, old = window.push(hand, faced)
        threshold, share = rule.threshold, rule.min_share_percent

        def holds(t: _Tally) -> bool:
            return t.hands > 0 and t.more >= threshold and 100 * t.more >= share * t.hands

        # A fold, or a raise faced leaving the window, makes the share truer; a raise
        # faced, or a fold leaving, makes it falser. Most pairs are short of the
        # threshold: that is tested first, without a call.
        holding = [t.pair for t, fold in now if fold and t.more >= threshold and holds(t)]
        holding += [t.pair for t, _ in old if t.more >= threshold and holds(t)]
        raised, lapsed = self._raised[rule.name], []
        if raised:
            falling = [t for t, _ in now] + [t for t, fold in old if fold]
            lapsed = [t.pair for t in falling if t.pair in raised and not holds(t)]
        flags = []
        for player, raiser in self._moved(rule.name, holding, lapsed):
            tally = window.tallies[player, raiser]
            evidence = (
                f"{player} folded to {raiser}'s raises in {tally.more} of {tally.hands} hands"
            )
            hands = window.hands_with((player, raiser))
            flags.append(Flag(rule.name, (player, raiser), evidence, hands))
        return flags

    def _pots(self, rule: PotPattern, hand: HandId, chips: Moved) -> list[Flag]:
        window = self._windows[rule.name]
        now, old = window.push(hand, chips)
        tallies, threshold, percent = window.tallies, rule.threshold, rule.min_one_way_percent

        def chips_back(sent: _Tally) -> int:
            """The chips B lost to A over the window (``sent``: A -> B's tally)."""
            back = tallies.get((sent.pair[1], sent.pair[0]))
            return 0 if back is None else back.more

        def holds(sent: _Tally, back: int) -> bool:
            """Whether A -> B holds (``sent``: A -> B's tally, in the window; ``back``:
            the chips B lost to A)."""
            if sent.hands < threshold:
                return False
            chips = sent.more
            return chips > back and 100 * (chips - back) >= percent * (chips + back)

        # A -> B holds more with more pots or chips A to B, fewer chips back B to A; the
        # reverse makes it hold less. Most pairs are short of the threshold: that is
        # tested first, without a call.
        holding = [t.pair for t, _ in now if t.hands >= threshold and holds(t, chips_back(t))]
        for t, _ in old:  # B -> A's chips back are t's own (0 if it left the window)
            mirror = tallies.get((t.pair[1], t.pair[0]))
            if mirror is not None and mirror.hands >= threshold and holds(mirror, t.more):
                holding.append(mirror.pair)
        raised, lapsed = self._raised[rule.name], []
        if raised:
            falling = [t.pair for t, _ in old] + [(t.pair[1], t.pair[0]) for t, _ in now]
            for pair in falling:
                sent = tallies.get(pair)
                if pair in raised and (sent is None or not holds(sent, chips_back(sent))):
                    lapsed.append(pair)
        flags = []
        for sender, receiver in self._moved(rule.name, holding, lapsed):
            sent = tallies[sender, receiver]
            net = sent.more - chips_back(sent)
            evidence = f"{sender} lost {sent.hands} pots to {receiver}, net {net} chips"
            hands = window.hands_with((sender, receiver))
            flags.append(Flag(rule.name, (sender, receiver), evidence, hands))
        return flags
