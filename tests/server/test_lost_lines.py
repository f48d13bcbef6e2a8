"""Connections lost abruptly (a reset) while the server still had writes to make for them:
nothing may be written to a lost connection, or asyncio logs its context-free warning
"socket.send() raised exception." for every write past the fifth, burying the operator's
log (770 of them over a 4,000-session soak)."""

from __future__ import annotations

import asyncio
import base64
import functools
import logging
import os
import socket
import struct
import time
from collections.abc import Iterator
from typing import Any, ClassVar

import pytest
from tests.server.conftest import running_server
from tests.server.sessions import player

from cardroom.bots.client import account
from cardroom.server import serve
from cardroom.server.settings import ServerSettings

LOST_WRITES = "socket.send() raised exception."


class Lines(serve.PongBackpressure):
    """The room's WebSocket protocol, the connections made listed (latest last)."""

    made: ClassVar[list[Lines]] = []

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        Lines.made.append(self)


@pytest.fixture
def asyncio_log() -> Iterator[list[str]]:
    """What the ``asyncio`` logger says meanwhile (the server's thread included)."""
    said: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            said.append(record.getMessage())

    keep = Keep(logging.WARNING)
    logger = logging.getLogger("asyncio")
    logger.addHandler(keep)
    try:
        yield said
    finally:
        logger.removeHandler(keep)


def _masked(opcode: int, payload: bytes) -> bytes:
    """A client's frame (masked, as RFC 6455 requires) of a short payload."""
    mask = os.urandom(4)
    body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return bytes([0x80 | opcode, 0x80 | len(payload)]) + mask + body


def _reset(sock: socket.socket) -> None:
    """Close with a reset (SO_LINGER 0), as a crashed client or a middlebox does."""
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


def _opened(port: int, token: str) -> socket.socket:
    """A raw WebSocket connection, its handshake answered and read."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
        f"Authorization: Bearer {token}\r\n\r\n".encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(4096)
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock


def test_messages_queued_for_a_player_whose_line_was_reset_are_not_written_into_it(
    settings: ServerSettings, monkeypatch: pytest.MonkeyPatch, asyncio_log: list[str]
) -> None:
    """A burst of messages (a table's events, snapshots) is queued for a player at the
    moment his connection is reset (a crashed device, a middlebox), the server busy
    and not yet aware. The connection's writer sends them one after another without
    waiting: the first write finds the reset and the connection is lost, but uvicorn
    is told so only a step later, and wrote every other one into the lost connection:
    a warning in the operator's log for each past the fifth (hundreds for a player
    with a backlog, 770 over a 4,000-session soak)."""
    monkeypatch.setattr(serve, "PongBackpressure", Lines)
    Lines.made.clear()
    apps: list[Any] = []

    with running_server(settings, apps) as base:
        port = int(base.rsplit(":", 1)[1])
        token = str(account(base, "alice", "password1")["token"])
        shared = apps[0].state.server.shared
        for _ in range(3):
            sock = _opened(port, token)
            line = _latest_line()
            conn = _connection_of(shared, "alice")
            # The server busy for a moment (as under load) while the reset arrives,
            # then a burst for the player.
            line.loop.call_soon_threadsafe(time.sleep, 0.3)
            line.loop.call_soon_threadsafe(_burst, conn, 40)
            time.sleep(0.05)
            _reset(sock)
            _wait(functools.partial(_gone, line, conn))
        asyncio.run(_still_serving(base))
    assert [said for said in asyncio_log if LOST_WRITES in said] == []


def _gone(line: Lines, conn: Any) -> bool:
    """Both uvicorn and the gateway know the connection is over."""
    return bool(line.disconnected and conn.closed)


def _latest_line() -> Lines:
    """The latest WebSocket connection, once the server has made it."""
    _wait(lambda: bool(Lines.made) and Lines.made[-1].transport is not None)
    return Lines.made[-1]


def _connection_of(shared: Any, player_alias: str) -> Any:
    """The gateway's open connection of ``player_alias`` (the only one)."""
    found: list[Any] = []

    def seen() -> bool:
        found[:] = [c for cs in shared.connections.values() for c in cs if not c.closed]
        found[:] = [c for c in found if c.alias == player_alias]
        return len(found) == 1

    _wait(seen)
    return found[0]


def _burst(conn: Any, count: int) -> None:
    """Queue ``count`` messages for ``conn`` at once, as a table's broadcast does."""
    for n in range(count):
        conn.send(b'{"type":"pong","n":%d}' % n)


def _wait(done: Any, limit: float = 5.0) -> None:
    """Poll ``done`` until true, failing past ``limit`` seconds."""
    deadline = time.monotonic() + limit
    while not done():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


async def _still_serving(base: str) -> None:
    """A new player still connects and is greeted."""
    client, _ = await player(base, "bobby")
    await client.close()
