"""Server failure (RULEBOOK §10.10): the unfinished hand is voided, table chips go home."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.ledger import AccountRef, Currency, MemoryLedger, Reason, Transfer, recover

REAL = Currency.REAL
SEATS = ("ann", "bob", "cat")


def seated(ledger: MemoryLedger, table: str, buy_in: int = 1000) -> None:
    for p in SEATS:
        player = AccountRef.player(p, REAL)
        ledger.post(
            Transfer(f"d-{table}-{p}", Reason.DEPOSIT, AccountRef.cashier(REAL), player, buy_in)
        )
        ledger.post(
            Transfer(
                f"b-{table}-{p}", Reason.BUY_IN, player, AccountRef.stack(table, p, REAL), buy_in
            )
        )


def bet(ledger: MemoryLedger, key: str, table: str, seat: str, amount: int) -> None:
    stack = AccountRef.stack(table, seat, REAL)
    ledger.post(Transfer(key, Reason.BET, stack, AccountRef.pot(table, REAL), amount))


def award(ledger: MemoryLedger, key: str, table: str, seat: str, amount: int) -> None:
    stack = AccountRef.stack(table, seat, REAL)
    ledger.post(Transfer(key, Reason.POT_AWARD, AccountRef.pot(table, REAL), stack, amount))


def test_finished_hands_stand_and_the_unfinished_one_is_voided() -> None:
    led = MemoryLedger()
    seated(led, "t1")
    # Hand 1 completes: ann wins bob's and cat's 100 each, 10 rake.
    for s in SEATS:
        bet(led, f"h1-{s}", "t1", s, 100)
    award(led, "h1-win", "t1", "ann", 290)
    led.post(Transfer("h1-rake", Reason.RAKE, AccountRef.pot("t1", REAL), AccountRef.rake(), 10))
    start = {s: led.balance(AccountRef.stack("t1", s, REAL)) for s in SEATS}
    # Hand 2 is cut off: bets, an uncalled bet returned, more bets.
    bet(led, "h2-a", "t1", "ann", 50)
    bet(led, "h2-b", "t1", "bob", 200)
    award(led, "h2-uncalled", "t1", "bob", 150)
    bet(led, "h2-c", "t1", "cat", 50)
    report = recover(led, run="r1")
    assert report.voided[AccountRef.pot("t1", REAL)] == [e.id for e in led.entries()[11:15]]
    for s in SEATS:
        assert report.returned[AccountRef.stack("t1", s, REAL)] == start[s]
        assert led.balance(AccountRef.player(s, REAL)) == start[s]
        assert led.balance(AccountRef.stack("t1", s, REAL)) == 0
    assert led.balance(AccountRef.pot("t1", REAL)) == 0
    assert led.balance(AccountRef.rake()) == 10  # the finished hand's rake stands
    assert led.check() == []
    before = len(led.entries())
    assert recover(led, run="r2").returned == {} and len(led.entries()) == before


moves = st.lists(
    st.tuples(st.sampled_from(["bet", "award"]), st.sampled_from(SEATS), st.integers(1, 100)),
    max_size=30,
)


@settings(max_examples=200, deadline=None)
@given(st.lists(moves, min_size=1, max_size=4))
def test_any_crash_point_restores_the_hand_start(hands: list[list[tuple[str, str, int]]]) -> None:
    """Every hand but the last settles (pot emptied to a seat); the last is cut short.

    Within a hand the pot empties only when the hand is settled (an uncalled
    bet returned or a partial award always leaves chips behind until the end).
    """
    led = MemoryLedger()
    seated(led, "t1")
    pot = AccountRef.pot("t1", REAL)
    for h, hand in enumerate(hands):
        start = {s: led.balance(AccountRef.stack("t1", s, REAL)) for s in SEATS}
        for i, (kind, seat, pct) in enumerate(hand):
            source = AccountRef.stack("t1", seat, REAL) if kind == "bet" else pot
            amount = led.balance(source) * pct // 100
            if kind == "award":
                amount = min(amount, led.balance(pot) - 1)
            if amount > 0:
                (bet if kind == "bet" else award)(led, f"h{h}-{i}", "t1", seat, amount)
        if h < len(hands) - 1 and led.balance(pot):
            award(led, f"h{h}-settle", "t1", SEATS[h % 3], led.balance(pot))
    recover(led, run="crash")
    for s in SEATS:
        assert led.balance(AccountRef.player(s, REAL)) == start[s]
    assert all(v == 0 for r, v in led.balances().items() if r.kind.value in ("pot", "table_stack"))
    assert led.check() == []


def test_10_10_a_second_crash_returns_the_same_stack_again() -> None:
    """Mutation audit (docs/money_audit.md, R5): the return of table chips is keyed by the
    recovery run, so a player who sat down again with the same chips after one crash
    gets them back after the next (a key shared by both runs would make the second a
    replay: the chips left stranded on the table)."""
    led = MemoryLedger()
    seated(led, "t1")
    assert recover(led, run="r1").returned[AccountRef.stack("t1", "ann", REAL)] == 1000
    ann = AccountRef.player("ann", REAL)
    led.post(Transfer("again", Reason.BUY_IN, ann, AccountRef.stack("t1", "ann", REAL), 1000))
    report = recover(led, run="r2")
    assert report.returned == {AccountRef.stack("t1", "ann", REAL): 1000}
    assert led.balance(ann) == 1000 and led.balance(AccountRef.stack("t1", "ann", REAL)) == 0
    assert led.check() == []


def test_10_10_a_single_chip_on_the_table_goes_home_too() -> None:
    """Mutation audit (docs/money_audit.md, R6): every table stack holding anything, down
    to one chip, returns to its player's account ("nothing is ever lost")."""
    led = MemoryLedger()
    seated(led, "t1", buy_in=1)
    report = recover(led, run="r1")
    assert set(report.returned.values()) == {1} and len(report.returned) == 3
    assert all(led.balance(AccountRef.player(p, REAL)) == 1 for p in SEATS)
    assert led.check() == []


def test_10_10_a_bet_already_reversed_in_the_open_hand_is_not_voided_again() -> None:
    """Mutation audit (docs/money_audit.md, R3): in the unfinished hand a movement already
    undone by a reversal is skipped with its reversal (voiding it again would be refused,
    "already reversed", and the recovery would stop with the chips still in the pot)."""
    led = MemoryLedger()
    seated(led, "t1")
    bet(led, "h1-a", "t1", "ann", 100)
    bet(led, "h1-b", "t1", "bob", 40)
    wrong = next(e for e in led.entries() if e.key == "h1-b")
    led.reverse(wrong.id)
    bet(led, "h1-c", "t1", "cat", 70)
    recover(led, run="r1")
    assert [led.balance(AccountRef.player(p, REAL)) for p in SEATS] == [1000, 1000, 1000]
    assert led.balance(AccountRef.pot("t1", REAL)) == 0 and led.check() == []
