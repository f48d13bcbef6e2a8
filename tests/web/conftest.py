"""Browser tests: a real server on 127.0.0.1 (a random port, a temporary SQLite file),
random-legal bots playing over real WebSockets, and Debian's Chromium driven by
Playwright. A page that logs a console error fails its test; every test saves a
screenshot under ``artifacts/screenshots/``."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import os
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.server.conftest import OPEN_SIGNUPS
from tests.web.browser import (
    BOT_TABLES,
    MORE_TOML,
    PASSWORD,
    SLOW_BOTS,
    TABLES_TOML,
    THINK,
    missing,
    shoot,
)
from tests.web.driven import Puppet, PuppetBot

from cardroom.bots.random_bot import RandomBot
from cardroom.server.app import create_app
from cardroom.server.serve import RoomServer, uvicorn_config
from cardroom.server.settings import ServerSettings

CHROMIUM = os.environ.get("CARDROOM_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


@contextlib.contextmanager
def _serve(settings: ServerSettings, port: int = 0) -> Iterator[str]:
    app = create_app(settings)
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # a restart on its port
    sock.bind(("127.0.0.1", port))
    port = sock.getsockname()[1]
    server = RoomServer(uvicorn_config(app, settings))
    thread = threading.Thread(target=lambda: asyncio.run(server.serve(sockets=[sock])))
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(30)
        sock.close()


@contextlib.contextmanager
def own_server(
    folder: Path, tables_toml: str, port: int = 0, **changes: Any
) -> Iterator[tuple[str, str]]:
    """A server of a test's own (SQLite in ``folder``) with these tables, for a test
    that changes them (closes one, fills one), ``changes`` to its settings (its
    ``web_dir``...), on ``port`` (0: a free one; a restart: the last one's): its base
    URL and database URL."""
    tables = folder / "tables.toml"
    tables.write_text(tables_toml)
    url = f"sqlite:///{folder / 'own.db'}"
    settings = ServerSettings(
        database_url=url,
        tables_file=tables,
        cheap_passwords=True,
        tick_seconds=0.05,
        limits=OPEN_SIGNUPS,
    )
    with _serve(dataclasses.replace(settings, **changes), port) as base:
        yield base, url


class Bots:
    """Random-legal bots over real WebSockets, in their own event loop thread."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.loop = asyncio.new_event_loop()
        self.stop = asyncio.Event()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.tasks: list[Any] = []
        self.puppets: list[Puppet] = []

    def seat(self, table: str, count: int, think: float = 0.0) -> None:
        """Seat ``count`` bots at ``table`` (they play until the end of the session).

        Bot ``i`` asks for seat ``i``, and for it again when it comes back after going
        broke, so the last seats stay free for the players of the tests."""
        for i in range(count):
            alias = f"b{table.replace('-', '')[:11]}{i}"
            bot = RandomBot(self.base, alias, PASSWORD, table, seed=i, think=think, seat=i)
            self.tasks.append(asyncio.run_coroutine_threadsafe(bot.play(self.stop), self.loop))

    def puppet(
        self, table: str, alias: str, post_now: bool = False, seat: int | None = None
    ) -> Puppet:
        """Seat a bot at ``table`` that makes the moves the test gives it (``post_now``:
        posting the big blind at once, :class:`PuppetBot`; ``seat``: the seat it asks
        for, None: a random free one)."""
        puppet = Puppet()
        self.puppets.append(puppet)
        bot = PuppetBot(puppet, self.base, alias, PASSWORD, table, post_now=post_now, seat=seat)
        self.tasks.append(asyncio.run_coroutine_threadsafe(bot.play(self.stop), self.loop))
        return puppet

    def close(self) -> None:
        # A bot waiting for its next message would not see the stop: cancel them all.
        self.loop.call_soon_threadsafe(self.stop.set)
        for puppet in self.puppets:
            puppet.closed = True
        for task in self.tasks:
            task.cancel()
        for task in self.tasks:
            with contextlib.suppress(BaseException):
                task.result(timeout=5)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One server for the browser tests, bots already playing at each table."""
    folder = tmp_path_factory.mktemp("web")
    tables = folder / "tables.toml"
    tables.write_text(TABLES_TOML + MORE_TOML)
    settings = ServerSettings(
        database_url=f"sqlite:///{folder / 'web.db'}",
        tables_file=tables,
        cheap_passwords=True,
        tick_seconds=0.05,
        limits=OPEN_SIGNUPS,  # many players register from 127.0.0.1
        # ``busy``'s full-speed bots lose their signup chips in about four minutes and
        # then top up (one a period): a period of a minute keeps them playing all session
        # (with none they sat out for good, and the slow-click test found a still table).
        topup_period_seconds=60,
    )
    with _serve(settings) as base:
        bots = SessionBots(base)
        _SESSION.append(bots)
        yield base
        _SESSION.remove(bots)
        bots.close()


class SessionBots(Bots):
    """The session's bots of :data:`BOT_TABLES`, seated at a table the first time a page
    watches it (or a test asks, :func:`bots_at`), then playing to the session's end.
    Seated at every table from the start, the bots of some forty tables played all
    session and took about 0.7 of a core from each worker's browser tests."""

    def __init__(self, base: str) -> None:
        super().__init__(base)
        self.seated: set[str] = set()
        self.lock = threading.Lock()

    def ensure(self, table: str) -> None:
        """Seat the bots of ``table`` unless they are there already (a table of no bots:
        nothing)."""
        with self.lock:
            if table in self.seated or not BOT_TABLES.get(table):
                return
            self.seated.add(table)
        self.seat(table, BOT_TABLES[table], SLOW_BOTS.get(table, THINK))

    def on_websocket(self, ws: Any) -> None:
        """Follow a page's connection: a table it watches on this server gets its bots."""
        if not ws.url.startswith(self.base.replace("http", "ws", 1) + "/"):
            return  # a test's own server

        def sent(payload: str | bytes) -> None:
            with contextlib.suppress(ValueError, TypeError, AttributeError):
                message = json.loads(payload)
                if message.get("type") == "watch":
                    self.ensure(str(message.get("table")))

        ws.on("framesent", sent)


_SESSION: list[SessionBots] = []
"""The session server's bots, while it runs (pages started before it watch no table of it)."""


@pytest.fixture
def session_bots(server: str) -> SessionBots:
    """The session's bots: ``session_bots.ensure(table)`` seats a table's bots now, for a
    test that needs their hands at a table its pages do not watch (the lobby's figures)."""
    return next(b for b in _SESSION if b.base == server)


@pytest.fixture
def driven(server: str) -> Iterator[Bots]:
    """Bots for one test (puppets the test moves), gone at its end."""
    bots = Bots(server)
    yield bots
    bots.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's Chromium through Playwright (missing either: skipped, failed in CI)."""
    if not Path(CHROMIUM).exists():
        missing(f"{CHROMIUM} is missing (apt-get install chromium)")
    try:
        import playwright.sync_api as playwright_sync
    except ImportError:
        missing("Playwright for Python is missing (pip install -e '.[dev]')")
    with playwright_sync.sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


class Console:
    """The console errors of a page (and its uncaught exceptions)."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self.allowed: list[str] = []

    def allow(self, fragment: str) -> None:
        """A test that provokes a refusal allows the browser's own line about it."""
        self.allowed.append(fragment)

    def unexpected(self) -> list[str]:
        return [e for e in self.errors if not any(a in e for a in self.allowed)]


@pytest.fixture
def console() -> Console:
    return Console()


def _follow_watches(ws: Any) -> None:
    for bots in _SESSION:
        bots.on_websocket(ws)


def _open_page(browser: Any, console: Console, **context_args: Any) -> Any:
    # The room's Content-Security-Policy refuses eval, which page.wait_for_function
    # uses: the tests' pages bypass the policy, but for ``strict_page``
    # (test_security_policy.py plays under it, with not one violation).
    context = browser.new_context(**{"bypass_csp": True, **context_args})
    page = context.new_page()
    page.on("websocket", _follow_watches)
    page.on("console", lambda m: console.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda exc: console.errors.append(f"uncaught: {exc}"))
    page.set_default_timeout(15_000)
    return page


@pytest.fixture
def page(browser: Any, console: Console, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A desktop page; fails the test on any console error; screenshot at the end."""
    p = _open_page(browser, console, viewport={"width": 1280, "height": 860})
    yield p
    shoot(p, request.node.name)
    p.context.close()
    assert console.unexpected() == [], console.unexpected()


@pytest.fixture
def strict_page(browser: Any, console: Console, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A desktop page under the room's Content-Security-Policy, as a player's browser is
    (no ``page.wait_for_function`` there: ``browser.until`` instead)."""
    p = _open_page(browser, console, viewport={"width": 1280, "height": 860}, bypass_csp=False)
    yield p
    shoot(p, request.node.name)
    p.context.close()
    assert console.unexpected() == [], console.unexpected()


@pytest.fixture
def more_pages(
    browser: Any, console: Console, request: pytest.FixtureRequest
) -> Iterator[Callable[[], Any]]:
    """Opens other desktop pages (other players, each with its own cookies), checked and
    shot like ``page``."""
    opened: list[Any] = []

    def open_one() -> Any:
        opened.append(_open_page(browser, console, viewport={"width": 1280, "height": 860}))
        return opened[-1]

    yield open_one
    for i, p in enumerate(opened, 2):
        shoot(p, f"{request.node.name}-{i}")
        p.context.close()
    assert console.unexpected() == [], console.unexpected()


@pytest.fixture
def phone(browser: Any, console: Console, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A phone-sized page in portrait."""
    p = _open_page(
        browser, console, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    yield p
    shoot(p, request.node.name)
    p.context.close()
    assert console.unexpected() == [], console.unexpected()
