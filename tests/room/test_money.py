"""RULEBOOK §10.8–§10.10 through the table: rake, one ledger transaction per hand,
currencies apart, the money invariant, cancelled hands and crash recovery."""

from __future__ import annotations

import os
import random
from collections.abc import Sequence

import pytest

from cardroom.ledger import AccountRef, Currency, Entry, MemoryLedger, Reason, Transfer
from cardroom.room import commands as cmd
from cardroom.room import events as rv
from cardroom.room.errors import TableError
from cardroom.room.money import TableBank, money_violations
from cardroom.room.sim_tables import random_settings
from cardroom.room.simulation import Session
from cardroom.room.state import state_to_dict
from cardroom.room.table import Table

from .conftest import FUNDS, Harness, holdem

MONEY_SESSIONS = int(os.environ.get("CARDROOM_MONEY_SESSIONS", "1200"))
"""Random sessions of the money test (``CARDROOM_MONEY_SESSIONS=10000`` for more)."""


def big_pot_to_showdown(h: Harness) -> None:
    """Three players put 20 each in pre-flop, then check it down."""
    h.tick()
    h.act("raise", 20)
    h.act("call")
    h.act("call")
    h.finish_by_checking()


def test_10_8_rake_on_real_money_tables_into_the_house() -> None:
    h = Harness(holdem(currency=Currency.REAL))
    h.seat({0: 40, 1: 40, 2: 40})
    big_pot_to_showdown(h)
    finished = next(e for e in h.table.log if isinstance(e, rv.HandFinished))
    assert finished.rake == 3  # seed 003: pots under 200 pay 1 per 20
    assert h.ledger.balance(AccountRef.rake(Currency.REAL)) == 3
    assert sum(h.table.stacks().values()) == 120 - 3


def test_10_8_play_money_is_free() -> None:
    h = Harness(holdem(currency=Currency.PLAY))
    h.seat({0: 40, 1: 40, 2: 40})
    big_pot_to_showdown(h)
    finished = next(e for e in h.table.log if isinstance(e, rv.HandFinished))
    assert finished.rake == 0 and sum(h.table.stacks().values()) == 120
    assert h.ledger.balance(AccountRef.rake(Currency.PLAY)) == 0


def test_10_8_no_flop_no_drop_through_the_table() -> None:
    h = Harness(holdem(currency=Currency.REAL))
    h.seat({0: 40, 1: 40, 2: 40})
    h.tick()
    h.act("raise", 20)
    h.act("call")
    h.act("raise", 40)  # all in pre-flop...
    h.act("fold")
    h.act("fold")  # ...and the hand ends before the flop
    finished = next(e for e in h.table.log if isinstance(e, rv.HandFinished))
    assert finished.rake == 0
    assert h.ledger.balance(AccountRef.rake(Currency.REAL)) == 0


def test_10_8_rake_rule_per_table() -> None:
    from cardroom.games import RakeRule

    rule = RakeRule(per=1, unit=10, caps=((10, 5),))
    h = Harness(holdem(currency=Currency.REAL, rake=rule))
    h.seat({0: 40, 1: 40, 2: 40})
    big_pot_to_showdown(h)
    assert h.ledger.balance(AccountRef.rake(Currency.REAL)) == 5  # 60 // 10, capped at 5


class CountingLedger(MemoryLedger):
    """A memory ledger that counts its posting calls (one call = one transaction)."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[Sequence[Transfer]] = []

    def post_all(self, transfers: Sequence[Transfer]) -> list[Entry]:
        self.calls.append(list(transfers))
        return super().post_all(transfers)


def test_10_9_each_settled_hand_is_one_ledger_transaction_no_entry_per_bet() -> None:
    h = Harness(holdem(currency=Currency.REAL))
    ledger = CountingLedger()
    for i in range(3):
        ledger.post(
            Transfer(
                f"dep{i}",
                Reason.DEPOSIT,
                AccountRef.cashier(Currency.REAL),
                AccountRef.player(f"p{i}", Currency.REAL),
                1000,
            )
        )
    table = Table(h.settings, ledger, h.clock)
    for i in range(3):
        table.handle(cmd.Sit(f"p{i}", i, 40))
    before = len(ledger.calls)
    table.tick()
    for kind, amount in (("raise", 20), ("call", 0), ("call", 0)):
        table.handle(cmd.Act(table.state.seats[table.hand.actor].player, kind, amount))  # type: ignore[union-attr,index]
    assert len(ledger.calls) == before  # bets move no money in the ledger
    while table.state.in_hand:
        hand = table.hand
        player = table.state.seats[hand.actor].player  # type: ignore[union-attr,index]
        table.handle(cmd.Act(player, "check"))
    assert len(ledger.calls) == before + 1
    moves = ledger.calls[-1]
    reasons = {t.reason for t in moves}
    assert reasons <= {Reason.BET, Reason.POT_AWARD, Reason.RAKE} and Reason.RAKE in reasons
    assert len(moves) <= 4  # one per player at most, plus the rake
    assert ledger.balance(AccountRef.pot("t", Currency.REAL)) == 0


def test_10_9_a_table_keeps_account_names_only_for_those_seated() -> None:
    # Twelve players come and go, playing hands between, as at a table open for months.
    h = Harness(holdem(seats=3))
    h.seat({0: 40, 1: 40})
    for n in range(24):
        leaver = h.table.state.seats[n % 2]
        assert leaver is not None
        h.do(cmd.Leave(leaver.player))
        h.tick(31 * 60)  # past the reducing rule (§10.2) when this player comes back
        h.do(cmd.Sit(f"p{2 + n % 10}", n % 2, 40))
        h.tick()
        h.finish_by_checking()
        assert h.table.bank.players_named <= 2
    assert h.table.bank.players_named == 2  # the two seated, named again as they sat


def test_10_9_play_money_and_real_money_never_mix() -> None:
    h = Harness(holdem(currency=Currency.REAL))
    h.ledger.post(
        Transfer(
            "play:x",
            Reason.DEPOSIT,
            AccountRef.cashier(Currency.PLAY),
            AccountRef.player("x", Currency.PLAY),
            1000,
        )
    )
    with pytest.raises(TableError) as err:
        h.do(cmd.Sit("x", 0, 40))  # play chips do not buy into a real-money table
    assert err.value.code == "insufficient_funds"
    # Said in the player's words (it said "player/real/x holds 0, needs 40").
    assert str(err.value) == "your real-money account holds 0, not 40"
    h.do(cmd.Sit("p0", 0, 40))
    assert h.ledger.balance(AccountRef.stack("t", "p0", Currency.REAL)) == 40
    assert h.ledger.balance(AccountRef.stack("t", "p0", Currency.PLAY)) == 0


def test_10_9_money_invariant_holds_after_every_command_of_random_sessions() -> None:
    """Thousands of random sessions (issue 13): MONEY_SESSIONS small ones (six hands
    each, every game, Chinese poker and mixed tables included), the balances checked
    after every command and every ledger entry replayed at the end; one in forty (30 of
    the 1,200) plays 25 hands with the full replay after every command."""
    rng = random.Random(1309)
    hands = 0
    for i in range(MONEY_SESSIONS):
        deep = i % 40 == 0
        settings = random_settings(rng, f"t{i}", chinese=True, seed=f"money{i}")
        session = Session(settings, seed=i, full_check=deep)
        session.run(25 if deep else 6, max_steps=3_000 if deep else 1_500)
        session.table.close()
        session.full_check = True
        session.check()
        assert not session.violations, session.violations[:3]
        balances = sum(
            session.ledger.balance(AccountRef.player(p, session.settings.currency))
            for p in session.names
        )
        rake = session.ledger.balance(AccountRef.rake(session.settings.currency))
        assert balances + rake == session.money_total()  # nothing lost, nothing made
        assert session.counters["hands"] > 0
        hands += session.counters["hands"]
    assert hands >= 6 * MONEY_SESSIONS


def test_10_10_a_cancelled_hand_returns_every_stack_to_its_start() -> None:
    h = Harness(holdem())
    h.seat({0: 40, 1: 30, 2: 25})
    h.tick()
    h.act("raise", 10)
    h.act("call")
    events = h.table.cancel_hand()
    voided = next(e for e in events if isinstance(e, rv.HandVoided))
    assert dict(voided.stacks) == {0: 40, 1: 30, 2: 25}
    assert h.table.stacks() == {"p0": 40, "p1": 30, "p2": 25}
    assert not h.table.state.in_hand
    h.check()
    with pytest.raises(TableError):
        h.table.cancel_hand()


def _deal(h: Harness) -> rv.HandDealt:
    return next(e for e in h.tick() if isinstance(e, rv.HandDealt))


def _call_or_check(h: Harness) -> None:
    hand = h.table.hand
    assert hand is not None and hand.actor is not None
    h.act("check" if hand.legal_actions(hand.actor).check else "call")


def _same_deal(a: rv.HandDealt, b: rv.HandDealt) -> bool:
    keep = ("button", "sb", "bb", "dealt", "posts", "owes", "missed")
    return all(getattr(a, k) == getattr(b, k) for k in keep)


def test_10_10_a_cancelled_hand_is_dealt_again_as_it_was() -> None:
    # p3 missed both blinds and comes back posting them (§10.4); the hand is cancelled.
    # The table returns to its state at the start of the hand: p3 still owes both
    # blinds, and the blinds do not move on, or seat 2 would skip its big blind.
    h = Harness(holdem(seats=4))
    h.seat({0: 40, 1: 40, 2: 40, 3: 40})
    _deal(h)
    h.finish_by_checking()
    h.do(cmd.SitOut("p3"))
    for _ in range(2):
        _deal(h)
        h.finish_by_checking()
    h.do(cmd.SitIn("p3", post_now=True))
    before = state_to_dict(h.table.state)
    cancelled = _deal(h)
    assert cancelled.posts == ((3, "big_and_dead_small"),)
    _call_or_check(h)
    h.table.cancel_hand()
    h.check()
    after = state_to_dict(h.table.state)
    assert after["hand_no"] == before["hand_no"] + 1  # the number is used: keys stay unique
    moved = {"hand_no": 0, "next_hand_at": 0, "seq": 0, "cancelled": 0}  # counters, clock
    assert {**after, **moved} == {**before, **moved}
    again = _deal(h)
    assert _same_deal(again, cancelled), (again, cancelled)
    copy = Table.restore(h.settings, *h.table.record(), h.ledger, h.clock)
    assert state_to_dict(copy.state) == state_to_dict(h.table.state)


def test_10_10_after_any_cancel_the_next_hand_is_dealt_as_the_cancelled_one() -> None:
    rng = random.Random(1010)
    for trial in range(60):
        h = Harness(holdem(seats=rng.randint(3, 6)))
        seats = h.settings.seat_count
        h.seat({s: 40 for s in range(seats)})
        for _ in range(rng.randint(1, 6)):  # some hands, players stepping out and back
            who = f"p{rng.randrange(seats)}"
            if rng.random() < 0.5:
                h.do(cmd.SitOut(who))
            else:
                h.do(cmd.SitIn(who, post_now=rng.random() < 0.5))
            h.tick()
            h.finish_by_checking()
        h.clock.advance(1)
        events = h.tick()
        dealt = [e for e in events if isinstance(e, rv.HandDealt)]
        if not dealt:
            continue
        for _ in range(rng.randint(0, 3)):
            if h.table.state.in_hand:
                _call_or_check(h) if rng.random() < 0.5 else h.act("fold")
        if not h.table.state.in_hand:
            continue
        h.table.cancel_hand()
        h.check()
        again = _deal(h)
        assert _same_deal(again, dealt[0]), (trial, again, dealt[0])


def test_10_10_recovery_from_the_record_cancels_the_unfinished_hand() -> None:
    h = Harness(holdem())
    h.seat({0: 40, 1: 30, 2: 25})
    h.tick()
    h.act("raise", 10)
    h.act("call")
    snapshot, events = h.table.record()
    # The process dies here; a new one rebuilds the table from its record.
    table = Table.recover(h.settings, snapshot, events, h.ledger, h.clock)
    assert not table.state.in_hand
    assert isinstance(table.log[-1], rv.HandVoided)
    assert table.stacks() == {"p0": 40, "p1": 30, "p2": 25}
    table.close()  # after a crash, table chips return to the accounts
    assert all(h.balance(f"p{i}") == FUNDS for i in range(3))
    assert not h.ledger.check()


def test_10_10_closing_a_table_mid_hand_cancels_it_and_cashes_everyone_out() -> None:
    h = Harness(holdem())
    h.seat({0: 40, 1: 30})
    h.tick()
    h.act("raise", 10)
    events = h.table.close()
    kinds = [type(e).__name__ for e in events]
    assert kinds[:2] == ["HandCancelled", "HandVoided"] and kinds.count("PlayerLeft") == 2
    assert h.balance("p0") == FUNDS and h.balance("p1") == FUNDS
    assert h.table.stacks() == {}


def test_10_9_two_tables_on_one_ledger_never_share_an_idempotency_key() -> None:
    """Mutation audit (docs/money_audit.md, Y4, Y5): the keys of buy-ins and settled hands
    name the table, so the same player's buy-in and hand 1 at two tables both move
    money (a shared key would make the second a replay: chips never moved)."""
    ledger = MemoryLedger()
    real = Currency.REAL
    for p in ("p0", "p1"):
        cash, account = AccountRef.cashier(real), AccountRef.player(p, real)
        ledger.post(Transfer(f"dep:{p}", Reason.DEPOSIT, cash, account, 100))
    banks = [TableBank(ledger, table, real) for table in ("t", "u")]
    for bank in banks:
        bank.buy_in("p0", 40, "e1:buy-in")
        bank.buy_in("p1", 40, "e2:buy-in")
        bank.settle(1, {"p0": -10, "p1": 9}, 1)
    assert [ledger.balance(AccountRef.player(p, real)) for p in ("p0", "p1")] == [20, 20]
    for table in ("t", "u"):
        assert ledger.balance(AccountRef.stack(table, "p0", real)) == 30
        assert ledger.balance(AccountRef.stack(table, "p1", real)) == 49
    assert ledger.balance(AccountRef.rake(real)) == 2 and ledger.check() == []


def test_10_9_an_unbalanced_hand_is_refused_whole_before_the_ledger() -> None:
    """Mutation audit (docs/money_audit.md, Y1): a settlement whose stack changes and rake
    do not sum to zero is refused as "unbalanced" and moves nothing (chips left in the
    pot would be neither anyone's nor the house's)."""
    ledger = MemoryLedger()
    real = Currency.REAL
    for p in ("p0", "p1"):
        cash, account = AccountRef.cashier(real), AccountRef.player(p, real)
        ledger.post(Transfer(f"dep:{p}", Reason.DEPOSIT, cash, account, 100))
    bank = TableBank(ledger, "t", real)
    bank.buy_in("p0", 40, "e1:buy-in")
    bank.buy_in("p1", 40, "e2:buy-in")
    before = len(ledger.entries())
    for deltas, rake in (({"p0": -10, "p1": 5}, 0), ({"p0": -10, "p1": 9}, 2)):
        with pytest.raises(TableError) as err:
            bank.settle(1, deltas, rake)
        assert err.value.code == "unbalanced"
    assert len(ledger.entries()) == before and ledger.balance(AccountRef.pot("t", real)) == 0


def test_10_9_the_table_money_check_reports_each_disagreement() -> None:
    """Mutation audit (docs/money_audit.md, Y11, Y13, Y15): the check every room test runs
    after each command reports a stack account holding other than the table says, a
    table stack the ledger does not hold, and (the quick form) a currency whose
    balances do not sum to zero."""
    ledger = MemoryLedger()
    real = Currency.REAL
    cash, p0 = AccountRef.cashier(real), AccountRef.player("p0", real)
    ledger.post(Transfer("dep", Reason.DEPOSIT, cash, p0, 100))
    TableBank(ledger, "t", real).buy_in("p0", 40, "e1:buy-in")
    assert money_violations(ledger, "t", real, {"p0": 40}) == []
    stack = AccountRef.stack("t", "p0", real)
    assert money_violations(ledger, "t", real, {}) == [f"{stack} holds 40, the table says 0"]
    assert money_violations(ledger, "t", real, {"p0": 40, "p1": 5}) == [
        "p1 has 5 at the table but not in the ledger"
    ]
    pot = AccountRef.pot("t", real)
    ledger.post(Transfer("bet", Reason.BET, stack, pot, 10))
    assert money_violations(ledger, "t", real, {"p0": 30}) == [
        f"pot {pot} holds 10 between commands"
    ]
    ledger.post(Transfer("won", Reason.POT_AWARD, pot, stack, 10))
    play = Currency.PLAY
    ledger.post(Transfer("pdep", Reason.DEPOSIT, AccountRef.cashier(play),
                         AccountRef.player("p0", play), 5))  # fmt: skip
    odd = AccountRef.stack("t", "p0", play)
    ledger.post(Transfer("pin", Reason.BUY_IN, AccountRef.player("p0", play), odd, 5))
    assert money_violations(ledger, "t", real, {"p0": 40}) == [
        f"{odd} is in the wrong currency",
        f"{odd} holds 5, the table says 40",
    ]

    class Tampered(MemoryLedger):
        def __init__(self, balances: dict[AccountRef, int]) -> None:
            super().__init__()
            self.held = balances

        def balances(self) -> dict[AccountRef, int]:
            return dict(self.held)

        def balance(self, account: AccountRef) -> int:
            return self.held.get(account, 0)

    made = Tampered({cash: -100, p0: 105})  # five made from nothing
    assert money_violations(made, "t", real, {}, full=False) == ["real balances sum to 5, not 0"]
    owed = Tampered({cash: -100, p0: 105, stack: -5})  # sums to zero, one stack below it
    assert money_violations(owed, "t", real, {}, full=False) == [
        f"{stack} holds -5",
        f"{stack} holds -5, the table says 0",
    ]
