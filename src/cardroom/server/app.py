"""The ASGI application: ``create_app(settings)`` (Starlette, served by uvicorn).

One process serves the HTTP API, the WebSocket protocol and the static client.
On start it opens the database (migrating it), recovers the tables that were
open (:mod:`cardroom.server.recovery`) and starts one actor per table; on stop
it stops the actors and closes the database.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Match, Mount, Route, WebSocketRoute
from starlette.types import Scope

from cardroom.server import (
    api_accounts,
    api_common,
    api_history,
    api_lobby,
    api_operator,
    api_sanctions,
    auth,
    gateway,
    openapi,
    protocol,
)
from cardroom.server.gateway import websocket_endpoint
from cardroom.server.headers import SecurityHeaders
from cardroom.server.hosts import AllowedHosts
from cardroom.server.limits import AccountBuckets
from cardroom.server.room import Room
from cardroom.server.sanctions import SanctionWatch
from cardroom.server.settings import ServerSettings
from cardroom.server.start_refused import StartWatch
from cardroom.server.storage import Storage
from cardroom.server.tables_file import load_tables
from cardroom.server.web_files import ClientFiles, client_release


class ServerState:
    """What the routes share: the settings, the database, the room (set at start-up)."""

    def __init__(self, settings: ServerSettings) -> None:
        self.settings = settings
        self.storage: Storage | None = None
        self.room: Room | None = None
        self.accounts: auth.Accounts | None = None
        self.shared = gateway.Shared(settings.limits)
        rate, burst = settings.limits.api_per_address_rate, settings.limits.api_per_address_burst
        self.api_requests = AccountBuckets(rate, burst)
        """HTTP API requests per client address (:func:`api_common.throttle`)."""
        self.refused_handshakes = AccountBuckets(rate, burst)
        """WebSocket handshakes refused per client address (``gateway``): each cost a
        session lookup; a good token never counts (a room's bots share one address)."""
        self.sanctions: SanctionWatch | None = None
        self.release = client_release(settings.web_dir)
        """The client's release, told in each ``hello`` (``web_files.client_release``)."""
        self.start = StartWatch()
        """Why the start failed, when the database refused it (``start_refused``)."""
        self.table_changes = asyncio.Lock()
        """Held while the operator API opens or closes a table: its check that the table
        is (not) open and the change are one step (racing opens of one id each started
        an actor, the last one replacing the others, which ran on unseen)."""


STOP_NOTICE_SECONDS = 2.0
"""How long a clean stop waits at most for its ``server_stopping`` notices to be sent."""


async def announce_stop(app: Starlette, given_up: Callable[[], bool] = lambda: False) -> None:
    """A clean stop is coming, the connections still open: the hands in progress may
    finish first (``drain_seconds``, no new hand dealt; ``given_up()``: stop waiting),
    then everyone at a table is told (``table_closed``, ``server_stopping``) and the
    notices written (``serve.RoomServer`` calls it before uvicorn closes the
    connections, 1012)."""
    state: ServerState = app.state.server
    if state.room is not None:
        if state.settings.drain_seconds > 0:
            await state.room.drain(state.settings.drain_seconds, given_up)
        await state.room.tell_stopping(STOP_NOTICE_SECONDS)
        await state.shared.drained(STOP_NOTICE_SECONDS)


def server_state(request: Request) -> ServerState:
    """The :class:`ServerState` of the app serving ``request``."""
    state: ServerState = request.app.state.server
    return state


async def healthz(request: Request) -> Response:
    """200 when the database answers and stores the tables' steps, 503 otherwise."""
    state = server_state(request)
    try:
        assert state.storage is not None
        await state.storage.run(state.storage.ping)
    except Exception as exc:  # any failure means "not healthy"; the reason is shown
        return _unhealthy(type(exc).__name__, f"the database is unreachable ({type(exc).__name__})")
    refusing = state.storage.refusing()
    if refusing is not None:  # a full disk answers queries: the tables stand still all the same
        message = (
            f"the database has refused the room's writes for {refusing:.0f} s: the tables"
            " play nothing until it stores them again (the log says why)"
        )
        return _unhealthy("StepsRefused", message)
    tables = 0 if state.room is None else len(state.room.actors)
    return JSONResponse({"ok": True, "database": "reachable", "tables": tables})


def _unhealthy(why: str, message: str) -> JSONResponse:
    """503 in the refusal's shape every route answers (ErrorBody, as /openapi.json says)."""
    body = {"ok": False, "error": why, "code": "unavailable", "message": message}
    return JSONResponse(body, status_code=503)


async def ws_schema(_request: Request) -> Response:
    """The JSON Schema of the WebSocket messages."""
    return JSONResponse(protocol.schema())


async def openapi_json(_request: Request) -> Response:
    """The OpenAPI document of the HTTP API."""
    return JSONResponse(openapi.document())


class WebFiles(Mount):
    """The browser client's files at ``/``, for every path but the API's: a GET of a
    POST-only API route is then 405 ``method_not_allowed`` and an unknown API path 404,
    both in the API's JSON (the files would answer any path with their own 404)."""

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        """No match for ``/api/...``; as a mount otherwise."""
        if scope["type"] == "http" and scope["path"].startswith("/api/"):
            return Match.NONE, {}
        return super().matches(scope)


def create_app(
    settings: ServerSettings | None = None, on_lost: Callable[[], None] | None = None
) -> Starlette:
    """The cardroom server as an ASGI application. ``on_lost``: called when the room lost
    the database's lease and stopped its tables (``Room.lose``: the process must stop)."""
    settings = settings or ServerSettings()
    state = ServerState(settings)
    specs = load_tables(settings.tables_file)  # a bad table list fails before binding

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        storage = Storage(
            settings.database_url,
            settings.db_threads,
            settings.db_queue,
            settings.hash_threads,
            settings.hash_queue,
        )
        state.storage = storage
        try:
            try:
                await storage.run(storage.migrate)
                state.accounts = auth.Accounts(storage, settings)
                state.room = Room(storage, settings, on_lost)
                await state.room.open(specs)
                every = settings.sanction_check_seconds
                state.sanctions = SanctionWatch(storage, state.room, state.shared, every)
                state.sanctions.start()
            except Exception as exc:  # a full disk: said in one line (``serve``)
                state.start.refused(exc)
                raise
            yield
        finally:
            if state.sanctions is not None:
                await state.sanctions.stop()
            if state.room is not None:
                await state.room.stop()
            storage.close()

    routes: list[Any] = [
        Route("/healthz", healthz),
        Route("/openapi.json", openapi_json),
        Route("/schema/ws.json", ws_schema),
        *api_accounts.routes(),
        *api_lobby.routes(),
        *api_history.routes(),
        *api_operator.routes(),
        *api_sanctions.routes(),
        WebSocketRoute("/ws", websocket_endpoint),
    ]
    if settings.web_dir is not None and settings.web_dir.is_dir():
        routes.append(WebFiles("/", ClientFiles(settings.web_dir)))
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers=api_common.EXCEPTION_HANDLERS,
        middleware=[  # the first is outermost: a refused host's answer has the headers too
            Middleware(SecurityHeaders, settings=settings),
            Middleware(AllowedHosts, allowed=settings.allowed_hosts),
        ],
    )
    app.state.server = state
    return app
