"""Issue 14: resending the same client id never acts twice, however many messages came
between (the server's memory of recent answers is only a window) and across restarts
(``test_restart_state.py`` kills the server; here it stops and starts again)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from tests.server.conftest import running_server, with_limits
from tests.server.sessions import answer, player, until

from cardroom.ledger import AccountRef, Currency
from cardroom.server.settings import ServerSettings
from cardroom.store import SqlLedger, make_engine
from cardroom.store.tables import TableRecords

WINDOW = 8
"""The answers remembered per account in these tests (256 by default)."""


def _entries(url: str, table: str, kind: str, player: str) -> list[dict[str, Any]]:
    engine = make_engine(url)
    try:
        found = TableRecords(engine).entries(table, 0, 1_000_000)
    finally:
        engine.dispose()
    return [e for _, e in found if e["type"] == kind and e.get("player") == player]


def test_14_a_resent_id_never_acts_twice_after_the_window_forgot_it(
    settings: ServerSettings,
) -> None:
    settings = with_limits(settings, seen_ids=WINDOW)

    async def go(base: str) -> tuple[str, list[dict[str, Any]]]:
        a, me = await player(base, "alice")
        answers = []
        for cid, kind, fields in [
            ("JOIN-1", "join", {"seat": 0, "amount": 40}),
            ("CHAT-1", "chat", {"text": "good luck all"}),
            ("LEAVE-1", "leave", {}),
        ]:
            await a.send(kind, id=cid, table="holdem", **fields)
            answers.append(await answer(a, cid))
        assert [x["type"] for x in answers] == ["ok", "ok", "ok"], answers
        resent = []
        await a.send("join", id="JOIN-1", table="holdem", seat=0, amount=40)
        resent.append(await answer(a, "JOIN-1"))  # remembered: a replay
        for i in range(3 * WINDOW):  # pings are not remembered: they push out nothing
            await a.send("ping", id=f"P{i}")
            assert (await answer(a, f"P{i}"))["type"] == "ok"
        await a.send("join", id="JOIN-1", table="holdem", seat=0, amount=40)
        resent.append(await answer(a, "JOIN-1"))
        for i in range(2 * WINDOW):  # these are remembered, and push JOIN-1 out
            await a.send("time_bank", id=f"T{i}", table="holdem")
            await answer(a, f"T{i}")
        for cid, kind, fields in [
            ("JOIN-1", "join", {"seat": 0, "amount": 40}),
            ("CHAT-1", "chat", {"text": "good luck all"}),
        ]:  # looked up in the store: replays
            await a.send(kind, id=cid, table="holdem", **fields)
            resent.append(await answer(a, cid))
        await a.close()
        return me, [answers[0], answers[1], *resent]

    with running_server(settings) as base:
        me, got = asyncio.run(go(base))
    joined, said, *resent = got
    assert [(x["type"], x["replay"], x.get("seq")) for x in resent] == [
        ("ok", True, joined["seq"]),
        ("ok", True, joined["seq"]),
        ("ok", True, joined["seq"]),
        ("ok", True, said["seq"]),
    ]
    url = settings.database_url
    assert url is not None
    assert len(_entries(url, "holdem", "PlayerSeated", me)) == 1  # one buy-in
    assert len(_entries(url, "holdem", "ChatSaid", me)) == 1  # said once
    engine = make_engine(url)
    balance = SqlLedger(engine).balance(AccountRef.player(me, Currency.PLAY))
    engine.dispose()
    assert balance == settings.signup_play_chips  # bought in once, cashed out once

    async def again(base: str) -> dict[str, Any]:  # a new process: nothing in memory
        a, _ = await player(base, "alice")
        await a.send("leave", id="LEAVE-1", table="holdem")
        got = await answer(a, "LEAVE-1")
        await a.close()
        return got

    with running_server(settings) as base:
        after = asyncio.run(again(base))
    assert (after["type"], after["replay"]) == ("ok", True)


def test_14_answers_are_kept_for_the_most_lately_active_accounts_only() -> None:
    # A server runs for weeks: the gateway's memory of answers is a cache of the
    # accounts active lately (the store answers for the ids that acted), bounded in
    # accounts as in ids; an id still being done is never forgotten.
    from cardroom.server.gateway import Answers
    from cardroom.server.jobs import Outcome

    async def go() -> None:
        answers = Answers(size=4, accounts=2)
        answers.start("ann", "a1", "d").set_result(Outcome())
        busy = answers.start("bob", "b1", "d")  # still being done
        answers.start("cat", "c1", "d").set_result(Outcome())  # ann is the least recent
        assert answers.seen("ann", "a1") is None
        assert answers.seen("bob", "b1") == (busy, "d")
        answers.start("dan", "d1", "d").set_result(Outcome())  # bob's id is kept, pending
        assert answers.seen("bob", "b1") == (busy, "d")
        busy.set_result(Outcome("busy"))
        answers.start("cat", "c2", "d").set_result(Outcome())  # cat active again
        answers.start("eve", "e1", "d").set_result(Outcome())
        assert answers.seen("cat", "c1") is not None and answers.seen("eve", "e1") is not None
        assert answers.seen("bob", "b1") is None and answers.seen("dan", "d1") is None
        assert len(answers.by_account) == 2

    asyncio.run(go())


def test_14_an_id_sent_again_with_another_message_is_refused_id_reused(
    settings: ServerSettings,
) -> None:
    """A client that numbers its messages afresh after a reload would otherwise have its
    new messages answered as resends and silently not done. The same message again is a
    resend (spacing and field order do not count); another under the same id is refused
    ``id_reused`` and does nothing, whether the id is remembered, looked up in the store,
    or from before a restart. A row stored before digests were kept answers as before."""
    settings = with_limits(settings, seen_ids=WINDOW)
    url = settings.database_url
    assert url is not None

    async def go(base: str) -> tuple[str, list[tuple[str, str | None]]]:
        a, me = await player(base, "alice")
        await a.send("join", id="1", table="holdem", seat=0, amount=40)
        assert (await answer(a, "1"))["type"] == "ok"
        got = []

        async def send(raw: str, cid: str) -> None:
            await a.ws.send(raw)
            msg = await answer(a, cid)
            got.append((msg["type"], msg.get("code") if msg["type"] == "error" else "replay"))

        same = '{"amount": 40, "v": 1, "type": "join", "table": "holdem", "id": "1", "seat": 0}'
        await send(same, "1")  # the same message, written otherwise: a resend
        await send('{"v":1,"type":"chat","id":"1","table":"holdem","text":"hi"}', "1")
        for i in range(2 * WINDOW):  # push "1" out of memory: the store answers now
            await a.send("time_bank", id=f"T{i}", table="holdem")
            await answer(a, f"T{i}")
        await send('{"v":1,"type":"rebuy","id":"1","table":"holdem","amount":5}', "1")
        await send(same, "1")
        await a.close()
        return me, got

    with running_server(settings) as base:
        me, got = asyncio.run(go(base))
    resend, reused = ("ok", "replay"), ("error", "id_reused")
    assert got == [resend, reused, reused, resend]
    assert len(_entries(url, "holdem", "ChatSaid", me)) == 0  # nothing was said

    from cardroom.store.client_ids import Answered, ClientIds

    engine = make_engine(url)
    try:  # an id stored before digests were kept
        ClientIds(engine).remember([Answered(me, "old", "holdem", 1)])
    finally:
        engine.dispose()

    async def after_restart(base: str) -> list[tuple[str, Any]]:
        a, _ = await player(base, "alice")
        out = []
        for cid, kind, fields in [
            ("1", "leave", {}),
            ("1", "join", {"seat": 0, "amount": 40}),
            ("old", "leave", {}),
        ]:
            await a.send(kind, id=cid, table="holdem", **fields)
            msg = await answer(a, cid)
            out.append((msg["type"], msg.get("code", msg.get("replay"))))
        await a.close()
        return out

    with running_server(settings) as base:
        assert asyncio.run(after_restart(base)) == [
            ("error", "id_reused"),
            ("ok", True),
            ("ok", True),
        ]


def _sent_twice(raw: bytes, room: Any, answers: Any = None) -> list[dict[str, Any]]:
    """What alice's connection is told when the gateway gets ``raw`` twice (``room``: what
    the gateway asks of the room; ``answers``: its window of ids, a fresh one if None)."""
    import json
    from types import SimpleNamespace

    from cardroom.server import protocol as p
    from cardroom.server.gateway import Answers, _once

    sent: list[dict[str, Any]] = []
    conn = SimpleNamespace(player="alice", send=lambda data: sent.append(json.loads(data)))
    msg = p.decode_client(raw)

    async def go() -> None:
        window = Answers(size=8) if answers is None else answers
        for _ in range(2):
            await _once(conn, SimpleNamespace(room=room), window, msg)  # type: ignore[arg-type]

    asyncio.run(go())
    return sent


def test_14_an_id_answered_busy_when_the_store_could_not_be_asked_is_done_when_sent_again() -> None:
    # Whether an id acted before is asked of the store; when the store cannot answer, the
    # id is answered ``busy`` ("try again") and nothing is done. The client tries again
    # with the same id, as the protocol asks: that resend is done, not answered with the
    # remembered ``busy`` as a replay (which would refuse the message for ever).
    from types import SimpleNamespace

    class Storage:
        calls = 0

        async def run(self, fn: object, *args: object) -> None:
            self.calls += 1
            if self.calls == 1:
                raise OSError("the database is down")

    room = SimpleNamespace(storage=Storage(), answered=SimpleNamespace(find=None))
    room.actor = lambda table: None  # no table: the resend, done, is refused for that
    sent = _sent_twice(b'{"v": 1, "type": "leave", "id": "LEAVE-1", "table": "holdem"}', room)
    assert [(m["code"], m["re"], m["replay"]) for m in sent] == [
        ("busy", "LEAVE-1", False),
        ("no_such_table", "LEAVE-1", False),
    ]


def test_14_an_id_still_being_done_is_not_pushed_out_of_the_window_by_later_ids() -> None:
    # The window keeps the last ``size`` answered ids per account; an id whose outcome is
    # still coming (a slow join, its balance being read) stays however many ids come
    # after it: its resend must wait for that outcome, not be done a second time.
    from cardroom.server.gateway import Answers
    from cardroom.server.jobs import Outcome

    async def go() -> None:
        answers = Answers(size=2)
        slow = answers.start("ann", "JOIN-1", "d")
        for i in range(4):
            answers.start("ann", f"T{i}", "d").set_result(Outcome())
        assert answers.seen("ann", "JOIN-1") == (slow, "d")
        assert answers.seen("ann", "T0") is None and answers.seen("ann", "T3") is not None
        slow.set_result(Outcome())

    asyncio.run(go())


def test_14_a_ping_is_answered_and_not_remembered() -> None:
    # A ping does nothing: it is answered ``ok`` and takes no place among the ids
    # remembered (a client pinging every few seconds would push out the ids that acted,
    # and a ping sent again is answered afresh, not as a replay).
    from cardroom.server.gateway import Answers

    answers = Answers(size=8)
    sent = _sent_twice(b'{"v": 1, "type": "ping", "id": "P1"}', None, answers)
    assert [(m["type"], m["re"], m["replay"]) for m in sent] == [("ok", "P1", False)] * 2
    assert answers.seen("alice", "P1") is None


def test_14_an_error_sent_again_is_answered_again_marked_replay() -> None:
    # A resent id is answered with its first answer, an error too, marked ``replay``:
    # the client knows nothing was done again (here: the table it named does not exist).
    from types import SimpleNamespace

    async def run(fn: object, *args: object) -> None:
        return None  # the store has no answer for the id: it never acted

    room = SimpleNamespace(storage=SimpleNamespace(run=run), answered=SimpleNamespace(find=None))
    room.actor = lambda table: None
    sent = _sent_twice(b'{"v": 1, "type": "leave", "id": "LEAVE-1", "table": "nowhere"}', room)
    assert [(m["code"], m["replay"]) for m in sent] == [
        ("no_such_table", False),
        ("no_such_table", True),
    ]


@pytest.mark.parametrize("code", ["busy", "not_stored", "internal", "rate_limited"])
def test_14_an_id_the_table_refused_for_the_moment_is_done_when_sent_again(code: str) -> None:
    # A table that answers ``busy`` (its record not read back, an account not read: "try
    # again"), ``not_stored`` or ``internal`` (nothing happened, the table was rebuilt), or
    # a chat line's ``rate_limited`` did nothing, for a reason of the moment. The client
    # resends the same id, as the protocol asks (it cannot know what a lost answer said):
    # that resend is done, not answered with the first refusal as a replay, which
    # refused it for ever (live: a join refused busy while the database could not read
    # the account was replayed busy to every resend, from any connection, after the
    # database was back). The store still answers an id that acted: never done twice.
    from types import SimpleNamespace

    from cardroom.server.jobs import Outcome

    async def run(fn: object, *args: object) -> None:
        return None  # the store has no answer for the id: it never acted

    said = [Outcome(code, "for the moment"), Outcome(seq=3)]

    async def submit(job: object) -> Outcome:
        return said.pop(0)

    room = SimpleNamespace(storage=SimpleNamespace(run=run), answered=SimpleNamespace(find=None))
    room.actor = lambda table: SimpleNamespace(submit=submit, table_id=table)
    sent = _sent_twice(b'{"v": 1, "type": "leave", "id": "LEAVE-1", "table": "holdem"}', room)
    assert [(m["type"], m.get("code"), m["replay"]) for m in sent] == [
        ("error", code, False),
        ("ok", None, False),
    ]


def test_14_a_watch_resent_from_another_connection_watches_there(
    settings: ServerSettings,
) -> None:
    # A client whose connection dropped before its ``watch`` was answered resends it, same
    # id, on its new connection, as the protocol allows for any lost answer. A watch is
    # the connection's: answered ``ok`` as a replay, the new connection watched nothing
    # (no snapshot, no events) and the seated player stayed disconnected (§10.6: his
    # turns waited, then he was sat out). A watch, unwatch or time bank sent again is
    # done again (they store nothing); a join resent is still a replay.
    async def go(base: str) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
        a, _ = await player(base, "alice")
        await a.send("watch", id="WATCH-1", table="holdem")
        assert (await answer(a, "WATCH-1"))["type"] == "ok"
        await a.send("join", id="JOIN-1", table="holdem", seat=0, amount=40)
        assert (await answer(a, "JOIN-1"))["type"] == "ok"
        await a.close()
        b, _ = await player(base, "alice")
        await b.send("watch", id="WATCH-1", table="holdem")
        snapshot = await until(b, "snapshot", table="holdem")
        watched = await answer(b, "WATCH-1")
        await b.send("join", id="JOIN-1", table="holdem", seat=0, amount=40)
        rejoined = await answer(b, "JOIN-1")
        await b.close()
        return snapshot, watched, rejoined

    with running_server(settings) as base:
        snapshot, watched, rejoined = asyncio.run(go(base))
    assert snapshot["view"]["you"] == 0 and snapshot["view"]["seats"][0]["connected"] is True
    assert (watched["type"], watched["replay"]) == ("ok", False)
    assert (rejoined["type"], rejoined["replay"]) == ("ok", True)
