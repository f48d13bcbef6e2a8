"""Oracles of the room's invariants for random sessions (the tests, ``cardroom simulate``).

- :class:`Knowledge`, per-seat secrecy (RULEBOOK §12): the cards each seat (and a
  spectator) may have seen so far in the hand, learnt from the hand's events alone
  (dealt to the seat, dealt face up, on the board, shown; in Chinese poker placed face
  up or shown at the showdown); every event's projection and every table view a
  viewer gets must name no other card.
- :class:`BlindOrder`, the blinds of §10.3–§10.4 between two hands of a blind game: a
  player who stays does not post the big blind twice running; the big blind skips
  nobody who stayed dealt in (except one posting to come in); nobody posts to come
  in on the button. A player who left and sat down again did not stay: he is a
  newcomer (and at a table all its players left, a new game draws for the button).

Each ``check`` returns what is wrong as text (empty: all held).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import is_dataclass
from typing import TYPE_CHECKING, Any, Final, get_args, get_type_hints

from cardroom.cards import Card
from cardroom.chinese import CardsDealt, CardsPlaced, HandSettled
from cardroom.games import events as hev
from cardroom.games.variants import BLINDS
from cardroom.room import events as rv
from cardroom.room.positions import between
from cardroom.room.views import project

if TYPE_CHECKING:
    from cardroom.room.table import Table

CARD: Final = re.compile(r"'([2-9TJQKA][cdhs])'")
"""A card as the views and projections hold it (a string such as ``"Ah"``), in the
``repr`` of the data (twice as fast to write as its JSON, and the same strings)."""


_HOLDS_CARDS: dict[type[Any], bool] = {}


def holds_cards(kind: type[Any]) -> bool:
    """True when an event of type ``kind`` may hold a card (a field typed with cards, also
    inside the dataclasses it holds; a field typed ``Any`` might): only then can a
    projection of it (a function of the event and the seat) name one."""
    found = _HOLDS_CARDS.get(kind)
    if found is None:
        found = _HOLDS_CARDS[kind] = _may_hold_cards(kind, set())
    return found


def _may_hold_cards(hint: Any, seen: set[type]) -> bool:
    if hint is Card or hint is Any or hint is object:
        return True
    args = get_args(hint)
    if args:
        return any(_may_hold_cards(a, seen) for a in args if a is not Ellipsis)
    if isinstance(hint, type) and is_dataclass(hint):
        if hint in seen:
            return False
        seen.add(hint)
        try:
            hints = get_type_hints(hint)
        except (NameError, TypeError):  # names it cannot resolve: assume the worst
            return True
        return any(_may_hold_cards(h, seen) for h in hints.values())
    return False


class Knowledge:
    """The cards each seat (and a spectator, None) may have seen so far this hand."""

    def __init__(self, seats: int) -> None:
        self.viewers: list[int | None] = [None, *range(seats)]
        self.known: dict[int | None, set[str]] = {v: set() for v in self.viewers}

    def learn(self, e: object) -> None:
        """What ``e`` shows to whom."""
        if isinstance(e, rv.HandDealt):
            self.known = {v: set() for v in self.viewers}
        elif isinstance(e, hev.HoleDealt):
            self._add([e.seat], e.cards)
            self._add(self.viewers, [c for c, up in zip(e.cards, e.up, strict=True) if up])
        elif isinstance(e, hev.BoardDealt | hev.Shown):
            self._add(self.viewers, e.cards)
        elif isinstance(e, hev.Drew):
            self._add([e.seat], e.dealt)
        elif isinstance(e, CardsDealt):  # Chinese poker: one's own cards to place
            self._add([e.seat], e.cards)
        elif isinstance(e, CardsPlaced) and not e.face_down:  # open face: public once placed
            self._add(self.viewers, e.top + e.middle + e.bottom)
        elif isinstance(e, HandSettled):  # the showdown shows every row, never discards
            for r in e.results:
                self._add(self.viewers, r.top + r.middle + r.bottom)

    def _add(self, viewers: Sequence[int | None], cards: Iterable[Any]) -> None:
        names = [str(c if type(c) is Card else Card(c)) for c in cards]
        for v in viewers:
            self.known[v].update(names)

    def leaks(self, data: Any, viewer: int | None, where: str) -> list[str]:
        """The cards in ``data`` (JSON-able) that ``viewer`` may not have seen."""
        leaked = set(CARD.findall(repr(data))) - self.known[viewer]
        return [f"{where}: seat {viewer} sees {sorted(leaked)}"] if leaked else []

    def check_events(
        self,
        events: Iterable[Any],
        seats: Iterable[int] | None = None,
        sample: random.Random | None = None,
    ) -> list[str]:
        """Learn from each event, then check it as a spectator and every seat see it
        (``seats``: only those seats, e.g. the occupied ones). With ``sample`` (a random
        source; a cheaper check for long runs) only as the spectator, the event's own
        seat and one other of ``seats`` picked at random. Only events that may hold a
        card are projected (:func:`holds_cards`: none of the table's own)."""
        others = list(self.viewers[1:] if seats is None else seats)
        found: list[str] = []
        for e in events:
            self.learn(e)
            if not holds_cards(type(e)):  # a projection is made from its event alone
                continue
            viewers: list[int | None] = [None, *others]
            if sample is not None:
                own = getattr(e, "seat", None)
                rest = [s for s in others if s != own]
                viewers = [None, *({own} & set(others)), *(sample.choice(rest) for _ in rest[:1])]
            for viewer in viewers:
                found += self.leaks(project(e, viewer), viewer, type(e).__name__)
        return found

    def check_table(self, table: Table, sample: random.Random | None = None) -> list[str]:
        """Check the table view of every seated player and of a spectator (with
        ``sample``: of the spectator and one seated player picked at random)."""
        seated = [(s, seat.player) for s, seat in enumerate(table.state.seats) if seat]
        if sample is not None and seated:
            seated = [sample.choice(seated)]
        found: list[str] = []
        for s, player in seated:
            found += self.leaks(table.view(player), s, "table view")
        return found + self.leaks(table.view(None), None, "spectator view")


class BlindOrder:
    """Follows a table's deals and checks each blind-game hand against the one before."""

    def __init__(self) -> None:
        self.last: rv.HandDealt | None = None
        self.players: dict[int, str] = {}
        self.before: tuple[rv.HandDealt | None, dict[int, str]] = (None, {})
        """The deal before the last, and its players: where a cancelled hand leaves."""

    def void(self) -> None:
        """The last hand was cancelled (§10.10): as if it had never been dealt."""
        self.last, self.players = self.before

    def left(self, seat: int) -> None:
        """The player of ``seat`` left: sitting down again, he is a newcomer."""
        self.players.pop(seat, None)

    def check(self, table: Table, e: rv.HandDealt) -> list[str]:
        """Check the deal ``e`` (just emitted by ``table``) against the previous one."""
        found: list[str] = []
        players = {s: x.player for s, x in enumerate(table.state.seats) if x is not None}
        blinds = table.settings.games[e.game].variant.forced_bets == BLINDS
        posts = dict(e.posts)
        where = f"hand {e.hand_no}"
        if blinds and e.button in posts:
            found.append(f"{where}: seat {e.button} posted to come in on the button")
        last = self.last
        if (
            blinds
            and last is not None
            and table.settings.games[last.game].variant.forced_bets == BLINDS
        ):
            n = len(table.state.seats)
            stayed = {s for s, p in players.items() if self.players.get(s) == p}
            if e.bb == last.bb and e.bb in stayed:
                found.append(f"{where}: seat {e.bb} posts the big blind twice running")
            for s in set(e.dealt) & set(last.dealt) & stayed - posts.keys():
                if between(last.bb, s, e.bb, n):
                    found.append(f"{where}: the big blind skipped seat {s}")
        self.before = (self.last, self.players)
        if not e.debts_kept:  # HORSE's frozen stud rounds: the next blind hand follows
            self.last, self.players = e, players  # the last one before them
        return found
