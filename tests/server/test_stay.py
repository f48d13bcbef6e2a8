"""RULEBOOK §10.2 over the protocol: a player who asked to leave during a hand (``leave``)
may take it back (``stay``). Every seat's snapshot says the seat is ``leaving`` meanwhile
(public: it will be empty next hand); ``stay`` is answered by ``LeaveCancelled``, seen by
everyone, and refused with stable codes when there is nothing to take back; the record
holds it: the table its stored record rebuilds keeps the seat."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.server.conftest import running_server
from tests.server.sessions import (
    answer,
    first_turn,
    money_problems,
    player,
    seated_pair,
    table_event,
    until,
)

from cardroom.bots.client import ProtocolClient
from cardroom.room.codec import decode_entry
from cardroom.room.kinds import table_type
from cardroom.room.settings import settings_from_dict
from cardroom.server.settings import ServerSettings
from cardroom.server.table_ledger import StepLedger
from cardroom.store import make_engine
from cardroom.store.tables import TableRecords


async def _seats(client: ProtocolClient, client_id: str) -> list[dict[str, Any] | None]:
    """The seats of a fresh snapshot of holdem, as ``client`` sees them."""
    await client.send("watch", id=client_id, table="holdem")
    snap = await until(client, "snapshot", table="holdem")
    seats: list[dict[str, Any] | None] = snap["view"]["seats"]
    return seats


def test_10_2_a_leave_asked_in_a_hand_is_taken_back_by_stay_and_stored(
    settings: ServerSettings,
) -> None:
    async def go(base: str) -> tuple[str, int]:
        a, a_id, b, b_id = await seated_pair(base, "st")
        actor, _turn = await first_turn([a, b], "holdem")
        other, other_id, s = (b, b_id, 1) if actor is a else (a, a_id, 0)
        await other.send("stay", id="early", table="holdem")
        early = await answer(other, "early")
        assert (early["type"], early["code"]) == ("error", "not_leaving"), early
        await other.send("leave", id="go", table="holdem")
        assert (await answer(other, "go"))["type"] == "ok"
        asked = await table_event(actor, "LeaveRequested")
        assert asked == {"type": "LeaveRequested", "seat": s, "reason": "left"}
        seat = (await _seats(actor, "look"))[s]  # the other player's view: public
        assert seat is not None and seat["player"] == other_id and seat["leaving"] is True
        await other.send("stay", id="stay", table="holdem")
        assert (await answer(other, "stay"))["type"] == "ok"
        assert await table_event(actor, "LeaveCancelled") == {"type": "LeaveCancelled", "seat": s}
        seat = (await _seats(actor, "again"))[s]
        assert seat is not None and seat["leaving"] is False
        await other.send("stay", id="twice", table="holdem")
        twice = await answer(other, "twice")
        assert (twice["type"], twice["code"]) == ("error", "not_leaving"), twice
        await other.send("stay", id="extra", table="holdem", seat=s)  # hostile: a field more
        extra = await answer(other, "extra")
        assert (extra["type"], extra["code"]) == ("error", "bad_message"), extra
        stranger, _ = await player(base, "carol")
        await stranger.send("stay", id="not-mine", table="holdem")
        refused = await answer(stranger, "not-mine")
        assert (refused["type"], refused["code"]) == ("error", "not_seated"), refused
        for c in (a, b, stranger):
            await c.close()
        return other_id, s

    with running_server(settings) as base:
        other_id, s = asyncio.run(go(base))
    assert settings.database_url is not None
    # The table as its stored record rebuilds it (a server's rebuild after a failed
    # write): the seat is there and no longer leaving, the events in their order.
    engine = make_engine(settings.database_url)
    try:
        record = TableRecords(engine).load("holdem")
    finally:
        engine.dispose()
    assert record is not None and record.snapshot is not None
    kinds = [e["type"] for _, e in record.entries if e["type"].startswith("Leave")]
    assert kinds == ["LeaveRequested", "LeaveCancelled"]
    table_settings = settings_from_dict(record.settings)
    events = [decode_entry(e) for _, e in record.entries]
    table = table_type(table_settings).restore(
        table_settings, record.snapshot, events, StepLedger()
    )
    seat = table.state.seats[s]
    assert seat is not None and seat.player == other_id and not seat.leaving
    assert money_problems(settings.database_url) == []
