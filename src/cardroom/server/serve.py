"""Running the server in this process with uvicorn (``cardroom serve``)."""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import os
import signal
import socket
import sys
import threading
from collections.abc import Awaitable, Callable
from typing import Any

import h11
import uvicorn
from starlette.applications import Starlette
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.utils import ClientDisconnected
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from cardroom.server.app import announce_stop, create_app
from cardroom.server.settings import ServerSettings
from cardroom.server.storage import Storage
from cardroom.store import DatabaseError

OnReady = Callable[[str], Awaitable[None]]
"""Called with the base URL once the server answers (e.g. to start bots)."""


MAX_FRAME_BYTES = 1 << 16
"""A WebSocket frame above this closes its connection (1009, "message too big") before
the gateway reads it; below, the gateway refuses what is over ``Limits.max_message_bytes``
with ``too_large`` and the connection goes on."""


class ClientFaults(logging.Filter):
    """Logs uvicorn's record of a client's own fault as the warning it is, on one line.

    A WebSocket text frame that is not UTF-8 closes its connection (1007, as it should),
    but uvicorn logs it as an ERROR with a traceback: anyone able to open a socket could
    fill the log with tracebacks and bury the server's real faults."""

    MESSAGES = ("Invalid UTF-8 sequence received from client",)
    """How uvicorn's records of a client's fault begin (``websockets_sansio_impl``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Keep every record; a client's fault becomes a warning without traceback."""
        if record.levelno > logging.WARNING and record.getMessage().startswith(self.MESSAGES):
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.exc_info, record.exc_text = None, None
        return True


class WireSecrets(logging.Filter):
    """Keeps the players' secrets out of uvicorn's debug log, keeping the rest.

    At ``--log-level debug`` the WebSocket library logs every handshake header and every
    frame. A session token there (``authorization``, a browser's ``cookie``) lets whoever
    reads the log play as its player and be sent his hole cards; a frame's text holds a
    player's discards, the cards he sets face down (Fantasyland) and the cards dealt to
    him (RULEBOOK §12). Headers keep their names, frames their kind and size."""

    HEADERS = frozenset({"authorization", "cookie", "set-cookie"})
    """Headers that carry a session (lower case)."""
    HEADER_FORMATS = ("< %s: %s", "> %s: %s")
    FRAME_FORMATS = ("< %s", "> %s")
    DATA_FRAMES = frozenset({"TEXT", "BINARY", "CONT"})
    """Frames that carry a message (a ping's or a close's few bytes say nothing)."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Keep every record; a session header's value and a message's text become
        placeholders."""
        args = record.args
        if not isinstance(args, tuple):
            return True
        if record.msg in self.HEADER_FORMATS and len(args) == 2:
            if str(args[0]).lower() in self.HEADERS:
                record.args = (args[0], "[redacted]")
        elif record.msg in self.FRAME_FORMATS and len(args) == 1:
            opcode = getattr(getattr(args[0], "opcode", None), "name", None)
            data = getattr(args[0], "data", None)
            if opcode in self.DATA_FRAMES and isinstance(data, bytes | bytearray | memoryview):
                record.args = (f"{opcode} [{len(data)} bytes]",)
        return True


class ListenError(Exception):
    """The server cannot listen where it was told (the message says where and why)."""


class RoomServer(uvicorn.Server):
    """uvicorn's server, which tells the players and watchers at the tables of a clean
    stop (``table_closed``, ``server_stopping``) before it closes their connections."""

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        """Announce the stop, then uvicorn's own shutdown."""
        app = self.config.app
        try:
            if isinstance(app, Starlette):  # the room's application (create_app)
                await announce_stop(app, lambda: self.force_exit)  # a second Ctrl-C
        except Exception:  # the notice is a courtesy: the stop goes on regardless
            logging.getLogger("cardroom.server").exception("the stop was not announced")
        await super().shutdown(sockets=sockets)

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        """uvicorn's start; one the application refused ends the serving, not the
        process (uvicorn's ``sys.exit(3)`` inside its task): ``serve`` says why."""
        try:
            await super().startup(sockets=sockets)
        except SystemExit:
            self.should_exit = True


HEAD_SECONDS = 10.0
"""A request's head (a WebSocket handshake too) must arrive whole within this many seconds
of the connection, or of the last response on it: else the connection is closed."""


class HeadDeadline(H11Protocol):
    """uvicorn's HTTP protocol, but a connection whose request head does not come whole
    within :data:`HEAD_SECONDS` is closed. uvicorn times a connection out only between
    requests: a client trickling a head (a handshake that never ends) held its socket
    for good, and one address could hold every descriptor the server may open."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._head_deadline()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._head_deadline()

    head_timer: asyncio.TimerHandle | None = None

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        if self.head_timer is not None:
            self.head_timer.cancel()

    def _head_deadline(self) -> None:
        if self.head_timer is not None:
            self.head_timer.cancel()
        self.head_timer = self.loop.call_later(HEAD_SECONDS, self._head_late)

    def _head_late(self) -> None:
        waiting = self.conn.their_state is h11.IDLE  # no head read since (a late one: closed)
        if waiting and self.transport.get_protocol() is self and not self.transport.is_closing():
            self.transport.close()


class PongBackpressure(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol, but a connection whose pongs pile up unread is read no
    further until they are written. uvicorn answers each ping at once and reads on: a
    client sending pings and reading nothing grew the server's memory by some 10 MB a
    second (loopback) until the keepalive closed it 20 s later. Paused, the TCP window
    stops the client instead (and a client that reads nothing misses the keepalive)."""

    pong_paused = False

    def handle_ping(self) -> None:
        super().handle_ping()
        if not self.writable.is_set():  # the write buffer passed its high-water mark
            self.pong_paused = True
            self.transport.pause_reading()

    def resume_writing(self) -> None:
        super().resume_writing()
        if self.pong_paused:
            self.pong_paused = False
            if not self.read_paused:  # not paused for a message the application has not taken
                self.transport.resume_reading()

    # A dead line's close must not wait for it. uvicorn closes a connection that missed
    # its keepalive (or did not answer a close in time) with ``transport.close()``, which
    # waits for the unsent bytes to drain before the connection is lost and the
    # application told: bytes a dead line never takes. A player whose device stopped
    # reading, or whose line went dead, while more was queued for him than the kernel's
    # buffers held stayed connected (no ``Disconnected``, §10.6) for as long as the far
    # kernel lived, or until TCP gave up (some 15 minutes). What is still unsent then
    # is dropped (the client reconnects with ``since`` for it).

    def keepalive_timeout(self) -> None:
        super().keepalive_timeout()
        self.drop_unsent()

    # Nothing is written into a lost connection. A write that finds the peer's reset
    # loses the connection at once, but uvicorn learns it (``connection_lost``) only a
    # loop step later and meanwhile took every message it was handed: the gateway's
    # writer sends its whole queue without waiting, and asyncio logged "socket.send()
    # raised exception." for each write past the fifth (a player's backlog: hundreds).
    # A closing connection is gone for the application too: its end is reported as
    # uvicorn reports a lost one (``ClientDisconnected``, which Starlette turns into
    # ``WebSocketDisconnect``).

    async def send(self, message: Any) -> None:
        if message["type"] == "websocket.send" and self.transport.is_closing():
            raise ClientDisconnected()
        await super().send(message)
        if message["type"] == "websocket.close" and self.close_timer is not None:
            self.close_timer.cancel()  # uvicorn's would only close, and wait to drain
            self.close_timer = self.loop.call_later(self.close_timeout, self.close_now)

    def close_now(self) -> None:
        """The closing handshake's time is up: close, dropping what the peer never read."""
        self.close_timer = None
        self.transport.close()
        self.drop_unsent()

    def drop_unsent(self) -> None:
        """A closing connection whose unsent bytes would hold it open is aborted: lost now."""
        transport = self.transport
        if transport.is_closing() and transport.get_write_buffer_size() and not self.disconnected:
            transport.abort()


LOCAL_PROXIES = "127.0.0.1,::1"
"""The proxies believed when ``FORWARDED_ALLOW_IPS`` names none: this host's (uvicorn's
own default)."""


def trusted_proxies(listed: str) -> str | list[str]:
    """The proxies whose ``X-Forwarded-For`` and ``X-Forwarded-Proto`` uvicorn believes:
    ``listed`` (``FORWARDED_ALLOW_IPS``: addresses and networks, comma-separated; ``*``
    any), each IPv4 one also as the IPv4-mapped IPv6 address an IPv6 socket sees it as.
    A room on ``::`` (``--host ::``) takes IPv4 connections on its IPv6 socket, so its
    proxy at 127.0.0.1 came as ``::ffff:127.0.0.1``, which uvicorn did not trust: every
    player behind it was one address (each per-address limit, the §10.1 shared-address
    review) and https was taken for http (the browsers' logins refused as cross-site).

    >>> trusted_proxies("127.0.0.1,::1,10.0.0.0/8")
    ['127.0.0.1', '::ffff:127.0.0.1', '::1', '10.0.0.0/8', '::ffff:10.0.0.0/104']
    """
    entries = [entry.strip() for entry in listed.split(",")]
    if entries == ["*"]:
        return "*"
    trusted: list[str] = []
    for entry in entries:
        trusted.append(entry)
        try:
            network = ipaddress.ip_network(entry)  # an address is a network of one
        except ValueError:  # a name (a Unix socket's), kept as uvicorn keeps it
            continue
        if network.version == 4:
            mapped = f"::ffff:{network.network_address}"
            single = network.prefixlen == 32
            trusted.append(mapped if single else f"{mapped}/{96 + network.prefixlen}")
    return trusted


def uvicorn_config(
    app: Any, settings: ServerSettings, log_level: str = "warning", graceful_seconds: int = 5
) -> uvicorn.Config:
    """How uvicorn runs the room: for ``cardroom serve`` and for the tests' servers alike,
    so the tests meet the frame limit, the pings and the (absent) compression that
    players meet. ``graceful_seconds``: how long a stop waits for open requests."""
    # No permessage-deflate: compressing every small JSON message took about a quarter
    # of the event loop's time under load, for bytes that mostly cross a LAN or loopback.
    config = uvicorn.Config(
        app, log_level=log_level, lifespan="on", http=HeadDeadline, ws=PongBackpressure,
        ws_max_size=MAX_FRAME_BYTES,
        ws_per_message_deflate=False, ws_ping_interval=settings.ws_ping_seconds,
        ws_ping_timeout=settings.ws_ping_seconds, timeout_graceful_shutdown=graceful_seconds,
        forwarded_allow_ips=trusted_proxies(os.environ.get("FORWARDED_ALLOW_IPS", LOCAL_PROXIES)),
    )  # fmt: skip
    errors = logging.getLogger("uvicorn.error")  # after the Config: it sets up logging
    if not any(isinstance(f, ClientFaults) for f in errors.filters):
        errors.addFilter(ClientFaults())
    if not any(isinstance(f, WireSecrets) for f in errors.filters):
        errors.addFilter(WireSecrets())  # the WebSocket library logs through uvicorn's
    return config


class _RoomLog(logging.StreamHandler):  # type: ignore[type-arg]
    """The handler :func:`room_log` adds (stderr, the bare message), known by its class."""

    def emit(self, record: logging.LogRecord) -> None:
        """Write to ``sys.stderr`` as it is now, as Python's last resort does (a stream
        kept from the first serve would be a stale one where stderr is replaced)."""
        self.stream = sys.stderr
        super().emit(record)


def room_log(log_level: str) -> None:
    """Let the room's own log (``cardroom.*``: what the start recovered, a lost lease...)
    reach stderr at ``log_level`` (uvicorn's names), as uvicorn's does. Without a handler
    only its warnings came out, through Python's last resort, whatever the level said."""
    named = logging.getLevelName(log_level.upper())
    level = named if isinstance(named, int) else 5  # uvicorn's "trace": 5
    logger = logging.getLogger("cardroom")
    if level < logger.getEffectiveLevel():  # never raised: others may want more
        logger.setLevel(level)
    handler = next((h for h in logger.handlers if isinstance(h, _RoomLog)), None)
    if handler is None:
        handler = _RoomLog()  # stderr, the bare message: as the last resort wrote it
        logger.addHandler(handler)
    handler.setLevel(level)


def serve(
    settings: ServerSettings, log_level: str = "warning", on_ready: OnReady | None = None
) -> int:
    """Open (create or migrate) the database, bind, print the URL, serve until
    interrupted; returns the exit code: 0 after a clean stop, 1 when it could not start
    or stopped because it lost the database's lease (``Room.lose``). A bad database URL
    or an unreachable database raises :class:`cardroom.store.DatabaseError` before
    anything listens, and so does a start whose tables it could not store (a full disk:
    ``start_refused``); an address it cannot listen on :class:`ListenError`."""
    room_log(log_level)
    lost: list[bool] = []

    def on_lost() -> None:  # the room stopped its tables: the process stops too
        lost.append(True)
        server.should_exit = True

    app = create_app(settings, on_lost)
    storage = Storage(settings.database_url, threads=1, queue=0)
    try:
        storage.migrate()
        storage.ping()
    finally:
        storage.close()
    family = socket.AF_INET6 if ":" in settings.host else socket.AF_INET
    # IPPROTO_TCP named explicitly: asyncio sets TCP_NODELAY on accepted connections
    # only when the listening socket says so; without it every keep-alive answer
    # waited ~40 ms for a delayed ACK (Nagle).
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((settings.host, settings.port))
    except OSError as exc:  # a port in use, an address not of this host: the operator's
        sock.close()
        raise ListenError(f"cannot listen on {settings.host}:{settings.port}: {exc}") from None
    port = sock.getsockname()[1]
    server = RoomServer(uvicorn_config(app, settings, log_level))
    watch = app.state.server.start  # a start the database refused: one line, not a traceback
    logging.getLogger("uvicorn.error").addFilter(watch)
    host = f"[{settings.host}]" if ":" in settings.host else settings.host
    base = f"http://{host}:{port}"

    async def main() -> None:
        serving = asyncio.create_task(server.serve(sockets=[sock]))
        while not server.started and not serving.done():
            await asyncio.sleep(0.05)
        if server.started:  # only now does the URL answer (a browser opened at once works)
            print(f"cardroom serving on {base}/", flush=True)
        extra: asyncio.Future[None] | None = None
        if server.started and on_ready is not None:
            extra = asyncio.ensure_future(on_ready(base.replace("0.0.0.0", "127.0.0.1")))
        try:
            await serving
        finally:
            if extra is not None:
                extra.cancel()
                with contextlib.suppress(BaseException):
                    await extra

    # A stop by SIGTERM (a service manager, `kill`) is a stop like Ctrl-C: uvicorn shuts
    # down cleanly on either and then raises the signal again under the handler it
    # found, which for SIGTERM killed the process (status 143) after a clean stop.
    main_thread = threading.current_thread() is threading.main_thread()  # signals: only there
    previous = signal.signal(signal.SIGTERM, _interrupt) if main_thread else None
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
    finally:
        logging.getLogger("uvicorn.error").removeFilter(watch)
        if main_thread:
            signal.signal(signal.SIGTERM, previous)
        sock.close()
    if watch.reason is not None:
        raise DatabaseError(watch.reason)
    return 0 if server.started and not lost else 1


def _interrupt(_signum: int, _frame: Any) -> None:
    """SIGTERM as Ctrl-C: the same clean stop, the same exit status."""
    raise KeyboardInterrupt
