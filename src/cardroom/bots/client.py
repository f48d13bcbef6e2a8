"""A protocol client over a real WebSocket: plain JSON, nothing of the server imported.

Bots (and tests) log in over HTTP, connect to ``/ws`` with the bearer token,
send client messages with fresh ids and read server messages as dicts.
"""

from __future__ import annotations

import itertools
import json
import secrets
import time
import urllib.error
import urllib.request
from typing import Any

import websockets
from websockets.asyncio.client import ClientConnection

SHORT_WAIT = 5.0
"""A 429 answered with a ``Retry-After`` of at most this many seconds is waited out and
the request sent again (a room's bots all ask from one address); a longer one is the
answer."""


def http_json(
    base: str, path: str, body: dict[str, Any], timeout: float = 30, token: str | None = None
) -> tuple[int, dict[str, Any]]:
    """POST JSON to ``base + path`` (``token``: as a bearer); the status and the JSON answer."""
    headers = {"content-type": "application/json"}
    if token is not None:
        headers["authorization"] = f"Bearer {token}"
    request = urllib.request.Request(
        base.rstrip("/") + path, data=json.dumps(body).encode(), headers=headers, method="POST"
    )
    status, answer = 0, {}
    for _ in range(10):
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return response.status, json.loads(response.read() or b"{}")
        except urllib.error.HTTPError as exc:
            status, answer = exc.code, json.loads(exc.read() or b"{}")
            wait = exc.headers.get("retry-after", "")
            if status != 429 or not wait.isdigit() or int(wait) > SHORT_WAIT:
                break
            time.sleep(int(wait))
    return status, answer


def login(base: str, alias: str, password: str) -> dict[str, Any]:
    """Log in; the answer (token, player, alias). RuntimeError when refused."""
    status, answer = http_json(base, "/api/login", {"alias": alias, "password": password})
    if status != 200:
        raise RuntimeError(f"login of {alias} failed: {status} {answer}")
    return answer


def account(base: str, alias: str, password: str) -> dict[str, Any]:
    """Register ``alias`` if new, then log in; the login answer (token, player, alias).
    (Registering first: a login refused for an unknown alias counts as a failed login
    of the address, and a room's bots all log in from one.) RuntimeError when refused,
    naming the registration's refusal when there was one: an address's registrations
    are limited, and a fleet past them stalled on "login failed" for aliases it had
    never made (an account made before still logs in: the limit is asked first)."""
    body = {"alias": alias, "password": password, "age_confirmed": True}
    status, answer = http_json(base, "/api/register", body)
    try:
        return login(base, alias, password)
    except RuntimeError as refused:
        if status == 201 or answer.get("code") == "alias_taken":
            raise
        raise RuntimeError(f"registration of {alias} failed: {status} {answer}") from refused


def top_up(base: str, token: str) -> int:
    """Ask for this period's play-money top-up (``POST /api/topup``); the chips added,
    0 when refused (taken already this period, at the ceiling, or frozen)."""
    status, answer = http_json(base, "/api/topup", {}, token=token)
    return int(answer.get("added", 0)) if status == 200 else 0


def ws_url(base: str) -> str:
    """The WebSocket URL of the room at ``base``: ``ws://`` for ``http://``, ``wss://`` for
    ``https://`` (a room served over TLS, behind its proxy: it was left ``https://``, which
    the WebSocket library refuses, so no bot could play there).

    >>> ws_url("https://poker.example/"), ws_url("http://127.0.0.1:8000")
    ('wss://poker.example/ws', 'ws://127.0.0.1:8000/ws')
    """
    scheme, rest = base.split("://", 1)
    return (
        {"http": "ws", "https": "wss"}.get(scheme.lower(), scheme)
        + "://"
        + rest.rstrip("/")
        + "/ws"
    )


class ProtocolClient:
    """One WebSocket connection speaking protocol version 1."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.ids = itertools.count(1)
        self.prefix = secrets.token_hex(4)
        """Ids are unique per account across connections: the server answers an id it
        has seen (from any connection of the account) as a replay, without acting."""
        self.log: list[dict[str, Any]] | None = None
        """When a list: every message received is appended (tests)."""
        self.closed_here = False
        """True once :meth:`close` was called: the end was wanted, not a drop."""

    @classmethod
    async def connect(cls, base: str, token: str, device: str = "") -> ProtocolClient:
        """Connect to ``base``'s ``/ws`` with a bearer token; ``device``: the id of the
        device it plays from, as a browser sends it (RULEBOOK §10.9; "": none)."""
        url = ws_url(base)
        if device:
            url += f"?device={device}"
        ws = await websockets.connect(
            url, additional_headers={"Authorization": f"Bearer {token}"}, max_size=1 << 22
        )
        return cls(ws)

    async def send(self, type_: str, **fields: Any) -> str:
        """Send a message; returns its id."""
        client_id = fields.pop("id", None) or f"{self.prefix}-{next(self.ids)}"
        await self.ws.send(json.dumps({"v": 1, "type": type_, "id": client_id, **fields}))
        return client_id

    async def receive(self) -> dict[str, Any]:
        """The next server message."""
        data: dict[str, Any] = json.loads(await self.ws.recv())
        if self.log is not None:
            self.log.append(data)
        return data

    async def close(self) -> None:
        """Close the connection (a wanted end: a bot does not reconnect after it)."""
        self.closed_here = True
        await self.ws.close()

    def drop(self) -> None:
        """Cut the connection without a closing handshake, as a network failure would
        (tests of reconnection)."""
        self.ws.transport.abort()
