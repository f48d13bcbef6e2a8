"""The server's clock in ``hello`` and ``turn`` (``server_time``): deadlines are on that
clock, so a client whose own clock is off measures the difference there."""

from __future__ import annotations

import asyncio
import time

from tests.server.sessions import answer, first_turn

from cardroom.bots.client import ProtocolClient, account


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
