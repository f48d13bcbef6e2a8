"""Chinese poker through the room (RULEBOOK §8, §10, §12): the same seating, clock,
disconnection, money, views and record as a poker table. Every command and tick goes
through the Harness: the money invariant and the hidden-card oracle run each time."""

from __future__ import annotations

import contextlib
import json
import random
from typing import Any

import pytest

from cardroom.chinese import CardsDealt, ChineseHand, HandSettled, HandStarted
from cardroom.ledger import AccountRef, Currency, Reason, Transfer
from cardroom.room import commands as cmd
from cardroom.room import events as rv
from cardroom.room.chinese_room import ChineseRoomTable
from cardroom.room.chinese_table import ChineseTableConfig
from cardroom.room.codec import decode_record, encode_record
from cardroom.room.errors import TableError
from cardroom.room.settings import TableSettings

from .conftest import Harness, holdem
from .test_chinese_table import SEAT0, SEAT1, deck_for
from .test_money import CountingLedger

PLAY = Currency.PLAY


def player_account(i: int) -> AccountRef:
    return AccountRef.player(f"p{i}", PLAY)


def ofc(variant: str = "ofc", **options: Any) -> TableSettings:
    """A Chinese poker table at 10 chips a point (buy-in 300..3000), hands back to back."""
    config = ChineseTableConfig(variant, point_value=10, max_seats=options.pop("seats", None))
    options.setdefault("draw_button", False)  # the tests pin positions: seat 0 first
    return TableSettings.chinese_table("c", config, seed="chinese-room", **options)


def table_of(h: Harness) -> ChineseRoomTable:
    assert isinstance(h.table, ChineseRoomTable)
    return h.table


def to_act(h: Harness) -> str:
    """The player whose placement is awaited."""
    turn = h.table.state.turn
    assert turn is not None
    seat = h.table.state.seats[turn.seat]
    assert seat is not None
    return seat.player


def place_legally(h: Harness, rng: random.Random) -> list[Any]:
    """The player to act places his cards at random, legally (rows with room)."""
    game = table_of(h).game
    assert game is not None
    s = h.table.state.seat_of(to_act(h))
    assert s is not None
    options = game.legal_actions(s)[0]
    cards = list(options.cards)
    rng.shuffle(cards)
    discard, rest = cards[: options.discard], cards[options.discard :]
    rows: dict[str, list[Any]] = {"top": [], "middle": [], "bottom": []}
    free = dict(options.free)
    for c in rest:
        row = rng.choice([r for r in rows if free[r] > 0])
        rows[row].append(c)
        free[row] -= 1
    return h.do(
        cmd.PlaceCards(
            to_act(h), tuple(rows["top"]), tuple(rows["middle"]), tuple(rows["bottom"]),
            tuple(discard),
        )
    )  # fmt: skip


def play_hand(h: Harness, rng: random.Random) -> list[Any]:
    events: list[Any] = []
    while h.table.state.in_hand:
        events += place_legally(h, rng)
    return events


@pytest.mark.parametrize("variant", ["ofc", "pineapple", "turbo", "progressive", "pineapple27"])
def test_8_a_hand_of_each_open_face_game_is_dealt_placed_and_settled(variant: str) -> None:
    h = Harness(ofc(variant))
    h.seat({0: 1000, 1: 1000, 2: 1000})
    dealt = h.tick()
    assert any(isinstance(e, rv.HandDealt) for e in dealt)
    assert any(isinstance(e, HandStarted) for e in dealt)
    events = play_hand(h, random.Random(variant))
    assert any(isinstance(e, HandSettled) for e in events)
    finished = [e for e in events if isinstance(e, rv.HandFinished)]
    assert len(finished) == 1 and finished[0].rake == 0
    assert sum(stack for _, stack in finished[0].stacks) == 3000


def test_10_2_buy_in_range_in_points_and_chips_through_the_ledger() -> None:
    h = Harness(ofc())
    assert h.settings.buy_in_range == (300, 3000)
    with pytest.raises(TableError) as e:
        h.do(cmd.Sit("p0", 0, 299))
    assert e.value.code == "buy_in_too_small"
    h.seat({0: 500})
    assert h.balance("p0") == 100_000 - 500


def test_10_9_each_settled_hand_is_one_ledger_transaction() -> None:
    h = Harness(ofc())
    ledger = CountingLedger()
    for i in range(2):
        ledger.post(
            Transfer(f"d{i}", Reason.DEPOSIT, AccountRef.cashier(PLAY), player_account(i), 5000)
        )
    table = ChineseRoomTable(h.settings, ledger, h.clock)
    for i in range(2):
        table.handle(cmd.Sit(f"p{i}", i, 1000))
    rng = random.Random(4)
    h.table, h.ledger = table, ledger
    for _ in range(3):
        h.tick()
        before = len(ledger.calls)
        play_hand(h, rng)
        settled = next(e for e in table.log if isinstance(e, HandSettled))
        won = any(r.chips for r in settled.results)
        assert len(ledger.calls) == before + won  # placements move nothing; the end once
    assert sum(table.stacks().values()) == 2000


def test_8_placement_errors_have_codes_and_change_nothing() -> None:
    h = Harness(ofc())
    h.seat({0: 1000, 1: 1000})
    h.tick()
    actor = to_act(h)
    other = "p1" if actor == "p0" else "p0"
    with pytest.raises(TableError) as e:
        h.do(cmd.PlaceCards(other))
    assert e.value.code == "not_your_turn"
    with pytest.raises(TableError) as e:
        h.do(cmd.PlaceCards(actor))
    assert e.value.code == "bad_placement"
    with pytest.raises(TableError) as e:
        h.do(cmd.Act(actor, "check"))
    assert e.value.code == "wrong_game"
    with pytest.raises(TableError) as e:
        h.do(cmd.PlaceCards("p5"))
    assert e.value.code == "not_seated"
    poker = Harness(holdem())
    poker.seat({0: 40})
    with pytest.raises(TableError) as e:
        poker.do(cmd.PlaceCards("p0"))
    assert e.value.code == "wrong_game"


def test_10_5_timeout_places_for_the_player_after_the_time_bank() -> None:
    h = Harness(ofc(action_seconds=20, time_bank_start=5))
    h.seat({0: 1000, 1: 1000})
    h.tick()
    actor = to_act(h)
    s = h.table.state.seat_of(actor)
    assert h.tick(19.9) == []
    banked = h.tick(0.1)
    assert rv.TurnStarted(s, h.clock() + 5, True) in banked  # type: ignore[arg-type]
    out = h.tick(5)
    assert rv.TimedOut(s, False) in out  # type: ignore[arg-type]
    assert to_act(h) != actor
    # Every later placement times out too: the hand ends by itself.
    while h.table.state.in_hand:
        h.tick(20)
    assert sum(h.table.stacks().values()) == 2000


def test_10_5_a_placement_in_the_players_own_time_leaves_his_time_bank_alone() -> None:
    # §10.5: the time bank runs only after the decision's own time; placing 5 s into a
    # 20 s street uses none of it (its 15 s left are not the new bank).
    h = Harness(ofc(action_seconds=20, time_bank_start=30))
    h.seat({0: 1000, 1: 1000})
    h.tick()
    actor = to_act(h)
    s = h.table.state.seat_of(actor)
    assert s is not None
    h.tick(5)
    out = place_legally(h, random.Random(1))
    assert not [e for e in out if isinstance(e, rv.TimeBankChanged)]
    assert h.table.seat(s).time_bank == 30


def test_10_6_a_disconnected_players_turn_waits_reconnect_seconds() -> None:
    h = Harness(ofc(action_seconds=10, reconnect_seconds=40, time_bank_start=0))
    h.seat({0: 1000, 1: 1000})
    h.tick()
    actor = to_act(h)
    s = h.table.state.seat_of(actor)
    h.do(cmd.Disconnect(actor))
    assert not [e for e in h.tick(10) if isinstance(e, rv.TimedOut)]
    out = h.tick(30)
    assert rv.TimedOut(s, True) in out  # type: ignore[arg-type]
    h.do(cmd.Reconnect(actor))
    assert actor in json.dumps(h.table.view(actor))


def test_10_6_a_turn_that_starts_with_the_player_away_waits_reconnect_seconds() -> None:
    """§10.6 at a Chinese poker table as at a poker table: a player already cut off when
    his turn comes has `reconnect_seconds` (not the street's `action_seconds`) to come
    back before the table places his cards."""
    h = Harness(ofc(action_seconds=10, reconnect_seconds=40, time_bank_start=0))
    h.seat({0: 1000, 1: 1000})
    h.tick()
    first = to_act(h)
    other = next(p for p in ("p0", "p1") if p != first)
    h.do(cmd.Disconnect(other))  # away before his turn comes
    place_legally(h, random.Random(3))
    assert to_act(h) == other
    s = h.table.state.seat_of(other)
    assert not [e for e in h.tick(10) if isinstance(e, rv.TimedOut)]
    out = h.tick(30)
    assert rv.TimedOut(s, True) in out  # type: ignore[arg-type]


def test_10_2_leaving_during_a_hand_places_at_once_and_cashes_out_after() -> None:
    h = Harness(ofc())
    h.seat({0: 1000, 1: 1000, 2: 1000})
    h.tick()
    actor = to_act(h)
    out = h.do(cmd.Leave(actor))
    assert rv.LeaveRequested(h.table.state.seat_of(actor)) in out  # type: ignore[arg-type]
    assert to_act(h) != actor
    rng = random.Random(2)
    events: list[Any] = []
    while h.table.state.in_hand:
        if to_act(h) == actor:
            raise AssertionError("a leaving player is never waited for")
        events += place_legally(h, rng)
    left = [e for e in events if isinstance(e, rv.PlayerLeft)]
    assert [e.player for e in left] == [actor]


def test_10_4_sitting_out_keeps_the_seat_and_deals_no_cards() -> None:
    h = Harness(ofc())
    h.seat({0: 1000, 1: 1000, 2: 1000})
    h.do(cmd.SitOut("p2"))
    dealt = h.tick()
    started = next(e for e in dealt if isinstance(e, HandStarted))
    assert set(started.seats) == {0, 1}
    assert not any(isinstance(e, CardsDealt) and e.seat == 2 for e in dealt)


def test_12_views_hide_cards_to_place_and_show_placed_ones() -> None:
    h = Harness(ofc())
    h.seat({0: 1000, 1: 1000})
    h.tick()  # the Harness checks every view against the oracle; here what is there
    actor = to_act(h)
    s = h.table.state.seat_of(actor)
    mine = h.table.view(actor)
    other = h.table.view("p1" if actor == "p0" else "p0")
    pending = next(p for p in mine["hand"]["players"] if p["seat"] == s)["pending"]
    assert len(pending) == 5 and mine["hand"]["options"]["place"] == 5
    assert next(p for p in other["hand"]["players"] if p["seat"] == s)["pending"] == 5
    assert other["hand"]["options"] is None
    legal, cards, board = h.table.turn_parts(mine)
    assert legal["actions"] == ["place"] and cards == pending and board == []
    place_legally(h, random.Random(1))
    placed = next(p for p in h.table.view(None)["hand"]["players"] if p["seat"] == s)
    assert sum(len(r) for r in placed["rows"].values()) == 5  # placed face up: public


def test_10_10_recovery_cancels_the_unfinished_hand_and_keeps_fantasyland() -> None:
    h = Harness(ofc())
    h.seat({0: 1000, 1: 1000})
    table = table_of(h)
    table.fantasyland = {"p0": 13}  # as a previous hand's QQ on top would have left it
    h.tick()
    game = table.game
    assert game is not None
    assert len(game.players[0].pending) == 13  # Fantasyland: the whole hand, face down
    place_legally(h, random.Random(3))
    balances = (h.balance("p0"), h.balance("p1"))
    record = json.loads(json.dumps(encode_record(*table.record())))
    snapshot, events = decode_record(record)
    copy = ChineseRoomTable.restore(h.settings, snapshot, events, h.ledger, h.clock)
    assert copy.view("p0") == table.view("p0") and copy.view(None) == table.view(None)
    assert copy.fantasyland == table.fantasyland
    recovered = ChineseRoomTable.recover(h.settings, snapshot, events, h.ledger, h.clock)
    assert isinstance(recovered, ChineseRoomTable)
    assert not recovered.state.in_hand
    assert isinstance(recovered.log[-1], rv.HandVoided)
    assert recovered.stacks() == {"p0": 1000, "p1": 1000}
    assert recovered.fantasyland == {"p0": 13}  # a cancelled hand keeps it
    assert (h.balance("p0"), h.balance("p1")) == balances
    closed = recovered.close()
    assert [e.cashed_out for e in closed if isinstance(e, rv.PlayerLeft)] == [1000, 1000]


def rig(monkeypatch: pytest.MonkeyPatch, *decks: list[int]) -> None:
    """The next hands are dealt from ``decks`` (then from the table's seed again)."""
    queue = iter(decks)
    original = ChineseHand.start

    def start(*args: Any, **kw: Any) -> ChineseHand:
        deck = next(queue, None)
        if deck is not None:
            kw["seed"], kw["deck"] = None, deck
        return original(*args, **kw)

    monkeypatch.setattr(ChineseHand, "start", start)


def play_plans(h: Harness, plans: dict[int, dict[str, str]]) -> list[Any]:
    """Place every card dealt into the row its seat's plan puts it in, to the hand's end."""
    events: list[Any] = []
    while h.table.state.in_hand:
        game = table_of(h).game
        assert game is not None
        s = game.to_act()[0]
        cards = game.legal_actions(s)[0].cards
        rows = {r: tuple(c for c in cards if str(c) in plans[s][r].split()) for r in plans[s]}
        events += h.do(cmd.PlaceCards(f"p{s}", rows["top"], rows["middle"], rows["bottom"]))
    return events


def test_8_points_per_unit_and_loss_limited_to_the_table_chips(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rig(monkeypatch, deck_for(SEAT1, SEAT0))
    h = Harness(ofc(min_buy_in=100))
    h.seat({0: 500, 1: 100})
    h.tick()
    events = play_plans(h, {0: SEAT0, 1: SEAT1})
    settled = next(e for e in events if isinstance(e, HandSettled))
    assert {r.seat: r.chips for r in settled.results} == {0: 130, 1: -130}  # 13 points
    finished = next(e for e in events if isinstance(e, rv.HandFinished))
    assert finished.stacks == ((0, 600), (1, 0)) and finished.pot == 100
    assert h.table.stacks() == {"p0": 600, "p1": 0}


# Seat 2: a fouled hand (a pair of kings on top over a ten-high middle).
FOULED = {"top": "Ah Kh Kc", "middle": "2h 4h 6d 8d Td", "bottom": "Js Qs 7d 9d 5h"}


def test_8_settlement_is_pairwise_a_short_loser_does_not_shift_his_debt_to_a_third_player(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """§8 scores each pair of players apart (seed 000: "each player settles with their
    opponents"). Seat 1 lost 13 points to seat 0 and has the chips: it pays all 130,
    whatever the fouled seat 2 (owing 120 to seat 1 and 190 to seat 0, holding 100)
    can pay. Seat 2's 100 go first to seat 1, its first creditor clockwise from the
    button's left (button on seat 0: order 1, 2, 0). Netting the results first let
    seat 1 pay 10 and seat 0 take 110: seat 0 carried seat 2's shortfall to seat 1."""
    rig(monkeypatch, deck_for(SEAT1, FOULED, SEAT0))
    h = Harness(ofc(min_buy_in=100))
    h.seat({0: 1000, 1: 1000, 2: 100})
    h.tick()
    events = play_plans(h, {0: SEAT0, 1: SEAT1, 2: FOULED})
    settled = next(e for e in events if isinstance(e, HandSettled))
    assert {r.seat: r.points for r in settled.results} == {0: 13 + 19, 1: -13 + 12, 2: -31}
    finished = next(e for e in events if isinstance(e, rv.HandFinished))
    assert finished.stacks == ((0, 1130), (1, 970), (2, 0)) and finished.pot == 130
    assert h.table.stacks() == {"p0": 1130, "p1": 970, "p2": 0}


def test_8_fantasyland_carries_over_through_the_room(monkeypatch: pytest.MonkeyPatch) -> None:
    rig(monkeypatch, deck_for(SEAT1, SEAT0))
    h = Harness(ofc())
    h.seat({0: 1000, 1: 1000})
    table = table_of(h)
    h.tick()
    play_plans(h, {0: SEAT0, 1: SEAT1})
    assert table.fantasyland == {"p0": 13}
    assert table.stacks() == {"p0": 1130, "p1": 870}  # 13 points at 10 a point
    assert h.table.view("p1")["chinese"]["fantasyland"] == {0: 13}
    assert table.snapshot["fantasyland"] == []  # taken at the hand's start
    dealt = h.tick()
    assert table.snapshot["fantasyland"] == [["p0", 13]]
    started = next(e for e in dealt if isinstance(e, HandStarted))
    assert started.button == 1
    assert dict(zip(started.seats, started.fantasyland, strict=True)) == {0: 13, 1: 0}
    turn = h.table.state.turn
    assert turn is not None and turn.seat == 0  # left of the button, a whole hand to set
    assert turn.deadline == h.clock() + 90.0


def _p0_earns_fantasyland(monkeypatch: pytest.MonkeyPatch) -> Harness:
    """Heads-up OFC, one hand played: p0's QQ on top earns him Fantasyland (13 cards)."""
    rig(monkeypatch, deck_for(SEAT1, SEAT0))
    h = Harness(ofc())
    h.seat({0: 1000, 1: 1000})
    h.tick()
    play_plans(h, {0: SEAT0, 1: SEAT1})
    return h


def test_8_fantasyland_lost_by_a_player_not_dealt_the_next_hand(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    h = _p0_earns_fantasyland(monkeypatch)
    h.do(cmd.SitOut("p0"))
    h.seat({2: 1000})
    started = next(e for e in h.tick() if isinstance(e, HandStarted))
    assert set(started.seats) == {1, 2} and started.fantasyland == (0, 0)
    assert table_of(h).fantasyland == {}


def test_10_6_fantasyland_kept_by_a_player_away_at_the_deal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A blip at the deal sits p0 out (§10.6); that is the room's doing, not his, so his
    # Fantasyland waits for the next hand he is dealt: back, he is sat in and plays it.
    h = _p0_earns_fantasyland(monkeypatch)
    h.seat({2: 1000})
    h.do(cmd.Disconnect("p0"))
    started = next(e for e in h.tick() if isinstance(e, HandStarted))
    assert set(started.seats) == {1, 2}
    table = table_of(h)
    assert table.fantasyland == {"p0": 13}
    copy = ChineseRoomTable.restore(h.settings, *table.record(), h.ledger, h.clock)
    assert copy.fantasyland == {"p0": 13}
    h.do(cmd.Reconnect("p0"))
    assert not h.table.state.seats[0].sitting_out  # type: ignore[union-attr]
    events: list[object] = []
    for _ in range(40):  # the others time out; the hand settles, the next is dealt
        events += h.tick(30)
        if any(isinstance(e, HandStarted) for e in events):
            break
    started = next(e for e in events if isinstance(e, HandStarted))
    assert dict(zip(started.seats, started.fantasyland, strict=True)) == {0: 13, 1: 0, 2: 0}


def test_8_fantasyland_lost_by_a_player_who_leaves_and_sits_again_before_the_next_hand(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # §8 Fantasyland is the player's next hand at this table; leaving gives it up, even
    # when he sits down again in the pause before that hand is dealt.
    h = _p0_earns_fantasyland(monkeypatch)
    assert table_of(h).fantasyland == {"p0": 13}
    h.do(cmd.Leave("p0"))
    assert table_of(h).fantasyland == {}
    h.do(cmd.Sit("p0", 2, 1130))
    started = next(e for e in h.tick() if isinstance(e, HandStarted))
    assert set(started.seats) == {1, 2} and started.fantasyland == (0, 0)


def test_10_10_a_cancelled_hand_gives_back_the_fantasyland_of_one_who_sat_it_out() -> None:
    # p0 earned Fantasyland, then sat one hand out; that hand is cancelled: as if never
    # dealt, so p0 has not missed his next hand and keeps Fantasyland for it.
    h = Harness(ofc())
    h.seat({0: 1000, 1: 1000, 2: 1000})
    table = table_of(h)
    table.fantasyland = {"p0": 13}  # as a previous hand's QQ on top would have left it
    table.snapshot = table.take_snapshot()
    h.do(cmd.SitOut("p0"))
    h.tick()
    assert 0 not in h.table.state.dealt and table.fantasyland == {}
    table.cancel_hand()
    h.check()
    assert table.fantasyland == {"p0": 13}
    copy = ChineseRoomTable.restore(h.settings, *table.record(), h.ledger, h.clock)
    assert copy.fantasyland == {"p0": 13}
    h.do(cmd.SitIn("p0"))
    started = next(e for e in h.tick() if isinstance(e, HandStarted))
    assert dict(zip(started.seats, started.fantasyland, strict=True))[0] == 13


def test_10_10_a_cancelled_hand_gives_no_fantasyland_back_to_one_who_left_during_it() -> None:
    # §8/§10.10: a cancelled hand puts back the Fantasyland pending at its deal, but not
    # for a player who left the table meanwhile: he may sit again and is not in it.
    h = Harness(ofc())
    h.seat({0: 1000, 1: 1000, 2: 1000})
    table = table_of(h)
    table.fantasyland = {"p0": 13}  # as a previous hand's QQ on top would have left it
    table.snapshot = table.take_snapshot()
    h.do(cmd.SitOut("p0"))
    h.tick()
    h.do(cmd.Leave("p0"))
    table.cancel_hand()
    h.check()
    assert table.fantasyland == {}
    h.do(cmd.Sit("p0", 0, 1000))
    started = next(e for e in h.tick() if isinstance(e, HandStarted))
    assert 0 in started.seats and started.fantasyland == (0, 0, 0)


def test_3_a_chinese_table_whose_players_all_left_starts_anew() -> None:
    """As at a poker table (§3): a table every player left is new again, and the next
    players' first hand has the button drawn for, as at a table never played, not
    moved on from the last players' button."""
    firsts = []
    for played in (False, True):
        h = Harness(ofc(draw_button=True))
        if played:
            h.seat({0: 1000, 1: 1000, 2: 1000})
            for _ in range(2):
                h.tick()
                play_hand(h, random.Random(5))
            for p in ("p0", "p1", "p2"):
                h.do(cmd.Leave(p))
        h.do(cmd.Sit("p3", 0, 1000))
        h.do(cmd.Sit("p4", 1, 1000))
        h.do(cmd.Sit("p5", 2, 1000))
        dealt = next(e for e in h.tick() if isinstance(e, rv.HandDealt))
        firsts.append((dealt.button, dealt.dealt))
    assert firsts[0] == firsts[1]  # the same draw, the same first hand


def test_8_dealt_in_needs_min_points_worth_of_chips() -> None:
    config = ChineseTableConfig("pineapple", point_value=10, min_points=2)
    h = Harness(TableSettings.chinese_table("c", config, seed="m", min_buy_in=1, draw_button=False))
    h.seat({0: 19, 1: 20, 2: 200})
    out = h.tick()
    assert rv.SatOut(0, "short", h.clock()) in out  # type: ignore[arg-type]
    started = next(e for e in out if isinstance(e, HandStarted))
    assert set(started.seats) == {1, 2}


def test_8_classic_everyone_sets_at_once_and_timeouts_finish_the_hand() -> None:
    h = Harness(ofc("classic", seats=4))
    h.seat({0: 1000, 1: 1000, 2: 1000})
    h.tick()
    game = table_of(h).game
    assert game is not None and len(game.to_act()) == 3
    turn = h.table.state.turn
    assert turn is not None
    waiting = [s for s in game.to_act() if s != turn.seat]
    s = waiting[0]
    opts = game.legal_actions(s)[0]
    cards = opts.cards
    h.do(cmd.PlaceCards(f"p{s}", cards[:3], cards[3:8], cards[8:]))  # may foul: legal
    assert h.table.state.turn == turn  # the running clock is not restarted
    events: list[Any] = []
    while not any(isinstance(e, rv.HandFinished) for e in events):
        events += h.tick(120)  # the table sets for the others, one clock after another
    assert sorted(e.seat for e in events if isinstance(e, rv.TimedOut)) == sorted(
        x for x in game.seats if x != s
    )
    assert sum(h.table.stacks().values()) == 3000


def test_8_classic_sets_in_its_arrange_seconds_120_unless_the_table_says() -> None:
    # §8 classic: "timeout 90-120 s (arrange_seconds)"; the game's value is 120 s, the
    # 90 s default is for Fantasyland hands of the open-face games.
    h = Harness(ofc("classic"))
    h.seat({0: 1000, 1: 1000})
    h.tick()
    turn = h.table.state.turn
    assert turn is not None and turn.deadline == h.clock() + 120.0


@pytest.mark.parametrize(
    ("variant", "options", "seconds"),
    [("classic", {}, 120.0), ("ofc", {}, 90.0), ("classic", {"set_seconds": 100.0}, 100.0)],
)
def test_8_the_time_to_set_a_whole_hand_is_shown_to_players(
    variant: str, options: dict[str, float], seconds: float
) -> None:
    """RULEBOOK: every table option is shown to players; §8 names the time to set a
    whole hand (`arrange_seconds`: classic's hand, a Fantasyland hand). The view said
    only the street's `action_seconds` (its terms), so a classic table read "30 s to
    act" where each player has 120 s to set his 13 cards."""
    config = ChineseTableConfig(variant, point_value=10, **options)  # type: ignore[arg-type]
    h = Harness(TableSettings.chinese_table("c", config, seed="c", draw_button=False))
    h.seat({0: 1000, 1: 1000})
    for player in ("p0", None):  # a seated player and a spectator alike
        assert h.table.view(player)["chinese"]["set_seconds"] == seconds
    h.tick()
    turn = h.table.state.turn
    assert turn is not None
    assert h.table.view("p0")["chinese"]["set_seconds"] == seconds
    if variant == "classic":
        assert turn.deadline == h.clock() + seconds


def test_8_classic_one_clock_for_all_from_the_deal() -> None:
    """§8: each player arranges and presses Play, ``arrange_seconds`` from the deal; on
    timeout the cards are placed. With four players and no time bank, everyone still
    setting is set at the deadline (not one clock after another: 120, 240, 360, 480 s)."""
    h = Harness(ofc("classic", seats=4, time_bank_start=0, hand_pause_seconds=10_000))
    h.seat({0: 1000, 1: 1000, 2: 1000, 3: 1000})
    h.tick()
    table = table_of(h)
    game = table.game
    assert game is not None
    dealt_at, deadline = h.clock.now, table.set_seconds()
    first = h.table.state.turn
    assert first is not None and first.deadline == dealt_at + deadline
    h.tick(30)
    s = next(x for x in game.to_act() if x != first.seat)  # one sets early
    cards = game.legal_actions(s)[0].cards
    h.do(cmd.PlaceCards(f"p{s}", cards[:3], cards[3:8], cards[8:]))
    assert h.table.state.turn == first  # the running clock is not restarted
    h.tick(30)
    cards = game.legal_actions(first.seat)[0].cards  # the one shown sets: the next inherits
    h.do(cmd.PlaceCards(f"p{first.seat}", cards[:3], cards[3:8], cards[8:]))
    turn = h.table.state.turn
    assert turn is not None and turn.seat != first.seat and turn.deadline == first.deadline
    timed_out = []
    while h.table.state.in_hand:
        events = h.tick(1)
        at = h.clock.now - dealt_at
        timed_out += [(e.seat, at) for e in events if isinstance(e, rv.TimedOut)]
    assert len(timed_out) == 2 and all(at == deadline for _, at in timed_out), timed_out


def test_8_classic_after_the_shared_deadline_each_time_bank_runs() -> None:
    h = Harness(ofc("classic", seats=3, time_bank_start=20, hand_pause_seconds=10_000))
    h.seat({0: 1000, 1: 1000, 2: 1000})
    h.tick()
    dealt_at, deadline = h.clock.now, table_of(h).set_seconds()
    timed_out = []
    while h.table.state.in_hand:
        events = h.tick(1)
        timed_out += [h.clock.now - dealt_at for e in events if isinstance(e, rv.TimedOut)]
    # Nobody sets: each is set when the shared time and then his own bank are spent.
    assert timed_out == [deadline + 20, deadline + 40, deadline + 60], timed_out


def test_8_random_sessions_keep_money_and_hidden_cards() -> None:
    rng = random.Random(8)
    for variant in ("ofc", "pineapple", "progressive"):
        h = Harness(ofc(variant, action_seconds=10))
        h.seat({0: 400, 1: 400, 2: 400})
        for _ in range(40):
            if not h.table.state.in_hand:
                h.tick(1)
                continue
            roll = rng.random()
            if roll < 0.7:
                place_legally(h, rng)
            elif roll < 0.85:
                h.tick(rng.choice([5, 10, 40]))
            else:
                player = f"p{rng.randrange(3)}"
                kind = rng.choice([cmd.Disconnect, cmd.Reconnect, cmd.SitOut, cmd.SitIn])
                with contextlib.suppress(TableError):
                    h.do(kind(player))
        assert sum(h.table.stacks().values()) == 1200


def test_10_7_card_talk_by_a_player_in_an_ofc_hand_is_blocked_chat_goes_on() -> None:
    h = Harness(ofc())
    h.seat({0: 1000, 1: 1000, 2: 1000})
    h.do(cmd.SitOut("p2"))
    h.tick()
    blocked = [
        e for e in h.do(cmd.Say("p1", "I have pocket aces")) if isinstance(e, rv.ChatBlocked)
    ]
    assert [e.code for e in blocked] == ["card_talk"]
    said = h.do(cmd.Say("p2", "I have pocket aces"))  # not in the hand: may talk
    assert any(isinstance(e, rv.ChatSaid) for e in said)
