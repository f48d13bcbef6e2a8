"""A slow line between a page and the server: a TCP proxy on 127.0.0.1 that delivers
every byte ``delay`` seconds after it came, each way, in order (a congested mobile
line, a satellite link). Chromium's own network emulation leaves open WebSockets alone;
this delays them as a real line does."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from urllib.parse import urlsplit


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, delay: float) -> None:
    queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

    async def take() -> None:
        while data := await reader.read(65536):
            await queue.put((time.monotonic() + delay, data))
        await queue.put((time.monotonic() + delay, b""))

    async def give() -> None:
        while True:
            due, data = await queue.get()
            await asyncio.sleep(max(0.0, due - time.monotonic()))
            if not data:
                break
            writer.write(data)
            await writer.drain()
        writer.close()

    with contextlib.suppress(OSError, asyncio.CancelledError):
        await asyncio.gather(take(), give())


@contextlib.contextmanager
def slow_line(base: str, delay: float) -> Iterator[str]:
    """The server at ``base`` behind a line of ``delay`` seconds each way: its base URL."""
    target = urlsplit(base)
    loop = asyncio.new_event_loop()
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))

    async def connect(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection(target.hostname, target.port)
        except OSError:
            writer.close()
            return
        await asyncio.gather(_pipe(reader, up_writer, delay), _pipe(up_reader, writer, delay))

    started = threading.Event()
    stop: list[asyncio.Event] = []

    async def serve() -> None:
        # Its own loop in its own thread: Playwright's runs in the test's.
        stop.append(asyncio.Event())
        async with await asyncio.start_server(connect, sock=sock):
            started.set()
            await stop[0].wait()
        # The connections still open end with it (none left pending in a closed loop).
        lines = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for task in lines:
            task.cancel()
        await asyncio.gather(*lines, return_exceptions=True)

    thread = threading.Thread(target=lambda: loop.run_until_complete(serve()), daemon=True)
    thread.start()
    started.wait(10)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        loop.call_soon_threadsafe(stop[0].set)
        thread.join(5)
        loop.close()
