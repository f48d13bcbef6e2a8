"""Integrity monitoring at the tables (RULEBOOK §10.9): rules as data, review flags.

A table reports small observations: after each hand, who faced whose raise
and folded or not (:class:`RaiseResponse`) and who won chips from whom
(:class:`Transfer`, see :func:`transfers`); when a player sits down or comes
back, the IP address and device it plays from (:class:`Access`). An
:class:`IntegrityMonitor` keeps rolling windows and returns a :class:`Flag` the
moment a rule's threshold is reached. :func:`observe` builds a hand's
observation from the engine's events. A flag is for an operator to review,
never a punishment: nothing here freezes, bans or moves chips.

The rules are data: ``integrity_rules.ini`` holds each rule's name, kind and
thresholds (read by :mod:`cardroom.room.integrity_rules`). Each becomes a frozen
dataclass:

- :class:`FoldPattern` (kind ``folds``; shipped as ``folds_to_same_raiser``, soft
  play): of the last ``window`` hands in which player A faced B's bet or raise, A
  folded to it in at least ``threshold`` hands and in at least
  ``min_share_percent`` % of them. Counted once per hand per pair.
- :class:`PotPattern` (kind ``pots``; ``repeated_pots``, chip dumping): of the last
  ``window`` hands in which chips moved between A and B (either way), chips went
  from A to B in at least ``threshold``, and the net flow A to B over them is at
  least ``min_one_way_percent`` % of all the chips that changed hands between the
  two (pots traded both ways between two regulars cancel out).
- :class:`AccessPattern` (kind ``access``; ``shared_ip`` / ``shared_device``): at
  least ``threshold`` accounts seen from the same IP address (or device) within
  ``window`` seconds (``window_days`` in the file).

A hand rule with a ``money`` counts only the hands of that money's tables: each
shipped hand rule is there twice, for play money (``folds_to_same_raiser``,
``repeated_pots``) and for real (the same name ending ``_real``).

A window is counted in the pair's own hands, so a monitor that sees a whole room
(every table's hands, interleaved) sees a pair's pattern as well as one that sees
their table alone (the windows: :mod:`cardroom.room.pair_windows`). Chips that
moved both ways between two accounts in one hand count net. A flag names the
latest hands of the pattern, as many as the rule's threshold. A pair with no hand
for its rule's ``forget_days`` is forgotten.

A flag is raised once when its condition becomes true, and again only after
it has been false (or, for shared access, when more accounts join the set).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from cardroom.games import FOLD, RAISE, Event
from cardroom.games.events import Acted, HandEnded, HandStarted, StreetStarted
from cardroom.room.integrity_rules import (
    DAY,
    AccessPattern,
    FoldPattern,
    PotPattern,
    Rule,
    default_rules,
)
from cardroom.room.pair_windows import FoldWindow, PotWindow
from cardroom.room.pair_windows import HandId as HandId  # a flag's hands are named by it


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
    at: float = 0.0
    """When it was settled (seconds)."""
    money: str = "play"
    """The table's money (``play``, ``real``): a hand rule counts one money's hands."""


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


def observe(
    hand: HandId, events: Iterable[Event], players: Mapping[int, str], at: float = 0.0
) -> HandObservation:
    """The observation of a finished engine hand, from its events (``at``: when it was
    settled); ``players``: account by seat. A player acting after another's bet or
    raise in the same betting round faced that raise (the last one), one response per
    pair and hand (folded if it folded to it at all); chips moved as :func:`transfers`
    of the net results."""
    faced, flows = _walk(events, players), _flows(_net(events, players))
    return HandObservation(
        hand,
        tuple(RaiseResponse(p, r, bool(f)) for (p, r), f in faced.items()),
        tuple(Transfer(s, r, n) for (s, r), n in flows.items()),
        at,
    )


Pair = tuple[str, str]
"""Two accounts, in the order a rule names them (folder and raiser, sender and receiver)."""

Accounts = tuple[str, ...]
"""The accounts a flag names: a :data:`Pair`, or the accounts sharing an address."""
_A = TypeVar("_A", bound=Accounts)


_Run = TypeVar("_Run", FoldWindow, PotWindow)


def _pair(a: object, b: object) -> Pair:
    """Two accounts read back from a monitor's memory."""
    if type(a) is not str or type(b) is not str:
        raise TypeError("a pair is two account names")
    return a, b


class IntegrityMonitor:
    """Runs the rules over a room's (or a table's) observations; returns new flags.
    ``rules`` None: :func:`default_rules`.

    A rule's window is counted in the pair's own hands (the last ``window`` hands in
    which A faced B's raise, or in which chips moved between them), not in the room's:
    one monitor sees every table, and the hands of the other tables must not push a
    pair's pattern out of sight. A pair with no hand for its rule's ``forget_days`` is
    forgotten (swept once a day), so a monitor that lives as long as its room keeps
    only the pairs still playing."""

    def __init__(self, rules: Iterable[Rule] | None = None) -> None:
        self.rules = tuple(default_rules() if rules is None else rules)
        self._folds: dict[str, dict[Pair, FoldWindow]] = {
            r.name: {} for r in self.rules if isinstance(r, FoldPattern)
        }
        self._pots: dict[str, dict[Pair, PotWindow]] = {
            r.name: {} for r in self.rules if isinstance(r, PotPattern)
        }
        self._seen: dict[tuple[str, str], dict[str, float]] = {}
        self._swept = float("-inf")  # when the monitor last forgot what is too old
        # Rule -> the accounts whose condition holds (flagged when it became true).
        self._raised: dict[str, set[Accounts]] = {r.name: set() for r in self.rules}
        # Raised flags on their way to a record (:meth:`recording`): not in a memory.
        self._recording: set[tuple[str, Accounts]] = set()

    def observe_hand(self, observation: HandObservation) -> list[Flag]:
        """Count one finished hand; the flags it raises."""
        faced: Faced = {}
        for r in observation.responses:  # once per pair, folded if it folded at all
            faced[r.player, r.raiser] = faced.get((r.player, r.raiser), 0) | r.folded
        chips: Moved = {}
        for t in observation.transfers:
            if t.amount > 0 and t.sender != t.receiver:
                chips[t.sender, t.receiver] = chips.get((t.sender, t.receiver), 0) + t.amount
        return self._count(observation.hand, observation.at, faced, chips, observation.money)

    def observe_events(
        self,
        hand: HandId,
        events: Iterable[Event],
        players: Mapping[int, str],
        net: Mapping[str, int] | None = None,
        at: float = 0.0,
        money: str = "play",
    ) -> list[Flag]:
        """``observe_hand(observe(hand, events, players, at))`` without building the
        observation's objects (what the room does after every hand); ``net``: each
        player's result, if known (the table settled it), else read from the events;
        ``money``: the table's (``play``, ``real``)."""
        if net is None:
            net = _net(events, players)
        return self._count(hand, at, _walk(events, players), _flows(net), money)

    def _count(self, hand: HandId, at: float, faced: Faced, chips: Moved, money: str) -> list[Flag]:
        if at - self._swept >= DAY:
            self._sweep(at)
        flags: list[Flag] = []
        for rule in self.rules:
            if not isinstance(rule, FoldPattern | PotPattern) or not rule.counts(money):
                continue
            if isinstance(rule, FoldPattern):
                flags += self._fold_flags(rule, hand, at, faced)
            else:
                flags += self._pot_flags(rule, hand, at, chips)
        return flags

    @property
    def tracked_addresses(self) -> int:
        """How many (rule, address) pairs the access rules remember."""
        return len(self._seen)

    @property
    def tracked_pairs(self) -> int:
        """How many pairs of accounts the hand rules remember (over all rules)."""
        return sum(map(len, self._folds.values())) + sum(map(len, self._pots.values()))

    def memory(self) -> dict[str, Any]:
        """What the monitor has counted, as JSON values, for the room's next process to
        :meth:`recall` (the windows of weeks would otherwise start empty at every
        restart). Each rule's counts go with the rule's definition."""
        memory: dict[str, Any] = {}
        for _ in self.memory_steps(memory):
            pass
        return memory

    def memory_steps(self, memory: dict[str, Any], pairs: int = 5_000) -> Iterator[None]:
        """Fill ``memory`` with :meth:`memory`, reading ``pairs`` windows at a time with
        a pause (a ``yield``) between, so that a server keeping it as it runs does not
        hold its tables up for seconds: each window is read whole, of the pairs there
        when reading began."""
        rules: dict[str, Any] = {}
        for rule in self.rules:
            name = rule.name
            windows: Mapping[Pair, FoldWindow | PotWindow] | None
            windows = self._folds.get(name, self._pots.get(name))
            found: list[list[Any]] = []
            items: list[tuple[Pair, FoldWindow | PotWindow]] = []
            if windows is not None:  # a hand rule's windows
                items = list(windows.items())
            else:  # an access rule's sightings
                found = [[v, dict(seen)] for (r, v), seen in self._seen.items() if r == name]
            for start in range(0, len(items), pairs):
                found += [[a, b, w.dump()] for (a, b), w in items[start : start + pairs]]
                yield
            held = self._raised[name]
            raised = [list(a) for a in sorted(held) if (name, a) not in self._recording]
            rules[name] = {"rule": dataclasses.asdict(rule), "pairs": found, "raised": raised}
        swept = None if self._swept == float("-inf") else self._swept
        memory.update(v=1, swept=swept, rules=rules)

    def recall(self, memory: Mapping[str, Any]) -> list[str]:
        """Take the counts of a stopped monitor's :meth:`memory`, for each rule defined
        the same way (a rule changed in between starts afresh); the names of the rules
        recalled. ValueError when ``memory`` is not one (nothing is taken then)."""
        try:
            taken, swept = self._read_memory(memory)
        except (KeyError, TypeError, ValueError, AttributeError, OverflowError) as exc:
            raise ValueError(f"not an integrity monitor's memory: {exc!r}") from None
        for name, (windows, raised) in taken.items():
            if name in self._folds:
                self._folds[name] = windows
            elif name in self._pots:
                self._pots[name] = windows
            else:
                self._seen = {k: v for k, v in self._seen.items() if k[0] != name}
                self._seen.update(((name, value), seen) for value, seen in windows.items())
            self._raised[name] = raised
        self._swept = max(self._swept, swept)
        return list(taken)

    def _read_memory(self, memory: Mapping[str, Any]) -> tuple[dict[str, Any], float]:
        if memory["v"] != 1:
            raise ValueError(f"version {memory['v']!r}")
        taken: dict[str, Any] = {}
        for rule in self.rules:
            kept = memory["rules"].get(rule.name)
            if kept is None or kept["rule"] != dataclasses.asdict(rule):
                continue
            windows: dict[Any, Any]
            if isinstance(rule, FoldPattern):
                windows = {_pair(a, b): FoldWindow.load(w) for a, b, w in kept["pairs"]}
            elif isinstance(rule, PotPattern):
                windows = {_pair(a, b): PotWindow.load(w) for a, b, w in kept["pairs"]}
            else:
                windows = {
                    str(value): {str(p): float(at) for p, at in seen.items()}
                    for value, seen in kept["pairs"]
                }
            raised = {tuple(str(a) for a in accounts) for accounts in kept["raised"]}
            taken[rule.name] = (windows, raised)
        swept = memory["swept"]
        return taken, float("-inf") if swept is None else float(swept)

    def observe_access(self, access: Access) -> list[Flag]:
        """Record where a player plays from; the flags it raises."""
        if access.at - self._swept >= DAY:
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
        """Once a day: forget the sightings older than their rule's window, and the pairs
        quiet for longer than their rule's ``forget_days`` (a flag raised on them lapses).
        A room's monitor lives as long as its process, and an address or a pair never
        seen again would otherwise be kept for good."""
        self._swept = now
        access = {r.name: r for r in self.rules if isinstance(r, AccessPattern)}
        for key, seen in list(self._seen.items()):
            self._expire(access[key[0]], seen, now)
            if not seen:
                del self._seen[key]
        for rule in self.rules:
            if isinstance(rule, FoldPattern):
                self._forget_quiet(rule, self._folds[rule.name], now)
            elif isinstance(rule, PotPattern):
                self._forget_quiet(rule, self._pots[rule.name], now)

    def _forget_quiet(
        self, rule: FoldPattern | PotPattern, runs: dict[Pair, _Run], now: float
    ) -> None:
        """Drop ``rule``'s pairs with no hand for its ``forget_days``: a flag raised on
        them lapses (either way round, for a pot rule's pair)."""
        before = now - rule.forget_days * DAY
        raised = self._raised[rule.name]
        for pair in [pair for pair, run in runs.items() if run.last < before]:
            del runs[pair]
            raised.discard(pair)
            raised.discard((pair[1], pair[0]))

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
        self._recording.discard((rule, accounts))

    def recording(self, rule: str, accounts: Accounts) -> None:
        """A flag raised here is being stored (a server writes it after the step that
        raised it): until :meth:`recorded` (or :meth:`forget`), a :meth:`memory` leaves
        it out, so a crash before it is stored leaves it to be raised again by the next
        process rather than kept as raised and in no record."""
        self._recording.add((rule, accounts))

    def recorded(self, rule: str, accounts: Accounts) -> None:
        """The flag :meth:`recording` announced is stored: a memory holds it raised."""
        self._recording.discard((rule, accounts))

    def _moved(self, rule: str, holding: Iterable[_A], lapsed: Iterable[_A]) -> list[_A]:
        """A flag is raised when its condition becomes true, and again only after it
        lapsed. ``holding``: accounts whose condition holds (among those whose counts
        moved); ``lapsed``: raised ones whose condition no longer holds. Returns those
        to flag now, in a fixed order."""
        if not holding and not lapsed:  # most hands: nothing moved
            return []
        raised = self._raised[rule]
        raised.difference_update(lapsed)
        new = sorted(set(holding) - raised)
        raised.update(new)
        return new

    def _fold_flags(self, rule: FoldPattern, hand: HandId, at: float, faced: Faced) -> list[Flag]:
        # Counted once per hand per pair: a pair's condition moves only with its own
        # window, so only the pairs of this hand are looked at.
        runs, raised = self._folds[rule.name], self._raised[rule.name]
        threshold, share, size = rule.threshold, rule.min_share_percent, rule.window
        holding: list[Pair] = []
        lapsed: list[Pair] = []
        for pair, folded in faced.items():
            run = runs.get(pair)
            if run is None:
                run = runs[pair] = FoldWindow()
            folds = run.push(hand, bool(folded), size, threshold, at)
            if folds >= threshold and 100 * folds >= share * run.hands:
                holding.append(pair)
            elif pair in raised:
                lapsed.append(pair)
        flags = []
        for player, raiser in self._moved(rule.name, holding, lapsed):
            run = runs[player, raiser]
            evidence = f"{player} folded to {raiser}'s raises in {run.folds} of {run.hands} hands"
            flags.append(Flag(rule.name, (player, raiser), evidence, tuple(run.recent)))
        return flags

    def _pot_flags(self, rule: PotPattern, hand: HandId, at: float, chips: Moved) -> list[Flag]:
        runs, raised = self._pots[rule.name], self._raised[rule.name]
        moved: dict[Pair, int] = {}  # {A, B} -> the net chips A lost to B
        for (sender, receiver), amount in chips.items():
            if sender < receiver:
                moved[sender, receiver] = moved.get((sender, receiver), 0) + amount
            else:
                moved[receiver, sender] = moved.get((receiver, sender), 0) - amount
        threshold, percent = rule.threshold, rule.min_one_way_percent
        holding: list[Pair] = []
        lapsed: list[Pair] = []
        for key, net in moved.items():
            if not net:
                continue
            run = runs.get(key)
            if run is None:
                run = runs[key] = PotWindow()
            run.push(hand, net, rule.window, threshold, at)
            for way, pair in ((0, key), (1, (key[1], key[0]))):
                if run.holds(way, threshold, percent):
                    holding.append(pair)
                elif pair in raised:
                    lapsed.append(pair)
        flags = []
        for sender, receiver in self._moved(rule.name, holding, lapsed):
            way = int(sender > receiver)
            run = runs[(sender, receiver) if way == 0 else (receiver, sender)]
            net = run.chips[way] - run.chips[1 - way]
            evidence = f"{sender} lost {run.pots[way]} pots to {receiver}, net {net} chips"
            flags.append(Flag(rule.name, (sender, receiver), evidence, tuple(run.recent[way])))
        return flags
