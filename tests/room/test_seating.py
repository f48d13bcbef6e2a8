"""RULEBOOK §10.2–§10.3: buy-ins, rebuys, the reducing rule, the waiting list."""

from __future__ import annotations

import pytest

from cardroom.games import Stakes, TableConfig
from cardroom.games.checks import MAX_CHIPS
from cardroom.ledger import AccountRef, Currency, Reason, Transfer
from cardroom.room import commands as cmd
from cardroom.room import events as rv
from cardroom.room.chinese_table import ChineseTableConfig
from cardroom.room.errors import TableError
from cardroom.room.rotation import eight_game, horse
from cardroom.room.settings import TableSettings, default_buy_in
from cardroom.room.state import state_to_dict
from cardroom.room.table import Table

from .conftest import FUNDS, Harness, holdem, limit_holdem


def test_10_2_default_buy_in_big_bet_10x_to_20x_big_blind() -> None:
    assert default_buy_in(TableConfig.of("holdem", Stakes.blinds(1, 2))) == (20, 40)


def test_10_2_default_buy_in_limit_10x_small_blind_to_20x_big_blind() -> None:
    config = TableConfig.of("holdem", Stakes.limit(4, 8), structure="fixed_limit")
    assert default_buy_in(config) == (20, 80)


def test_10_2_default_buy_in_stud_measures_in_half_the_small_bet_and_the_small_bet() -> None:
    # A stud game has no blinds: its "small blind" is half the small bet and its "big
    # blind" the small bet, so a 4/8 stud table buys in for 10 x 2 to 20 x 4.
    config = TableConfig.of("stud", Stakes(ante=1, small_bet=4, big_bet=8))
    assert default_buy_in(config) == (20, 80)


def test_10_2_a_mixed_tables_default_buy_in_is_the_largest_over_its_games() -> None:
    # 8-Game at 6/12: its limit games buy in from 10 x 3, its NL Hold'em and PLO from
    # 10 x 6 (big-bet games are measured in big blinds); the table takes the largest.
    settings = TableSettings.with_rotation("m", eight_game(6))
    assert settings.buy_in_range == (60, 120)
    with pytest.raises(TableError) as err:
        Harness(settings).do(cmd.Sit("p0", 0, 59))
    assert err.value.code == "buy_in_too_small"


def test_10_2_buy_in_range_is_configurable_per_table() -> None:
    settings = holdem(min_buy_in=50, max_buy_in=500)
    assert settings.buy_in_range == (50, 500)
    h = Harness(settings)
    with pytest.raises(TableError) as err:
        h.do(cmd.Sit("p0", 0, 40))
    assert err.value.code == "buy_in_too_small"
    h.do(cmd.Sit("p0", 0, 500))


def test_10_2_buy_in_outside_the_range_is_refused_and_nothing_moves(h: Harness) -> None:
    for amount, code in ((19, "buy_in_too_small"), (41, "buy_in_too_large")):
        with pytest.raises(TableError) as err:
            h.do(cmd.Sit("p0", 0, amount))
        assert err.value.code == code
    assert h.balance("p0") == FUNDS
    assert h.table.state.seats[0] is None


def test_10_2_buy_in_moves_chips_from_the_account_to_the_table(h: Harness) -> None:
    h.do(cmd.Sit("p0", 0, 40))
    assert h.balance("p0") == FUNDS - 40
    assert h.table.stacks() == {"p0": 40}


def test_10_2_whole_balance_option_has_no_maximum() -> None:
    h = Harness(limit_holdem(whole_balance=True))
    h.do(cmd.Sit("p0", 0, 5_000))
    assert h.table.stacks()["p0"] == 5_000


def test_10_2_whole_balance_is_for_limit_games_only() -> None:
    # Seed 003: "fixed-limit players" may bring their whole balance; a no-limit game
    # keeps its maximum, at a single-game table or in a mixed rotation.
    for settings in (
        lambda: holdem(whole_balance=True),
        lambda: TableSettings.with_rotation("m", eight_game(6), whole_balance=True),
        lambda: TableSettings.chinese_table("c", ChineseTableConfig("ofc", 10), whole_balance=True),
    ):
        with pytest.raises(TableError) as err:
            settings()
        assert err.value.code == "bad_command"
    assert TableSettings.with_rotation("h", horse(6), whole_balance=True).buy_in_range[1] is None


def test_10_2_rebuy_only_between_hands(h: Harness) -> None:
    h.seat({0: 30, 1: 30})
    h.tick()
    assert h.table.state.in_hand
    with pytest.raises(TableError) as err:
        h.do(cmd.Rebuy("p0", 5))
    assert err.value.code == "hand_in_progress"
    h.act("fold")
    assert not h.table.state.in_hand
    events = h.do(cmd.Rebuy("p0", 5))
    assert any(isinstance(e, rv.ChipsAdded) for e in events)


@pytest.mark.parametrize("amount", [0, -5])
def test_10_2_a_rebuy_adds_chips_or_is_refused(h: Harness, amount: int) -> None:
    """A rebuy adds chips (§10.2): none, or fewer than none (chips taken off the table
    mid-session, past the reducing rule), is a bad command and moves nothing."""
    h.do(cmd.Sit("p0", 0, 30))
    with pytest.raises(TableError) as err:
        h.do(cmd.Rebuy("p0", amount))
    assert err.value.code == "bad_command"
    assert h.table.stacks()["p0"] == 30
    assert h.balance("p0") == FUNDS - 30


def test_10_1_one_seat_a_player_at_a_table(h: Harness) -> None:
    """One account is one player: seated once, he may not take a second seat at the
    same table (two hands for one player), and nothing moves."""
    h.do(cmd.Sit("p0", 0, 30))
    with pytest.raises(TableError) as err:
        h.do(cmd.Sit("p0", 1, 30))
    assert err.value.code == "already_seated"
    assert h.table.state.seats[1] is None
    assert h.balance("p0") == FUNDS - 30


def test_10_2_rebuy_never_above_the_maximum(h: Harness) -> None:
    h.do(cmd.Sit("p0", 0, 30))
    with pytest.raises(TableError) as err:
        h.do(cmd.Rebuy("p0", 11))
    assert err.value.code == "buy_in_too_large"
    h.do(cmd.Rebuy("p0", 10))
    assert h.table.stacks()["p0"] == 40


def test_10_2_reducing_returning_within_30_minutes_must_bring_what_was_taken(
    h: Harness,
) -> None:
    h.do(cmd.Sit("p0", 0, 40))
    h.do(cmd.Leave("p0"))
    h.clock.advance(29 * 60)
    with pytest.raises(TableError) as err:
        h.do(cmd.Sit("p0", 0, 30))
    assert err.value.code == "buy_in_too_small"
    h.clock.advance(2 * 60)
    h.do(cmd.Sit("p0", 0, 30))  # 31 minutes later: the table's minimum again


def test_10_2_reducing_binds_no_more_once_the_chips_were_brought_back(h: Harness) -> None:
    """A player who came back with what he took off, lost it all and left took nothing
    off this time: back again at once, the table's minimum is his minimum (the first
    departure was settled when he sat down again, not kept to bind him twice)."""
    h.seat({0: 40, 1: 40})
    h.do(cmd.Leave("p0"))
    h.do(cmd.Leave("p1"))
    h.seat({0: 40, 1: 40})  # both back at once with what they took off
    while all(stack > 0 for stack in h.table.stacks().values()):
        h.tick()
        hand = h.table.hand
        assert hand is not None
        while h.table.state.in_hand:
            legal = hand.legal_actions(hand.actor)  # type: ignore[arg-type]
            if legal.max_raise_to is not None:
                h.act("raise", legal.max_raise_to)
            else:
                h.act("check" if legal.check else "call")
    (busted,) = [p for p, stack in h.table.stacks().items() if stack == 0]
    h.do(cmd.Leave(busted))
    h.do(cmd.Sit(busted, 2, 20))


def test_10_2_reducing_does_not_bind_a_player_the_room_stood_up(h: Harness) -> None:
    """A table closed under a player (an operator, a server's stop or its recovery
    after a crash) was not the player taking chips off: back at once, he may buy in
    for the table's minimum."""
    h.do(cmd.Sit("p0", 0, 40))
    h.table.close()
    assert h.table.state.departures == {}
    h.do(cmd.Sit("p0", 0, 20))


def test_10_2_reducing_departures_are_forgotten_once_they_no_longer_bind(h: Harness) -> None:
    # A table that runs for months sees thousands of players come and go: what each
    # took off binds a return for reducing_minutes only, then the table forgets it (an
    # event of its record, for staff only), so its state and the snapshot written at
    # every hand keep only the departures that still bind.
    h.seat({0: 40, 1: 30})
    h.do(cmd.Leave("p0"))
    h.do(cmd.Leave("p1"))
    h.clock.advance(20 * 60)
    h.seat({2: 35})
    h.do(cmd.Leave("p2"))
    assert h.tick(9 * 60 + 59) == []  # p0 and p1 left 29:59 ago: both still bind
    assert set(h.table.state.departures) == {"p0", "p1", "p2"}
    assert h.tick(1) == [rv.DeparturesForgotten(("p0", "p1"))]
    assert set(h.table.state.departures) == {"p2"}
    assert set(state_to_dict(h.table.state)["departures"]) == {"p2"}
    assert h.tick(60) == []  # forgotten once
    copy = Table.restore(h.settings, *h.table.record(), h.ledger, h.clock)
    assert copy.state.departures == h.table.state.departures
    with pytest.raises(TableError) as err:  # p2's 35 still binds
        h.do(cmd.Sit("p2", 2, 30))
    assert err.value.code == "buy_in_too_small"
    h.do(cmd.Sit("p0", 0, 20))  # p0's 40 no longer does


def test_10_2_reducing_allows_bringing_back_more_than_the_maximum(h: Harness) -> None:
    h.seat({0: 40, 1: 40})
    h.tick()
    while h.table.state.in_hand:  # p0 or p1 wins the other's chips
        h.act("raise", h.table.hand.legal_actions(h.table.hand.actor).max_raise_to)  # type: ignore[union-attr,arg-type]
        if h.table.state.in_hand:
            h.act("call")
    winner = max(h.table.stacks().items(), key=lambda kv: kv[1])
    assert winner[1] > 40
    h.do(cmd.Leave(winner[0]))
    h.do(cmd.Sit(winner[0], 3, winner[1]))  # above the max of 40: the chips taken off


def test_10_2_reducing_a_refused_return_says_what_was_taken_off_and_for_how_long(
    h: Harness,
) -> None:
    """A player back within the window with less than he took off was told only "the
    buy-in is at least 40", at a table whose range reads 20 to 40: not why, nor until
    when. The refusal names the chips he left with and the minutes left (the code is
    the same); one below the table's own minimum is told that minimum alone."""
    h.do(cmd.Sit("p0", 0, 40))
    h.do(cmd.Leave("p0"))
    h.clock.advance(2 * 60 + 30)
    with pytest.raises(TableError) as err:
        h.do(cmd.Sit("p0", 0, 30))
    assert err.value.code == "buy_in_too_small"
    assert err.value.reason.startswith("the buy-in is at least 40: you left this table")
    assert "with 40 chips" in err.value.reason and "28 minutes left" in err.value.reason
    with pytest.raises(TableError) as err:
        h.do(cmd.Sit("p1", 1, 19))
    assert err.value.reason == "the buy-in is at least 20"


def test_10_3_waiting_list_offers_seats_in_order_with_a_time_limit() -> None:
    h = Harness(holdem(seats=2, waitlist_offer_seconds=60))
    h.seat({0: 40, 1: 40})
    with pytest.raises(TableError):
        h.do(cmd.Sit("p2", 0, 40))
    h.do(cmd.JoinWaitlist("p2"))
    h.do(cmd.JoinWaitlist("p3"))
    events = h.do(cmd.Leave("p0"))
    offer = next(e for e in events if isinstance(e, rv.SeatOffered))
    assert (offer.player, offer.seat) == ("p2", 0)
    with pytest.raises(TableError) as err:  # held for p2: p3 may not take it
        h.do(cmd.Sit("p3", 0, 40))
    assert err.value.code == "seat_reserved"
    events = h.tick(61)  # p2 let the offer expire: it passes to p3
    assert rv.WaitlistLeft("p2", "offer_expired") in events
    offer = next(e for e in events if isinstance(e, rv.SeatOffered))
    assert offer.player == "p3"
    h.do(cmd.JoinWaitlist("p4"))
    events = h.do(cmd.LeaveWaitlist("p3"))  # p3 declines: the seat passes on at once
    offer = next(e for e in events if isinstance(e, rv.SeatOffered))
    assert (offer.player, offer.seat) == ("p4", 0)
    h.do(cmd.Sit("p4", 0, 40))
    assert h.table.state.waitlist == []


def test_10_3_a_seat_is_held_for_waitlist_offer_seconds_and_no_longer() -> None:
    # Held for 60 s: up to the last instant, then passed on at exactly 60 s.
    h = Harness(holdem(seats=2, waitlist_offer_seconds=60))
    h.seat({0: 40, 1: 40})
    h.do(cmd.JoinWaitlist("p2"))
    h.do(cmd.JoinWaitlist("p3"))
    h.do(cmd.Leave("p0"))
    assert not any(isinstance(e, rv.WaitlistLeft) for e in h.tick(59.5))
    assert rv.WaitlistLeft("p2", "offer_expired") in h.tick(0.5)
    assert list(h.table.state.offers) == ["p3"]


def test_10_3_a_seat_nobody_waits_for_is_free_while_another_is_held() -> None:
    # p5, the only one waiting, holds seat 0; seat 1 frees too: nobody else waits for
    # it, so a newcomer may sit there (and the waiting list is only for a full table).
    h = Harness(holdem(seats=3))
    h.seat({0: 40, 1: 40, 2: 40})
    h.do(cmd.JoinWaitlist("p5"))
    h.do(cmd.Leave("p0"))
    h.do(cmd.Leave("p1"))
    assert list(h.table.state.offers) == ["p5"] and h.table.state.offers["p5"].seat == 0
    with pytest.raises(TableError) as err:
        h.do(cmd.Sit("p6", 0, 40))  # held for p5
    assert err.value.code == "seat_reserved"
    with pytest.raises(TableError) as err:
        h.do(cmd.JoinWaitlist("p6"))
    assert err.value.code == "table_not_full"
    h.do(cmd.Sit("p6", 1, 40))
    h.do(cmd.Sit("p5", 0, 40))
    assert h.table.state.waitlist == [] and h.table.state.offers == {}


def test_10_3_a_closing_table_offers_no_seat_and_ends_its_waiting_list() -> None:
    """A table the room closes (an operator, a server's stop, its recovery after a crash,
    which then reopens it empty) ends its waiting list: its seats are not offered as
    its players are stood up, and no player waiting before it closed (connected or
    not) holds a seat of the table reopened."""
    h = Harness(holdem(seats=2))
    h.seat({0: 40, 1: 40})
    h.do(cmd.JoinWaitlist("p2"))
    h.do(cmd.JoinWaitlist("p3"))
    events = h.table.close()
    assert not [e for e in events if isinstance(e, rv.SeatOffered)]
    assert rv.WaitlistLeft("p2", rv.TABLE_CLOSED) in events
    assert rv.WaitlistLeft("p3", rv.TABLE_CLOSED) in events
    assert h.table.state.waitlist == [] and h.table.state.offers == {}
    h.do(cmd.Sit("p4", 0, 40))  # reopened: a newcomer sits anywhere


def test_10_3_waiting_list_only_when_the_table_is_full(h: Harness) -> None:
    with pytest.raises(TableError) as err:
        h.do(cmd.JoinWaitlist("p0"))
    assert err.value.code == "table_not_full"


def test_10_3_a_seated_player_is_not_on_his_own_table_s_waiting_list() -> None:
    """The waiting list is for players without a seat (§10.3): one seated at a full
    table asking to wait there would be offered a second seat."""
    h = Harness(holdem(seats=2))
    h.seat({0: 40, 1: 40})
    with pytest.raises(TableError) as err:
        h.do(cmd.JoinWaitlist("p0"))
    assert err.value.code == "already_seated"
    assert h.table.state.waitlist == []


def test_10_2_settings_reject_an_empty_range() -> None:
    config = TableConfig.of("holdem", Stakes.blinds(1, 2))
    with pytest.raises(TableError):
        TableSettings.single("t", config, min_buy_in=50, max_buy_in=40)


def test_10_2_leaving_during_a_hand_folds_in_turn_and_cashes_out_after_it(h: Harness) -> None:
    h.seat({0: 40, 1: 40, 2: 40})
    h.tick()
    assert h.actor == "p0"
    events = h.do(cmd.Leave("p0"))  # p0's turn: the fold is played at once
    assert rv.LeaveRequested(0) in events
    assert h.table.state.seats[0] is not None  # still seated until the hand ends
    h.act("fold")  # p1 folds: p2 wins the blinds, the hand ends
    left = next(e for e in h.table.log if isinstance(e, rv.PlayerLeft))
    assert (left.player, left.cashed_out) == ("p0", 40)
    assert h.balance("p0") == FUNDS


def test_10_2_a_player_who_asked_to_leave_in_a_hand_may_stay_and_keeps_his_seat(
    h: Harness,
) -> None:
    """Leaving asked in a hand waits for its end; until then the player may take it back
    (``Stay``): every view says the seat is leaving (it will be empty next hand), then
    that it is not; his next decision is his own (not played at once as a leaver's),
    and he keeps his seat and is dealt the next hand."""
    h.seat({0: 40, 1: 40, 2: 40})
    h.tick()
    assert h.actor == "p0"
    assert h.do(cmd.Leave("p1")) == [rv.LeaveRequested(1)]
    for viewer in (None, "p0", "p1"):
        assert h.table.view(viewer)["seats"][1]["leaving"] is True
    assert h.do(cmd.Stay("p1")) == [rv.LeaveCancelled(1)]
    for viewer in (None, "p0", "p1"):
        assert h.table.view(viewer)["seats"][1]["leaving"] is False
    h.act("call")  # p0: now p1 decides, nothing is played for him
    assert h.actor == "p1" and h.table.state.turn is not None and h.table.state.turn.seat == 1
    while h.table.state.in_hand:
        h.act("fold")
    assert not any(isinstance(e, rv.PlayerLeft) for e in h.table.log)
    assert h.table.state.seat_of("p1") == 1
    dealt = next(e for e in h.tick() if isinstance(e, rv.HandDealt))
    assert 1 in dealt.dealt


def test_10_2_staying_is_refused_with_no_leave_of_one_s_own_pending(h: Harness) -> None:
    """``Stay`` takes back only a leave the player asked for and the hand still holds:
    not seated, nothing asked, asked and taken back already (``not_leaving``), or stood
    up by the room (a sanction, §10.9: ``stood_up``, and he still leaves). Each refusal
    changes nothing."""
    h.seat({0: 40, 1: 40, 2: 40})
    h.tick()
    cases = [("p5", "not_seated"), ("p1", "not_leaving")]
    h.do(cmd.Leave("p2", rv.FROZEN))
    cases.append(("p2", "stood_up"))
    h.do(cmd.Leave("p1"))
    h.do(cmd.Stay("p1"))
    cases.append(("p1", "not_leaving"))
    for player, code in cases:
        before = state_to_dict(h.table.state), len(h.table.log)
        with pytest.raises(TableError) as err:
            h.do(cmd.Stay(player))
        assert err.value.code == code, player
        assert (state_to_dict(h.table.state), len(h.table.log)) == before
    while h.table.state.in_hand:
        h.act("fold")
    left = [(e.player, e.reason) for e in h.table.log if isinstance(e, rv.PlayerLeft)]
    assert left == [("p2", rv.FROZEN)]


def test_10_4_sitting_out_during_a_hand_takes_effect_from_the_next(h: Harness) -> None:
    h.seat({0: 40, 1: 40, 2: 40})
    h.tick()
    h.do(cmd.SitOut("p1"))
    assert h.table.dealt_in(1) and not h.table.state.seats[1].sitting_out  # type: ignore[union-attr]
    # Every view says it was asked (a client reloaded in the hand still knows).
    assert h.table.view("p1")["seats"][1]["sit_out_next"] is True
    assert h.table.view("p0")["seats"][1]["sit_out_next"] is True
    while h.table.state.in_hand:
        h.act("fold")
    assert h.table.state.seats[1].sitting_out  # type: ignore[union-attr]
    assert h.table.view("p1")["seats"][1]["sit_out_next"] is False
    events = h.tick()
    dealt = next(e for e in events if isinstance(e, rv.HandDealt))
    assert 1 not in dealt.dealt


def test_10_9_a_table_never_holds_more_chips_than_a_stack_may_hold() -> None:
    # Stacks win each other's chips: were the table's chips in all past 2**53 - 1 (what
    # the engine deals and a browser's numbers show exactly), the next deal failed for
    # good. A buy-in or rebuy that would take the table past it is refused.
    h = Harness(holdem(min_buy_in=20, max_buy_in=2**52))
    for p in ("p0", "p1"):
        h.ledger.post(
            Transfer(f"big:{p}", Reason.DEPOSIT, AccountRef.cashier(Currency.PLAY),
                     AccountRef.player(p, Currency.PLAY), 2**53)
        )  # fmt: skip
    h.do(cmd.Sit("p0", 0, 2**52))
    with pytest.raises(TableError) as err:
        h.do(cmd.Sit("p1", 1, 2**52))
    assert err.value.code == "buy_in_too_large" and str(2**52 - 1) in str(err.value)
    h.do(cmd.Sit("p1", 1, 2**52 - 30))
    with pytest.raises(TableError) as err:
        h.do(cmd.Rebuy("p1", 30))
    assert err.value.code == "buy_in_too_large"
    h.do(cmd.Rebuy("p1", 29))
    h.tick()
    h.act("raise", 2**52)
    h.act("call")
    h.tick(60)
    assert sum(h.table.stacks().values()) == MAX_CHIPS
