"""Accounts for the server: register, log in and out, and who a request is.

The small public interface the HTTP API (``server/api_accounts.py``) and the
WebSocket gateway build on: :class:`Accounts` (the store's players and
cashier, called through the database pool) and :func:`token_of` (the bearer
token of a request or WebSocket: an ``Authorization: Bearer`` header for bots,
else the session cookie for browsers). The cookie is HttpOnly and SameSite=Strict; a WebSocket that
authenticates by cookie must come from the server's own origin, so another
site cannot open one in the player's name.
"""

from __future__ import annotations

import ipaddress
from typing import Annotated, Final
from urllib.parse import urlsplit

import msgspec
from msgspec import Meta
from sqlalchemy.orm import Session as DbSession
from starlette.requests import HTTPConnection

from cardroom.ledger import Currency
from cardroom.server.limits import Signups
from cardroom.server.settings import ServerSettings
from cardroom.server.storage import Storage
from cardroom.store import (
    Cashier,
    Passwords,
    PlayerInfo,
    Players,
)
from cardroom.store.cashier import signup_deposit

COOKIE: Final = "cardroom_session"
TLS_COOKIE: Final = "__Host-" + COOKIE
"""The session cookie's name over TLS: a browser takes a ``__Host-`` cookie only from
the room's own host, Secure, with Path=/ and no Domain, so a page of a sibling host (or
of another port of this one) cannot set it. It could set ``cardroom_session`` for the
whole domain, and the browser would send both: session fixation by cookie tossing.
Plain http (development) cannot have the prefix (it needs Secure)."""
SIGNUP_OPERATOR: Final = "server:signup"


class RegisterBody(msgspec.Struct, forbid_unknown_fields=True):
    """``POST /api/register``: alias, password and the 18+ confirmation."""

    alias: Annotated[str, Meta(max_length=64)]
    password: Annotated[str, Meta(max_length=256)]
    age_confirmed: bool


class LoginBody(msgspec.Struct, forbid_unknown_fields=True):
    """``POST /api/login``."""

    alias: Annotated[str, Meta(max_length=64)]
    password: Annotated[str, Meta(max_length=256)]


class PasswordBody(msgspec.Struct, forbid_unknown_fields=True):
    """``POST /api/password``: the current password and the new one."""

    password: Annotated[str, Meta(max_length=256)]
    new_password: Annotated[str, Meta(max_length=256)]


class Session(msgspec.Struct):
    """A login's answer: the bearer token (also set as the session cookie) and the
    session's CSRF token (``X-CSRF-Token`` on state-changing requests made by cookie)."""

    token: str
    player: str
    alias: str
    csrf: str = ""


class Accounts:
    """Registration, login and token checks over the store, off the event loop."""

    def __init__(self, storage: Storage, settings: ServerSettings) -> None:
        self.storage = storage
        self.settings = settings
        passwords = Passwords(1, 8, 1) if settings.cheap_passwords else Passwords()
        self.players = Players(
            storage.engine, passwords=passwords, throttle=settings.limits.login_throttle()
        )
        self.cashier = Cashier(storage.engine)
        limits = settings.limits
        self.signups = Signups(
            limits.registrations_per_address,
            limits.registrations_per_address_per_hour,
            limits.registrations_burst,
            limits.registrations_per_second,
        )

    def _register(self, body: RegisterBody, ip: str) -> PlayerInfo:
        chips = self.settings.signup_play_chips

        def signup(session: DbSession, info: PlayerInfo) -> None:
            signup_deposit(session, self.players.clock, info, chips, Currency.PLAY, SIGNUP_OPERATOR)

        return self.players.register(
            body.alias,
            body.password,
            age_confirmed=body.age_confirmed,
            ip=ip,
            then=signup if chips > 0 else None,
        )

    async def register(self, body: RegisterBody, ip: str = "") -> PlayerInfo:
        """Create an account with the signup play chips, in one transaction (the account
        is never there without its chips). The hash runs in the hashing threads."""
        return await self.storage.run_hashing(self._register, body, ip)

    async def login(self, alias: str, password: str, ip: str = "") -> str:
        """A new session token (LoginRefused / LoginThrottled otherwise); the hash check
        runs in the hashing threads."""
        return await self.storage.run_hashing(self.players.login, alias, password, ip=ip)

    async def change_password(self, alias: str, current: str, new: str, ip: str = "") -> str:
        """The player's own new password (``Players.change_password``: the current one
        checked as a login, every session ended); the caller's new session token. The
        hashes run in the hashing threads."""
        return await self.storage.run_hashing(
            self.players.change_password, alias, current, new, ip=ip
        )

    async def logout(self, token: str) -> None:
        """Revoke the token."""
        await self.storage.run(self.players.logout, token)

    async def authenticate(self, token: str | None) -> PlayerInfo | None:
        """The player of a token (None: none, unknown, expired, revoked or banned)."""
        if not token or len(token) > 256:
            return None
        return await self.storage.run(self.players.authenticate, token)

    async def alias_of(self, token: str) -> PlayerInfo | None:
        """Same as :meth:`authenticate` (kept for readability at call sites)."""
        return await self.authenticate(token)


def cookie_name(conn: HTTPConnection, settings: ServerSettings) -> str:
    """The session cookie's name for ``conn``: :data:`TLS_COOKIE` over TLS (the rule of
    the cookie's Secure flag, :func:`over_tls`), else :data:`COOKIE`."""
    return TLS_COOKIE if over_tls(conn, settings) else COOKIE


def token_of(conn: HTTPConnection, settings: ServerSettings) -> tuple[str | None, bool]:
    """The request's token and whether it came from the cookie (over TLS only the
    ``__Host-`` one is read: a cookie another host tossed in is no session)."""
    header = conn.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip() or None, False
    return conn.cookies.get(cookie_name(conn, settings)), True


def client_ip(conn: HTTPConnection) -> str:
    """The caller's address as the connection reports it (a request or a WebSocket), as
    the room counts callers (:func:`caller_address`)."""
    return caller_address(conn.client.host) if conn.client else ""


IPV6_PREFIX: Final = 64
"""An IPv6 caller is counted by his /64: one end site's network (a home, a phone, a
host), where he may take any of 2**64 addresses at will."""


def caller_address(host: str) -> str:
    """The address the room counts a caller by, for every per-address limit (logins,
    registrations, requests, handshakes) and the shared-address review (§10.1: "the
    same IP/household"): an IPv4 address as it is (also one written IPv4-mapped,
    ``::ffff:1.2.3.4``), an IPv6 address as its /64 (``2001:db8:1:2::/64``; but ``::1``,
    this host), otherwise
    (not an address: a test client's name, a Unix socket) the text as given.

    >>> caller_address("2001:db8:1:2:aaaa::7"), caller_address("::ffff:10.0.0.7")
    ('2001:db8:1:2::/64', '10.0.0.7')
    """
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])  # no zone: fe80::1%eth0
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        if address.is_loopback:  # ::1, this host: not a network of callers
            return str(address)
        return str(ipaddress.IPv6Network((address, IPV6_PREFIX), strict=False))
    return str(address)


def over_tls(conn: HTTPConnection, settings: ServerSettings) -> bool:
    """Whether ``conn`` is served over TLS: it came as https (uvicorn takes the scheme
    from a proxy's X-Forwarded-Proto on 127.0.0.1) or the operator says the room is
    behind TLS (``secure_cookies``). Decides the cookie's Secure flag and HSTS."""
    return settings.secure_cookies or conn.url.scheme in ("https", "wss")


DEFAULT_PORTS: Final = {"http": 80, "https": 443}
"""The port an origin of each scheme has when it names none (RFC 6454)."""

Origin = tuple[str, str, int]
"""An origin: (scheme, host, port), the port always said."""


def origin_of(url: str) -> Origin | None:
    """The origin ``url`` is, when it is one: ``http`` or ``https``, a host, perhaps a
    port, nothing else (no user, path, query or fragment); None otherwise (``null``, a
    port that is not a number).

    >>> origin_of("https://Room.example"), origin_of("http://[::1]:8000/")
    (('https', 'room.example', 443), ('http', '::1', 8000))
    """
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    scheme, host = parts.scheme.lower(), parts.hostname
    extra = parts.username is not None or parts.query or parts.fragment
    if scheme not in DEFAULT_PORTS or not host or extra or parts.path not in ("", "/"):
        return None
    return scheme, host, DEFAULT_PORTS[scheme] if port is None else port


def same_origin(conn: HTTPConnection, settings: ServerSettings) -> bool:
    """Whether a browser request comes from this server's own pages (no Origin: not a
    browser, allowed): its ``Origin`` is the server's own, scheme, host and port. The
    server's scheme is that of :func:`over_tls` (https, also as a trusted proxy says,
    or ``secure_cookies``; a WebSocket's wss is https), its host and port the ``Host``
    the request was sent to; a port left out is the scheme's default, so
    ``https://h`` and ``https://h:443`` are one origin, ``http://h:443`` another."""
    origin = conn.headers.get("origin")
    if origin is None:
        return True
    scheme = "https" if over_tls(conn, settings) else "http"
    own = origin_of(f"{scheme}://{conn.headers.get('host', '')}")
    return own is not None and origin_of(origin) == own
