"""A room answers only to its own host names (``--allowed-hosts``, ``server/hosts.py``):
another ``Host`` is refused before any route, an HTTP request 400 ``bad_host``, a
WebSocket handshake before it is accepted."""

from __future__ import annotations

import dataclasses
import socket
from pathlib import Path

import httpx
import pytest

from cardroom.cli import main
from cardroom.server.settings import ServerSettings

from .conftest import running_server


def _handshake_status(base: str, host: str) -> str:
    """The status line a WebSocket handshake to ``/ws`` naming ``host`` is answered."""
    address, port = base.removeprefix("http://").split(":")
    with socket.create_connection((address, int(port)), timeout=10) as sock:
        sock.sendall(
            (
                f"GET /ws HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
                "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        return sock.recv(4096).decode("latin-1").split("\r\n", 1)[0]


@pytest.fixture
def sqlite_settings(tmp_path: Path, tables_file: Path) -> ServerSettings:
    return ServerSettings(
        database_url=f"sqlite:///{tmp_path / 'server.db'}",
        tables_file=tables_file,
        cheap_passwords=True,
        tick_seconds=0.05,
    )


def test_a_room_with_allowed_hosts_refuses_every_other_host_name(
    sqlite_settings: ServerSettings,
) -> None:
    """Without the list the room answered any ``Host``: a page of another site reached
    it under a name of its own (DNS rebinding), and the trailing slash's 307 took its
    ``Location`` from the header (``Host: evil.example`` sent the browser there)."""
    allowed = ("127.0.0.1", "poker.example", "*.poker.example")
    settings = dataclasses.replace(sqlite_settings, allowed_hosts=allowed)
    with running_server(settings) as base:
        port = base.rsplit(":", 1)[1]
        for host in (f"127.0.0.1:{port}", "poker.example", "POKER.example:443", "eu.poker.example"):
            answer = httpx.get(base + "/api/tables", headers={"host": host}, timeout=30)
            assert answer.status_code == 200, (host, answer.text)
        for host in ("evil.example", f"localhost:{port}", "xpoker.example", "poker.example.evil"):
            answer = httpx.get(base + "/api/tables", headers={"host": host}, timeout=30)
            assert answer.status_code == 400, host
            assert answer.json()["code"] == "bad_host"
            assert answer.headers["x-frame-options"] == "DENY"  # the headers still come
        redirect = httpx.get(base + "/api/me/", headers={"host": "evil.example"}, timeout=30)
        assert redirect.status_code == 400 and "location" not in redirect.headers
        assert _handshake_status(base, f"127.0.0.1:{port}").startswith("HTTP/1.1 101")
        assert _handshake_status(base, "evil.example").startswith("HTTP/1.1 403")
    with running_server(sqlite_settings) as base:  # no list: any name, as before
        answer = httpx.get(base + "/api/tables", headers={"host": "evil.example"}, timeout=30)
        assert answer.status_code == 200


@pytest.mark.parametrize("names", ["poker.example:443", "*poker.example", "a..b", "x,", "a b"])
def test_serve_refuses_an_allowed_host_that_is_no_host_name(
    names: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["serve", "--port", "0", "--allowed-hosts", names])
    assert exited.value.code == 2
    assert "--allowed-hosts" in capsys.readouterr().err
