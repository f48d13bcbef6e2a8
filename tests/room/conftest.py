"""Shared helpers for the room tests: a table with funded players and a manual clock."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from cardroom.games import Stakes, TableConfig
from cardroom.ledger import AccountRef, Currency, MemoryLedger, Reason, Transfer
from cardroom.room import commands as cmd
from cardroom.room.clock import ManualClock
from cardroom.room.integrity import IntegrityMonitor
from cardroom.room.kinds import table_type
from cardroom.room.money import money_violations
from cardroom.room.review import review_table
from cardroom.room.settings import TableSettings
from cardroom.room.table import AnyEvent

from .knowledge import Knowledge

FUNDS = 100_000


class Harness:
    """A table, its ledger and clock, and players p0..p9 with ``FUNDS`` each."""

    def __init__(self, settings: TableSettings) -> None:
        self.settings = settings
        self.ledger = MemoryLedger()
        self.clock = ManualClock(1_000_000.0)
        currency = settings.currency
        for i in range(12):
            self.ledger.post(
                Transfer(
                    f"dep:p{i}",
                    Reason.DEPOSIT,
                    AccountRef.cashier(currency),
                    AccountRef.player(f"p{i}", currency),
                    FUNDS,
                )
            )
        self.table = table_type(settings)(settings, self.ledger, self.clock)
        self.knowledge = Knowledge(settings.seat_count)
        self.integrity: IntegrityMonitor | None = None
        """The room's integrity monitor, if any: it reviews the table after each call."""

    def do(self, command: cmd.Command) -> list[AnyEvent]:
        """Handle a command; check the money and that no view leaks a hidden card."""
        out = self.table.handle(command) + self.review()
        self.check(out)
        return out

    def tick(self, seconds: float = 0.0) -> list[AnyEvent]:
        """Advance the clock, tick, check as :meth:`do`."""
        self.clock.advance(seconds)
        out = self.table.tick() + self.review()
        self.check(out)
        return out

    def review(self) -> list[AnyEvent]:
        """The room's integrity review of what the table set aside (its flags)."""
        if self.integrity is None:
            return []
        return review_table(self.integrity, self.table)

    def check(self, events: Sequence[AnyEvent] = ()) -> None:
        """The money invariant, and every event and view as each seat sees it."""
        found = money_violations(
            self.ledger, self.settings.table_id, self.settings.currency, self.table.stacks()
        )
        assert not found, found
        self.knowledge.check_events(events)
        self.knowledge.check_table(self.table)

    def seat(self, players: dict[int, int], **kw: Any) -> None:
        """Seat ``p<seat>`` at each seat with the given buy-in."""
        for s, amount in players.items():
            self.do(cmd.Sit(f"p{s}", s, amount, **kw))

    def balance(self, player: str) -> int:
        return self.ledger.balance(AccountRef.player(player, self.settings.currency))

    @property
    def actor(self) -> str:
        hand = self.table.hand
        assert hand is not None and hand.actor is not None
        seat = self.table.state.seats[hand.actor]
        assert seat is not None
        return seat.player

    def act(self, kind: str, amount: int = 0) -> list[AnyEvent]:
        return self.do(cmd.Act(self.actor, kind, amount))

    def finish_by_checking(self) -> None:
        """Play the current hand out with calls and checks."""
        hand = self.table.hand
        assert hand is not None
        while self.table.state.in_hand:
            legal = hand.legal_actions(hand.actor)  # type: ignore[arg-type]
            if legal.draw is not None:
                self.act("draw")
            elif legal.bring_in is not None:
                self.act("bring_in")
            else:
                self.act("check" if legal.check else "call")


def holdem(table_id: str = "t", **options: Any) -> TableSettings:
    """A 1/2 no-limit hold'em table (buy-in 20..40 by default), hands back to back."""
    config = TableConfig.of("holdem", Stakes.blinds(1, 2), max_seats=options.pop("seats", 6))
    options.setdefault("draw_button", False)  # the tests pin positions: seat 0 first
    options.setdefault("seed", "room-tests")
    return TableSettings.single(table_id, config, **options)


def limit_holdem(table_id: str = "t", **options: Any) -> TableSettings:
    """A 2/4 fixed-limit hold'em table."""
    config = TableConfig.of("holdem", Stakes.limit(2, 4), structure="fixed_limit", max_seats=6)
    options.setdefault("draw_button", False)
    return TableSettings.single(table_id, config, seed="room-tests", **options)


@pytest.fixture
def h() -> Harness:
    """A six-seat NL hold'em play-money table."""
    return Harness(holdem())


REAL = Currency.REAL
