"""Headless sessions: random players at a table, for property tests and ``cardroom simulate``.

A :class:`Session` owns a memory ledger, a manual clock and one table, and plays
random commands: sitting down, leaving, sitting out and in, rebuys, the waiting
list, actions, advance actions, timeouts (by letting the clock run),
disconnections and reconnections. After every command it can check the money
invariant (:func:`~cardroom.room.money.money_violations`). Counters tally what
the rules did (dead blinds posted, timeouts, disconnect all-ins, rake...).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from cardroom.cards import Card
from cardroom.games import Hand, Stakes, TableConfig, get_variant
from cardroom.games import events as hev
from cardroom.games.variants import BLINDS, BUTTON_BLIND, FIXED_LIMIT, VARIANTS
from cardroom.ledger import AccountRef, Currency, MemoryLedger, Reason, Transfer
from cardroom.room import commands as cmd
from cardroom.room import events as rv
from cardroom.room.clock import ManualClock
from cardroom.room.errors import TableError
from cardroom.room.money import money_violations
from cardroom.room.rotation import CUSTOM_MIXED, EIGHT_GAME, HORSE, custom_mixed, eight_game, horse
from cardroom.room.settings import TableSettings
from cardroom.room.table import AnyEvent, Table


def config_for(game: str) -> TableConfig:
    """A small-stakes configuration of ``game`` (its usual structure)."""
    variant = get_variant(game)
    if variant.forced_bets == BUTTON_BLIND:
        return TableConfig(variant, Stakes.short_deck(2))
    if variant.forced_bets != BLINDS:
        return TableConfig(variant, Stakes.limit(4, 8, ante=1))
    if variant.structure == FIXED_LIMIT:
        return TableConfig(variant, Stakes.limit(4, 8))
    return TableConfig(variant, Stakes.blinds(2, 4))


GAMES: tuple[str, ...] = tuple(VARIANTS)
"""Every game a table can play (the engine's variants)."""


def mixed_settings(
    table_id: str, kind: str, hands_per_game: int = 8, **options: Any
) -> TableSettings:
    """A HORSE, 8-Game or CUSTOM_MIXED table at 4/8."""
    if kind == HORSE:
        rotation = horse(4, hands_per_game)
    elif kind == EIGHT_GAME:
        rotation = eight_game(4, hands_per_game)
    else:
        rotation = custom_mixed(4, hands_per_game=hands_per_game)
    return TableSettings.with_rotation(table_id, rotation, **options)


_LINES = ("nice hand", "gl all", "I have pocket aces", "play at www.example.com", "ty")
"""What the random players say (some lines the chat blocks)."""


@dataclass
class Session:
    """One table with random players; see the module docstring."""

    settings: TableSettings
    seed: int
    players: int = 12
    check_money: bool = True
    full_check: bool = True
    """Replay every ledger entry at each check (False: balances only; see money_violations)."""
    counters: Counter[str] = field(default_factory=Counter)
    record: list[AnyEvent] = field(default_factory=list)
    journal: list[cmd.Command | None] = field(default_factory=list)
    """The last step's commands in order (None: a clock tick), to replay elsewhere."""

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.clock = ManualClock(1_000_000.0)
        self.ledger = MemoryLedger()
        currency = self.settings.currency
        self.names = [f"p{i}" for i in range(self.players)]
        for name in self.names:
            self.ledger.post(
                Transfer(
                    f"deposit:{name}",
                    Reason.DEPOSIT,
                    AccountRef.cashier(currency),
                    AccountRef.player(name, currency),
                    1_000_000,
                )
            )
        self.table = Table(self.settings, self.ledger, self.clock)
        self.violations: list[str] = []

    # ---------------------------------------------------------------- driving

    def run(self, hands: int, max_steps: int = 200_000) -> None:
        """Play until ``hands`` hands have finished (or the step budget is spent)."""
        steps = 0
        while self.counters["hands"] < hands and steps < max_steps:
            self.step()
            steps += 1

    def step(self) -> list[AnyEvent]:
        """One random command or clock tick; returns its events."""
        r = self.rng.random()
        self.journal = []
        try:
            if r < 0.55 and self.table.hand is not None and self.table.state.in_hand:
                events = self._play()
            elif r < 0.75:
                self.clock.advance(self.rng.choice((0.5, 2, 5, 31, 65)))
                events = self._tick()
            else:
                events = self._handle(self._random_command())
        except TableError as exc:
            self.counters[f"refused:{exc.code}"] += 1
            events = []
        self._tally(events)
        if self.check_money:
            self.check()
        return events

    def _tick(self) -> list[AnyEvent]:
        self.journal.append(None)
        return self.table.tick()

    def _handle(self, command: cmd.Command) -> list[AnyEvent]:
        self.journal.append(command)
        return self.table.handle(command)

    def check(self) -> None:
        """Check the money invariant now; what is wrong goes to ``violations``."""
        found = money_violations(
            self.ledger,
            self.settings.table_id,
            self.settings.currency,
            self.table.stacks(),
            full=self.full_check,
        )
        self.violations.extend(found)

    def _play(self) -> list[AnyEvent]:
        hand = self.table.hand
        assert hand is not None
        actor = hand.actor
        if actor is None:
            return self._tick()
        seat = self.table.state.seats[actor]
        assert seat is not None
        roll = self.rng.random()
        if roll < 0.03:
            return self._handle(cmd.Disconnect(seat.player))
        if roll < 0.06:
            self.clock.advance(self.settings.action_seconds + 1)
            return self._tick()
        return self._handle(self._random_action(hand, actor, seat.player))

    def _random_action(self, hand: Hand, actor: int, player: str) -> cmd.Act:
        legal = hand.legal_actions(actor)
        rng = self.rng
        if legal.draw is not None:
            held = list(hand.hole_cards(actor))
            k = rng.randint(legal.draw_min, min(legal.draw, len(held)))
            discards: tuple[Card, ...] = tuple(rng.sample(held, k))
            return cmd.Act(player, "draw", cards=discards)
        choices = [k for k in legal.kinds if k not in ("bring_in", "draw")]
        if legal.bring_in is not None and (not choices or rng.random() < 0.7):
            return cmd.Act(player, "bring_in")
        if len(choices) > 1 and "fold" in choices and rng.random() < 0.6:
            choices.remove("fold")  # fewer folds: hands reach the flop and the rake
        kind = rng.choice(choices)
        if kind == "raise":
            lo, hi = legal.min_raise_to, legal.max_raise_to
            assert lo is not None and hi is not None
            sizes = legal.raise_sizes or (lo, hi, (lo + hi) // 2)
            return cmd.Act(player, "raise", rng.choice(sizes))
        return cmd.Act(player, kind)

    def _random_command(self) -> cmd.Command:
        rng, table = self.rng, self.table
        player = rng.choice(self.names)
        s = table.state.seat_of(player)
        low, high = table.settings.buy_in_range
        amount = rng.randint(low, high if high is not None else 3 * low)
        if s is None:
            options: list[cmd.Command] = [
                cmd.Sit(player, rng.randrange(len(table.state.seats)), amount, rng.random() < 0.5),
                cmd.JoinWaitlist(player),
                cmd.LeaveWaitlist(player),
            ]
            if player in table.state.offers:
                options.append(cmd.Sit(player, table.state.offers[player].seat, amount))
            return rng.choice(options)
        kinds = ("check_fold", "check", "call_any", "fold")
        options = [
            cmd.Leave(player) if rng.random() < 0.3 else cmd.SitIn(player, rng.random() < 0.5),
            cmd.SitOut(player),
            cmd.SitIn(player, rng.random() < 0.5),
            cmd.Rebuy(player, rng.randint(1, max(1, low))),
            cmd.SetAdvance(player, rng.choice(kinds)),
            cmd.Reconnect(player),
            cmd.Reconnect(player),
            cmd.ResetAllowance(player),
            cmd.Say(player, rng.choice(_LINES)),
        ]
        return rng.choice(options)

    # --------------------------------------------------------------- counting

    def _tally(self, events: list[AnyEvent]) -> None:
        c = self.counters
        self.record.extend(events)
        for e in events:
            if isinstance(e, rv.HandFinished):
                c["hands"] += 1
                c["rake"] += e.rake
            elif isinstance(e, rv.HandVoided):
                c["hands_voided"] += 1
            elif isinstance(e, rv.TimedOut):
                c["disconnect_timeouts" if e.disconnected else "timeouts"] += 1
            elif isinstance(e, rv.DisconnectAllInUsed):
                c["disconnect_all_ins"] += 1
            elif isinstance(e, rv.HandDealt):
                c["missed_big_blinds"] += len(e.missed)
            elif isinstance(e, rv.PlayerLeft):
                c[f"left_{e.reason}"] += 1
            elif isinstance(e, rv.ChipsAdded):
                c["rebuys"] += 1
            elif isinstance(e, rv.SeatOffered):
                c["seats_offered"] += 1
            elif isinstance(e, rv.AdvanceCleared):
                c[f"advance_{e.reason}"] += 1
            elif isinstance(e, hev.Posted) and e.what == "dead_small_blind":
                c["dead_small_blinds"] += 1
            elif isinstance(e, rv.SatOut):
                c[f"sat_out_{e.reason}"] += 1
            elif isinstance(e, rv.ChatSaid):
                c["chat_lines"] += 1
            elif isinstance(e, rv.ChatBlocked):
                c[f"chat_blocked_{e.code}"] += 1

    def money_total(self) -> int:
        """Deposits minus withdrawals: what accounts, tables and the house hold together."""
        currency = self.settings.currency
        return -self.ledger.balance(AccountRef.cashier(currency))


def random_settings(rng: random.Random, table_id: str, **options: Any) -> TableSettings:
    """A table of a random game (or a HORSE / 8-Game rotation), play or real money."""
    currency = rng.choice((Currency.PLAY, Currency.REAL))
    roll = rng.random()
    base: dict[str, Any] = {"currency": currency, **options}
    if roll < 0.15:
        kind = rng.choice((HORSE, EIGHT_GAME, CUSTOM_MIXED))
        return mixed_settings(table_id, kind, hands_per_game=3, **base)
    game = rng.choice(GAMES)
    config = config_for(game)
    seats = rng.randint(2, config.seat_limit)
    return TableSettings(
        table_id, (TableConfig(config.variant, config.stakes, max_seats=seats),), **base
    )


def settings_for_index(i: int, seed: int, rng: random.Random) -> TableSettings:
    """Table ``i`` of a simulation: every game in turn, every eighth table a mixed
    rotation (HORSE, 8-Game, CUSTOM_MIXED in turn), play or real money at random."""
    currency = rng.choice((Currency.PLAY, Currency.REAL))
    table_id, deck_seed = f"sim{i}", f"{seed}:{i}"
    if i % 8 == 7:
        kind = (HORSE, EIGHT_GAME, CUSTOM_MIXED)[(i // 8) % 3]
        return mixed_settings(table_id, kind, 3, currency=currency, seed=deck_seed)
    config = config_for(GAMES[(i - (i + 1) // 8) % len(GAMES)])
    seats = rng.randint(2, config.seat_limit)
    config = TableConfig(config.variant, config.stakes, max_seats=seats)
    return TableSettings(table_id, (config,), currency=currency, seed=deck_seed)


@dataclass
class Summary:
    """What a simulation did, and whether every invariant held."""

    tables: int = 0
    hands: int = 0
    games: Counter[str] = field(default_factory=Counter)
    counters: Counter[str] = field(default_factory=Counter)
    rake: Counter[str] = field(default_factory=Counter)
    violations: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        """The summary as JSON data."""
        return {
            "tables": self.tables,
            "hands": self.hands,
            "games": dict(sorted(self.games.items())),
            "counters": dict(sorted(self.counters.items())),
            "rake": dict(self.rake),
            "money_invariant": "held" if not self.violations else "broken",
            "violations": self.violations[:20],
        }


def simulate(tables: int, hands: int, seed: int, check_every_command: bool = True) -> Summary:
    """Play ``tables`` headless tables of ``hands`` hands each; check the money after
    every command (balances) and in full at the end, after closing every table."""
    rng = random.Random(seed)
    summary = Summary()
    for i in range(tables):
        settings = settings_for_index(i, seed, rng)
        session = Session(
            settings, seed=seed * 100_003 + i, check_money=check_every_command, full_check=False
        )
        session.run(hands, max_steps=400 * hands)
        try:
            session.table.close()
        except TableError as exc:  # chips the ledger does not have: the money is wrong
            session.violations.append(f"closing the table: {exc}")
        session.check_money, session.full_check = True, True
        session.check()  # the final, full check
        currency = settings.currency
        balances = sum(
            session.ledger.balance(AccountRef.player(p, currency)) for p in session.names
        )
        house = session.ledger.balance(AccountRef.rake(currency))
        if balances + house != session.money_total():
            session.violations.append(f"{settings.table_id}: accounts + house != deposits")
        summary.tables += 1
        summary.hands += session.counters["hands"]
        name = settings.mixed.badge if settings.mixed else settings.games[0].variant.name
        summary.games[name] += session.counters["hands"]
        summary.counters.update(
            {k: v for k, v in session.counters.items() if not k.startswith("refused")}
        )
        summary.counters["refused_commands"] += sum(
            v for k, v in session.counters.items() if k.startswith("refused")
        )
        summary.rake[currency.value] += session.counters["rake"]
        summary.violations += [f"{settings.table_id}: {v}" for v in session.violations]
    summary.counters.pop("hands", None)
    summary.counters.pop("rake", None)
    return summary
