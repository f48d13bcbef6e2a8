"""Headless sessions: random players at a table, for property tests and ``cardroom simulate``.

A :class:`Session` owns a memory ledger, a manual clock and one table (a poker table
or a Chinese poker table), and plays random commands: sitting down (each player from
his own IP address, two pairs of players sharing one), leaving, sitting out and in,
rebuys, the waiting list, actions and placements, advance actions, timeouts (by
letting the clock run), disconnections and reconnections, chat, and now and then a
hand that cannot finish and is cancelled (§10.10: the next is dealt as it was). Some players step
away for a few hands and come back posting what they missed (so dead small blinds
are posted). A session is a room of one table: after every command its
integrity review (one monitor, the shipped rules, :mod:`cardroom.room.review`) sees
what the table settled, and its flags are recorded at the table.

After every command it can check the money invariant
(:func:`~cardroom.room.money.money_violations`), per-seat secrecy of every event and
view (:class:`~cardroom.room.checks.Knowledge`) and the order of the blinds
(:class:`~cardroom.room.checks.BlindOrder`); what broke goes to ``violations``,
prefixed ``money:``, ``secrecy:`` or ``blind order:``. Counters tally what the rules
did (:data:`COUNTERS`: dead blinds posted, timeouts, disconnect all-ins, review
flags...).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from cardroom.cards import Card
from cardroom.games import Hand
from cardroom.games import events as hev
from cardroom.ledger import AccountRef, Currency, MemoryLedger, Reason, Transfer
from cardroom.room import commands as cmd
from cardroom.room import events as rv
from cardroom.room.chat import CODES, OK, RATE_LIMITED, chat_ban
from cardroom.room.checks import BlindOrder, Knowledge
from cardroom.room.chinese_room import ChineseRoomTable
from cardroom.room.clock import ManualClock
from cardroom.room.errors import TableError
from cardroom.room.integrity import IntegrityMonitor
from cardroom.room.integrity_rules import default_rules
from cardroom.room.kinds import table_type
from cardroom.room.money import money_violations
from cardroom.room.positions import OWES_BOTH
from cardroom.room.review import review_table
from cardroom.room.settings import TableSettings
from cardroom.room.sim_tables import settings_for_index, table_name
from cardroom.room.table import AnyEvent

_LINES = (
    "nice hand",
    "gl all",
    "I have pocket aces",
    "play at www.example.com",
    "ty",
    "you are a shit player",
    "   ",
)
"""What the random players say (some lines the chat blocks, some are offences)."""

_EVERY_REASON = {
    "left": ("left", "sat_out_too_long"),
    "sat_out": ("asked", "short", "disconnected"),
    "advance": ("used", "stale", "street", "bet_changed", "out", "acted", "withdrawn", "hand_over"),
    "chat_blocked": tuple(c for c in CODES if c not in (OK, RATE_LIMITED)),  # refused
    "review": tuple(r.name for r in default_rules()),
}
COUNTERS: tuple[str, ...] = (
    "hands_voided",
    "timeouts",
    "disconnect_timeouts",
    "disconnect_all_ins",
    "allowance_resets",
    "missed_big_blinds",
    "blinds_posted_to_come_in",
    "dead_small_blinds",
    "rebuys",
    "stays",
    "seats_offered",
    "advance_set",
    "chat_lines",
    "chat_bans",
    "chinese_hands",
    "refused_commands",
    *(f"{kind}_{reason}" for kind, reasons in _EVERY_REASON.items() for reason in reasons),
)
"""Every counter a simulation reports (each one, zero or not)."""
CANCEL = "cancel_hand"
"""In a session's journal: the hand in progress was cancelled (``Table.cancel_hand``)."""
CHECKS: tuple[tuple[str, str], ...] = (
    ("money_invariant", "money: "),
    ("secrecy", "secrecy: "),
    ("blind_order", "blind order: "),
)
"""Each invariant the summary reports, and the prefix of its violations."""


@dataclass
class Session:
    """One table with random players; see the module docstring."""

    settings: TableSettings
    seed: int
    players: int = 12
    check_money: bool = True
    full_check: bool = True
    """Replay every ledger entry at each check (False: balances only; see money_violations)."""
    check_secrecy: bool = False
    """Check every event's projection for every seat, and the views once a hand."""
    check_blinds: bool = True
    """Check the order of the blinds at every deal (:class:`BlindOrder`)."""
    counters: Counter[str] = field(default_factory=Counter)
    record: list[AnyEvent] = field(default_factory=list)
    journal: list[cmd.Command | str | None] = field(default_factory=list)
    """The last step's commands in order (None: a clock tick; :data:`CANCEL`: the hand
    cancelled, §10.10), to replay elsewhere."""

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
        # Each player plays from his own address; p0 and p1 share one, p2 and p3 another.
        self.ips = {name: f"10.0.{i // 2 if i < 4 else i}.1" for i, name in enumerate(self.names)}
        # And p4 and p5 one device (a phone lent, from two addresses): §10.9's shared device.
        self.devices = {name: f"d{4 if i == 5 else i}" for i, name in enumerate(self.names)}
        self.table = table_type(self.settings)(self.settings, self.ledger, self.clock)
        self.integrity = IntegrityMonitor()
        self.chinese = isinstance(self.table, ChineseRoomTable)
        self.violations: list[str] = []
        self.knowledge = Knowledge(len(self.table.state.seats))
        self.secrecy_rng = random.Random(self.seed)  # apart: the session plays the same
        self.blind_order = BlindOrder()
        self.views_due = False
        self.away: dict[str, int] = {}
        """Players who stepped away: the hand number from which they come back."""
        self.offences: Counter[str] = Counter()
        """Chat offences by player: each bans from chat for longer (§10.7), as the
        server's account sanctions do."""

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
        in_hand = self.table.state.in_hand
        try:
            if r > 0.999 and in_hand:  # a hand that cannot finish, now and then (§10.10)
                self.journal.append(CANCEL)
                events = self.table.cancel_hand()
            elif r < 0.55 and in_hand:
                events = self._play()
            elif r < 0.75 and not self._setting():
                self.clock.advance(self.rng.choice((0.5, 2, 5, 31, 65)))
                events = self._tick()
            elif r < 0.75:
                events = self._place()  # a whole set is placed, not timed out (a slow search)
            else:
                events = self._handle(self._random_command())
        except TableError as exc:
            self.counters[f"refused:{exc.code}"] += 1
            events = []
        events = events + review_table(self.integrity, self.table)
        self._tally(events)
        if self.check_money:
            self.check()
        if self.check_secrecy:
            self._check_secrecy(events)
        return events

    def _check_secrecy(self, events: list[AnyEvent]) -> None:
        """Every event that may hold a card, as a spectator, its own seat and one other
        seated player at random see it; the views once a hand, mid-hand, of a spectator
        and a seated player at random (over a session every seat is checked often; the
        tests' sessions check every seat at every step)."""
        seated = self.table.state.index.values()  # an empty seat sees what a spectator does
        found = self.knowledge.check_events(events, seated, self.secrecy_rng)
        if self.views_due and self.table.state.in_hand:
            self.views_due = False
            found += self.knowledge.check_table(self.table, self.secrecy_rng)
        self.violations += [f"secrecy: {v}" for v in found]

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
        self.violations.extend(f"money: {v}" for v in found)

    def _play(self) -> list[AnyEvent]:
        hand, turn = self.table.hand, self.table.state.turn
        actor: int | None = None
        if self.chinese:
            actor = None if turn is None else turn.seat
        elif hand is not None:
            actor = hand.actor
        if actor is None:
            return self._tick()
        seat = self.table.state.seats[actor]
        assert seat is not None
        roll = self.rng.random()
        if roll < 0.03:
            return self._handle(cmd.Disconnect(seat.player))
        if roll < 0.06 and not self._setting():
            self.clock.advance(self.settings.action_seconds + 1)
            return self._tick()
        if self.chinese:
            return self._place()
        assert hand is not None
        return self._handle(self._random_action(hand, actor, seat.player))

    def _setting(self) -> bool:
        """True while a Chinese poker player is to set 13 cards or more (classic,
        Fantasyland): the session does not let that clock run out (the table's
        placement is the best arrangement, a search that takes up to a second)."""
        table = self.table
        if not isinstance(table, ChineseRoomTable) or table.game is None:
            return False
        turn = table.state.turn
        options = [] if turn is None else table.game.legal_actions(turn.seat)
        return bool(options) and options[0].place >= 13

    def _place(self) -> list[AnyEvent]:
        """The Chinese poker player to act places his cards at random, legally."""
        table = self.table
        assert isinstance(table, ChineseRoomTable) and table.game is not None
        turn = table.state.turn
        options = [] if turn is None else table.game.legal_actions(turn.seat)
        if turn is None or not options:
            return self._tick()
        cards = list(options[0].cards)
        self.rng.shuffle(cards)
        discard, rest = cards[: options[0].discard], cards[options[0].discard :]
        rows: dict[str, list[Card]] = {"top": [], "middle": [], "bottom": []}
        free = dict(options[0].free)
        for c in rest:
            row = self.rng.choice([r for r in rows if free[r] > 0])
            rows[row].append(c)
            free[row] -= 1
        seat = table.seat(turn.seat)
        place = cmd.PlaceCards(
            seat.player, tuple(rows["top"]), tuple(rows["middle"]), tuple(rows["bottom"]),
            tuple(discard),
        )  # fmt: skip
        return self._handle(place)

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

    def _step_away(self) -> cmd.Command | None:
        """Now and then a player steps away until both blinds have gone past his seat
        (or a few hands, at a table without blinds), then comes back posting what he
        missed: the big blind live and the small blind dead (§10.4)."""
        state, rng = self.table.state, self.rng
        for player, latest in list(self.away.items()):
            s = state.seat_of(player)
            seat = None if s is None else state.seats[s]
            if seat is None or not (seat.sitting_out or seat.sit_out_next):
                del self.away[player]  # gone, or back by some other way
            elif seat.owes == OWES_BOTH or state.hand_no >= latest:
                del self.away[player]
                return cmd.SitIn(player, post_now=True)
        if rng.random() < 0.1:
            here = [x.player for x in state.seats if x is not None and not x.sitting_out]
            if len(here) > 2:
                player = rng.choice(here)
                self.away[player] = state.hand_no + len(state.seats) + 2
                return cmd.SitOut(player)
        return None

    def _come_back(self) -> cmd.Command | None:
        """Half the time, a player sitting out (not away on purpose) comes back a step."""
        table, rng = self.table, self.rng
        idle = [x for x in table.state.seats if x and x.sitting_out and x.player not in self.away]
        if not idle or rng.random() < 0.5:
            return None
        seat = rng.choice(idle)
        if not seat.connected:
            return cmd.Reconnect(seat.player)
        post_now = rng.random() < 0.5
        if seat.stack < table.next_need(seat, post_now=post_now):
            return cmd.Rebuy(seat.player, table.settings.buy_in_range[0])
        return cmd.SitIn(seat.player, post_now)

    def _random_command(self) -> cmd.Command:
        rng, table = self.rng, self.table
        planned = self._step_away()
        if planned is not None:
            return planned
        seats = table.state.seats
        low, high = table.settings.buy_in_range
        free = [i for i, x in enumerate(seats) if x is None]
        if sum(1 for x in seats if x is not None and not x.sitting_out) < 3 and rng.random() < 0.5:
            back = self._come_back()  # a quiet table: players come back or sit down
            if back is not None or not free:
                return back or cmd.Say(self.names[0], "anyone?")
            player = rng.choice([p for p in self.names if table.state.seat_of(p) is None])
        else:
            player = rng.choice([p for p in self.names if p not in self.away])
        s = table.state.seat_of(player)
        amount = rng.randint(low, high if high is not None else 3 * low)
        if s is None:
            ip, device = self.ips[player], self.devices[player]
            seat = rng.choice(free) if free and rng.random() < 0.8 else rng.randrange(len(seats))
            options: list[cmd.Command] = [
                cmd.Sit(player, seat, amount, rng.random() < 0.5, ip=ip, device=device),
                cmd.JoinWaitlist(player),
                cmd.LeaveWaitlist(player),
            ]
            if player in table.state.offers:
                offered = table.state.offers[player].seat
                options.append(cmd.Sit(player, offered, amount, ip=ip, device=device))
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
            cmd.AutoMuck(player, rng.random() < 0.5),
        ]
        if table.seat(s).leaving:  # asked in this hand: he may take it back
            options.append(cmd.Stay(player))
        if table.seat(s).advance is not None and rng.random() < 0.3:
            return cmd.ClearAdvance(player)  # he withdraws the action he pre-selected
        return rng.choice(options)

    # --------------------------------------------------------------- counting

    def _tally(self, events: list[AnyEvent]) -> None:
        c = self.counters
        self.record.extend(events)
        for e in events:
            if (name := _COUNTED.get(type(e))) is not None:
                c[name] += 1
            elif isinstance(e, rv.HandFinished):
                c["hands"] += 1
                c["rake"] += e.rake
                c["chinese_hands"] += self.chinese
            elif isinstance(e, rv.HandVoided):
                c["hands_voided"] += 1
                self.blind_order.void()
            elif isinstance(e, rv.TimedOut):
                c["disconnect_timeouts" if e.disconnected else "timeouts"] += 1
            elif isinstance(e, rv.DisconnectAllInUsed):
                c["disconnect_all_ins"] += 1
            elif isinstance(e, rv.HandDealt):
                c["missed_big_blinds"] += len(e.missed)
                c["blinds_posted_to_come_in"] += len(e.posts)
                self.views_due = True
                if self.check_blinds and not self.chinese:
                    found = self.blind_order.check(self.table, e)
                    self.violations += [f"blind order: {v}" for v in found]
            elif isinstance(e, rv.ReviewFlagged):
                c[f"review_{e.rule}"] += 1
            elif isinstance(e, rv.PlayerLeft):
                c[f"left_{e.reason}"] += 1
                self.blind_order.left(e.seat)
            elif isinstance(e, rv.AdvanceCleared):
                c[f"advance_{e.reason}"] += 1
            elif isinstance(e, hev.Posted) and e.what == "dead_small_blind":
                c["dead_small_blinds"] += 1
            elif isinstance(e, rv.SatOut):
                c[f"sat_out_{e.reason}"] += 1
            elif isinstance(e, rv.ChatBlocked):
                c[f"chat_blocked_{e.code}"] += 1
                if e.offence:
                    ban = chat_ban(e.player, self.offences[e.player], e.at, e.code)
                    self.offences[e.player] += 1
                    self.table.chat.mute(e.player, ban.ends_at)
                    c["chat_bans"] += 1

    def money_total(self) -> int:
        """Deposits minus withdrawals: what accounts, tables and the house hold together."""
        currency = self.settings.currency
        return -self.ledger.balance(AccountRef.cashier(currency))


_COUNTED: dict[type, str] = {
    rv.AllowanceReset: "allowance_resets",
    rv.AdvanceSet: "advance_set",
    rv.ChipsAdded: "rebuys",
    rv.LeaveCancelled: "stays",
    rv.SeatOffered: "seats_offered",
    rv.ChatSaid: "chat_lines",
}
"""Events counted by their kind alone, and their counter."""


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
        """The summary as JSON data: every counter of :data:`COUNTERS` (zero or not), and
        each invariant ``held`` or ``broken``."""
        counters = {name: self.counters.get(name, 0) for name in COUNTERS}
        counters.update(self.counters)  # a counter not in the list is still shown
        out: dict[str, Any] = {
            "tables": self.tables,
            "hands": self.hands,
            "games": dict(sorted(self.games.items())),
            "counters": dict(sorted(counters.items())),
            "rake": {c.value: self.rake.get(c.value, 0) for c in Currency},
        }
        for name, prefix in CHECKS:
            broken = any(v.startswith(prefix) for v in self.violations)
            out[name] = "broken" if broken else "held"
        out["violations"] = self.violations[:20]
        return out


def simulate(
    tables: int, hands: int, seed: int, check_every_command: bool = True, secrecy: bool = True
) -> Summary:
    """Play ``tables`` headless tables of ``hands`` hands each; check the money after
    every command (balances) and in full at the end, after closing every table; check
    per-seat secrecy (``secrecy``) and the order of the blinds as they go."""
    rng = random.Random(seed)
    summary = Summary()
    for i in range(tables):
        settings = settings_for_index(i, seed, rng)
        session = Session(
            settings,
            seed=seed * 100_003 + i,
            check_money=check_every_command,
            full_check=False,
            check_secrecy=secrecy,
        )
        session.run(hands, max_steps=400 * hands)
        try:
            session.table.close()
        except TableError as exc:  # chips the ledger does not have: the money is wrong
            session.violations.append(f"money: closing the table: {exc}")
        session.check_money, session.full_check = True, True
        session.check()  # the final, full check
        currency = settings.currency
        balances = sum(
            session.ledger.balance(AccountRef.player(p, currency)) for p in session.names
        )
        house = session.ledger.balance(AccountRef.rake(currency))
        if balances + house != session.money_total():
            session.violations.append("money: accounts + house != deposits")
        summary.tables += 1
        summary.hands += session.counters["hands"]
        summary.games[table_name(settings)] += session.counters["hands"]
        summary.counters.update(
            {k: v for k, v in session.counters.items() if not k.startswith("refused")}
        )
        summary.counters["refused_commands"] += sum(
            v for k, v in session.counters.items() if k.startswith("refused")
        )
        summary.rake[currency.value] += session.counters["rake"]
        summary.violations += [f"{v} (table {settings.table_id})" for v in session.violations]
    summary.counters.pop("hands", None)
    summary.counters.pop("rake", None)
    return summary
