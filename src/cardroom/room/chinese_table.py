"""Chinese poker tables (RULEBOOK §8; issue 13 item 12): OFC, Pineapple and the rest.

A :class:`ChineseTable` seats players with chips, deals a sequence of
:class:`~cardroom.chinese.ChineseHand` s, plays a placement for a player whose
time ran out, carries Fantasyland over to the next hand, and settles each
hand's points into chips at the table's ``point_value``. It is pure: time is
passed in (``now``, seconds), and the money moves it decides are handed to the
ledger by the room (one transaction per settled hand).

**Who is dealt in.** Every seated player with at least ``min_points`` points'
worth of chips (``min_points * point_value``). The button moves to the next
such seat clockwise before each hand (the first hand: the lowest such seat).

**Fantasyland carries over.** A hand's ``fantasyland_next`` (cards to be dealt)
is kept per seat and applied to that seat's next hand, provided the player is
dealt in to the very next hand the table plays; a player who leaves, or is not
dealt in (no chips, sitting out), loses it.

**Settlement (each player's loss limited to the chips on the table).** The
engine scores each seat's net result in chips (points times ``point_value``;
the results sum to zero). Settlement works on these net results:

1. each loser pays ``min(loss, stack)``: never more than the chips on the table;
2. if the losers paid everything owed, each winner gets what it is owed;
3. otherwise each winner gets ``owed * collected // owed_total`` (pro rata to
   what it is owed, rounded down), and the chips left by rounding go one each
   to the winners in seat order clockwise from the button's left (the hand's
   play order), starting again from the first while chips remain.

**Cancelling and restoring (§10.10).** Stacks change only when a hand is
settled, so a hand that cannot finish is cancelled by dropping it
(:meth:`ChineseTable.cancel_hand`): stacks are as at its start, the button
goes back, and the Fantasyland it was dealt with is kept for the next hand.
:meth:`ChineseTable.snapshot` is the table between hands (or at the start of
the current one) as plain data; :meth:`ChineseTable.restore` rebuilds it
without the unfinished hand.

The chips paid equal the chips collected, so the sum of the stacks never
changes, and amounts stay integers. A winner's gain is not capped by its own
stack (only losses are limited).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from cardroom.chinese import ChineseHand, Event, HandSettled, Place, get_variant


@dataclass(frozen=True, slots=True)
class ChineseTableConfig:
    """A Chinese poker table: the game (a key of ``cardroom.chinese.VARIANTS``),
    chips per point, seats, and the time to place a street or set a full hand.

    ``set_seconds``: time to set 13 or more cards (classic, Fantasyland); None
    takes the game's ``arrange_seconds`` (classic: 120) or else 90.
    """

    variant: str
    point_value: int
    max_seats: int | None = None
    min_points: int = 1
    act_seconds: float = 30.0
    set_seconds: float | None = None

    def __post_init__(self) -> None:
        v = get_variant(self.variant)
        if isinstance(self.point_value, bool) or not isinstance(self.point_value, int):
            raise ValueError("point_value is a whole number of chips")
        if self.point_value < 1 or self.min_points < 0:
            raise ValueError("point_value is at least 1 and min_points at least 0")
        if self.max_seats is not None and not 2 <= self.max_seats <= v.max_players:
            raise ValueError(f"{v.name} seats 2 to {v.max_players} players")

    @property
    def seat_count(self) -> int:
        """Seats at the table."""
        return self.max_seats or get_variant(self.variant).max_players


@dataclass(frozen=True, slots=True)
class Settlement:
    """One hand's money: what each seat was owed by the scoring (``owed``) and the
    change made to its stack (``paid``); both by seat."""

    owed: Mapping[int, int]
    paid: Mapping[int, int]

    @property
    def shortfall(self) -> int:
        """Chips the winners were owed but the losers could not cover."""
        return sum(v for v in self.owed.values() if v > 0) - sum(
            v for v in self.paid.values() if v > 0
        )


def settle(owed: Mapping[int, int], stacks: Mapping[int, int], order: Sequence[int]) -> Settlement:
    """Stack changes for net results ``owed`` (summing to zero) when each loss is
    limited to the loser's stack (module docstring); ``order``: seats from the
    button's left."""
    if sum(owed.values()) != 0:
        raise ValueError("a hand's results sum to zero")
    if set(order) != set(owed):
        raise ValueError("the seat order must list exactly the seats settled")
    paid = {s: -min(-v, stacks[s]) for s, v in owed.items() if v < 0}
    collected = -sum(paid.values())
    winners = [s for s in order if owed[s] > 0]
    total = sum(owed[s] for s in winners)
    for s in winners:
        paid[s] = owed[s] * collected // total if total else 0
    left = collected - sum(paid[s] for s in winners)
    for i in range(left):
        paid[winners[i % len(winners)]] += 1
    return Settlement(dict(owed), {s: paid.get(s, 0) for s in order})


@dataclass(slots=True)
class _Seat:
    player: str
    stack: int


class ChineseTable:
    """A Chinese poker table: seats, stacks, button, Fantasyland and the current hand."""

    def __init__(self, config: ChineseTableConfig) -> None:
        self.config = config
        self.variant = get_variant(config.variant)
        self.seats: dict[int, _Seat] = {}
        self.button: int | None = None
        self.hand: ChineseHand | None = None
        self.hands_played = 0
        self.fantasyland: dict[int, int] = {}
        self.last_settlement: Settlement | None = None
        self._deadlines: dict[int, float] = {}
        self._fantasyland_dealt: dict[int, int] = {}
        self._button_before: int | None = None

    # ----------------------------------------------------------- durability
    def snapshot(self) -> dict[str, Any]:
        """The table as JSON-able data, as at the start of the current hand if one is on."""
        fantasyland = self._fantasyland_dealt if self.hand is not None else self.fantasyland
        button = self._button_before if self.hand is not None else self.button
        return {
            "config": asdict(self.config),
            "seats": [[s, seat.player, seat.stack] for s, seat in sorted(self.seats.items())],
            "button": button,
            "fantasyland": [[s, n] for s, n in sorted(fantasyland.items())],
            "hands_played": self.hands_played,
        }

    @classmethod
    def restore(cls, data: Mapping[str, Any]) -> ChineseTable:
        """The table of :meth:`snapshot`, between hands."""
        table = cls(ChineseTableConfig(**data["config"]))
        for seat, player, stack in data["seats"]:
            table.sit(seat, player, stack)
        table.button = data["button"]
        table.fantasyland = {s: n for s, n in data["fantasyland"]}
        table.hands_played = data["hands_played"]
        return table

    def cancel_hand(self) -> None:
        """Void the hand in play: nobody's chips change, Fantasyland stays for the next hand."""
        self._playing()
        self.hand = None
        self._deadlines = {}
        self.button = self._button_before
        self.fantasyland = self._fantasyland_dealt

    # ----------------------------------------------------------------- seating
    @property
    def stacks(self) -> dict[int, int]:
        """Chips on the table by seat."""
        return {s: seat.stack for s, seat in sorted(self.seats.items())}

    def sit(self, seat: int, player: str, chips: int) -> None:
        """Seat ``player`` with ``chips`` brought from the account."""
        if not 0 <= seat < self.config.seat_count:
            raise ValueError(f"this table has seats 0 to {self.config.seat_count - 1}")
        if seat in self.seats:
            raise ValueError(f"seat {seat} is taken")
        if any(s.player == player for s in self.seats.values()):
            raise ValueError(f"{player} is already seated")
        self.seats[seat] = _Seat(player, _chips(chips))

    def add_chips(self, seat: int, chips: int) -> None:
        """Add chips between hands."""
        self._between_hands()
        self.seats[seat].stack += _chips(chips)

    def leave(self, seat: int) -> int:
        """Free ``seat`` between hands; returns the chips to go back to the account."""
        self._between_hands()
        self.fantasyland.pop(seat, None)
        return self.seats.pop(seat).stack

    def dealt_in(self) -> list[int]:
        """Seats with enough chips to be dealt the next hand."""
        need = self.config.min_points * self.config.point_value
        return [s for s, seat in sorted(self.seats.items()) if seat.stack >= max(need, 1)]

    # ------------------------------------------------------------------- hands
    def start_hand(
        self, now: float, *, seed: int | str | None = None, deck: Sequence[int] | None = None
    ) -> list[Event]:
        """Deal the next hand; ValueError if fewer than two players can be dealt in."""
        self._between_hands()
        seats = self.dealt_in()
        if len(seats) < self.variant.min_players:
            raise ValueError("not enough players with chips to deal a hand")
        later = [s for s in seats if self.button is None or s > self.button]
        self._button_before = self.button
        self.button = (later or seats)[0]
        fantasyland = {s: n for s, n in self.fantasyland.items() if s in seats and n}
        self._fantasyland_dealt = fantasyland
        self.fantasyland = {}
        self.hand = ChineseHand.start(
            self.variant,
            seats,
            self.button,
            seed=seed,
            deck=deck,
            fantasyland=fantasyland,
            point_value=self.config.point_value,
        )
        self._deadlines = {}
        self._set_deadlines(now)
        return list(self.hand.events)

    def place(self, action: Place, now: float) -> list[Event]:
        """Apply a player's placement (ChineseError if illegal); settles at the end."""
        hand = self._playing()
        events = hand.apply(action)
        self._deadlines.pop(action.seat, None)
        return self._after(events, now)

    def tick(self, now: float) -> list[Event]:
        """Place automatically for every seat whose time ran out by ``now``."""
        events: list[Event] = []
        while self.hand is not None and not self.hand.finished:
            late = [s for s in self.hand.to_act() if self._deadlines.get(s, now + 1) <= now]
            if not late:
                break
            for seat in late:
                if self.hand is not None and seat in self.hand.to_act():
                    events += self.place(self.hand.timeout_action(seat), now)
        return events

    def deadline(self, seat: int) -> float | None:
        """When ``seat``'s time to place runs out (None: not its turn)."""
        return self._deadlines.get(seat)

    # -------------------------------------------------------------- internals
    def _after(self, events: list[Event], now: float) -> list[Event]:
        hand = self._playing()
        for event in events:
            if isinstance(event, HandSettled):
                self._settle(event, hand.seats)
        if hand.finished:
            self.hand = None
            self.hands_played += 1
            self._deadlines = {}
        else:
            self._set_deadlines(now)
        return events

    def _settle(self, event: HandSettled, order: Sequence[int]) -> None:
        owed = {r.seat: r.chips for r in event.results}
        settlement = settle(owed, self.stacks, order)
        for seat, change in settlement.paid.items():
            self.seats[seat].stack += change
        self.fantasyland = {r.seat: r.fantasyland_next for r in event.results if r.fantasyland_next}
        self.last_settlement = settlement

    def _set_deadlines(self, now: float) -> None:
        hand = self._playing()
        for seat in hand.to_act():
            if seat not in self._deadlines:
                options = hand.legal_actions(seat)
                full = bool(options) and options[0].place >= 13
                self._deadlines[seat] = now + (self._set_seconds() if full else self.act_seconds)

    @property
    def act_seconds(self) -> float:
        """Time to place one street."""
        return self.config.act_seconds

    def _set_seconds(self) -> float:
        if self.config.set_seconds is not None:
            return self.config.set_seconds
        return float(self.variant.arrange_seconds or 90)

    def _playing(self) -> ChineseHand:
        if self.hand is None:
            raise ValueError("no hand is being played")
        return self.hand

    def _between_hands(self) -> None:
        if self.hand is not None:
            raise ValueError("only between hands")


def _chips(chips: int) -> int:
    if isinstance(chips, bool) or not isinstance(chips, int) or chips <= 0:
        raise ValueError(f"chips are a positive whole number, not {chips!r}")
    return chips
