"""Hostile clients against a real server: bytes no well-behaved client sends (a text
frame that is not UTF-8, a handshake or a request body abandoned half way), every
client message with each field missing, mistyped or extra, and a flood of blank chat
lines. Each is refused with a stable code, nothing changes (the money holds), the
connection goes on where it should, and the server's log holds no error and no
traceback for it: a fault of the client is not the server's, and an error logged for
each would let anyone fill the log and bury the server's real faults."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest
from tests.server.sessions import answer, money_problems, player, stored_events

from cardroom.server.settings import ServerSettings


class Records(logging.Handler):
    """Every log record of the loggers it is attached to."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def faults(self) -> list[str]:
        """The records logged as errors, or with a traceback."""
        return [
            f"{r.name} {r.levelname} {r.getMessage()}"
            for r in self.records
            if r.levelno >= logging.ERROR or r.exc_info is not None
        ]


@contextlib.contextmanager
def logged() -> Iterator[Records]:
    """What the server logs meanwhile: uvicorn's loggers (which need not pass their
    records to the root logger) and the project's. Enter it once the server runs:
    starting one sets up uvicorn's logging afresh, its loggers' handlers dropped."""
    handler = Records()
    loggers = [logging.getLogger(name) for name in ("uvicorn", "uvicorn.error", "cardroom")]
    for logger in loggers:
        logger.addHandler(handler)
    try:
        yield handler
    finally:
        for logger in loggers:
            logger.removeHandler(handler)


@pytest.fixture
def server_log(server: str) -> Iterator[Records]:
    """:func:`logged` for the test's ``server`` (started first)."""
    with logged() as handler:
        yield handler


def test_a_text_frame_that_is_not_utf8_closes_its_connection_1007_and_logs_no_error(
    server: str, settings: ServerSettings, server_log: Records
) -> None:
    """A WebSocket text frame must be UTF-8 (RFC 6455 §8.1): one that is not closes its
    connection with 1007, the standard code. It was logged by uvicorn as an ERROR with
    a traceback, for any client able to open a socket; now it is a one-line warning."""
    from websockets.exceptions import ConnectionClosed

    async def go() -> tuple[int | None, list[str]]:
        a, _ = await player(server, "alice")
        await a.send("ping", id="before")
        await a.receive()
        await a.ws.send(b'{"v":1,"type":"ping","id":"\xff"}', text=True)
        code = None
        try:
            async with asyncio.timeout(10):
                while True:
                    await a.receive()
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd is not None else None
        again, _ = await player(server, "alice")  # the account connects again
        await again.send("ping", id="after")
        answered = await again.receive()
        await again.close()
        return code, [answered["type"], answered["re"]]

    code, after = asyncio.run(go())
    assert code == 1007
    assert after == ["ok", "after"]
    warned = [r for r in server_log.records if "UTF-8" in r.getMessage()]
    assert warned and all(r.levelno == logging.WARNING for r in warned), warned
    assert server_log.faults() == []
    assert settings.database_url is not None
    assert money_problems(settings.database_url) == []


def test_a_client_gone_before_it_was_turned_away_is_no_server_error(
    server: str, server_log: Records
) -> None:
    """A WebSocket client with a bad token that is gone (a reset) by the time its
    token was looked up: telling it why it is not served raised ``WebSocketDisconnect``
    out of the endpoint, and uvicorn logged "Exception in ASGI application" with a
    traceback as an ERROR, about half the time, for anyone without an account."""
    import base64
    import os
    import struct

    host, port = server.removeprefix("http://").split(":")
    for n in range(20):
        with socket.create_connection((host, int(port)), timeout=10) as sock:
            key = base64.b64encode(os.urandom(16)).decode()
            sock.sendall(
                f"GET /ws HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                f"Sec-WebSocket-Version: 13\r\nAuthorization: Bearer bogus-{n}\r\n\r\n".encode()
            )
            assert sock.recv(4096).startswith(b"HTTP/1.1 101")  # accepted, then gone:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    assert _until_quiet(server_log, 2.0) == []


def _cut_off(base: str, path: str, head: bytes) -> None:
    """Send the start of a POST whose body never comes in full, then go away."""
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        request = (
            f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
            f"Content-Length: 200\r\n\r\n"
        ).encode()
        sock.sendall(request + head)
        time.sleep(0.2)  # the server is reading the body


def _until_quiet(log: Records, seconds: float) -> list[str]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not log.faults():
        time.sleep(0.05)
    return log.faults()


@pytest.mark.parametrize("path", ["/api/login", "/api/register"])
def test_a_client_gone_before_its_body_arrived_is_no_server_error(
    server: str, server_log: Records, path: str
) -> None:
    """A client that sends part of a body and closes its socket: the body is never read
    in full. Starlette raises ``ClientDisconnect``; it was answered as an unforeseen
    fault (500 ``internal``, "unexpected error in the HTTP API" and its traceback
    logged as an ERROR) for anyone without an account. The server goes on answering."""
    import httpx

    _cut_off(server, path, b'{"alias": "alice", "pass')
    assert _until_quiet(server_log, 2.0) == []
    answer: Any = httpx.post(server + path, content=b"not json", timeout=10)
    assert answer.status_code == 400 and answer.json()["code"] == "bad_json"


def test_10_7_a_flood_of_empty_chat_lines_is_rate_limited_and_not_stored(
    server: str, settings: ServerSettings
) -> None:
    """RULEBOOK §7: chat is rate limited, no flooding. A line with nothing left once
    cleaned (spaces, zero-width characters) was judged ``empty`` before the flood limit
    was looked at: every such line, however many, was stored as a ``ChatBlocked`` event
    (a database write each, and the table's reconnect history pushed out by them).
    Now it takes a token like any line: past the burst it is refused ``rate_limited``
    and nothing is stored."""

    def blocked() -> int:
        assert settings.database_url is not None
        return stored_events(settings.database_url, "ChatBlocked")

    async def go() -> list[str]:
        a, _ = await player(server, "flood")
        await a.send("join", id="j", table="holdem", seat=3, amount=40)
        await answer(a, "j")
        codes = []
        for i in range(12):
            await a.send("chat", id=f"c{i}", table="holdem", text=" \u200b " * (i + 1))
            got = await answer(a, f"c{i}")
            codes.append(got.get("code", "ok") + ":" + got.get("message", ""))
        await a.close()
        return codes

    before = blocked()
    codes = asyncio.run(go())
    assert codes[:5] == ["chat_refused:empty"] * 5, codes
    assert set(codes[5:]) == {"rate_limited:too many chat lines at once: wait a moment"}, codes
    assert blocked() - before == 5


VALID: dict[str, dict[str, Any]] = {
    "watch": {"table": "stud"},
    "unwatch": {"table": "stud"},
    "join": {"table": "stud", "seat": 5, "amount": 20},
    "leave": {"table": "stud"},
    "stay": {"table": "stud"},
    "waitlist": {"table": "stud", "on": False},
    "rebuy": {"table": "stud", "amount": 5},
    "sit_out": {"table": "stud"},
    "sit_in": {"table": "stud"},
    "auto_muck": {"table": "stud", "on": True},
    "act": {"table": "stud", "kind": "fold"},
    "place": {"table": "ofc"},
    "advance": {"table": "stud", "kind": None},
    "time_bank": {"table": "stud"},
    "reset_allowance": {"table": "stud"},
    "chat": {"table": "stud", "text": "hi"},
    "report": {"table": "stud", "player": "nobody", "reason": "other"},
    "ping": {},
}
"""A well-formed message of each client type (the variants below change one field)."""
WRONG: list[Any] = [True, 10.0, "7", None, [], {}, -1, 2**64, "x" * 70, ["Ah"] * 20]
"""Values of the wrong type or out of bounds for some field: ``true`` and ``10.0``
read as integers by Python, a number in a string, past 64 bits, too long..."""


def _variants() -> list[dict[str, Any]]:
    """Every client message type with each field missing, each field of a wrong type or
    out of bounds, and fields it does not have."""
    from cardroom.server import protocol as p

    out: list[dict[str, Any]] = []
    for cls in p.CLIENT_TYPES:
        tag = cls.__struct_config__.tag
        good = {"v": 1, "type": tag, **VALID[tag]}
        fields = [f for f in cls.__struct_fields__ if f != "id"]
        for name in fields:
            out.append({k: v for k, v in good.items() if k != name})
            out.extend({**good, name: value} for value in WRONG)
        out.extend(
            {**good, extra: 1} for extra in ("seat", "player", "table", "x") if extra not in fields
        )
    return out


def test_every_field_missing_mistyped_or_extra_is_answered_by_its_id_and_the_server_goes_on(
    settings: ServerSettings,
) -> None:
    """Each variant the protocol's models refuse is answered with the decoder's code
    (``bad_message``; ``bad_version``, ``unknown_type`` for those fields) naming its id
    (``true`` is no integer, nor ``10.0``, nor ``"7"``); each they take is answered
    with a stable code, never ``internal`` or ``busy``; the connection answers a ping
    after them all; nothing is logged as a fault and the money holds."""
    from tests.server.conftest import running_server, with_limits

    from cardroom.server import protocol as p

    variants = _variants()
    settings = with_limits(
        settings, per_connection_rate=1e6, per_connection_burst=1e6,
        per_account_rate=1e6, per_account_burst=1e6,
    )  # fmt: skip

    async def go(base: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
        a, _ = await player(base, "sweeper")
        answers = []
        for n, variant in enumerate(variants):
            await a.ws.send(json.dumps({**variant, "id": f"s{n}"}))
            answers.append((variant, await answer(a, f"s{n}")))
        await a.send("ping", id="end")
        answers.append(({}, await answer(a, "end")))
        await a.close()
        return answers

    with running_server(settings) as base, logged() as server_log:
        answers = asyncio.run(go(base))
    refused = 0
    for n, (variant, got) in enumerate(answers[:-1]):
        try:
            p.decode_client(json.dumps({**variant, "id": "x"}))
        except p.ProtocolError as exc:
            refused += 1
            assert (got["type"], got["code"], got["re"]) == ("error", exc.code, f"s{n}"), variant
        else:
            assert got.get("code") not in ("internal", "busy", "bad_message"), (variant, got)
    assert refused > len(variants) * 3 // 4, refused
    assert answers[-1][1]["type"] == "ok"
    assert server_log.faults() == []
    assert settings.database_url is not None
    assert money_problems(settings.database_url) == []


def _ping_frames(count: int) -> bytes:
    """``count`` masked WebSocket ping frames of 125 bytes each (the most a ping holds)."""
    import os

    mask = os.urandom(4)
    body = bytes(b ^ mask[i % 4] for i, b in enumerate(b"p" * 125))
    return (bytes([0x89, 0x80 | 125]) + mask + body) * count


def _unwritten(client_port: int) -> list[int]:
    """The bytes the test server holds unwritten for the WebSocket of ``client_port``
    (one entry, or none when that connection is closed)."""
    import gc

    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

    return [
        o.transport.get_write_buffer_size()
        for o in gc.get_objects()
        # type(), not isinstance(): isinstance() on a dead weak proxy among the objects
        # raises ReferenceError (seen with the whole suite in one process).
        if issubclass(type(o), WebSocketsSansIOProtocol)
        and o.transport is not None
        and not o.disconnected
        and (o.transport.get_extra_info("peername") or ("", 0))[1] == client_port
    ]


def test_a_client_that_floods_pings_and_never_reads_the_pongs_is_read_no_further(
    server: str,
) -> None:
    """Every ping is answered by a pong (RFC 6455), and uvicorn wrote each pong out
    whether or not the client read them, reading on: a client that sent ping frames as
    fast as it could and read nothing grew the server's memory by about 200 MB in the
    20 s before the keepalive closed it (on loopback; a player may open eight such
    connections). The server now stops reading a connection whose pongs pile up, so
    the TCP window stops the client, and what waits to be written stays small."""
    from cardroom.bots.client import account

    host, port = server.removeprefix("http://").split(":")

    async def flood() -> tuple[int, list[int]]:
        login = await asyncio.to_thread(account, server, "flooder", "password1")
        reader, writer = await asyncio.open_connection(host, int(port))
        writer.write(
            f"GET /ws HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
            f"Authorization: Bearer {login['token']}\r\n\r\n".encode()
        )
        await reader.readuntil(b"\r\n\r\n")
        pings, sent = _ping_frames(1000), 0
        with contextlib.suppress(TimeoutError):
            while sent < 24 << 20:  # 24 MB of pings, or until the server stops reading
                writer.write(pings)
                sent += len(pings)
                await asyncio.wait_for(writer.drain(), 2)
        await asyncio.sleep(1)  # the server reads what it will
        buffered = _unwritten(writer.get_extra_info("sockname")[1])
        writer.transport.abort()
        return sent, buffered

    sent, buffered = asyncio.run(flood())
    assert buffered and max(buffered) < 1 << 20, (sent, buffered)


def test_a_request_whose_head_never_ends_is_closed(
    settings: ServerSettings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A WebSocket handshake (or any request) sent in part and never finished held its
    socket for good: uvicorn times out a connection only between requests, so a
    client trickling a request's head kept it open, and one address could hold every
    descriptor the server may open (20,000 here) and lock every player out. A
    request's head now has ``HEAD_SECONDS`` to arrive (a shorter time here)."""
    from tests.server.conftest import running_server

    from cardroom.server import serve

    monkeypatch.setattr(serve, "HEAD_SECONDS", 1.0, raising=False)
    with running_server(settings) as base:
        host, port = base.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port)), timeout=10) as sock:
            sock.sendall(b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n")
            started = time.monotonic()
            assert sock.recv(100) == b""  # closed by the server
            assert time.monotonic() - started < 5
        with socket.create_connection((host, int(port)), timeout=10) as sock:
            sock.sendall(b"GET /healthz HTTP/1.1\r\n")
            time.sleep(0.5)  # a head in parts, whole in time
            sock.sendall(b"Host: x\r\n\r\n")
            assert sock.recv(100).startswith(b"HTTP/1.1 200")
