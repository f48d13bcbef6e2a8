"""Every HTTP answer carries the security headers (docs/api.md, "Security headers"): the
client's strict Content-Security-Policy, no framing, no MIME sniffing, no referrer to
other sites, its own browsing context group; the API's answers are never stored; HSTS
only over TLS. And a WebSocket by cookie is refused from any origin but the room's."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import websockets
from starlette.applications import Starlette
from starlette.requests import HTTPConnection, Request
from starlette.responses import Response
from starlette.routing import Route

from cardroom.server import openapi
from cardroom.server.auth import same_origin
from cardroom.server.headers import HSTS, SECURITY_HEADERS
from cardroom.server.settings import Limits, ServerSettings

from .api_client import Api, login, make_operator, register, start_api
from .conftest import running_server

EXPECTED = {
    "content-security-policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
        "form-action 'self'; frame-ancestors 'none'"
    ),
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-resource-policy": "same-origin",
}


@pytest.fixture(scope="module")
def api(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
    tmp: Path = tmp_path_factory.mktemp("headers")
    yield from start_api(request, tmp, "sqlite")


def _assert_guarded(answer: httpx.Response) -> None:
    where = f"{answer.request.method} {answer.request.url.path} ({answer.status_code})"
    for name, value in EXPECTED.items():
        assert answer.headers.get(name) == value, f"{where}: {name}"
    permissions = answer.headers.get("permissions-policy", "")
    for feature in ("camera=()", "microphone=()", "geolocation=()", "payment=()", "usb=()"):
        assert feature in permissions, f"{where}: Permissions-Policy lacks {feature}"
    assert "strict-transport-security" not in answer.headers, f"{where}: HSTS over http"


async def first_answer(url: str, headers: dict[str, str]) -> str:
    """The first message a WebSocket handshake with ``headers`` gets: its type, or the
    error's code."""
    async with websockets.connect(url, additional_headers=headers) as ws:
        message = json.loads(await ws.recv())
        return str(message.get("code", message["type"]))


def test_every_kind_of_answer_carries_the_security_headers(api: Api) -> None:
    alias = register(api)
    client, session = login(api, alias)
    answers = [
        httpx.get(api.base + "/"),
        httpx.get(api.base + "/index.html"),
        httpx.get(api.base + "/js/app.js"),
        httpx.get(api.base + "/css/style.css"),
        httpx.get(api.base + "/no-such-file.js"),  # the static files' 404
        httpx.get(api.base + "/healthz"),
        httpx.get(api.base + "/openapi.json"),
        httpx.get(api.base + "/schema/ws.json"),
        httpx.get(api.base + "/api/tables"),
        httpx.get(api.base + "/api/me"),  # 401
        httpx.get(api.base + "/api/no-such-route"),  # the API's 404
        httpx.get(api.base + "/api/login"),  # 405
        client.get("/api/me"),
        client.get("/api/hands", params={"limit": "many"}),  # 400
        client.post("/api/topup", json={}),  # 403 csrf: no token header
        client.post("/api/topup", json={}, headers={"x-csrf-token": session["csrf"]}),
    ]
    statuses = {a.status_code for a in answers}
    assert {200, 400, 401, 403, 404, 405} <= statuses, statuses
    for answer in answers:
        _assert_guarded(answer)


def test_a_throttled_answer_carries_the_security_headers(tmp_path: Path) -> None:
    limits = Limits(api_per_address_burst=1, api_per_address_rate=0.01)
    settings = ServerSettings(database_url=f"sqlite:///{tmp_path / 'db'}", limits=limits)
    with running_server(settings, signup_limits=True) as base, httpx.Client() as http:
        answers = [http.get(f"{base}/api/tables") for _ in range(2)]
    assert answers[-1].status_code == 429
    _assert_guarded(answers[-1])
    assert answers[-1].headers["cache-control"] == "no-store"


def test_an_error_that_escapes_a_route_is_a_500_internal_with_the_security_headers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Starlette answers an error no route caught itself (its ServerErrorMiddleware, the
    outermost, outside the headers' middleware): it went as a bare text/plain 500
    without a single security header, nor no-store on /api/. Now the API's 500
    ``internal``, from the one list, and no word of the error."""
    secret = "db.internal:5432 password=hunter2"

    def broken() -> dict[str, object]:
        raise RuntimeError(secret)

    async def crash(_request: Request) -> Response:  # a test-only API route, unwrapped
        raise RuntimeError(secret)

    monkeypatch.setattr(openapi, "document", broken)
    apps: list[Starlette] = []
    settings = ServerSettings(database_url=f"sqlite:///{tmp_path / 'db'}")
    with running_server(settings, apps) as base:
        apps[0].router.routes.insert(0, Route("/api/test-crash", crash))
        outside_api = httpx.get(base + "/openapi.json")
        inside_api = httpx.get(base + "/api/test-crash")
        over_tls = httpx.get(base + "/api/test-crash", headers={"x-forwarded-proto": "https"})
    _assert_guarded(outside_api)
    _assert_guarded(inside_api)
    for answer in (outside_api, inside_api, over_tls):
        assert answer.status_code == 500, answer.text
        assert answer.headers["content-type"] == "application/json"
        assert answer.json() == {
            "code": "internal",
            "message": "the server failed; the error is logged",
        }
        assert secret not in answer.text and "Traceback" not in answer.text
    assert "no-store" not in outside_api.headers.get("cache-control", "")
    assert inside_api.headers["cache-control"] == "no-store"
    assert over_tls.headers["strict-transport-security"] == HSTS
    assert over_tls.headers["content-security-policy"] == EXPECTED["content-security-policy"]


def test_private_api_answers_are_never_stored_and_static_files_keep_their_caching(
    api: Api,
) -> None:
    alias = register(api)
    operator = register(api)
    make_operator(api, operator)
    client, session = login(api, alias)
    boss, _ = login(api, operator)
    password = {"alias": alias, "password": "password1"}
    private = [
        httpx.post(api.base + "/api/login", json=password),  # the session token
        httpx.post(
            api.base + "/api/register",
            json={"alias": f"n{alias}"[:16], "password": "password1", "age_confirmed": True},
        ),
        client.get("/api/me"),
        client.get("/api/balances"),
        client.get("/api/hands"),
        client.get("/api/hands/holdem/1"),  # 404: none played
        client.get("/api/tables"),  # says which seat is the caller's
        boss.get("/api/operator/integrity"),
        boss.get(f"/api/operator/players/{alias}"),
        client.get("/api/operator/integrity"),  # 403
        client.post("/api/logout", headers={"x-csrf-token": session["csrf"]}),
    ]
    for answer in private:
        path = answer.request.url.path
        assert answer.headers.get("cache-control") == "no-store", f"{path} ({answer.status_code})"
    for path in ("/js/app.js", "/css/style.css"):
        answer = httpx.get(api.base + path)
        assert answer.status_code == 200 and "etag" in answer.headers
        assert "no-store" not in answer.headers.get("cache-control", ""), path


def test_hsts_only_when_served_over_https(api: Api) -> None:
    plain = httpx.get(api.base + "/")
    assert "strict-transport-security" not in plain.headers
    # uvicorn trusts X-Forwarded-Proto from 127.0.0.1 (a TLS-terminating proxy there),
    # as the cookie's Secure flag does (test_the_cookie_is_secure_when_served_over_https).
    over_tls = httpx.get(api.base + "/", headers={"x-forwarded-proto": "https"})
    assert over_tls.headers["strict-transport-security"] == "max-age=31536000"
    _assert_guarded(plain)


def test_a_cookie_websocket_is_refused_from_every_origin_but_the_room_s(api: Api) -> None:
    """Cross-site WebSocket hijacking: the session cookie goes with a handshake whatever
    page opens it (SameSite ignores the port), so the Origin decides. A handshake without
    an Origin is not a browser's (every browser sends one) and holds the token itself."""
    _, session = login(api, register(api))
    cookie = {"Cookie": f"cardroom_session={session['token']}"}
    host = api.base.removeprefix("http://")
    port = host.rsplit(":", 1)[1]
    url = api.base.replace("http://", "ws://") + "/ws"

    async def go() -> dict[str, str]:
        origins = {
            "foreign": "https://evil.example",
            "null": "null",  # a sandboxed frame, a data: page
            "other port": "http://127.0.0.1:1",
            "look-alike": f"http://{host}.evil.example",
            "sub-host": f"http://evil.example.127.0.0.1:{port}",
            "own": f"http://{host}",
        }
        seen = {k: await first_answer(url, {**cookie, "Origin": v}) for k, v in origins.items()}
        seen["none"] = await first_answer(url, cookie)
        return seen

    seen = asyncio.run(go())
    assert seen == {
        "foreign": "unauthorized",
        "null": "unauthorized",
        "other port": "unauthorized",
        "look-alike": "unauthorized",
        "sub-host": "unauthorized",
        "own": "hello",
        "none": "hello",
    }


def test_an_origin_of_the_other_scheme_is_not_the_room_s(api: Api) -> None:
    """Same origin is scheme, host and port (RFC 6454): a page of http://host:port is not
    the room served over TLS at host:port (nor the other way), though it has the same
    host and port, which was all the check compared. The room's scheme is that of the
    cookie's Secure flag (https as a trusted proxy says, here on 127.0.0.1); a port left
    out is the scheme's default. Login, a cookie write and a cookie WebSocket alike."""
    alias = register(api)
    host = api.base.removeprefix("http://")
    body = {"alias": alias, "password": "password1"}
    tls = {"x-forwarded-proto": "https"}

    def login_from(origin: str, **headers: str) -> int:
        sent = {"origin": origin, **headers}
        return httpx.post(api.base + "/api/login", json=body, headers=sent).status_code

    assert login_from(f"http://{host}") == 200
    assert login_from(f"https://{host}") == 403  # an https page, the room on plain http
    assert login_from(f"https://{host}", **tls) == 200
    assert login_from(f"http://{host}", **tls) == 403  # an http page, the room over TLS
    named = {**tls, "host": "room.example"}
    assert login_from("https://room.example", **named) == 200
    assert login_from("https://room.example:443", **named) == 200  # the default port said
    assert login_from("http://room.example", **named) == 403
    assert login_from("http://room.example:443", **named) == 403
    assert login_from("https://room.example:8443", **named) == 403

    client, session = login(api, alias)
    csrf = {"x-csrf-token": session["csrf"], "origin": f"https://{host}"}
    topup = client.post("/api/topup", json={"amount": 1}, headers=csrf)
    assert topup.status_code == 403 and topup.json()["code"] == "csrf"

    cookie = {"Cookie": f"cardroom_session={session['token']}"}
    # Over TLS the browser holds the cookie a login over TLS set: __Host-cardroom_session.
    tls_cookie = {"Cookie": f"__Host-cardroom_session={session['token']}"}
    url = api.base.replace("http://", "ws://") + "/ws"

    async def go() -> dict[str, str]:
        cases = {
            "https page, ws room": {"Origin": f"https://{host}", **cookie},
            "http page, wss room": {"Origin": f"http://{host}", **tls, **tls_cookie},
            "https page, wss room": {"Origin": f"https://{host}", **tls, **tls_cookie},
        }
        return {k: await first_answer(url, v) for k, v in cases.items()}

    assert asyncio.run(go()) == {
        "https page, ws room": "unauthorized",
        "http page, wss room": "unauthorized",
        "https page, wss room": "hello",
    }


@pytest.mark.parametrize(
    ("scheme", "host", "origin", "same"),
    [
        ("http", "[::1]:8000", "http://[::1]:8000", True),
        ("http", "[::1]:8000", "https://[::1]:8000", False),
        ("http", "Room.Example", "http://room.example:80", True),
        ("ws", "h:8000", "http://h:8000", True),  # a WebSocket's page is http(s)
        ("wss", "h", "https://h:443", True),
        ("wss", "h", "http://h:443", False),
        ("http", "h:8000", "http://h:8000/x", False),  # not an origin
        ("http", "h:8000", "http://u@h:8000", False),
        ("http", "h:8000", "null", False),
        ("http", "", "http://h", False),  # no Host: nothing is ours
    ],
)
def test_same_origin_is_scheme_host_and_port(
    scheme: str, host: str, origin: str, same: bool
) -> None:
    scope = {"type": "http", "scheme": scheme, "path": "/", "query_string": b"",
             "headers": [(b"host", host.encode()), (b"origin", origin.encode())]}  # fmt: skip
    assert same_origin(HTTPConnection(scope), ServerSettings()) is same


def test_the_operator_s_word_that_the_room_is_behind_tls_makes_its_origin_https() -> None:
    def scope(origin: str) -> HTTPConnection:
        headers = [(b"host", b"room.example"), (b"origin", origin.encode())]
        return HTTPConnection({"type": "http", "scheme": "http", "path": "/", "headers": headers})

    behind_tls = ServerSettings(secure_cookies=True)
    assert same_origin(scope("https://room.example"), behind_tls)
    assert not same_origin(scope("http://room.example"), behind_tls)


def test_the_header_list_is_the_documented_one() -> None:
    """docs/api.md lists each header with its value (the Permissions-Policy's features
    shortened there): an operator reads what the room sends."""
    api = (Path(__file__).parents[2] / "docs" / "api.md").read_text()
    sent = {k.lower(): v for k, v in SECURITY_HEADERS.items() if k != "Permissions-Policy"}
    assert sent == EXPECTED
    for name, value in SECURITY_HEADERS.items():
        assert f"| `{name}` |" in api, name
        if name != "Permissions-Policy":
            assert f"| `{value}` |" in api, name
    assert f"`Strict-Transport-Security: {HSTS}`" in api
