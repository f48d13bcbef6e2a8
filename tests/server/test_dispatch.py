"""Client messages to table jobs (``server/dispatch.py``) and the stale-turn check
(``TableActor.stale``): what a hostile or late client can and cannot make a table do.
Pins lines the mutation audit (docs/views_mutation_audit.md) found unpinned; the real
server runs them in ``test_protocol.py``."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

from cardroom.server import protocol as p
from cardroom.server.dispatch import _table_message, stores_its_id
from cardroom.server.jobs import Job, Outcome

ACT = '{"v": 1, "type": "act", "id": "m1", "table": "holdem", "kind": "fold", "turn": 7}'
PLACE = '{"v": 1, "type": "place", "id": "m1", "table": "ofc", "top": ["Ah"], "turn": 7}'


@pytest.mark.parametrize("raw", [ACT, PLACE], ids=["act", "place"])
def test_14_an_action_or_a_placement_goes_to_the_table_with_its_turn_its_id_and_its_sender(
    raw: str,
) -> None:
    """A decision made at sequence number ``turn`` goes to the table with it, so a late
    one is refused ``stale_turn`` (an OFC placement as a hold'em action: played on a
    street it was not meant for, it would place the cards of another street); with the
    id and what the message said (its digest), stored together so a resend with the same
    id never acts twice; and always as the connection's own player."""
    jobs: list[Job] = []

    async def submit(job: Job) -> Outcome:
        jobs.append(job)
        return Outcome()

    conn = SimpleNamespace(id=1, player="alice", alias="Alice", ip="", device="")
    actor: Any = SimpleNamespace(submit=submit, watchers={1: None}, table_id="holdem")
    msg = p.decode_client(raw)
    assert isinstance(msg, p.TableMessage)
    asyncio.run(_table_message(conn, SimpleNamespace(), actor, msg, "digest"))  # type: ignore[arg-type]
    [job] = jobs
    assert job.turn == 7 and job.client == ("alice", "m1", "digest")
    assert job.command is not None and job.command.player == "alice"


STATELESS = {p.Watch, p.Unwatch, p.TimeBank, p.Ping}
REQUIRED: dict[type, dict[str, object]] = {
    p.Join: {"seat": 0, "amount": 40},
    p.Rebuy: {"amount": 40},
    p.AutoMuck: {"on": True},
    p.Act: {"kind": "fold"},
    p.Advance: {"kind": "check_fold"},
    p.Chat: {"text": "gl"},
    p.Report: {"player": "bob", "reason": "abuse"},
}


@pytest.mark.parametrize("kind", p.CLIENT_TYPES, ids=lambda c: c.__name__)
def test_14_every_message_that_changes_stored_state_is_looked_up_by_its_id(kind: type) -> None:
    """An id the server's memory forgot is looked up in the store before it is done: for
    every message that stores something (a table command, an action, a placement, a chat
    line, a report). Only watching, the time bank and pings store nothing."""
    table = {} if kind is p.Ping else {"table": "holdem"}
    msg = kind(id="m1", **table, **REQUIRED.get(kind, {}))
    assert stores_its_id(msg) is (kind not in STATELESS)


def _stale(turn: int, decision_now: str = "bet 10") -> str | None:
    """The refusal of p0's action decided at ``turn``: the table's last event is 10, and
    p0's decision ("bet 10" to call) began at event 8."""
    from cardroom.server.actor import TableActor

    table = SimpleNamespace(
        state=SimpleNamespace(seat_of=lambda player: 0), decision_key=lambda seat: decision_now
    )
    actor: Any = SimpleNamespace(seq=10, table=table, decisions={0: ("bet 10", 8)})
    refused = TableActor.stale(actor, "p0", turn)
    return None if refused is None else refused.code


def test_14_an_action_decided_before_its_decision_began_is_refused_stale_turn() -> None:
    """The hand moved past the decision the client saw: refused ``stale_turn``, not
    played on a decision it was not meant for; decided at or after the event that began
    it (8), it is played."""
    assert [_stale(turn) for turn in (6, 7, 8, 9, 10)] == [
        "stale_turn", "stale_turn", None, None, None,
    ]  # fmt: skip


def test_14_an_action_whose_decision_moved_in_this_batch_is_refused_stale_turn() -> None:
    """p0's decision changed in this batch (a raise before his call arrived), unseen by
    any client yet: whatever ``turn`` he sent, his action was decided on the old one."""
    assert _stale(10, decision_now="bet 30") == "stale_turn"


def test_14_a_turn_past_the_table_s_last_event_is_bad_message() -> None:
    """No client can have seen an event the table has not made: such a ``turn`` is
    malformed (``bad_message``), however close to the last event it is."""
    assert _stale(11) == "bad_message" and _stale(10**9) == "bad_message"


def test_14_a_decision_keeps_the_event_it_began_at_until_it_changes() -> None:
    """After each stored step, each seat's decision is noted with the event that began
    it: kept while the decision stays the same (events that do not change it, a chat
    line or another seat's fold, make no client's action late), renewed when it changes
    (a raise: an action decided before it is stale)."""
    from cardroom.server.actor import TableActor

    keys = {0: "bet 10", 1: "bet 10"}
    state = SimpleNamespace(in_hand=True, dealt=[0, 1])
    actor: Any = SimpleNamespace(
        table=SimpleNamespace(state=state, decision_key=lambda seat: keys[seat]),
        decisions={0: ("bet 10", 8), 1: ("bet 5", 8)},
    )
    TableActor.note_decisions(actor, 12)
    assert actor.decisions == {0: ("bet 10", 8), 1: ("bet 10", 12)}


def _time_bank(player: str, turn_seat: int) -> tuple[str | None, dict[str, Any] | None]:
    """What ``time_bank`` answers ``player`` at a table where p0 (seat 0, 30 s banked)
    and p1 (seat 1, 20 s) sit and seat ``turn_seat`` acts on its running bank, 5 s left."""
    from cardroom.server.dispatch import _time_bank as ask

    seats = {"p0": 0, "p1": 1}
    banks = {0: 30.0, 1: 20.0}
    turn = SimpleNamespace(seat=turn_seat, bank=True, deadline=105.0)
    table = SimpleNamespace(
        state=SimpleNamespace(seat_of=seats.get, turn=turn),
        seat=lambda s: SimpleNamespace(time_bank=banks[s]),
        clock=lambda: 100.0,
    )
    actor: Any = SimpleNamespace(table=table, seq=10)
    outcome = asyncio.run(ask(actor, player))
    return outcome.code, outcome.detail


def test_10_5_the_time_bank_answers_a_player_his_own_bank_and_a_watcher_not_seated() -> None:
    """§10.5: ``time_bank`` tells a seated player what is left of his own bank (running:
    what is left of it now), never another seat's; asked by somebody not seated it is
    refused ``not_seated`` (it raised inside the table's job: a fault, and a rebuild)."""
    assert _time_bank("p0", turn_seat=0) == (None, {"time_bank": 5.0, "automatic": True})
    assert _time_bank("p1", turn_seat=0) == (None, {"time_bank": 20.0, "automatic": True})
    assert _time_bank("rail", turn_seat=0)[0] == "not_seated"


@pytest.mark.parametrize("sanction", ["CHAT_BAN", "BAN"])
def test_10_7_a_chat_banned_or_banned_account_s_line_is_refused_and_never_reaches_the_table(
    sanction: str,
) -> None:
    """§10.7: an account banned from chat, or banned outright (its connections are
    closed, but a line may be on its way), says nothing: ``chat_refused`` before the
    table's job is queued."""
    from cardroom.store import SanctionKind

    async def run(fn: object, *args: object) -> set[SanctionKind]:
        return {SanctionKind[sanction]}

    async def submit(job: Job) -> Outcome:
        raise AssertionError("the line reached the table")

    conn = SimpleNamespace(id=1, player="alice", alias="Alice")
    room = SimpleNamespace(storage=SimpleNamespace(run=run), players=SimpleNamespace())
    room.players.sanctions = None
    actor: Any = SimpleNamespace(submit=submit, table_id="holdem")
    msg = p.decode_client('{"v": 1, "type": "chat", "id": "c1", "table": "holdem", "text": "hi"}')
    assert isinstance(msg, p.TableMessage)
    outcome = asyncio.run(_table_message(conn, room, actor, msg, "d"))  # type: ignore[arg-type]
    assert outcome.code == "chat_refused"


def test_a_report_names_a_player_seated_or_gone_lately_not_one_waiting_for_a_seat() -> None:
    """A report is about a player at the table: seated, or gone lately (by id or alias,
    in any case). A player only on the waiting list has neither played nor chatted
    here: no such player (``bad_report``)."""
    from cardroom.server.dispatch import _at_table

    state = SimpleNamespace(
        seats=[SimpleNamespace(player="p0"), None], departures={"p9": 1.0}, waitlist=["p5"]
    )
    actor: Any = SimpleNamespace(table=SimpleNamespace(state=state))
    room: Any = SimpleNamespace(aliases={"p0": "Ann", "p9": "Gus", "p5": "Wes"})
    found = [_at_table(actor, room, name) for name in ("p0", "ANN", "gus", "p5", "Wes")]
    assert found == ["p0", "p0", "p9", None, None]
