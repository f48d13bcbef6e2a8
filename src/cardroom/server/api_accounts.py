"""Account routes: register, log in and out, profile, balances, the play-money top-up.

``POST /api/register`` (alias rules and look-alike refusals from the store,
18+ confirmation), ``POST /api/login`` (the store's throttle: 429 with
``Retry-After``), ``POST /api/logout``, ``POST /api/password`` (one's own new
password: every session ends), ``GET /api/me`` (profile: role,
sanctions in force, balances, disconnect all-ins left today, the CSRF token),
``GET /api/balances`` and ``POST /api/topup``: play chips up to a ceiling
(``ServerSettings.topup_ceiling``), at most once per period
(``topup_period_seconds``). The period's top-up is one ledger entry with the
idempotency key ``topup:<player>:<period>`` (:mod:`cardroom.store.topups`), so
the database itself lets at most one through, whichever process or thread asks.
"""

from __future__ import annotations

import dataclasses
import time
from datetime import UTC, datetime
from typing import Annotated, Final

import msgspec
from msgspec import Meta
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from cardroom.ledger import AliasError, Currency
from cardroom.room.clock import day_of, system_clock
from cardroom.room.settings import TableSettings
from cardroom.server.api_common import (
    ApiError,
    Caller,
    Ok,
    accounts_of,
    check_origin,
    csrf_token,
    endpoint,
    read_body,
    reply,
    require_player,
    server_of,
)
from cardroom.server.auth import (
    Accounts,
    LoginBody,
    PasswordBody,
    RegisterBody,
    Session,
    client_ip,
    cookie_name,
    over_tls,
)
from cardroom.server.house import house_bot_named
from cardroom.store import AccountError, LoginRefused, PlayerInfo, SanctionKind
from cardroom.store.allowances import AllowanceBook
from cardroom.store.topups import PlayTopUps

TOPUP_OPERATOR: Final = "server:topup"
ALLINS_PER_DAY: Final = next(
    f.default
    for f in dataclasses.fields(TableSettings)
    if f.name == "disconnect_allins_per_day" and isinstance(f.default, int)
)
"""The tables' default disconnect all-ins a day (§10.6; the count is shared by all tables)."""


class Registered(msgspec.Struct):
    """A new account (it starts with the signup play chips)."""

    player: str
    alias: str


class Balances(msgspec.Struct):
    """A player's balances in minor units: real money (cents) and play chips."""

    real: int
    play: int


class SanctionView(msgspec.Struct):
    """A sanction in force (``ends_at`` None: until lifted)."""

    id: int
    kind: str
    reason: str
    starts_at: datetime
    ends_at: datetime | None


class DisconnectAllIns(msgspec.Struct):
    """Disconnect all-ins (RULEBOOK §10.6) today (UTC day): allowed, used, left."""

    per_day: int
    used_today: int
    left_today: int


class Profile(msgspec.Struct):
    """``GET /api/me``."""

    player: str
    alias: str
    created_at: datetime
    role: str
    sanctions: list[SanctionView]
    balances: Balances
    disconnect_all_ins: DisconnectAllIns
    csrf: str
    """Send as ``X-CSRF-Token`` with state-changing requests made by cookie."""


class TopUpBody(msgspec.Struct, forbid_unknown_fields=True):
    """``POST /api/topup``: ``amount`` chips (None: up to the ceiling), never past it."""

    amount: Annotated[int, Meta(ge=1, le=2**53 - 1)] | None = None


class TopUp(msgspec.Struct):
    """What a top-up added, the balances after it, and when the next one is allowed."""

    added: int
    balances: Balances
    next_at: datetime


def _balances(accounts: Accounts, alias: str) -> Balances:
    found = accounts.cashier.balances(alias)
    return Balances(real=found[Currency.REAL], play=found[Currency.PLAY])


def _allowance(book: AllowanceBook, player: str, now: float) -> DisconnectAllIns:
    """Today's disconnect all-ins, as stored with the table steps that used or reset them."""
    used, _resets = book.of(player, day_of(now))
    return DisconnectAllIns(ALLINS_PER_DAY, used, max(0, ALLINS_PER_DAY - used))


def profile_of(accounts: Accounts, info: PlayerInfo, csrf: str = "") -> Profile:
    """A player's profile (blocking: run it in the database pool)."""
    sanctions = [
        SanctionView(s.id, s.kind.value, s.reason, s.starts_at, s.ends_at)
        for s in accounts.players.sanctions_in_force(info.alias)
    ]
    allowance = _allowance(AllowanceBook(accounts.storage.engine), info.owner, system_clock())
    return Profile(
        str(info.id),
        info.alias,
        info.created_at,
        accounts.players.role(info.id),
        sanctions,
        _balances(accounts, info.alias),
        allowance,
        csrf,
    )


def _top_up(accounts: Accounts, info: PlayerInfo, body: TopUpBody, now: float) -> TopUp:
    settings = accounts.settings
    period = settings.topup_period_seconds
    bucket = int(now // period)
    next_at = datetime.fromtimestamp((bucket + 1) * period, UTC)
    if accounts.players.sanctions(info.alias) & {SanctionKind.FREEZE, SanctionKind.BAN}:
        raise ApiError(403, "frozen", "the account is frozen: no top-up")
    added = PlayTopUps(accounts.storage.engine).top_up(
        info.alias,
        key=f"topup:{info.id}:{bucket}",
        ceiling=settings.topup_ceiling,
        amount=body.amount,
        actor=TOPUP_OPERATOR,
    )
    if added is None:
        wait = {"retry-after": str(int((bucket + 1) * period - now) + 1)}
        raise ApiError(429, "topup_too_soon", f"one top-up per period: next at {next_at}", wait)
    if added == 0:
        ceiling = settings.topup_ceiling
        raise ApiError(409, "at_ceiling", f"play balance is at the {ceiling} ceiling")
    return TopUp(added, _balances(accounts, info.alias), next_at)


@endpoint
async def register(request: Request) -> Response:
    """``POST /api/register``: 201 with the new player, 409 ``alias_taken``, 429
    ``throttled`` past the registrations allowed per address and overall (``Limits``)."""
    check_origin(request)
    body = await read_body(request, RegisterBody)
    accounts, address = accounts_of(request), client_ip(request)
    wait = accounts.signups.allow(address)
    if wait > 0:
        after = {"retry-after": str(int(wait) + 1)}
        message = f"too many registrations from {address or 'here'} or in all: try again later"
        raise ApiError(429, "throttled", message, after)
    if house_bot_named(body.alias) is not None:
        raise ApiError(400, "bad_alias", f"alias {body.alias!r} is reserved: the house's bots")
    try:
        info = await accounts.register(body, address)
    except AliasError as exc:
        raise ApiError(400, "bad_alias", str(exc)) from None
    except AccountError as exc:
        if "taken" in str(exc):
            raise ApiError(409, "alias_taken", str(exc)) from None
        code = "age_not_confirmed" if not body.age_confirmed else "refused"
        raise ApiError(400, code, str(exc)) from None
    return reply(Registered(str(info.id), info.alias), 201)


@endpoint
async def login(request: Request) -> Response:
    """``POST /api/login``: the token in the body (bots) and as the session cookie."""
    check_origin(request)
    body = await read_body(request, LoginBody)
    accounts = accounts_of(request)
    token = await accounts.login(body.alias, body.password, client_ip(request))
    return await _session_answer(request, accounts, token)


async def _session_answer(request: Request, accounts: Accounts, token: str) -> Response:
    """A new session's answer: the token and its CSRF token, and the session cookie."""
    info = await accounts.authenticate(token)
    if info is None:  # banned between the password check and now
        raise ApiError(401, "login_refused", "the account is closed")
    response = reply(Session(token, str(info.id), info.alias, csrf_token(token)))
    settings = server_of(request).settings
    response.set_cookie(
        cookie_name(request, settings),  # no Domain: this host's alone
        token,
        max_age=int(accounts.players.session_ttl.total_seconds()),
        httponly=True,
        samesite="strict",
        secure=over_tls(request, settings),
        path="/",
    )
    return response


@endpoint
async def change_password(request: Request) -> Response:
    """``POST /api/password``: the player's own new password. The current one is checked
    as a login checks it (403 ``wrong_password``; the login throttle counts the failures:
    429 ``throttled``); then every session of the account ends, its WebSockets closed at
    once, and the caller gets a new session, as a login answers it; the caller's own
    WebSockets go on under it."""
    caller = await require_player(request, write=True)
    body = await read_body(request, PasswordBody)
    accounts = accounts_of(request)
    try:
        token = await accounts.change_password(
            caller.player.alias, body.password, body.new_password, client_ip(request)
        )
    except LoginRefused:
        raise ApiError(403, "wrong_password", "the current password is not that") from None
    shared = server_of(request).shared
    if shared is not None:  # the caller's connections go on, every other one ends now
        shared.renew_session(caller.token, token)
        mine = shared.connections.get(str(caller.player.id), ())
        shared.end_sessions({c.token for c in mine if c.token != token})
    return await _session_answer(request, accounts, token)


@endpoint
async def logout(request: Request) -> Response:
    """``POST /api/logout``: revoke the session, clear the cookie (CSRF-checked)."""
    try:
        caller: Caller | None = await require_player(request, write=True)
    except ApiError as exc:
        if exc.code != "unauthorized":
            raise
        caller = None  # no session sent, or one already ended: its cookie is cleared too
    if caller is not None:
        await accounts_of(request).logout(caller.token)
        shared = request.app.state.server.shared
        if shared is not None:  # the session's sockets end with it
            shared.end_sessions({caller.token})
    else:  # another site's post carries no SameSite=Strict cookie: no clearing it either
        check_origin(request)
    response = reply(Ok())
    settings = server_of(request).settings  # a __Host- cookie is cleared with Secure only
    secure = over_tls(request, settings)
    name = cookie_name(request, settings)
    response.delete_cookie(name, path="/", secure=secure, httponly=True, samesite="strict")
    return response


@endpoint
async def me(request: Request) -> Response:
    """``GET /api/me``: the caller's profile."""
    caller = await require_player(request)
    accounts = accounts_of(request)
    profile = await accounts.storage.run(
        profile_of, accounts, caller.player, csrf_token(caller.token)
    )
    return reply(profile)


@endpoint
async def balances(request: Request) -> Response:
    """``GET /api/balances``."""
    caller = await require_player(request)
    accounts = accounts_of(request)
    return reply(await accounts.storage.run(_balances, accounts, caller.player.alias))


@endpoint
async def top_up(request: Request) -> Response:
    """``POST /api/topup``: play chips up to the ceiling, once per period."""
    caller = await require_player(request, write=True)
    body = await read_body(request, TopUpBody)
    accounts = accounts_of(request)
    return reply(await accounts.storage.run(_top_up, accounts, caller.player, body, time.time()))


def routes() -> list[Route]:
    """The account routes."""
    return [
        Route("/api/register", register, methods=["POST"]),
        Route("/api/login", login, methods=["POST"]),
        Route("/api/logout", logout, methods=["POST"]),
        Route("/api/password", change_password, methods=["POST"]),
        Route("/api/me", me, methods=["GET"]),
        Route("/api/balances", balances, methods=["GET"]),
        Route("/api/topup", top_up, methods=["POST"]),
    ]


OPERATIONS: Final = [
    ("/api/register", "post", "Register (alias rules, 18+ confirmation)", RegisterBody, Registered),
    ("/api/login", "post", "Log in: bearer token, session cookie, CSRF token", LoginBody, Session),
    ("/api/logout", "post", "Log out (revokes the session)", None, Ok),
    ("/api/password", "post", "Change one's password (ends every session)", PasswordBody, Session),
    ("/api/me", "get", "Profile: role, sanctions, balances, disconnect all-ins", None, Profile),
    ("/api/balances", "get", "Real and play balances", None, Balances),
    ("/api/topup", "post", "Play-money top-up (once per period, to a ceiling)", TopUpBody, TopUp),
]
"""The OpenAPI operations of this module: path, method, summary, body, answer."""
