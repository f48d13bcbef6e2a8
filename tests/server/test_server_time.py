"""The server's clock in ``hello`` and ``turn`` (``server_time``): deadlines are on that
clock, so a client whose own clock is off measures the difference there."""

from __future__ import annotations

import asyncio
import time

from tests.server.sessions import answer, until

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
        waits = [asyncio.ensure_future(until(c, "turn", table="holdem")) for c in clients]
        done, pending = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        for task in pending:
            task.cancel()
        turn = done.pop().result()  # the turn goes to the player to act only
        left = turn["deadline"] - turn["server_time"]
        assert 0 < left <= 60  # the action time, on the server's own clock
        assert abs(turn["server_time"] - time.time()) < 5
        for client in clients:
            await client.close()

    asyncio.run(go())
