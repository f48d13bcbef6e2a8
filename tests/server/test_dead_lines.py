"""Connections that die without a close (RULEBOOK §10.6): no FIN, nothing acknowledged
or read. The server must take such a player as away within its keepalive, however much
it had queued for him when the line went dead."""

from __future__ import annotations

import asyncio
import dataclasses
import socket
import time
from typing import Any, ClassVar

import httpx
import pytest
import websockets
from tests.server.conftest import running_server
from tests.server.sessions import answer, money_problems, player, table_event

from cardroom.bots.client import ProtocolClient, account, ws_url
from cardroom.server import serve
from cardroom.server.settings import ServerSettings

SMALL_BUFFER = 4096
"""A line's kernel buffers, each way, as small as a slow mobile link's (loopback's grow
to megabytes, and would swallow whatever the test queues)."""


class SmallSendBuffer(serve.PongBackpressure):
    """The room's WebSocket protocol with a small kernel send buffer, as over a slow link;
    the connections made are listed, latest last."""

    made: ClassVar[list[SmallSendBuffer]] = []

    def connection_made(self, transport: Any) -> None:
        sock = transport.get_extra_info("socket")
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SMALL_BUFFER)
        super().connection_made(transport)
        SmallSendBuffer.made.append(self)


async def _frozen_client(base: str, alias: str) -> tuple[ProtocolClient, str]:
    """A logged-in connection whose receive buffer is small (set before it connects), and
    its session token."""
    login = await asyncio.to_thread(account, base, alias, "password1")
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, SMALL_BUFFER)
    port = int(base.rsplit(":", 1)[1])
    sock.connect(("127.0.0.1", port))
    sock.setblocking(False)
    bearer = {"Authorization": f"Bearer {login['token']}"}
    ws = await websockets.connect(ws_url(base), sock=sock, additional_headers=bearer)
    client = ProtocolClient(ws)
    assert (await client.receive())["type"] == "hello"
    return client, str(login["token"])


def test_10_6_a_dead_line_with_data_queued_for_it_is_away_within_the_keepalive(
    settings: ServerSettings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A seated player's device stops reading (a phone put away, its app frozen; its
    kernel still acknowledges, with a zero window) while the server has more to send
    him than the line's buffers hold. The keepalive's pong never comes and the server
    closes the connection, but the close waited for the unsent data to drain, which it
    never did: the application was never told, the player stayed connected (no
    ``Disconnected``, no reconnect wait, no disconnect protection: dealt in and timed
    out hand after hand) and his connection slot stayed taken, for as long as the
    peer's kernel lived (over a blackholed line, until TCP gave up: some 15 minutes)."""
    monkeypatch.setattr(serve, "PongBackpressure", SmallSendBuffer)
    settings = dataclasses.replace(settings, ws_ping_seconds=0.5)

    async def go(base: str) -> float:
        frozen, _ = await _frozen_client(base, "alice")
        await frozen.send("join", id="j", table="holdem", seat=0, amount=40)
        assert (await answer(frozen, "j"))["type"] == "ok"
        bobby, _ = await player(base, "bobby")
        await bobby.send("join", id="j", table="holdem", seat=1, amount=40)
        assert (await answer(bobby, "j"))["type"] == "ok"
        frozen.ws.transport.pause_reading()  # nothing more is read: the window closes
        for _ in range(40):  # each answered with a snapshot: far more than the buffers
            await frozen.send("watch", table="stud")
        start = time.monotonic()
        await _disconnected(bobby, seat=0, limit=20)
        took = time.monotonic() - start
        frozen.ws.transport.abort()
        await bobby.close()
        return took

    with running_server(settings) as base:
        took = asyncio.run(go(base))
    assert took < 10, took  # 0.5 s to the ping, 0.5 s for its pong, then closed
    assert settings.database_url is not None
    assert money_problems(settings.database_url) == []


async def _disconnected(client: ProtocolClient, seat: int, limit: float) -> dict[str, Any]:
    """Read until the holdem table's ``Disconnected`` of ``seat``."""
    async with asyncio.timeout(limit):
        while True:
            event = await table_event(client, "Disconnected", limit=limit)
            if event.get("seat") == seat:
                return event


def test_a_connection_the_server_ends_on_a_dead_line_is_let_go_once_its_close_times_out(
    settings: ServerSettings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server ends a connection (here its session: a logout from another device) whose
    device has stopped reading, with some bytes still unsent. The player is away at once
    (the application closed it), and uvicorn gives the peer 10 s to answer the close,
    then closes the socket, which waited for the unsent bytes to drain: the socket, its
    buffers and its descriptor were held for as long as the far kernel lived (the
    keepalive stops once a close is sent), so such connections piled up."""
    monkeypatch.setattr(serve, "PongBackpressure", SmallSendBuffer)
    SmallSendBuffer.made.clear()

    async def go(base: str) -> float:
        frozen, token = await _frozen_client(base, "alice")
        line = SmallSendBuffer.made[-1]
        await frozen.send("join", id="j", table="holdem", seat=0, amount=40)
        assert (await answer(frozen, "j"))["type"] == "ok"
        frozen.ws.transport.pause_reading()
        for _ in range(30):  # more than the buffers hold, less than uvicorn's high-water mark
            await frozen.send("watch", table="stud")
        await asyncio.sleep(0.5)
        assert line.transport.get_write_buffer_size() > 0  # unsent: the kernel's are full
        bearer = {"Authorization": f"Bearer {token}"}
        async with httpx.AsyncClient(base_url=base, headers=bearer) as http:
            assert (await http.post("/api/logout")).status_code == 200
        start = time.monotonic()
        async with asyncio.timeout(25):
            while not line.disconnected:  # uvicorn's: the connection is lost
                await asyncio.sleep(0.1)
        took = time.monotonic() - start
        frozen.ws.transport.abort()
        return took

    with running_server(settings) as base:
        took = asyncio.run(go(base))
    assert took < 15, took  # the closing handshake's 10 s, then gone
