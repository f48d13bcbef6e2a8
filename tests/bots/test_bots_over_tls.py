"""The bots' client against a room served over TLS (an https URL, as a room behind a
TLS-terminating proxy is: docs/server_proxy.md)."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import ssl
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from cardroom.bots.client import ProtocolClient, account


def _certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 (Debian's openssl)."""
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("no openssl to make a certificate")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-keyout", str(key), "-out", str(cert), "-subj", "/CN=127.0.0.1",
         "-addext", "subjectAltName=IP:127.0.0.1"],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    return cert, key


@contextlib.asynccontextmanager
async def _tls_in_front(base: str, cert: Path, key: Path) -> AsyncIterator[str]:
    """A TLS terminator before the room at ``base`` (bytes passed as they come, as a
    proxy tunnels a WebSocket); yields its https URL."""
    port = int(base.rsplit(":", 1)[1])
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)

    async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(1 << 16):
                writer.write(data)
                await writer.drain()
        finally:
            writer.close()

    async def tunnel(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        room_reader, room_writer = await asyncio.open_connection("127.0.0.1", port)
        await asyncio.gather(
            pipe(reader, room_writer), pipe(room_reader, writer), return_exceptions=True
        )

    server = await asyncio.start_server(tunnel, "127.0.0.1", 0, ssl=context)
    async with server:
        yield f"https://127.0.0.1:{server.sockets[0].getsockname()[1]}"


def test_a_bot_logs_in_and_connects_to_a_room_served_over_tls(
    server: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The client made the WebSocket's URL by writing ``ws://`` for ``http://``: an https
    room's became ``https://.../ws``, which the WebSocket library refuses (InvalidURI), so
    no bot could play at a room served over TLS. ``https://`` is ``wss://`` now."""
    cert, key = _certificate(tmp_path)
    monkeypatch.setenv("SSL_CERT_FILE", str(cert))  # trusted by urllib and websockets

    async def session() -> str:
        async with _tls_in_front(server, cert, key) as https:
            answer = await asyncio.to_thread(account, https, "tlsbot", "a-password-1")
            client = await ProtocolClient.connect(https, answer["token"])
            try:
                hello = await asyncio.wait_for(client.receive(), 10)
            finally:
                await client.close()
            return str(hello["type"])

    assert asyncio.run(asyncio.wait_for(session(), 60)) == "hello"
