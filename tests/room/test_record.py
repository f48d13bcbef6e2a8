"""A table is rebuilt from its record (issue 13): the snapshot at the start of the
current hand plus the events since give the same state and the same views; the
room's events and snapshot round-trip through the versioned codec."""

from __future__ import annotations

import contextlib
import copy as copy_module
import dataclasses
import json
import random

import pytest

from cardroom.room import commands as cmd
from cardroom.room import events as rv
from cardroom.room import table as table_module
from cardroom.room.codec import (
    CodecError,
    decode_entry,
    decode_record,
    decode_room_event,
    decode_snapshot,
    encode_entry,
    encode_record,
    encode_room_event,
)
from cardroom.room.errors import TableError
from cardroom.room.positions import Positions
from cardroom.room.reducer import apply_event
from cardroom.room.review import review_table
from cardroom.room.sim_tables import random_settings
from cardroom.room.simulation import CANCEL, Session
from cardroom.room.state import Advance, SeatState, TableState, state_from_dict, state_to_dict
from cardroom.room.table import Table


def same_table(a: Table, b: Table) -> None:
    assert state_to_dict(a.state) == state_to_dict(b.state)
    players = [s.player for s in a.state.seats if s is not None]
    for viewer in [None, *players, "stranger"]:
        # The chat's memory is not in the record: a restored table's chat starts quiet.
        assert {**a.view(viewer), "chat": []} == {**b.view(viewer), "chat": []}
    if a.hand is not None and a.state.in_hand:
        assert b.hand is not None and b.hand.events == a.hand.events


@pytest.mark.parametrize("seed", range(6))
def test_restore_mid_hand_from_snapshot_and_events_same_state_and_views(seed: int) -> None:
    rng = random.Random(seed)
    session = Session(
        random_settings(rng, f"r{seed}", seed=f"rec{seed}"), seed=seed, check_money=False
    )
    restored_mid_hand = 0
    for _ in range(60):
        session.run(session.counters["hands"] + 1, max_steps=400)
        for _ in range(rng.randint(0, 6)):
            session.step()
        record = json.loads(json.dumps(encode_record(*session.table.record())))
        snapshot, events = decode_record(record)
        copy = Table.restore(
            session.settings,
            snapshot,
            events,
            session.ledger,
            session.clock,
            session.table.allowances,
        )
        same_table(session.table, copy)
        restored_mid_hand += session.table.state.in_hand
    assert restored_mid_hand > 5


def test_restored_table_plays_on_like_the_original() -> None:
    rng = random.Random(77)
    settings = random_settings(rng, "twin", seed="twin")
    session = Session(settings, seed=77, check_money=False)
    session.run(5)
    while not session.table.state.in_hand:
        session.step()
    snapshot, events = session.table.record()
    copy = Table.restore(
        settings,
        snapshot,
        events,
        copy_module.deepcopy(session.ledger),
        session.clock,
        copy_module.deepcopy(session.table.allowances),
    )
    review = copy_module.deepcopy(session.integrity)  # the room's monitor, as it stands
    for _ in range(300):  # the same commands on both: the copy answers as the original
        before = len(session.record)
        session.step()
        produced: list[object] = []
        for command in session.journal:
            with contextlib.suppress(TableError):
                if command is None:
                    produced += copy.tick()
                elif command == CANCEL:
                    produced += copy.cancel_hand()
                else:
                    produced += copy.handle(command)
        produced += review_table(review, copy)  # the room reviews each step, as the session
        assert produced == session.record[before:]
    same_table(session.table, copy)


def test_room_codec_round_trips_every_event_of_random_sessions() -> None:
    rng = random.Random(5)
    seen: set[str] = set()
    for i in range(6):
        session = Session(random_settings(rng, f"c{i}", seed=f"c{i}"), seed=i, check_money=False)
        session.run(15, max_steps=2_000)
        for e in session.record:
            data = json.loads(json.dumps(encode_entry(e)))
            assert data["v"] == 1 and data["type"] == type(e).__name__
            assert decode_entry(data) == e
            if type(e) in rv.ROOM_EVENTS:
                assert decode_room_event(encode_room_event(e)) == e  # type: ignore[arg-type]
            seen.add(type(e).__name__)
    room = {"HandDealt", "HandFinished", "PlayerSeated", "TurnStarted", "TimedOut"}
    assert room | {"HandStarted", "Acted", "HoleDealt"} <= seen


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        {"v": 2, "type": "Reconnected", "seat": 1},
        {"v": 1, "type": "Nope", "seat": 1},
        {"v": 1, "type": "Reconnected"},
        {"v": 1, "type": "Reconnected", "seat": "1"},
        {"v": 1, "type": "Reconnected", "seat": True},
        {"v": 1, "type": "Reconnected", "seat": 1, "extra": 0},
        {
            "v": 1,
            "type": "HandFinished",
            "hand_no": 1,
            "stacks": [[0]],
            "rake": 0,
            "next_hand_at": 0,
        },
    ],
)
def test_room_codec_rejects_malformed_entries_with_one_error_type(data: object) -> None:
    with pytest.raises(CodecError):
        decode_room_event(data)


def test_room_codec_reads_an_allowance_reset_recorded_before_it_named_the_seat() -> None:
    old = {"v": 1, "type": "AllowanceReset", "player": "p1", "day": 20000}
    assert decode_room_event(old) == rv.AllowanceReset(-1, "p1", 20000)  # shown to no seat
    new = encode_room_event(rv.AllowanceReset(2, "p1", 20000))
    assert new["seat"] == 2 and decode_room_event(new) == rv.AllowanceReset(2, "p1", 20000)


def test_room_codec_reads_a_void_recorded_before_cancels_undid_the_deal() -> None:
    old = {"v": 1, "type": "HandVoided", "hand_no": 4, "stacks": [[0, 40]], "next_hand_at": 9}
    voided = decode_room_event(old)
    assert voided == rv.HandVoided(4, ((0, 40),), 9.0, None, ())  # None: positions kept
    new = rv.HandVoided(4, ((0, 40),), 9.0, (1, 2, 0), ((3, "p3", "big_blind", True, 2),))
    assert decode_room_event(json.loads(json.dumps(encode_room_event(new)))) == new
    state = TableState([SeatState("p0", 40, 0.0)], positions=Positions(2, 0, 1))
    apply_event(state, voided)
    assert state.positions == Positions(2, 0, 1)


def test_room_codec_reads_a_turn_recorded_before_a_decision_waited_once() -> None:
    old = {"v": 1, "type": "TurnStarted", "seat": 2, "deadline": 90, "bank": False}
    assert decode_room_event(old) == rv.TurnStarted(2, 90.0, False, False)
    new = rv.TurnStarted(2, 90.0, False, True)
    assert decode_room_event(json.loads(json.dumps(encode_room_event(new)))) == new
    snapshot = state_to_dict(TableState([SeatState("p0", 40, 0.0)], turn=new))
    del snapshot["turn"]["waited"]  # a snapshot taken before
    assert state_from_dict(snapshot).turn == rv.TurnStarted(2, 90.0, False, False)


def test_a_leave_taken_back_is_rebuilt_from_the_record_as_it_was_live() -> None:
    """``LeaveRequested`` then ``LeaveCancelled`` (``Stay``), through the record's JSON:
    a table rebuilt mid-hand at each step has the live one's state and views (leaving,
    then not), and both play the hand out alike, the player keeping his seat."""
    from .conftest import Harness, holdem

    h = Harness(holdem())
    h.seat({0: 40, 1: 40, 2: 40})
    h.tick()

    def rebuilt() -> Table:
        snapshot, events = decode_record(json.loads(json.dumps(encode_record(*h.table.record()))))
        return Table.restore(h.settings, snapshot, events, h.ledger, h.clock)

    h.do(cmd.Leave("p1"))
    copy = rebuilt()
    same_table(h.table, copy)
    assert copy.view(None)["seats"][1]["leaving"] is True
    h.do(cmd.Stay("p1"))
    copy = rebuilt()
    same_table(h.table, copy)
    assert copy.view(None)["seats"][1]["leaving"] is False
    assert decode_room_event(encode_room_event(rv.LeaveCancelled(1))) == rv.LeaveCancelled(1)
    while h.table.state.in_hand:
        legal = h.table.hand.legal_actions(h.table.hand.actor)  # type: ignore[union-attr,arg-type]
        command = cmd.Act(h.actor, "check" if legal.check else "fold")
        assert copy.handle(command) == h.do(command)
    same_table(h.table, copy)
    assert copy.state.seat_of("p1") == 1


def test_snapshot_codec_rejects_other_entries() -> None:
    with pytest.raises(CodecError):
        decode_snapshot({"v": 1, "type": "Reconnected", "seat": 1})
    for bad in ({"v": 1, "type": "Nope"}, [], {"v": 1, "type": "Acted", "seat": "x"}):
        with pytest.raises(CodecError):
            decode_entry(bad)
    with pytest.raises(CodecError):
        decode_record([])


def test_restore_of_an_unseeded_table_keeps_the_cards_seen_and_reshuffles_the_rest() -> None:
    import dataclasses

    rng = random.Random(3)
    settings = dataclasses.replace(random_settings(rng, "u"), seed=None)
    session = Session(settings, seed=3, check_money=False)
    while session.counters["hands"] < 3 or not session.table.state.in_hand:
        session.step()
    snapshot, events = session.table.record()
    copy = Table.restore(settings, snapshot, events, session.ledger, session.clock)
    same_table(session.table, copy)


def test_the_snapshot_names_every_field_of_a_seat_and_reads_back() -> None:
    seat = SeatState(
        "ann", 150, 12.5, True, 3.0, "big", True, 4, False, 9.0, 7, True, True,
        Advance("call", 20, 1, 40), "frozen", True, 5,
    )  # fmt: skip
    data = state_to_dict(TableState([None, seat]))
    assert set(data["seats"][1]) == {f.name for f in dataclasses.fields(SeatState)}
    assert state_from_dict(json.loads(json.dumps(data))).seats == [None, seat]


@pytest.mark.parametrize("seed", range(4))
def test_a_table_rebased_between_hands_is_restored_from_its_new_snapshot(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``Table.rebase`` (a table dealing no hand must not keep every event): taken at
    any moment between hands, the snapshot it takes and the events after it give the
    same table, and never while a hand is in progress."""
    monkeypatch.setattr(table_module, "REBASE_EVENTS", 3)
    rng = random.Random(seed)
    session = Session(
        random_settings(rng, f"rb{seed}", seed=f"rb{seed}"), seed=seed, check_money=False
    )
    rebased = 0
    for _ in range(300):
        session.step()
        in_hand = session.table.state.in_hand
        took = session.table.rebase()
        assert not (took and in_hand)
        rebased += took
        record = json.loads(json.dumps(encode_record(*session.table.record())))
        snapshot, events = decode_record(record)
        copy = Table.restore(
            session.settings, snapshot, events, session.ledger, session.clock,
            session.table.allowances,
        )  # fmt: skip
        same_table(session.table, copy)
    assert rebased > 0
