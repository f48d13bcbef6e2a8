"""What every HTTP API route shares: bodies, errors, who is calling, CSRF.

Every refusal is a JSON :class:`ErrorBody` with a stable ``code`` and a
message, under the right status: 400 a malformed or refused request, 401 no
valid session, 403 not allowed (CSRF, role, sanction), 404 nothing there, 409
a conflict with the current state, 413 too large, 429 too often, 503 the
database is unreachable or busy. :func:`endpoint` maps the project's errors
(the store's :class:`~cardroom.store.StoreError`, the ledger's refusals, the
login throttle) to them, so no database error reaches a user in its own words.

CSRF: a request authenticated by the session cookie that changes something
must carry ``X-CSRF-Token``, a value derived from the session token (returned
by login and by ``GET /api/me``; another site can read neither), and, when the
browser sends an ``Origin``, come from this server. Bearer-token requests (bots)
carry no cookie and need neither.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import logging
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final, TypeVar

import msgspec
from starlette.convertors import Convertor, register_url_convertor
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response

from cardroom.ledger import BalanceOutOfRange, IdempotencyConflict, InsufficientFunds, LedgerError
from cardroom.server.auth import Accounts, client_ip, same_origin, token_of
from cardroom.server.headers import security_headers
from cardroom.server.storage import Busy
from cardroom.store import (
    AccountBanned,
    AccountError,
    DatabaseError,
    LoginRefused,
    LoginThrottled,
    PlayerInfo,
    client_words,
)
from cardroom.store.errors import LARGEST_ID

CSRF_HEADER: Final = "x-csrf-token"
MAX_BODY: Final = 8192
"""Bytes a request body may have (every body of the API is small)."""

ID_DIGITS: Final = len(str(LARGEST_ID))
"""The most digits a path's number has (19: a 64-bit id)."""
T = TypeVar("T")
Handler = Callable[[Request], Awaitable[Response]]
log = logging.getLogger("cardroom.server.api")


class ErrorBody(msgspec.Struct):
    """Every refusal: a stable ``code`` and a message for people."""

    code: str
    message: str


class BannedBody(ErrorBody):
    """A banned account's login with the right password (403 ``account_banned``): the
    ban's end (ISO 8601 UTC; null: until an operator lifts it), for the client to say in
    the player's own time, and the operator's reason."""

    until: datetime | None
    reason: str


class Ok(msgspec.Struct):
    """A request done with nothing more to say."""

    ok: bool = True


class ApiError(Exception):
    """A refusal with its HTTP status and stable code."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        headers: dict[str, str] | None = None,
        body: ErrorBody | None = None,
    ) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
        self.headers = headers or {}
        self.body = body  # a refusal with more to say than its code and message


def reply(model: Any, status: int = 200) -> Response:
    """A msgspec model (or plain data) as a JSON response."""
    return Response(msgspec.json.encode(model), status, media_type="application/json")


def error_response(error: ApiError) -> Response:
    """The JSON body of a refusal."""
    response = reply(error.body or ErrorBody(error.code, error.message), error.status)
    response.headers.update(error.headers)
    return response


def as_api_error(exc: Exception) -> ApiError:
    """The refusal a project error stands for (500 ``internal`` for anything unforeseen)."""
    if isinstance(exc, ApiError):
        return exc
    if isinstance(exc, ClientDisconnect):  # the client's doing, not a fault: not logged
        return ApiError(400, "bad_request", "the client went away before its body was read")
    if isinstance(exc, msgspec.ValidationError):  # a DecodeError too: test it first
        return ApiError(400, "bad_request", str(exc))
    if isinstance(exc, msgspec.DecodeError):
        return ApiError(400, "bad_json", f"the body is not JSON: {exc}")
    if isinstance(exc, LoginThrottled):
        wait = str(int(exc.wait.total_seconds()) + 1)
        return ApiError(429, "throttled", str(exc), {"retry-after": wait})
    if isinstance(exc, AccountBanned):  # the password was right: its owner is told
        ban = exc.ban
        body = BannedBody("account_banned", str(exc), ban.until, ban.reason)
        return ApiError(403, "account_banned", str(exc), body=body)
    if isinstance(exc, LoginRefused):
        return ApiError(401, "login_refused", str(exc))
    if isinstance(exc, InsufficientFunds):
        return ApiError(409, "insufficient_funds", str(exc))
    if isinstance(exc, BalanceOutOfRange):
        return ApiError(409, "out_of_range", str(exc))
    if isinstance(exc, IdempotencyConflict):
        return ApiError(409, "conflict", str(exc))
    if isinstance(exc, AccountError) and str(exc).startswith("no player with alias"):
        return ApiError(404, "no_such_player", str(exc))
    if isinstance(exc, AccountError) and str(exc).startswith("no active sanction"):
        return ApiError(404, "no_such_sanction", str(exc))
    if isinstance(exc, LedgerError):  # an account refusal (AccountError) included
        return ApiError(400, "refused", str(exc))
    if isinstance(exc, Busy):
        return ApiError(503, "busy", str(exc), {"retry-after": "1"})
    if isinstance(exc, DatabaseError):  # in the project's words, the driver's left out
        log.warning("the database failed an API request: %s", exc)
        return ApiError(503, "unavailable", client_words(exc), {"retry-after": "5"})
    log.exception("unexpected error in the HTTP API", exc_info=exc)
    return internal()


def internal() -> ApiError:
    """500 ``internal``: an unforeseen error, logged, told in no detail (no traceback,
    no exception's words: they name files, tables and hosts)."""
    return ApiError(500, "internal", "the server failed; the error is logged")


_HTTP_CODES: Final = {404: "not_found", 405: "method_not_allowed"}


async def http_error(_request: Request, exc: Exception) -> Response:
    """Starlette's own refusals (no such route, wrong method) in the API's JSON shape."""
    status = exc.status_code if isinstance(exc, HTTPException) else 500
    code = _HTTP_CODES.get(status, "bad_request" if status < 500 else "internal")
    detail = exc.detail if isinstance(exc, HTTPException) else "the server failed"
    headers = dict(exc.headers or {}) if isinstance(exc, HTTPException) else {}
    return error_response(ApiError(status, code, str(detail), headers))


async def server_error(request: Request, _exc: Exception) -> Response:
    """An error that escaped a route (one not wrapped by :func:`endpoint`: the OpenAPI
    document, the static files): 500 ``internal`` in the API's JSON. Starlette answers it
    outside every middleware, so the security headers are added here, from the one list
    (:func:`~cardroom.server.headers.security_headers`); Starlette then raises the error
    again, and uvicorn logs it with its traceback."""
    response = error_response(internal())
    response.headers.update(security_headers(request, server_of(request).settings))
    return response


EXCEPTION_HANDLERS: Final = {HTTPException: http_error, Exception: server_error}
"""For ``Starlette(exception_handlers=...)``: every refusal of the app in JSON (an
``Exception`` handler is Starlette's outermost 500, :func:`server_error`)."""


class WholeNumber(Convertor[int]):
    """A path's number (``{hand_no:whole}``, ``{id:whole}``): 1 to 19 digits. Starlette's
    ``int`` took any number of them, and ``int()`` of more than 4,300 raises in the
    routing, before any route's error handling: a 500 and a logged traceback for anyone's
    request. A longer number now matches no route (404 ``not_found``)."""

    regex = f"[0-9]{{1,{ID_DIGITS}}}"

    def convert(self, value: str) -> int:
        """The number."""
        return int(value)

    def to_string(self, value: int) -> str:
        """The path's text of ``value``."""
        return str(value)


register_url_convertor("whole", WholeNumber())  # before any route names it


def throttle(request: Request) -> None:
    """429 ``throttled`` when the caller's address has sent more API requests than its
    bucket allows (``Limits.api_per_address_rate`` and ``_burst``); counts this one."""
    bucket = server_of(request).api_requests.bucket(client_ip(request))
    if not bucket.take():
        after = {"retry-after": str(int(bucket.wait()) + 1)}
        raise ApiError(429, "throttled", "too many requests from this address: slow down", after)


def endpoint(handler: Handler) -> Handler:
    """Wrap a route: any error becomes a JSON refusal (see :func:`as_api_error`)."""

    @functools.wraps(handler)
    async def guarded(request: Request) -> Response:
        try:
            throttle(request)
            return await handler(request)
        except Exception as exc:  # every error is answered in JSON with a code
            return error_response(as_api_error(exc))

    return guarded


async def read_body(request: Request, body_type: type[T]) -> T:
    """The request's JSON body as ``body_type`` (400 ``bad_json`` / ``bad_request``)."""
    too_large = ApiError(413, "too_large", f"a request body is at most {MAX_BODY} bytes")
    declared = request.headers.get("content-length", "")
    if declared.isascii() and declared.isdigit() and int(declared) > MAX_BODY:
        raise too_large
    raw = bytearray()
    async for chunk in request.stream():  # never more than MAX_BODY held in memory
        raw += chunk
        if len(raw) > MAX_BODY:
            raise too_large
    return msgspec.json.decode(bytes(raw), type=body_type)


def server_of(request: Request) -> Any:
    """The server state behind a request (``cardroom.server.app.ServerState``)."""
    return request.app.state.server


def accounts_of(request: Request) -> Accounts:
    """The accounts service (503 while the server is starting)."""
    accounts: Accounts | None = server_of(request).accounts
    if accounts is None:
        raise ApiError(503, "starting", "the server is starting: try again")
    return accounts


def csrf_token(session_token: str) -> str:
    """The CSRF token of a session: derived from its secret, so only its holder knows it."""
    return hashlib.sha256(b"cardroom-csrf:" + session_token.encode()).hexdigest()[:32]


def check_origin(request: Request) -> None:
    """403 ``csrf`` when a browser says the request comes from another site."""
    if not same_origin(request, server_of(request).settings):
        raise ApiError(403, "csrf", "cross-site request refused")


@dataclass(frozen=True, slots=True)
class Caller:
    """Who made a request: the player, its session token, and whether by cookie."""

    player: PlayerInfo
    token: str
    by_cookie: bool


async def require_player(request: Request, *, write: bool = False) -> Caller:
    """The caller (401 ``unauthorized`` without a valid session); for a ``write`` by
    cookie, the CSRF checks too (403 ``csrf``)."""
    token, by_cookie = token_of(request, server_of(request).settings)
    info = await accounts_of(request).authenticate(token)
    if info is None or token is None:
        raise ApiError(401, "unauthorized", "log in first (session cookie or bearer token)")
    if write and by_cookie:
        check_origin(request)
        sent = request.headers.get(CSRF_HEADER, "")
        if not hmac.compare_digest(sent.encode(), csrf_token(token).encode()):
            raise ApiError(403, "csrf", f"a cookie session must send the {CSRF_HEADER} header")
    return Caller(info, token, by_cookie)


async def require_operator(request: Request, *, write: bool = False) -> Caller:
    """The caller, who must hold the operator role (403 ``forbidden`` otherwise)."""
    caller = await require_player(request, write=write)
    accounts = accounts_of(request)
    role = await accounts.storage.run(accounts.players.role, caller.player.id)
    if role != "operator":
        raise ApiError(403, "forbidden", "the operator area is for operators only")
    return caller


def whole(low: int, high: int) -> dict[str, Any]:
    """The JSON Schema of a parameter's whole number from ``low`` to ``high`` (the bounds
    :func:`int_param` keeps), for ``/openapi.json``."""
    return {"type": "integer", "minimum": low, "maximum": high}


def one_of(values: Iterable[str]) -> dict[str, Any]:
    """The JSON Schema of a query's word, one of ``values``, for ``/openapi.json``."""
    return {"type": "string", "enum": list(values)}


def int_param(request: Request, name: str, default: int, low: int, high: int) -> int:
    """An integer query parameter within bounds (400 ``bad_request`` otherwise)."""
    raw = request.query_params.get(name)
    if raw is None:
        return default
    # No more digits than ``high`` has, before int() reads them (4,301 digits: it raises).
    digits = raw.isascii() and raw.isdigit() and len(raw) <= len(str(high))
    if not digits or not low <= int(raw) <= high:
        raise ApiError(400, "bad_request", f"{name}: an integer from {low} to {high}")
    return int(raw)
