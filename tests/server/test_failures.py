"""Faults inside the server: a step the database did not store, a bug in a job. Nothing of
either happens, the client is told, the table is rebuilt from its record and plays on."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from tests.server.conftest import running_server
from tests.server.sessions import answer, money_problems, player, until

from cardroom.server.actor import Job, Outcome, TableActor
from cardroom.server.settings import ServerSettings
from cardroom.store.tables import TableStep


def _actor(app: Any, table: str) -> TableActor:
    actor: TableActor = app.state.server.room.actors[table]
    return actor


def test_a_step_the_database_refused_did_not_happen_and_the_table_plays_on(
    settings: ServerSettings,
) -> None:
    apps: list[Any] = []

    async def go(base: str) -> None:
        actor = _actor(apps[0], "holdem")
        real_commit = actor.records.commit_all
        a, _ = await player(base, "alice")
        b, b_id = await player(base, "bobby")
        await a.send("join", id="j", table="holdem", seat=0, amount=40)
        await answer(a, "j")
        doomed: list[TableStep] = []

        def failing_commit(steps: Sequence[TableStep]) -> None:
            # The first holdem step fails, in its group and when written again alone.
            if not doomed:
                doomed.extend(s for s in steps if s.table_id == "holdem")
            if any(s is d for s in steps for d in doomed):
                raise RuntimeError("disk on fire")
            real_commit(steps)

        actor.records.commit_all = failing_commit  # type: ignore[method-assign]
        await b.send("join", id="j", table="holdem", seat=1, amount=40)
        refused = await answer(b, "j")
        assert refused["code"] == "not_stored"
        fresh = await until(a, "snapshot", table="holdem")  # watchers get the stored truth
        assert fresh["view"]["seats"][1] is None
        await b.send("join", id="j2", table="holdem", seat=1, amount=40)
        assert (await answer(b, "j2"))["type"] == "ok"
        done = False
        while not done:  # the table plays: a hand is dealt to both
            msg = await until(a, "events", table="holdem")
            done = any(e["event"]["type"] == "HandDealt" for e in msg["events"])
        for c in (a, b):
            await c.close()
        assert b_id

    with running_server(settings, apps) as base:
        asyncio.run(go(base))
    assert settings.database_url is not None
    assert money_problems(settings.database_url) == []


def test_a_bug_in_a_job_is_answered_internal_and_the_table_goes_on(
    settings: ServerSettings,
) -> None:
    apps: list[Any] = []

    async def broken(_actor: TableActor) -> Outcome:
        raise KeyError("a bug")

    with running_server(settings, apps) as base:
        actor = _actor(apps[0], "stud")
        assert actor.task is not None
        loop = actor.task.get_loop()

        async def submit() -> Outcome:
            return await actor.submit(Job(None, broken))

        outcome = asyncio.run_coroutine_threadsafe(submit(), loop).result(10)
        assert outcome.code == "internal"

        async def still_serves() -> dict[str, Any]:
            a, _ = await player(base, "alice")
            await a.send("join", id="j", table="stud", seat=2, amount=80)
            got = await answer(a, "j")
            await a.close()
            return got

        assert asyncio.run(still_serves())["type"] == "ok"
