"""A connection's outbox (``gateway.Connection``): a client too slow to read is dropped,
and what it was sent before that has no hole in it (a reconnect's ``since`` is the last
sequence number it read, so an event left out of the middle would never reach it)."""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace
from typing import Any

from cardroom.server.gateway import OUTBOX, Connection


class _StuckSocket:
    """A WebSocket whose client reads nothing until ``reading`` is set."""

    def __init__(self) -> None:
        self.client = SimpleNamespace(host="127.0.0.1")
        self.query_params: dict[str, str] = {}
        self.reading = asyncio.Event()
        self.written: list[int] = []
        self.closed_with: int | None = None

    async def send_text(self, text: str) -> None:
        await self.reading.wait()
        self.written.append(json.loads(text)["n"])

    async def close(self, code: int = 1000, reason: str = "") -> None:
        self.closed_with = code


def test_a_client_too_slow_to_read_is_dropped_with_no_hole_in_what_it_was_sent() -> None:
    async def run() -> tuple[list[int], int | None]:
        socket = _StuckSocket()
        conn = Connection(socket, "p1", "alias")  # type: ignore[arg-type]
        writer = asyncio.create_task(conn.writer())
        sent = OUTBOX + 50
        for n in range(sent):  # the first is taken at once and waits on the client
            conn.send(json.dumps({"n": n}).encode())
            await asyncio.sleep(0)
        assert conn.closed
        socket.reading.set()  # the client reads again (a phone back on its network)
        await asyncio.wait_for(writer, 10)
        return socket.written, socket.closed_with

    written: Any
    written, code = asyncio.run(run())
    assert code == 1008
    assert written == list(range(len(written))), "a message was left out of the middle"
