"""The Chinese poker hand as a pure, deterministic state machine.

``ChineseHand.start(...)`` deals from a seeded or CSPRNG deck; ``apply(Place)``
checks a placement, emits events and advances; ``legal_actions(seat)`` says
what a seat may do; ``view(seat)`` is that seat's picture (see
:mod:`cardroom.chinese.views`). All state changes go through one reducer fed
by events, so ``ChineseHand.replay(events)`` rebuilds the state exactly.

Order: open-face games play street by street, each street in turn from the
seat left of the button; a Fantasyland player is dealt the whole hand on the
first street and sets it face down at their turn. Classic players all arrange
at once (face down) and the showdown comes when the last presses Play. Cards
are dealt one at a time, clockwise from the left of the button.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardroom.cards import CARDS, Card, CardError, Deck, Seed
from cardroom.chinese.arrange import BestArrangement, best_arrangement, fill_in_dealt_order
from cardroom.chinese.errors import ChineseError
from cardroom.chinese.events import (
    CardsDealt,
    CardsPlaced,
    Event,
    HandSettled,
    HandStarted,
    Place,
    PlaceOptions,
    SeatResult,
)
from cardroom.chinese.rows import Arrangement
from cardroom.chinese.royalties import RoyaltyTable
from cardroom.chinese.scoring import score_hands
from cardroom.chinese.variants import HAND_SIZE, ROW_SIZES, ROWS, ChineseVariant, get_variant
from cardroom.chinese.views import project_hand


@dataclass
class PlayerState:
    """One seat's cards: rows as placed, cards still to place, own discards."""

    seat: int
    fantasyland: int
    rows: dict[str, list[Card]] = field(default_factory=lambda: {r: [] for r in ROWS})
    pending: tuple[Card, ...] = ()
    pending_street: int = 0
    discards: list[Card] = field(default_factory=list)
    face_down: list[Card] = field(default_factory=list)  # placed cards others cannot see yet
    done: bool = False

    def free(self) -> dict[str, int]:
        """Empty slots per row."""
        return {r: ROW_SIZES[r] - len(self.rows[r]) for r in ROWS}


class ChineseHand:
    """One hand of a Chinese poker game. Build with :meth:`start` or :meth:`replay`."""

    def __init__(self, variant: ChineseVariant) -> None:
        self.variant = variant
        self.events: list[Event] = []
        self.seats: tuple[int, ...] = ()
        self.button = 0
        self.point_value = 1
        self.royalties: RoyaltyTable = variant.royalties
        self.deck: tuple[Card, ...] = ()
        self.dealt = 0
        self.street = 0
        self.players: dict[int, PlayerState] = {}
        self.results: tuple[SeatResult, ...] | None = None

    # ----------------------------------------------------------------- building
    @classmethod
    def start(
        cls,
        variant: ChineseVariant | str,
        seats: Sequence[int],
        button: int,
        *,
        seed: int | str | bytes | None = None,
        deck: Sequence[int] | None = None,
        fantasyland: Mapping[int, int] | None = None,
        point_value: int = 1,
        royalties: RoyaltyTable | None = None,
    ) -> ChineseHand:
        """Start a hand: seats taking part, the button, the deck (seeded, given or CSPRNG).

        ``fantasyland`` maps seats to the cards they get in Fantasyland this hand.
        """
        v = get_variant(variant) if isinstance(variant, str) else variant
        order = _play_order(v, seats, button)
        fl = dict(fantasyland or {})
        _check_fantasyland(v, order, fl)
        if isinstance(point_value, bool) or not isinstance(point_value, int) or point_value < 0:
            raise ChineseError(f"point_value must be an integer >= 0, got {point_value!r}")
        cards = _deck(seed, deck)
        need = sum(fl.get(s) or v.cards_per_player for s in order)
        if need > len(cards):
            raise ChineseError(f"{len(order)} players need {need} cards; the deck has {len(cards)}")
        hand = cls(v)
        started = HandStarted(
            variant=v.key,
            seats=order,
            button=button,
            fantasyland=tuple(fl.get(s, 0) for s in order),
            point_value=point_value,
            deck=cards,
            royalties=royalties.to_dict() if royalties is not None else None,
        )
        hand._emit([started])
        hand._emit(hand._deal(0))
        return hand

    @classmethod
    def replay(cls, events: Iterable[Event], variant: ChineseVariant | None = None) -> ChineseHand:
        """Rebuild a hand from its events (``variant`` for one not in the registry)."""
        events = list(events)
        if not events or not isinstance(events[0], HandStarted):
            raise ChineseError("a hand's events begin with HandStarted")
        hand = cls(variant or get_variant(events[0].variant))
        for event in events:
            hand._reduce(event)
        return hand

    # ------------------------------------------------------------------ queries
    @property
    def finished(self) -> bool:
        """True once the hand is settled."""
        return self.results is not None

    def to_act(self) -> tuple[int, ...]:
        """Seats that may place now (all waiting players in classic, one seat otherwise)."""
        if self.finished:
            return ()
        waiting = [s for s in self.seats if self.players[s].pending]
        return tuple(waiting) if self.variant.simultaneous else tuple(waiting[:1])

    def legal_actions(self, seat: int) -> list[PlaceOptions]:
        """What ``seat`` may do now: one :class:`PlaceOptions`, or nothing."""
        if seat not in self.to_act():
            return []
        p = self.players[seat]
        place, discard = self._placing(p)
        return [PlaceOptions(seat, p.pending, place, discard, p.free(), self._face_down(p))]

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator)."""
        return project_hand(self, seat)

    def timeout_action(self, seat: int) -> Place:
        """The placement the room makes for a seat whose time ran out.

        Fantasyland: the best arrangement. Classic and open-face streets: cards
        go back row first, left to right, in dealt order; the last dealt are
        discarded (Pineapple).
        """
        options = self.legal_actions(seat)
        if not options:
            raise ChineseError(f"seat {seat} has nothing to place")
        p = self.players[seat]
        if p.fantasyland:
            best = self._best(p)
            a = best.arrangement
            return Place(seat, a.top, a.middle, a.bottom, best.discards)
        rows, discards = fill_in_dealt_order(p.pending, p.free(), options[0].discard)
        return Place(seat, rows["top"], rows["middle"], rows["bottom"], discards)

    def hint(self, seat: int) -> Place | None:
        """The best arrangement of a full hand still to set (classic, Fantasyland), else None."""
        p = self.players.get(seat)
        if p is None or len(p.pending) < HAND_SIZE:
            return None
        best = self._best(p)
        a = best.arrangement
        return Place(seat, a.top, a.middle, a.bottom, best.discards)

    def _best(self, p: PlayerState) -> BestArrangement:
        """The best arrangement of ``p``'s cards under this hand's own royalty table."""
        fantasyland = bool(p.fantasyland)
        return best_arrangement(
            self.variant, p.pending, in_fantasyland=fantasyland, royalties=self.royalties
        )

    def state(self) -> dict[str, Any]:
        """The whole state as plain data (hidden cards included): replays compare equal on it."""
        return {
            "variant": self.variant.key,
            "seats": self.seats,
            "button": self.button,
            "point_value": self.point_value,
            "royalties": self.royalties.to_dict(),
            "deck": self.deck,
            "dealt": self.dealt,
            "street": self.street,
            "players": {
                s: vars(p).copy() | {"rows": dict(p.rows)} for s, p in self.players.items()
            },
            "results": self.results,
        }

    # ----------------------------------------------------------------- actions
    def apply(self, action: Place) -> list[Event]:
        """Check and make a placement; returns the events. Raises :class:`ChineseError`
        (state unchanged) for an action out of turn or cards that do not fit."""
        if not isinstance(action, Place):
            raise ChineseError(f"{action!r} is not a Chinese poker action")
        self._check(action)
        p = self.players[action.seat]
        placed = CardsPlaced(
            seat=action.seat,
            street=p.pending_street,
            top=_as_cards(action.top),
            middle=_as_cards(action.middle),
            bottom=_as_cards(action.bottom),
            discarded=_as_cards(action.discard),
            face_down=self._face_down(p),
        )
        before = len(self.events)
        self._emit([placed])
        self._advance()
        return self.events[before:]

    def _check(self, action: Place) -> None:
        if self.finished:
            raise ChineseError("the hand is over")
        seat = action.seat
        if seat not in self.players:
            raise ChineseError(f"seat {seat} is not in this hand")
        if seat not in self.to_act():
            raise ChineseError(f"it is not seat {seat}'s turn to place")
        p = self.players[seat]
        for part in (*ROWS, "discard"):
            if not isinstance(getattr(action, part), tuple):
                raise ChineseError(f"{part} must be a tuple of cards (use Place.of for names)")
        given = action.placed + action.discard
        for c in given:
            if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < 52:
                raise ChineseError(f"{c!r} is not a card")
        if len(set(given)) != len(given):
            raise ChineseError("a card is used twice in the placement")
        if set(given) != set(p.pending):
            extra = sorted(set(given) - set(p.pending))
            if extra:
                raise ChineseError(f"card {CARDS[extra[0]]} is not among the cards to place")
            missing = sorted(set(p.pending) - set(given))
            raise ChineseError(f"card {CARDS[missing[0]]} must be placed or discarded")
        discard = self._placing(p)[1]
        if len(action.discard) != discard:
            raise ChineseError(f"discard exactly {discard} card(s), not {len(action.discard)}")
        free = p.free()
        for row in ROWS:
            n = len(getattr(action, row))
            if n > free[row]:
                raise ChineseError(f"the {row} row has room for {free[row]} more, not {n}")

    # ------------------------------------------------------------- internals
    def _placing(self, p: PlayerState) -> tuple[int, int]:
        """(cards to place, cards to discard) for what ``p`` holds now."""
        if p.fantasyland or self.variant.simultaneous:
            return HAND_SIZE, len(p.pending) - HAND_SIZE
        street = self.variant.streets[p.pending_street]
        return street.place, street.discard

    def _face_down(self, p: PlayerState) -> bool:
        return bool(p.fantasyland) or not self.variant.open_face

    def _emit(self, events: Iterable[Event]) -> None:
        for event in events:
            self._reduce(event)

    def _advance(self) -> None:
        """After a placement: next street's deal, or the showdown when every hand is set."""
        if self.to_act():
            return
        next_street = self.street + 1
        if next_street < len(self.variant.streets) and any(
            not p.done for p in self.players.values()
        ):
            self._emit(self._deal(next_street))
        if not self.to_act():
            self._emit([self._settle()])

    def _deal(self, street: int) -> list[Event]:
        """Deal a street one card at a time, clockwise from the left of the button."""
        counts: dict[int, int] = {}
        for s in self.seats:
            p = self.players[s]
            if street == 0:
                counts[s] = p.fantasyland or self.variant.streets[0].deal
            elif not p.done:
                counts[s] = self.variant.streets[street].deal
        got: dict[int, list[Card]] = {s: [] for s in counts}
        pos = self.dealt
        for round_ in range(max(counts.values(), default=0)):
            for s in counts:
                if round_ < counts[s]:
                    got[s].append(self.deck[pos])
                    pos += 1
        return [CardsDealt(s, street, tuple(got[s])) for s in counts]

    def _settle(self) -> HandSettled:
        arrangements = [
            Arrangement(*(tuple(self.players[s].rows[r]) for r in ROWS)) for s in self.seats
        ]
        scores = score_hands(
            self.variant,
            arrangements,
            in_fantasyland=[bool(self.players[s].fantasyland) for s in self.seats],
            point_value=self.point_value,
            royalties=self.royalties,
        )
        return HandSettled(
            tuple(
                SeatResult(
                    seat=s,
                    top=a.top,
                    middle=a.middle,
                    bottom=a.bottom,
                    fouled=r.fouled,
                    royalties=dict(r.royalties),
                    points=r.points,
                    chips=r.chips,
                    fantasyland_next=r.fantasyland_next,
                )
                for s, a, r in zip(self.seats, arrangements, scores, strict=True)
            )
        )

    def _reduce(self, event: Event) -> None:
        """The only place state changes: fold one event in."""
        if isinstance(event, HandStarted):
            self.seats, self.button = event.seats, event.button
            self.point_value, self.deck = event.point_value, event.deck
            if event.royalties is not None:
                self.royalties = RoyaltyTable.from_dict(event.royalties)
            self.players = {
                s: PlayerState(s, n) for s, n in zip(event.seats, event.fantasyland, strict=True)
            }
        elif isinstance(event, CardsDealt):
            p = self.players[event.seat]
            p.pending, p.pending_street = event.cards, event.street
            self.dealt += len(event.cards)
            self.street = event.street
        elif isinstance(event, CardsPlaced):
            p = self.players[event.seat]
            for row in ROWS:
                p.rows[row].extend(getattr(event, row))
            p.discards.extend(event.discarded)
            if event.face_down:
                p.face_down.extend(event.top + event.middle + event.bottom)
            p.pending = ()
            p.done = sum(len(cs) for cs in p.rows.values()) == HAND_SIZE
        else:
            self.results = event.results
        self.events.append(event)


def _play_order(v: ChineseVariant, seats: Sequence[int], button: int) -> tuple[int, ...]:
    if len(set(seats)) != len(seats):
        raise ChineseError("a seat appears twice")
    if not v.min_players <= len(seats) <= v.max_players:
        raise ChineseError(
            f"{v.name} takes {v.min_players} to {v.max_players} players, not {len(seats)}"
        )
    ordered = sorted(seats)
    return tuple([s for s in ordered if s > button] + [s for s in ordered if s <= button])


def _check_fantasyland(v: ChineseVariant, order: Sequence[int], fl: Mapping[int, int]) -> None:
    for seat, n in fl.items():
        if seat not in order:
            raise ChineseError(f"seat {seat} is in Fantasyland but not in the hand")
        if not n:
            continue
        if v.fantasyland is None:
            raise ChineseError(f"{v.name} has no Fantasyland")
        if n not in v.fantasyland.deal_sizes:
            sizes = ", ".join(map(str, sorted(v.fantasyland.deal_sizes)))
            raise ChineseError(f"a {v.name} Fantasyland deal is {sizes} cards, not {n}")


def _deck(seed: Seed | None, deck: Sequence[int] | None) -> tuple[Card, ...]:
    if deck is None:
        try:
            return Deck.standard(seed).cards  # the package's one seeded shuffle
        except CardError as exc:  # a seed of the wrong type
            raise ChineseError(str(exc)) from None
    if seed is not None:
        raise ChineseError("give a seed or a deck, not both")
    cards = []
    for c in deck:
        if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < 52:
            raise ChineseError(f"{c!r} in the deck is not a card")
        cards.append(CARDS[c])
    if len(set(cards)) != len(cards):
        raise ChineseError("the deck holds the same card twice")
    return tuple(cards)


def _as_cards(cards: tuple[int, ...]) -> tuple[Card, ...]:
    """Checked ints as Card objects, so events always print in card notation."""
    return tuple(CARDS[c] for c in cards)
