"""A table actor that closes or stops answers every job: none waits for ever.

A connection handles its messages one at a time, so a message whose job was never
answered stalled that connection for good (the hostile-client audit: a message in
flight when an operator closed the table). Each way a job can meet a closed table is
played here in one event loop, in a fixed order, with no timing to win.
"""

from __future__ import annotations

import asyncio
from typing import Any

from cardroom.room import commands as cmd
from cardroom.server.actor import TableActor
from cardroom.server.api_operator import close_on
from cardroom.server.jobs import Job, Outcome
from cardroom.server.room import Room
from cardroom.server.settings import ServerSettings
from cardroom.server.storage import Storage
from cardroom.server.tables_file import spec_from_dict

SPEC = {"id": "t9", "game": "holdem", "stakes": {"small_blind": 1, "big_blind": 2}}


async def _in_room(database_url: str, play: Any) -> Any:
    storage = Storage(database_url, threads=1)
    try:
        await storage.run(storage.migrate)
        room = Room(storage, ServerSettings(database_url=database_url))
        await room.open([spec_from_dict(SPEC)])
        try:
            return await play(room)
        finally:
            await room.stop()
    finally:
        storage.close()


def _codes(outcomes: list[Outcome]) -> list[str | None]:
    return [o.code for o in outcomes]


def test_jobs_queued_behind_an_operator_s_close_are_answered_no_such_table(
    database_url: str,
) -> None:
    async def play(room: Room) -> list[str | None]:
        actor = room.actors["t9"]
        # Sent after the close was asked for, before the actor ran it: the same batch.
        late = [asyncio.ensure_future(actor.submit(Job(cmd.SitOut("p1"), None)))]
        closing = asyncio.ensure_future(close_on(room, "t9"))
        late += [
            asyncio.ensure_future(actor.submit(Job(cmd.SitOut(f"p{i}"), None))) for i in (2, 3)
        ]
        await asyncio.wait_for(closing, 10)
        outcomes = await asyncio.wait_for(asyncio.gather(*late), 10)
        # And one sent to the actor looked up before the close took it away.
        after = await asyncio.wait_for(actor.submit(Job(cmd.SitOut("p4"), None)), 10)
        return _codes([*outcomes, after])

    codes = asyncio.run(_in_room(database_url, play))
    assert codes == ["not_seated", "no_such_table", "no_such_table", "no_such_table"]


def test_a_stopped_actor_answers_the_job_it_was_running_and_those_queued(
    database_url: str,
) -> None:
    async def play(room: Room) -> list[str | None]:
        actor = room.actors["t9"]
        started, never = asyncio.Event(), asyncio.Event()

        async def stuck(_: TableActor) -> Outcome:
            started.set()
            await never.wait()  # a job cut short by the stop
            return Outcome()

        running = asyncio.ensure_future(actor.submit(Job(None, stuck)))
        await asyncio.wait_for(started.wait(), 10)
        queued = asyncio.ensure_future(actor.submit(Job(cmd.SitOut("p1"), None)))
        await asyncio.sleep(0)
        await actor.stop()
        outcomes = await asyncio.wait_for(asyncio.gather(running, queued), 10)
        return _codes(outcomes)

    assert asyncio.run(_in_room(database_url, play)) == ["no_such_table", "no_such_table"]
