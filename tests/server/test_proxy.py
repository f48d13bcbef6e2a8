"""A room behind a reverse proxy (docs/server.md, "Behind a reverse proxy"): the
caller's address and scheme the proxy tells the room are believed from the proxy's
address, however the room listens; on SQLite and PostgreSQL."""

from __future__ import annotations

import httpx

from cardroom.server.settings import ServerSettings

from .api_client import PASSWORD, fresh_alias
from .conftest import running_server


def _login(base: str, alias: str, password: str, headers: dict[str, str]) -> httpx.Response:
    body = {"alias": alias, "password": password}
    return httpx.post(base + "/api/login", json=body, headers=headers, timeout=30)


def test_a_room_listening_on_every_ipv6_address_believes_its_proxy_at_127_0_0_1(
    settings: ServerSettings,
) -> None:
    """A room on ``::`` (``cardroom serve --host ::``) takes IPv4 connections on its IPv6
    socket, so a proxy at 127.0.0.1 connects as ``::ffff:127.0.0.1``. uvicorn trusted
    127.0.0.1 and ::1 only: the proxy's X-Forwarded-For and -Proto were dropped, every
    player behind it was 127.0.0.1 (one address for every per-address limit and for the
    §10.1/§10.9 shared-address review), and the room took TLS for plain http (no
    ``__Host-`` cookie, every browser login 403 ``csrf``: its Origin is https)."""
    with running_server(settings, host="::") as base:
        alias = fresh_alias()
        body = {"alias": alias, "password": PASSWORD, "age_confirmed": True}
        assert httpx.post(base + "/api/register", json=body, timeout=30).status_code == 201
        guesser = {"x-forwarded-for": "198.51.100.1"}
        for _ in range(5):  # the per-address lock of one alias: that address only
            assert _login(base, alias, "wrong-password", guesser).status_code == 401
        assert _login(base, alias, PASSWORD, guesser).status_code == 429
        owner = {"x-forwarded-for": "198.51.100.2"}  # another address: not locked
        assert _login(base, alias, PASSWORD, owner).status_code == 200
        tls = {"x-forwarded-proto": "https", "origin": base.replace("http:", "https:")}
        answer = _login(base, alias, PASSWORD, owner | tls)  # a browser's, over TLS
        assert answer.status_code == 200, answer.text
        cookie = answer.headers["set-cookie"]
        assert cookie.startswith("__Host-cardroom_session=") and "secure" in cookie.lower()
