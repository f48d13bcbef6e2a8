"""The host names a room answers to (``ServerSettings.allowed_hosts``, ``cardroom serve
--allowed-hosts``).

A room on the open network answers only to its own names: a request whose ``Host`` names
another is refused before any route sees it. Without the list a room answers to any name,
which lets a page of another site reach it under a name the attacker controls (DNS
rebinding) and lets the ``Host`` header choose the address of the room's own redirects
(a trailing slash's 307 ``Location``: docs/server_proxy.md). An HTTP request is answered
400 ``bad_host``; a WebSocket handshake is refused before it is accepted (uvicorn's 403).
"""

from __future__ import annotations

import ipaddress
import re

from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Receive, Scope, Send

from cardroom.server.api_common import ApiError, error_response

# A host name's labels (RFC 1123), after ``*.`` for every name under one.
_NAME = re.compile(
    r"(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?"
)


def host_pattern(text: str) -> str:
    """``text`` as an allowed host: a host name (``poker.example``), a name and every name
    under it (``*.poker.example``) or an IP address (``127.0.0.1``, ``::1``); lower case,
    no port. Raises ValueError for anything else.

    >>> host_pattern("Poker.Example"), host_pattern("*.poker.example"), host_pattern("[::1]")
    ('poker.example', '*.poker.example', '::1')
    >>> host_pattern("poker.example:443")
    Traceback (most recent call last):
    ValueError: 'poker.example:443' is no host name, *.name or IP address (no port)
    """
    name = text.strip().lower().removeprefix("[").removesuffix("]")
    try:
        return str(ipaddress.ip_address(name))
    except ValueError:
        pass
    if not _NAME.fullmatch(name.removesuffix(".")):
        raise ValueError(f"{text!r} is no host name, *.name or IP address (no port)")
    return name.removesuffix(".")


def requested_host(header: str) -> str:
    """The host a ``Host`` header names: lower case, without its port or brackets, an
    IPv6 address in its usual form, a name without a final dot.

    >>> requested_host("Poker.Example:8443"), requested_host("[::0001]:80")
    ('poker.example', '::1')
    """
    host = header.strip().lower()
    if host.startswith("["):  # an IPv6 literal: "[::1]:8000"
        host = host[1 : host.find("]")] if "]" in host else ""
    else:
        host = host.rsplit(":", 1)[0] if host.count(":") == 1 else host
    try:
        return str(ipaddress.ip_address(host))
    except ValueError:
        return host.removesuffix(".")


def host_allowed(header: str, allowed: tuple[str, ...]) -> bool:
    """Whether a request whose ``Host`` is ``header`` is for this room: any when
    ``allowed`` is empty, else a name it lists or one under a ``*.`` pattern's name.

    >>> room = ("poker.example", "*.poker.example")
    >>> [host_allowed(h, room) for h in ("poker.example:443", "eu.poker.example", "evil.example")]
    [True, True, False]
    >>> host_allowed("xpoker.example", room), host_allowed("", room), host_allowed("x", ())
    (False, False, True)
    """
    if not allowed:
        return True
    host = requested_host(header)
    return bool(host) and any(
        host == pattern or (pattern.startswith("*.") and host.endswith(pattern[1:]))
        for pattern in allowed
    )


class AllowedHosts:
    """Refuses every HTTP request and WebSocket handshake of ``app`` whose ``Host`` is not
    among ``allowed`` (none refused when it is empty)."""

    def __init__(self, app: ASGIApp, allowed: tuple[str, ...]) -> None:
        self.app = app
        self.allowed = allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or host_allowed(
            HTTPConnection(scope).headers.get("host", ""), self.allowed
        ):
            await self.app(scope, receive, send)
        elif scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
        else:
            refusal = ApiError(400, "bad_host", "this room does not answer to that host name")
            await error_response(refusal)(scope, receive, send)
