"""RULEBOOK §7 over the protocol: ``auto_muck`` turns a seat's "auto-muck losing hands"
off or on; only that seat is told (``AutoMuckSet``), and a fresh snapshot says it."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.server.sessions import answer, seated_pair, until


def _told(log: list[dict[str, Any]]) -> list[tuple[int, dict[str, Any]]]:
    """The AutoMuckSet events of a connection's log, with their seq."""
    return [
        (e["seq"], e["event"])
        for msg in log
        if msg["type"] == "events"
        for e in msg["events"]
        if e["event"]["type"] == "AutoMuckSet"
    ]


def _last_seq(log: list[dict[str, Any]]) -> int:
    return max((e["seq"] for m in log if m["type"] == "events" for e in m["events"]), default=0)


def test_7_auto_muck_is_set_over_the_protocol_and_told_to_its_seat_alone(server: str) -> None:
    async def go() -> None:
        a, _, b, _ = await seated_pair(server, "am")
        a.log, b.log = [], []
        await b.send("auto_muck", id="am-off", table="holdem", on=False)
        assert (await answer(b, "am-off"))["type"] == "ok"
        told = _told(b.log)
        assert [event for _, event in told] == [{"type": "AutoMuckSet", "seat": 1, "on": False}]
        async with asyncio.timeout(10):  # alice reads past that seq without it
            while _last_seq(a.log) < told[0][0]:
                await a.receive()
        assert _told(a.log) == []
        await b.send("watch", id="again", table="holdem")  # a fresh snapshot
        snap = await until(b, "snapshot", table="holdem")
        assert snap["view"]["auto_muck"] is False
        await b.send("auto_muck", id="am-bad", table="holdem", on="no")
        refused = await answer(b, "am-bad")
        assert refused["type"] == "error" and refused["code"] == "bad_message", refused
        await a.close()
        await b.close()

    asyncio.run(go())
