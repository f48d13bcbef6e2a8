"""Client messages to table jobs (``server/dispatch.py``): what a hostile client can and
cannot make a table do. Pins lines the mutation audit (docs/views_mutation_audit.md)
found unpinned; the real server runs them in ``test_protocol.py``."""

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
