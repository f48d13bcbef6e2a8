"""The server's clock in ``hello`` and ``turn`` (``server_time``): deadlines are on that
clock, so a client whose own clock is off measures the difference there."""

from __future__ import annotations

import asyncio
import time

import pytest
from tests.server.sessions import answer, first_turn

from cardroom.bots.client import ProtocolClient, account
from cardroom.room import clock as room_clock
from cardroom.room.clock import SECONDS_PER_DAY, day_of, system_clock, today
from cardroom.server.protocol import Hello, Turn

from .conftest import MIDNIGHT_MARGIN_SECONDS, wait_before_midnight


def test_hello_and_turn_carry_the_servers_clock(server: str) -> None:
    async def go() -> None:
        clients = []
        for alias, seat in (("timea", 0), ("timeb", 1)):
            login = await asyncio.to_thread(account, server, alias, "password1")
            client = await ProtocolClient.connect(server, login["token"])
            before = time.time()
            hello = await client.receive()
            assert hello["type"] == "hello"
            assert before - 5 <= hello["server_time"] <= time.time() + 1
            await client.send("join", id="j", table="holdem", seat=seat, amount=40)
            assert (await answer(client, "j"))["type"] == "ok"
            clients.append(client)
        _, turn = await first_turn(clients, "holdem")
        left = turn["deadline"] - turn["server_time"]
        assert 0 < left <= 60  # the action time, on the server's own clock
        assert abs(turn["server_time"] - time.time()) < 5
        for client in clients:
            await client.close()

    asyncio.run(go())


def test_a_test_reading_today_waits_out_a_midnight_about_to_pass() -> None:
    """Tests marked ``today`` read the UTC day from the wall clock; one started within
    the margin of a midnight first waits until just past it (two failed so at 00:00)."""
    midnight = 20_000 * SECONDS_PER_DAY
    assert wait_before_midnight(midnight - MIDNIGHT_MARGIN_SECONDS - 1) == 0
    assert wait_before_midnight(midnight + 1) == 0
    for before in (MIDNIGHT_MARGIN_SECONDS - 1, 30.0, 0.5):
        start = midnight - before + wait_before_midnight(midnight - before)
        assert day_of(start) == day_of(midnight) and start - midnight <= 1.0


def test_server_time_is_the_room_clock_the_deadlines_are_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """After a step of the wall clock the room's clock (``system_clock``, the tables'
    deadlines) and the wall clock differ: ``server_time`` must be the room's, or a client
    counting down ``deadline - server_time`` is off by the step."""
    offset = room_clock.WALL_OFFSET + 3600  # the wall clock stepped back an hour since
    monkeypatch.setattr(room_clock, "WALL_OFFSET", offset)
    now = system_clock()
    hello = Hello(server="s", player="1", alias="a")
    turn = Turn(
        table="t", seq=1, seat=0, deadline=now + 30, bank=False, legal={}, cards=[], board=[]
    )
    for message in (hello, turn):
        assert abs(message.server_time - now) < 5


def test_10_6_today_is_the_day_of_the_room_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """The disconnect all-ins' day is the one the tables count in (the room clock's), for
    the room's book and ``GET /api/me``, not the wall clock's after a step."""
    monkeypatch.setattr(room_clock, "WALL_OFFSET", room_clock.WALL_OFFSET + SECONDS_PER_DAY)
    assert today() == day_of(time.time()) + 1


def test_a_ping_is_answered_with_the_servers_clock(server: str) -> None:
    """A ``ping``'s ``ok`` carries ``server_time`` (in ``detail``): stamped on its way
    back, it bounds the client's offset to the server from above (``hello`` and ``turn``
    bound it from below), so a client on a slow line counts down the time its action
    still has to reach the server, not what the server has left after the trip."""

    async def go() -> None:
        login = await asyncio.to_thread(account, server, "timeping", "password1")
        client = await ProtocolClient.connect(server, login["token"])
        assert (await client.receive())["type"] == "hello"
        sent = time.time()
        await client.send("ping", id="p")
        ok = await answer(client, "p")
        assert ok["type"] == "ok"
        assert sent - 1 <= ok["detail"]["server_time"] <= time.time() + 1
        await client.close()

    asyncio.run(go())
