"""The security headers every HTTP answer carries (docs/api.md, "Security headers").

A pure ASGI middleware: it adds the fixed list below to the start of each HTTP
response (WebSocket connections pass untouched), plus

- ``Cache-Control: no-store`` on every ``/api/`` answer: each is the caller's own
  (a session token, balances, hand histories, the lobby's "your seat", the
  operator's views) or live, and none may be kept by a browser or a shared cache;
  the client's files set their own (``no-cache``, :mod:`cardroom.server.web_files`);
- ``Strict-Transport-Security`` only when the request came over TLS
  (:func:`cardroom.server.auth.over_tls`, the rule of the cookie's Secure flag),
  never on plain http.

The client (``cardroom/web``) runs under the policy as it is: no inline script or
style, no ``on*`` attribute, no ``style`` attribute in markup (positions are set
through ``el.style``, the CSSOM, which a policy does not restrict).
"""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from cardroom.server.auth import over_tls
from cardroom.server.settings import ServerSettings

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",  # the page's empty icon is a data: URL
        "font-src 'self'",
        # 'self' covers ws: and wss: of the page's own host (CSP3, "does url match
        # expression": an http page may reach ws:/wss:, an https page wss:; Chromium
        # since 71, Safari since 16). The host is not echoed from the request.
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)

PERMISSIONS_POLICY = ", ".join(
    f"{feature}=()"
    for feature in (
        "accelerometer",
        "camera",
        "display-capture",
        "geolocation",
        "gyroscope",
        "hid",
        "magnetometer",
        "microphone",
        "midi",
        "payment",
        "publickey-credentials-get",
        "screen-wake-lock",
        "serial",
        "usb",
        "xr-spatial-tracking",
    )
)

SECURITY_HEADERS: dict[str, str] = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": PERMISSIONS_POLICY,
}
"""Sent with every HTTP answer, whatever its path or status."""

PRIVATE_PREFIX = "/api/"
"""Answers under this path are never stored (``Cache-Control: no-store``)."""

HSTS = "max-age=31536000"
"""``Strict-Transport-Security`` over TLS: a year, this host only (the operator's other
hosts may still serve plain http)."""


def security_headers(conn: HTTPConnection, settings: ServerSettings) -> dict[str, str]:
    """The headers an HTTP answer to ``conn`` carries: :data:`SECURITY_HEADERS`, and, by
    path and scheme, ``Cache-Control`` and HSTS. The one list: the middleware adds it to
    every answer, the server's own 500 (``api_common.server_error``, outside it) too."""
    headers = dict(SECURITY_HEADERS)
    if str(conn.scope.get("path", "")).startswith(PRIVATE_PREFIX):
        headers["Cache-Control"] = "no-store"
    if over_tls(conn, settings):
        headers["Strict-Transport-Security"] = HSTS
    return headers


class SecurityHeaders:
    """Adds :func:`security_headers` to every HTTP response of ``app``."""

    def __init__(self, app: ASGIApp, settings: ServerSettings) -> None:
        self.app = app
        self.settings = settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        added = security_headers(HTTPConnection(scope), self.settings)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                MutableHeaders(scope=message).update(added)
            await send(message)

        await self.app(scope, receive, send_with_headers)
