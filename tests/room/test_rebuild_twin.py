"""A table rebuilt from its stored record is the same table, after EVERY step.

A random session (every game family, Chinese poker with Fantasyland, HORSE's frozen
button, a custom mix; every command a table takes, hostile ones too, clock ticks
through timeouts, sit-out removals and the reducing window) is stopped after each
step; its record goes through the codec to JSON text and back, as the server stores
it (the snapshot as plain JSON, each entry by ``encode_entry``), and a table is
rebuilt from it. The twin must show everything the live table shows (state, each
seat's view and a watcher's, the lobby line, the money, the clocks, who is to act
and the decision's key), and answer the next step's commands and ticks with the
same events and refusals. The chat's memory is not in the record (docs/room.md):
the chat lines of views and the chat events (and chat refusals) are left out.

``CARDROOM_REBUILD_STEPS`` sets the steps of each table (small by default).
"""

from __future__ import annotations

import copy as copy_module
import dataclasses
import json
import os
from typing import Any

import pytest

from cardroom.games import Stakes, TableConfig, get_variant
from cardroom.ledger import Currency
from cardroom.room import commands as cmd
from cardroom.room import events as rv
from cardroom.room import table as table_module
from cardroom.room.chinese_room import ChineseRoomTable
from cardroom.room.codec import decode_entry, encode_entry
from cardroom.room.conduct import lobby_summary
from cardroom.room.errors import TableError
from cardroom.room.kinds import table_type
from cardroom.room.review import review_table
from cardroom.room.rotation import custom_mixed, horse
from cardroom.room.settings import TableSettings
from cardroom.room.sim_tables import chinese_settings, config_for
from cardroom.room.simulation import CANCEL, Session
from cardroom.room.state import state_to_dict
from cardroom.room.table import AnyEvent, Table

STEPS = int(os.environ.get("CARDROOM_REBUILD_STEPS", "30"))
SEEDS = int(os.environ.get("CARDROOM_REBUILD_SEEDS", "1"))
CHAT = (rv.ChatSaid, rv.ChatBlocked, rv.ChatReported)
"""What a table does from its chat's memory, which the record does not hold."""
HUGE = 2**70


def _single(table_id: str, game: str, structure: str | None = None, **kw: Any) -> TableSettings:
    config = config_for(game)
    stakes = config.stakes
    if structure == "spread_limit":
        stakes = Stakes.spread_limit((4, 8, 8, 8), 2, 4)
    elif structure == "pot_limit":
        stakes = Stakes.blinds(2, 4)
    elif structure == "fixed_limit":
        stakes = Stakes.limit(4, 8)
    seats = min(6, config.seat_limit)
    tc = TableConfig(get_variant(game), stakes, structure=structure, max_seats=seats)  # type: ignore[arg-type]
    return TableSettings(table_id, (tc,), **kw)


def tables() -> list[tuple[str, Any]]:
    """(name, settings maker): one of each family the issue names."""
    # Seeded: a twin deals the next hand's cards as the live table (unseeded, from the CSPRNG).
    common: dict[str, Any] = {"sit_out_minutes": 3, "reducing_minutes": 5, "seed": "twin"}
    return [
        ("nl_holdem", lambda: _single("nl", "holdem", currency=Currency.REAL, **common)),
        ("pl_holdem", lambda: _single("pl", "holdem", "pot_limit", **common)),
        ("fl_holdem", lambda: _single("fl", "holdem", "fixed_limit", **common)),
        ("spread_holdem", lambda: _single("sp", "holdem", "spread_limit", **common)),
        ("stud", lambda: _single("st", "stud", **common)),
        ("razz", lambda: _single("rz", "razz", **common)),
        ("five_card_draw", lambda: _single("d5", "five_card_draw", **common)),
        ("triple_draw", lambda: _single("td", "triple_draw_27", **common)),
        ("badugi", lambda: _single("bd", "badugi", **common)),
        ("short_deck", lambda: _single("sd", "short_deck", **common)),
        ("omaha_hi_lo", lambda: _single("o8", "omaha_hi_lo", currency=Currency.REAL, **common)),
        ("ofc", lambda: chinese_settings("ofc", "ofc", 3, **common)),
        ("pineapple", lambda: chinese_settings("pin", "pineapple", 3, **common)),
        ("progressive", lambda: chinese_settings("pro", "progressive", 2, **common)),
        ("horse", lambda: TableSettings.with_rotation("hx", horse(4, 2), **common)),
        (
            "custom_mix",
            lambda: TableSettings.with_rotation(
                "cm", custom_mixed(4, ("holdem", "stud_hi_lo", "short_deck"), 2), **common
            ),
        ),
    ]


class HostileSession(Session):
    """A :class:`Session` whose players also send what a hostile client would, and whose
    clock now and then runs for minutes (sit-out removals, the reducing window); each
    command's outcome is kept for the twin."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.outcomes: list[str | None] = []

    def step(self) -> list[AnyEvent]:
        self.outcomes = []
        seats = self.table.state.seats
        free = [i for i, x in enumerate(seats) if x is None]
        if len(seats) - len(free) < 3 and free and self.rng.random() < 0.5:  # players come
            player = self.rng.choice([p for p in self.names if self.table.state.seat_of(p) is None])
            low = self.table.settings.buy_in_range[0]
            self.journal = []
            try:
                events = self._handle(cmd.Sit(player, self.rng.choice(free), 2 * low))
            except TableError:
                events = []
            events += review_table(self.integrity, self.table)
            self._tally(events)
            return events
        if self.table.state.in_hand and self.rng.random() < 0.01:  # a hand cancelled (§10.10)
            self.journal = [CANCEL]
            events = self.table.cancel_hand() + review_table(self.integrity, self.table)
            self._tally(events)
            return events
        if self.rng.random() < 0.02 and not self._setting():
            self.journal = [None]
            self.clock.advance(self.rng.choice((120.0, 200.0, 400.0)))
            events = self.table.tick() + review_table(self.integrity, self.table)
            self.outcomes.append(None)
            self._tally(events)
            return events
        return super().step()

    def grant_fantasyland(self) -> None:
        """Now and then between hands at a Chinese poker table, a seated player earns
        Fantasyland, as a QQ+ on top would (random placements seldom do): the table
        starts its record afresh there, as a rebase does, so its snapshot holds it."""
        table = self.table
        seated = [s.player for s in table.state.seats if s is not None]
        if not isinstance(table, ChineseRoomTable) or table.state.in_hand or not seated:
            return
        if self.rng.random() > 0.1:
            return
        player = self.rng.choice(seated)
        rules = table.variant.fantasyland
        assert rules is not None
        cards = self.rng.choice(sorted(rules.deal_sizes))
        table.fantasyland = {**table.fantasyland, player: cards}
        table.snapshot, table.log = table.take_snapshot(), []

    def _tick(self) -> list[AnyEvent]:
        self.outcomes.append(None)
        return super()._tick()

    def _handle(self, command: cmd.Command) -> list[AnyEvent]:
        self.journal.append(command)
        try:
            out = self.table.handle(command)
        except TableError as exc:
            self.outcomes.append(exc.code)
            raise
        self.outcomes.append(None)
        return out

    def _random_command(self) -> cmd.Command:
        if self.rng.random() < 0.25:
            return self._hostile()
        return super()._random_command()

    def _hostile(self) -> cmd.Command:
        rng, state = self.rng, self.table.state
        seated = [s.player for s in state.seats if s is not None]
        anyone = rng.choice([*self.names, "stranger", "other:p1", ""])
        who = rng.choice(seated) if seated and rng.random() < 0.8 else anyone
        n = len(state.seats)
        amount = rng.choice((HUGE, -1, 0, 1, 2**53, 10**9))
        seat = rng.choice((-1, n, 99, rng.randrange(n)))
        options: list[cmd.Command] = [
            cmd.Act(who, rng.choice(("raise", "bet", "call", "check", "fold", "zap")), amount),
            cmd.Act(who, "draw", cards=()),
            cmd.Sit(anyone, seat, amount),
            cmd.Sit(who, rng.randrange(n), rng.randint(1, 500)),
            cmd.Rebuy(who, amount),
            cmd.Rebuy(who, rng.randint(1, 200)),  # a top-up, often
            cmd.SetAdvance(who, rng.choice(("check_fold", "call_any", "raise", "x")), amount),
            cmd.ClearAdvance(who),
            cmd.PlaceCards(who),
            cmd.Stay(who),
            cmd.Leave(anyone),
            cmd.SitIn(anyone, True),
            cmd.SitOut(anyone),
            cmd.JoinWaitlist(who),
            cmd.JoinWaitlist(anyone),
            cmd.LeaveWaitlist(anyone),
            cmd.Disconnect(who),
            cmd.Disconnect(anyone),
            cmd.Reconnect(anyone),
            cmd.ResetAllowance(anyone),
            cmd.AutoMuck(anyone, rng.random() < 0.5),
            cmd.Report(who, rng.choice([*seated, "nobody", who]), "abuse", "x" * 3),
            cmd.Say(who, "x" * rng.choice((0, 1, 10_000))),
        ]
        offered = list(state.offers)
        if offered:  # the waiting list's offer: taken, declined, or a wrong seat
            p = rng.choice(offered)
            o = state.offers[p]
            low = self.table.settings.buy_in_range[0]
            options += [
                cmd.Sit(p, o.seat, low),
                cmd.LeaveWaitlist(p),
                cmd.Sit(p, (o.seat + 1) % n, low),
            ]
        return rng.choice(options)


def stored_record(table: Table) -> tuple[dict[str, Any], list[AnyEvent]]:
    """The table's record as the server stores it and reads it back: the snapshot as
    plain JSON, every entry through the codec and JSON text."""
    snapshot, events = table.record()
    snap = json.loads(json.dumps(snapshot, allow_nan=False))
    text = json.dumps([encode_entry(e) for e in events], allow_nan=False)
    return snap, [decode_entry(e) for e in json.loads(text)]


def rebuild(session: HostileSession) -> Table:
    """A twin of the session's table from its stored record, with its own ledger and
    disconnect all-ins as they stand (the server's are the database's)."""
    snapshot, events = stored_record(session.table)
    return table_type(session.settings).restore(
        session.settings,
        snapshot,
        events,
        copy_module.deepcopy(session.ledger),
        session.clock,
        copy_module.deepcopy(session.table.allowances),
    )


def observed(table: Table, names: list[str]) -> dict[str, Any]:
    """Everything a player, a watcher, the lobby or the server can see of ``table``."""
    state = table.state
    out: dict[str, Any] = {
        "state": state_to_dict(state),
        "snapshot": json.loads(json.dumps(table.take_snapshot())),
        "record": [encode_entry(e) for e in table.record()[1]],
        "lobby": lobby_summary(table, None),
        "stacks": table.stacks(),
        "need": table.next_need(),
        "decisions": [table.decision_key(s) for s in range(len(state.seats))],
    }
    present = {s.player for s in state.seats if s is not None} | {*state.waitlist, *state.offers}
    for viewer in [None, *(n for n in names if n in present), "stranger"]:
        view = table.view(viewer)
        view.pop("chat", None)  # not in the record (docs/room.md)
        out[f"view:{viewer}"] = view
    for s, seat in enumerate(state.seats):
        if seat is not None:
            out[f"need:{s}"] = (table.next_need(seat), table.next_need(seat, post_now=True))
    if isinstance(table, ChineseRoomTable):
        out["fantasyland"] = dict(table.fantasyland)
        out["game"] = None if table.game is None else list(table.game.events)
    elif table.hand is not None and state.in_hand:
        out["hand"] = list(table.hand.events)
    return out


def differences(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    return [k for k in sorted(a.keys() | b.keys(), key=str) if a.get(k) != b.get(k)]


def replay(twin: Table, session: HostileSession, integrity: Any) -> tuple[list[Any], list[Any]]:
    """The last step's commands on the twin: its events (chat aside) and refusals."""
    produced: list[Any] = []
    refusals: list[str | None] = []
    for command in session.journal:
        try:
            if command is None:
                produced += twin.tick()
            elif command == CANCEL:
                produced += twin.cancel_hand()
            else:
                assert not isinstance(command, str)
                produced += twin.handle(command)
            refusals.append(None)
        except TableError as exc:
            refusals.append(exc.code)
    produced += review_table(integrity, twin)
    return [e for e in produced if not isinstance(e, CHAT)], refusals


def recovered(session: HostileSession, names: list[str]) -> None:
    """A crash now: the table recovered from its stored record (``Table.recover``, the
    hand cancelled, §10.10) is the live table with its hand cancelled."""
    snapshot, events = stored_record(session.table)
    ledger = copy_module.deepcopy(session.ledger)
    allowances = copy_module.deepcopy(session.table.allowances)
    kind = table_type(session.settings)
    back = kind.recover(session.settings, snapshot, events, ledger, session.clock, allowances)
    live = copy_module.deepcopy(session.table)
    live.cancel_hand()
    a, b = observed(live, names), observed(back, names)
    assert a == b, differences(a, b)
    assert live.stacks() == back.stacks()


def drive(settings: TableSettings, seed: int, steps: int) -> dict[str, int]:
    """Play ``steps`` steps; after each, rebuild and compare (AssertionError on the first
    difference, naming the step and what differs)."""
    session = HostileSession(settings, seed=seed, check_money=True, full_check=False)
    names = session.names
    seen = {"in_hand": 0, "hands": 0, "refused": 0, "rebased": 0, "recovered": 0}
    for step in range(steps):
        session.grant_fantasyland()
        twin = rebuild(session)
        live, copy = observed(session.table, names), observed(twin, names)
        assert live == copy, (step, differences(live, copy))
        integrity = copy_module.deepcopy(session.integrity)
        before = len(session.record)
        session.step()
        assert not session.violations, session.violations
        said = [e for e in session.record[before:] if not isinstance(e, CHAT)]
        produced, refusals = replay(twin, session, integrity)
        chat = [isinstance(c, cmd.Say | cmd.Report) for c in session.journal]
        mine = [r for r, c in zip(refusals, chat, strict=True) if not c]
        theirs = [r for r, c in zip(session.outcomes, chat, strict=False) if not c]
        assert produced == said, (step, session.journal, produced, said)
        if len(session.outcomes) == len(session.journal):
            assert mine == theirs, (step, session.journal, mine, theirs)
        after_live, after_twin = observed(session.table, names), observed(twin, names)
        del after_live["record"], after_twin["record"]  # the twin's chat lines differ
        assert after_live == after_twin, (step, differences(after_live, after_twin))
        if session.table.state.in_hand and step % 10 == 0:
            recovered(session, names)
            seen["recovered"] += 1
        seen["rebased"] += session.table.rebase()  # the server rebases after each step
        seen["in_hand"] += session.table.state.in_hand
        seen["refused"] += sum(r is not None for r in session.outcomes)
    seen["hands"] = session.counters["hands"]
    seen["voided"] = session.counters["hands_voided"]
    seen["fantasyland"] = sum(any(getattr(e, "fantasyland", ())) for e in session.record)
    return seen


@pytest.mark.parametrize(("name", "make"), tables(), ids=[n for n, _ in tables()])
def test_a_table_rebuilt_from_its_stored_record_after_every_step_is_the_same_table(
    name: str, make: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(table_module, "REBASE_EVENTS", 40)  # rebased now and then
    for i in range(SEEDS):
        seen = drive(make(), seed=sum(map(ord, name)) + 1000 * i, steps=STEPS)
        assert seen["in_hand"] > STEPS // 8 and seen["refused"] > 0, seen


@pytest.mark.parametrize("game", ["triple_draw_27", "badugi", "stud", "omaha_hi_lo"])
def test_an_unseeded_table_rebuilt_after_every_step_shows_what_the_live_one_shows(
    game: str,
) -> None:
    """A table dealing from the CSPRNG: its twin deals other unseen cards (by design,
    docs/room.md), but shows everything the live one shows after every step, through
    the draws' reshuffled stubs and stud's last cards; and a recovery still cancels to the
    live table's stacks."""
    settings = dataclasses.replace(_single(f"u{game}", game, sit_out_minutes=3), seed=None)
    settings = (
        dataclasses.replace(settings, games=(dataclasses.replace(settings.games[0], max_seats=8),))
        if game == "stud"
        else settings
    )
    session = HostileSession(settings, seed=5, check_money=True, full_check=False)
    in_hand = 0
    for step in range(STEPS):
        twin = rebuild(session)
        live, copy = observed(session.table, session.names), observed(twin, session.names)
        assert live == copy, (step, differences(live, copy))
        if session.table.state.in_hand and step % 10 == 0:
            recovered(session, session.names)
        session.step()
        assert not session.violations, session.violations
        in_hand += session.table.state.in_hand
    assert in_hand > STEPS // 8
