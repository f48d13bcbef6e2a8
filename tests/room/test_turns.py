"""RULEBOOK §10.5–§10.6: acting in time, the time bank, advance actions, disconnection."""

from __future__ import annotations

import pytest

from cardroom.games import events as hev
from cardroom.ledger import Currency
from cardroom.room import commands as cmd
from cardroom.room import events as rv
from cardroom.room.clock import day_of
from cardroom.room.errors import TableError
from cardroom.room.views import project

from .conftest import Harness, holdem, limit_holdem


def acted(events: list[object]) -> list[tuple[int, str]]:
    return [(e.seat, e.kind) for e in events if isinstance(e, hev.Acted)]


def three_handed(**options: object) -> Harness:
    """p0 button, p1 small blind, p2 big blind; p0 to act first."""
    h = Harness(holdem(**options))  # type: ignore[arg-type]
    h.seat({0: 40, 1: 40, 2: 40})
    h.tick()
    assert h.actor == "p0"
    return h


def test_10_5_timeout_folds_when_facing_a_bet() -> None:
    h = three_handed(time_bank_start=0)
    h.tick(29)
    assert h.table.state.turn.seat == 0  # type: ignore[union-attr]
    events = h.tick(1)
    assert rv.TimedOut(0, False) in events and acted(events)[0] == (0, "fold")


def test_10_5_timeout_checks_when_a_check_is_free() -> None:
    h = three_handed(time_bank_start=0)
    h.act("call")
    h.act("call")
    assert h.actor == "p2"  # the big blind's option: a check is free
    events = h.tick(30)
    assert acted(events) == [(2, "check")]
    assert h.table.state.in_hand  # the hand goes on to the flop


def test_10_5_time_bank_runs_after_action_seconds_and_the_rest_is_kept() -> None:
    h = three_handed(time_bank_start=20)
    events = h.tick(30)
    assert rv.TurnStarted(0, h.clock.now + 20, True) in events
    assert not acted(events)
    h.clock.advance(5)
    events = h.act("call")
    assert rv.TimeBankChanged(0, 15.0) in events
    assert h.table.state.seats[0].time_bank == 15.0  # type: ignore[union-attr]


def test_10_5_time_bank_spent_then_the_table_acts() -> None:
    h = three_handed(time_bank_start=20)
    h.tick(30)
    events = h.tick(20)
    assert rv.TimeBankChanged(0, 0.0) in events and acted(events)[0] == (0, "fold")


def test_10_6_the_time_bank_stops_while_the_player_is_away() -> None:
    h = three_handed(time_bank_start=20)
    h.tick(30)  # seat 0's 30 seconds are up: its bank runs
    h.clock.advance(8)
    events = h.do(cmd.Disconnect("p0"))
    assert rv.TimeBankChanged(0, 12.0) in events  # 8 of 20 spent, 12 kept
    assert rv.TurnStarted(0, h.clock.now + 30, False, True) in events  # reconnect_seconds
    h.clock.advance(10)
    h.do(cmd.Reconnect("p0"))
    events = h.tick(20)  # the wait is over, the player is back: the rest of the bank
    assert rv.TurnStarted(0, h.clock.now + 12, True, True) in events and not acted(events)
    h.clock.advance(2)
    assert rv.TimeBankChanged(0, 10.0) in h.act("call")


def test_10_6_a_decision_waits_once_for_a_player_who_comes_back_and_goes_again() -> None:
    # Each drop used to earn a fresh reconnect_seconds: gone just before the deadline,
    # back just after it, again and again, a player held the table as long as he liked.
    h = three_handed(time_bank_start=20)
    h.clock.advance(29)
    h.do(cmd.Disconnect("p0"))
    events = h.tick(1)  # the 30 s are up, the player away: the wait (from his drop)
    assert events == [rv.TurnStarted(0, h.clock.now + 29, False, True)]
    h.clock.advance(1)
    h.do(cmd.Reconnect("p0"))
    h.clock.advance(27)
    assert h.do(cmd.Disconnect("p0")) == [rv.Disconnected(0, h.clock.now)]  # no new wait
    events = h.tick(1)  # the wait ran out with him away again: the table acts, bank kept
    assert rv.TimedOut(0, True) in events and acted(events) == [(0, "fold")]
    assert h.table.seat(0).time_bank == 20


def test_10_6_a_turn_that_starts_with_the_player_away_is_its_one_wait() -> None:
    # A turn that begins with its player away waits reconnect_seconds for him, once:
    # back and gone again meanwhile, he earns no fresh wait from his new drop.
    h = disconnect_scenario(reconnect_seconds=60)
    assert h.table.state.turn == rv.TurnStarted(1, h.clock.now + 60, False, True)
    h.clock.advance(20)
    h.do(cmd.Reconnect("p1"))
    h.clock.advance(1)
    assert h.do(cmd.Disconnect("p1")) == [rv.Disconnected(1, h.clock.now)]
    events = h.tick(39)  # 60 s since the turn began: the table acts for him
    assert rv.TimedOut(1, True) in events


def test_10_6_gone_again_during_his_bank_a_player_finds_it_running_on() -> None:
    h = three_handed(time_bank_start=20)
    h.tick(30)  # the bank runs
    h.clock.advance(2)
    h.do(cmd.Disconnect("p0"))  # the decision's wait: the bank stops with 18 left
    h.clock.advance(1)
    h.do(cmd.Reconnect("p0"))
    events = h.tick(29)  # the wait is over, the player back: the rest of his bank
    assert events == [rv.TurnStarted(0, h.clock.now + 18, True, True)]
    h.clock.advance(3)
    assert h.do(cmd.Disconnect("p0")) == [rv.Disconnected(0, h.clock.now)]  # it runs on
    h.clock.advance(1)
    h.do(cmd.Reconnect("p0"))  # back within it (a page reloaded): nothing lost but time
    assert rv.TimeBankChanged(0, 14.0) in h.act("call")


def test_10_5_time_bank_refills_by_the_table_rule() -> None:
    h = Harness(
        holdem(time_bank_start=30, time_bank_refill=10, time_bank_every=2, time_bank_max=45)
    )
    h.seat({0: 40, 1: 40})
    banks = []
    for _ in range(6):
        h.tick()
        while h.table.state.in_hand:
            h.act("fold" if not h.table.hand.legal_actions(h.table.hand.actor).check else "check")  # type: ignore[union-attr,arg-type]
        banks.append(h.table.state.seats[0].time_bank)  # type: ignore[union-attr]
    assert banks == [30, 40, 40, 45, 45, 45]


def test_10_5_a_time_bank_starting_above_its_maximum_is_refused() -> None:
    # "never above time_bank_max" (docs/room.md): a table of time_bank_start = 90 and
    # time_bank_max = 60 seated every player with 90 s, the refill never reaching it.
    with pytest.raises(TableError) as err:
        holdem(time_bank_start=90, time_bank_max=60)
    assert err.value.code == "bad_command" and "time_bank_max" in err.value.reason
    holdem(time_bank_start=60, time_bank_max=60)  # up to it


def test_10_5_advance_call_x_is_dropped_when_the_bet_changes() -> None:
    h = three_handed()
    h.do(cmd.SetAdvance("p1", "call", 1))
    events = h.act("raise", 6)
    assert rv.AdvanceCleared(1, "bet_changed") in events
    assert h.actor == "p1" and not any(s == 1 for s, _ in acted(events))


def test_10_5_advance_call_x_plays_when_the_bet_is_unchanged() -> None:
    h = three_handed()
    h.do(cmd.SetAdvance("p1", "call", 1))
    events = h.act("call")
    assert (1, "call") in acted(events) and h.actor == "p2"


def test_10_5_advance_call_x_of_a_short_stack_is_its_all_in_call() -> None:
    # p1 (small blind, 7 behind) faces a raise to 20: his call is his 7 chips, as the
    # engine's; "call 7" is set, plays when the bet is unchanged; "call 19" is refused.
    h = Harness(holdem(seats=4, min_buy_in=1))
    h.seat({0: 40, 1: 8, 2: 40, 3: 40})
    h.tick()
    assert h.actor == "p3"
    h.act("raise", 20)
    with pytest.raises(TableError) as refused:
        h.do(cmd.SetAdvance("p1", "call", 19))
    assert refused.value.code == "bad_command"
    h.do(cmd.SetAdvance("p1", "call", 7))
    events = h.act("fold")  # p0 folds: nothing changed for p1
    assert (1, "call") in acted(events) and rv.AdvanceCleared(1, "used") in events
    assert h.actor == "p2"


def test_10_5_advance_call_any_stands_through_a_raise() -> None:
    h = three_handed()
    h.do(cmd.SetAdvance("p1", "call_any"))
    events = h.act("raise", 6)
    assert (1, "call") in acted(events)


def test_10_5_advance_check_fold_folds_facing_a_bet() -> None:
    h = three_handed()
    h.do(cmd.SetAdvance("p2", "check_fold"))
    h.act("raise", 6)
    events = h.act("fold")
    assert (2, "fold") in acted(events)


def test_10_5_advance_check_is_dropped_when_a_bet_comes() -> None:
    h = three_handed()
    h.act("call")
    h.act("call")
    h.act("check")  # to the flop: p1 acts first
    h.do(cmd.SetAdvance("p0", "check"))
    events = h.act("raise", 4)
    assert rv.AdvanceCleared(0, "bet_changed") in events
    h.act("call")  # p2 calls; p0 must decide himself
    assert h.actor == "p0"


def test_10_5_advance_call_any_checks_when_the_check_is_free() -> None:
    h = three_handed()
    h.do(cmd.SetAdvance("p2", "call_any"))
    h.act("call")
    events = h.act("call")  # the big blind's option: call_any checks
    assert (2, "check") in acted(events)
    assert h.table.state.seats[2].advance is None  # type: ignore[union-attr]


def test_10_5_advance_fold_stands_through_a_raise() -> None:
    h = three_handed()
    h.do(cmd.SetAdvance("p2", "fold"))
    h.act("raise", 6)
    events = h.act("call")  # p1 calls; the big blind's fold is played at once
    assert (2, "fold") in acted(events)


def test_10_5_advance_fold_checks_when_a_check_is_free() -> None:
    # Nobody folds for nothing by a pre-selection: the big blind's "fold", set before
    # the others only called, plays as his check of the option.
    h = three_handed()
    h.do(cmd.SetAdvance("p2", "fold"))
    h.act("call")
    events = h.act("call")  # p1 completes; p2's pre-selected fold is played at once
    assert (2, "check") in acted(events)
    assert h.table.hand.is_live(2)  # type: ignore[union-attr]


def test_10_5_advance_during_a_draw_nothing_is_to_call_so_a_check_is_kept() -> None:
    # Between the betting rounds of a draw game the engine still gave the closed round's
    # bet as the bet to match: "check" was refused ("there is 4 to call"), "call 4"
    # (which the client offered) accepted, then dropped as "the bet changed" when the
    # next round opened with nothing to call.
    from cardroom.games import Stakes, TableConfig
    from cardroom.room.settings import TableSettings

    draw = TableConfig.of("five_card_draw", Stakes.limit(2, 4))
    h = Harness(TableSettings.single("d", draw, seed="d", time_bank_start=0, draw_button=False))
    h.seat({0: 40, 1: 40, 2: 40})
    h.tick()
    h.act("raise", 4)
    h.act("call")
    h.act("call")  # the round is closed: the draw, p1 first
    hand = h.table.hand
    assert hand is not None and hand.legal_actions(hand.actor).draw is not None  # type: ignore[arg-type]
    assert h.table.view("p2")["hand"]["current_bet"] == 0
    h.act("draw")
    h.act("draw")  # p2 has drawn and waits for p0's draw
    with pytest.raises(TableError) as refused:
        h.do(cmd.SetAdvance("p2", "call", 4))
    assert refused.value.code == "bad_command"
    h.do(cmd.SetAdvance("p2", "check"))
    assert not any(isinstance(e, rv.AdvanceCleared) for e in h.act("draw"))
    assert h.actor == "p1"  # the round after the draw: nothing to call
    events = h.act("check")
    assert (2, "check") in acted(events) and rv.AdvanceCleared(2, "used") in events


@pytest.mark.parametrize("kind", ["check_fold", "check", "call_any", "fold"])
def test_10_5_advance_is_dropped_when_the_street_changes(kind: str) -> None:
    h = three_handed()
    h.act("call")
    h.act("call")
    h.act("check")  # the flop: p1 acts first
    h.act("check")
    h.do(cmd.SetAdvance("p1", kind))  # set for this street, should a bet come round
    h.act("check")
    events = h.act("check")  # nobody bet: the turn card
    assert rv.AdvanceCleared(1, "street") in events
    assert h.table.state.seats[1].advance is None  # type: ignore[union-attr]
    assert h.actor == "p1" and not any(s == 1 for s, _ in acted(events))  # he decides


def test_10_5_advance_is_dropped_when_its_player_is_out_of_the_hand() -> None:
    h = three_handed()
    h.do(cmd.SetAdvance("p1", "call_any"))
    h.do(cmd.Leave("p1"))  # dealt in: folded in turn, not played by his call_any
    events = h.act("call")
    assert (1, "fold") in acted(events)
    assert rv.AdvanceCleared(1, "out") in events
    assert h.table.state.seats[1].advance is None  # type: ignore[union-attr]


def test_10_5_advance_refused_on_ones_own_turn_and_for_a_wrong_amount() -> None:
    h = three_handed()
    codes = []
    for command in (cmd.SetAdvance("p0", "fold"), cmd.SetAdvance("p1", "call", 5)):
        with pytest.raises(TableError) as refused:
            h.do(command)
        codes.append(refused.value.code)
    # The turn came before the advance action did: a code of its own, so a client acts now.
    assert codes == ["your_turn", "bad_command"]


@pytest.mark.parametrize("kind", ["check_fold", "check", "call_any", "fold"])
@pytest.mark.parametrize("amount", [2**70, 2**53, 7, -1])
def test_10_5_an_advance_other_than_a_call_with_an_amount_is_refused_and_not_recorded(
    kind: str, amount: int
) -> None:
    """Only ``call`` carries an amount (the call it assumes). Any other kind with one was
    recorded as it came: ``AdvanceSet`` with 2**70 chips, an entry the record's own
    codec cannot read back, so the table could not be rebuilt from its record."""
    h = three_handed()
    before = h.table.record()[1]
    with pytest.raises(TableError) as refused:
        h.do(cmd.SetAdvance("p1", kind, amount))
    assert refused.value.code == "bad_command"
    assert h.table.record()[1] == before
    assert h.table.state.seats[1].advance is None  # type: ignore[union-attr]


def disconnect_scenario(**options: object) -> Harness:
    """Fixed limit, real money: p0 raises, p1 (small blind in) is disconnected."""
    h = Harness(limit_holdem(currency=Currency.REAL, time_bank_start=0, **options))  # type: ignore[arg-type]
    h.seat({0: 40, 1: 40, 2: 40})
    h.tick()
    h.do(cmd.Disconnect("p1"))
    h.act("raise", 4)
    assert h.actor == "p1"
    return h


def test_10_6_disconnected_turn_waits_reconnect_seconds() -> None:
    h = disconnect_scenario(reconnect_seconds=45)
    assert not h.tick(44)
    assert h.table.state.turn.seat == 1  # type: ignore[union-attr]
    events = h.tick(1)
    assert rv.TimedOut(1, True) in events


def test_10_6_disconnect_all_in_at_a_limit_real_money_table() -> None:
    h = disconnect_scenario()
    events = h.tick(30)
    used = next(e for e in events if isinstance(e, rv.DisconnectAllInUsed))
    assert (used.player, used.used_today) == ("p1", 1)
    assert (1, "disconnect_all_in") in acted(events)
    assert h.table.hand.is_live(1)  # type: ignore[union-attr]


def test_10_6_a_connected_player_out_of_time_folds_where_disconnect_all_ins_are_offered() -> None:
    """§10.5 before §10.6: the disconnect all-in protects a player whose line is down,
    not one who lets his clock run out at the table. At a protected table (fixed limit,
    real money) a connected player facing a bet with chips in who times out folds, and
    keeps his allowance."""
    h = Harness(limit_holdem(currency=Currency.REAL, time_bank_start=0))
    assert h.settings.protection
    h.seat({0: 40, 1: 40, 2: 40})
    h.tick()
    h.act("raise", 4)
    assert h.actor == "p1"  # the small blind: chips in, facing a raise, still connected
    events = h.tick(30)
    assert rv.TimedOut(1, False) in events
    assert acted(events) == [(1, "fold")]
    assert not any(isinstance(e, rv.DisconnectAllInUsed) for e in events)
    assert h.table.allowances.used("p1", day_of(h.clock.now)) == 0


@pytest.mark.parametrize(("used", "kind"), [(1, "disconnect_all_in"), (2, "fold")])
def test_10_6_two_disconnect_all_ins_a_day_by_default(used: int, kind: str) -> None:
    """`disconnect_allins_per_day` is 2 unless the table says (§10.6): with one used today
    a player still has one; with two used he folds."""
    h = Harness(limit_holdem(currency=Currency.REAL, time_bank_start=0))
    for _ in range(used):
        h.table.allowances.use("p1", day_of(h.clock.now))
    h.seat({0: 40, 1: 40, 2: 40})
    h.tick()
    h.do(cmd.Disconnect("p1"))
    h.act("raise", 4)
    events = h.tick(30)
    assert acted(events) == [(1, kind)]


def test_10_6_no_disconnect_all_in_without_chips_in_the_hand() -> None:
    """A disconnect all-in keeps a player in for what is already in: one facing a bet
    with nothing in this hand (the button before the flop, no ante) folds, and his
    allowance is not spent."""
    h = Harness(limit_holdem(currency=Currency.REAL, time_bank_start=0))
    h.seat({0: 40, 1: 40, 2: 40, 3: 40})
    h.tick()
    assert h.actor == "p3"  # button 0, blinds 1 and 2
    h.do(cmd.Disconnect("p0"))
    h.act("raise", 4)
    assert h.actor == "p0"
    events = h.tick(30)
    assert (0, "fold") in acted(events)
    assert not any(isinstance(e, rv.DisconnectAllInUsed) for e in events)
    assert h.table.allowances.used("p0", day_of(h.clock.now)) == 0


def test_10_6_disconnected_player_checks_when_free() -> None:
    h = Harness(limit_holdem(currency=Currency.REAL, time_bank_start=0))
    h.seat({0: 40, 1: 40, 2: 40})
    h.tick()
    h.act("call")
    h.act("call")
    h.do(cmd.Disconnect("p2"))
    events = h.tick(30)
    assert acted(events) == [(2, "check")]


def test_10_6_no_disconnect_all_in_at_no_limit_by_default() -> None:
    h = Harness(holdem(currency=Currency.REAL, time_bank_start=0))
    assert not h.settings.protection
    h.seat({0: 40, 1: 40, 2: 40})
    h.tick()
    h.do(cmd.Disconnect("p1"))
    h.act("raise", 6)
    events = h.tick(30)
    assert (1, "fold") in acted(events)


@pytest.mark.parametrize(
    ("structure", "offered"),
    [
        ("fixed_limit", True),
        ("spread_limit", True),
        ("pot_limit", False),
        ("half_pot_limit", False),
        ("no_limit", False),
    ],
)
def test_10_6_disconnect_all_in_by_default_only_at_fixed_and_spread_limit(
    structure: str, offered: bool
) -> None:
    from cardroom.games import Stakes, TableConfig
    from cardroom.room.settings import TableSettings

    stakes = Stakes.spread_limit((2, 4, 6, 6), 1, 2) if structure == "spread_limit" else None
    if structure == "fixed_limit":
        stakes = Stakes.limit(2, 4)
    config = TableConfig.of("holdem", stakes or Stakes.blinds(1, 2), structure=structure)
    settings = TableSettings.single(
        "t", config, currency=Currency.REAL, time_bank_start=0, draw_button=False, seed="x"
    )
    assert settings.protection is offered
    h = Harness(settings)
    h.seat({0: 40, 1: 40, 2: 40})
    h.tick()
    h.do(cmd.Disconnect("p1"))  # the small blind, chips in, away
    h.act("raise", 4)
    events = h.tick(30)
    assert acted(events) == [(1, "disconnect_all_in" if offered else "fold")]
    assert any(isinstance(e, rv.DisconnectAllInUsed) for e in events) is offered


def test_10_6_no_disconnect_all_in_on_play_money_by_default() -> None:
    assert not limit_holdem().protection
    assert limit_holdem(currency=Currency.REAL).protection


def test_10_6_daily_allowance_then_fold_and_a_reset_on_request() -> None:
    h = Harness(
        limit_holdem(currency=Currency.REAL, time_bank_start=0, disconnect_allins_per_day=1)
    )
    day = day_of(h.clock.now)
    h.table.allowances.use("p1", day)  # used today, at this or another table
    h.seat({0: 40, 1: 40, 2: 40})
    h.tick()
    h.do(cmd.Disconnect("p1"))
    h.act("raise", 4)
    events = h.tick(30)
    assert (1, "fold") in acted(events)  # none left today
    assert not any(isinstance(e, rv.DisconnectAllInUsed) for e in events)
    events = h.do(cmd.ResetAllowance("p1"))
    assert events == [rv.AllowanceReset(1, "p1", day)]  # logged for review
    assert project(events[0], 1) is not None  # his own business:
    assert project(events[0], 0) is None and project(events[0], None) is None
    assert h.table.allowances.used("p1", day) == 0
    with pytest.raises(TableError) as err:
        h.do(cmd.ResetAllowance("p1"))
    assert err.value.code == "no_reset_left"


def test_10_6_the_allowance_is_per_utc_day_of_the_table_clock() -> None:
    # "Today" is the UTC day of the table's clock (the server's: time.time()): the one
    # disconnect all-in of the day is spent a second before midnight; the next hand's,
    # just after it, is the new day's first.
    h = Harness(
        limit_holdem(currency=Currency.REAL, time_bank_start=0, disconnect_allins_per_day=1)
    )
    midnight = (day_of(h.clock.now) + 1) * 86_400
    h.clock.now = midnight - 31.0
    h.seat({0: 40, 1: 40, 2: 40})
    h.tick()
    h.do(cmd.Disconnect("p1"))
    h.act("raise", 4)
    events = h.tick(30)  # 23:59:59 UTC
    used = next(e for e in events if isinstance(e, rv.DisconnectAllInUsed))
    assert (used.day, used.used_today) == (day_of(midnight) - 1, 1)
    h.finish_by_checking()
    h.do(cmd.Reconnect("p1"))
    h.do(cmd.SitIn("p1"))
    h.tick()  # p1 on the button, first to act
    h.act("call")
    h.do(cmd.Disconnect("p1"))
    h.act("raise", 4)
    h.act("call")
    assert h.actor == "p1"
    assert h.clock.now < midnight
    events = h.tick(30)  # 00:00:29 UTC: a new day
    used = next(e for e in events if isinstance(e, rv.DisconnectAllInUsed))
    assert (used.day, used.used_today) == (day_of(midnight), 1)


def test_10_6_a_reset_with_nothing_used_is_refused_and_kept() -> None:
    h = Harness(limit_holdem(currency=Currency.REAL, disconnect_allins_per_day=1))
    h.seat({0: 40, 1: 40, 2: 40})
    day = day_of(h.clock.now)
    with pytest.raises(TableError) as err:
        h.do(cmd.ResetAllowance("p1"))  # nothing used today: nothing to reset
    assert err.value.code == "nothing_to_reset"
    assert h.table.allowances.resets("p1", day) == 0  # the day's reset is kept
    h.table.allowances.use("p1", day)
    assert h.do(cmd.ResetAllowance("p1")) == [rv.AllowanceReset(1, "p1", day)]
    assert h.table.allowances.used("p1", day) == 0


def test_10_6_a_player_still_away_when_a_hand_is_dealt_is_sat_out() -> None:
    """A player still disconnected when the next hand is dealt is sat out (his sit-out
    clock runs) and not dealt in; back, the room sits him in again: he never asked to
    sit out, and he owes what he missed (§10.4)."""
    h = Harness(holdem(seats=4))
    h.seat({0: 40, 1: 40, 2: 40})
    h.do(cmd.Disconnect("p2"))
    events = h.tick()
    assert rv.SatOut(2, "disconnected", h.clock.now) in events
    dealt = next(e for e in events if isinstance(e, rv.HandDealt))
    assert 2 not in dealt.dealt
    assert h.table.view("p0")["seats"][2]["sitting_out"] is True
    back = h.do(cmd.Reconnect("p2"))
    assert back == [rv.Reconnected(2), rv.SatIn(2, False)]
    assert not h.table.state.seats[2].sitting_out  # type: ignore[union-attr]


def test_10_6_a_player_who_sat_out_himself_stays_out_when_he_reconnects() -> None:
    """Only the room's own sit-out for a lost connection ends on return: one who asked
    to sit out, or was short of chips, stays out until he sits in himself."""
    h = Harness(holdem(seats=4))
    h.seat({0: 40, 1: 40, 2: 40})
    h.do(cmd.SitOut("p2"))
    h.do(cmd.Disconnect("p2"))
    h.tick()
    assert h.do(cmd.Reconnect("p2")) == [rv.Reconnected(2)]
    assert h.table.state.seats[2].sitting_out  # type: ignore[union-attr]


def test_10_6_reconnecting_restores_the_full_view_with_own_cards() -> None:
    h = disconnect_scenario(reconnect_seconds=60)
    h.do(cmd.Reconnect("p1"))
    view = h.table.view("p1")
    own = view["hand"]["seats"][1]["cards"]
    assert own == [str(c) for c in h.table.hand.hole_cards(1)]  # type: ignore[union-attr]
    assert view["seats"][1]["connected"] is True
    assert all(c is None for c in view["hand"]["seats"][0]["cards"])


def test_10_5_timeout_on_a_draw_stands_pat_and_on_a_bring_in_posts_it() -> None:
    from cardroom.games import Stakes, TableConfig
    from cardroom.room.settings import TableSettings

    draw = TableConfig.of("five_card_draw", Stakes.limit(2, 4))
    h = Harness(TableSettings.single("d", draw, seed="d", time_bank_start=0))
    h.seat({0: 40, 1: 40})
    h.tick()
    h.act("call")
    h.act("check")
    events = h.tick(30)  # the draw: the table stands the player pat
    drew = next(e for e in events if isinstance(e, hev.Drew))
    assert drew.timed_out and drew.discarded == ()
    stud = TableConfig.of("stud", Stakes.limit(2, 4, ante=1))
    h = Harness(TableSettings.single("s", stud, seed="s", time_bank_start=0))
    h.seat({0: 40, 1: 40})
    h.tick()
    events = h.tick(30)
    assert any(kind == "bring_in" for _, kind in acted(events))


def test_10_6_away_on_a_draw_stands_pat_and_on_a_due_bring_in_posts_it() -> None:
    # At real-money fixed-limit tables (disconnect all-ins offered), a player away on a
    # draw or a due bring-in faces no bet: no all-in is spent, the timeout's move is made.
    from cardroom.games import Stakes, TableConfig
    from cardroom.room.settings import TableSettings

    options = {"currency": Currency.REAL, "time_bank_start": 0, "draw_button": False}
    draw = TableConfig.of("five_card_draw", Stakes.limit(2, 4))
    h = Harness(TableSettings.single("d", draw, seed="d", **options))  # type: ignore[arg-type]
    h.seat({0: 40, 1: 40})
    h.tick()
    h.act("raise", 4)
    h.act("call")  # chips in, the draw: the first to draw goes away
    drawer = h.actor
    h.do(cmd.Disconnect(drawer))
    events = h.tick(30)
    drew = next(e for e in events if isinstance(e, hev.Drew))
    assert drew.timed_out and drew.discarded == ()
    assert not any(isinstance(e, rv.DisconnectAllInUsed) for e in events)
    stud = TableConfig.of("stud", Stakes.limit(2, 4, ante=1))
    h = Harness(TableSettings.single("s", stud, seed="s", **options))  # type: ignore[arg-type]
    h.seat({0: 40, 1: 40, 2: 40})
    h.tick()
    h.do(cmd.Disconnect(h.actor))  # the bring-in is due: his ante is in
    events = h.tick(30)
    assert [kind for _, kind in acted(events)] == ["bring_in"]
    assert not any(isinstance(e, rv.DisconnectAllInUsed) for e in events)


def test_the_decision_key_moves_with_the_hand_and_only_with_it() -> None:
    """What a server compares to refuse a late action (`stale_turn`): the same while the
    clock, the time bank or the chat run; new at every action and every hand."""
    h = three_handed(time_bank_start=20)
    first = h.table.decision_key(0)
    assert first is not None and first[0] == h.table.state.hand_no
    h.tick(30)  # the time bank starts: the same decision
    h.do(cmd.Say("p1", "hello"))
    assert h.table.decision_key(0) == first
    h.act("call")
    second = h.table.decision_key(0)
    assert second is not None and second != first
    h.act("fold")
    h.act("fold")  # the hand is over; the next one is dealt after the pause
    assert h.table.decision_key(0) is None
    h.tick(60)
    third = h.table.decision_key(0)
    assert third is not None and third[0] == first[0] + 1


def test_10_5_an_advance_left_when_the_hand_ends_is_cleared_before_hand_finished() -> None:
    # The big blind pre-selects check/fold; both others fold, so his turn never comes.
    # The room forgets the choice with the hand: a client following the events must be
    # told (else it shows a choice a reconnection's snapshot no longer has).
    h = three_handed()
    h.do(cmd.SetAdvance("p2", "check_fold"))
    h.act("fold")
    events = h.act("fold")
    kinds = [type(e) for e in events]
    assert rv.AdvanceCleared(2, "hand_over") in events
    assert kinds.index(rv.AdvanceCleared) < kinds.index(rv.HandFinished)
    assert h.table.state.seats[2].advance is None  # type: ignore[union-attr]


def test_10_10_an_advance_left_when_the_hand_is_cancelled_is_cleared_before_hand_voided() -> None:
    h = three_handed()
    h.do(cmd.SetAdvance("p2", "check_fold"))
    events = h.table.cancel_hand()
    kinds = [type(e) for e in events]
    assert rv.AdvanceCleared(2, "hand_over") in events
    assert kinds.index(rv.AdvanceCleared) < kinds.index(rv.HandVoided)
